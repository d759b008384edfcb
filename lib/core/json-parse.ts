import { ValidationError } from './errors.js';

/**
 * `JSON.parse` with a located error: a syntax error becomes a {@link ValidationError} (code
 * `validation_failed`) naming the 1-based line and column, computed here so that the location is the
 * same in every runtime (engines word their own messages differently).
 *
 * @example
 * ```ts
 * parseJsonLocated('{"a": 1,}', 'Playbook JSON'); // throws: Playbook JSON is invalid: … (line 1, column 9)
 * ```
 */
export function parseJsonLocated(text: string, subject = 'JSON'): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const { line, column, reason } = locateJsonError(text);
    throw new ValidationError(
      [{ path: `line ${line}, column ${column}`, message: `${reason} (not valid JSON)` }],
      {
        subject,
        cause: err,
      },
    );
  }
}

/** Where and why a text is not valid JSON, in the same words in every runtime. */
export interface JsonErrorLocation {
  /** 0-based offset of the offending character in the original text (`text.length` at a premature end). */
  offset: number;
  /** 1-based line of `offset`. */
  line: number;
  /** 1-based column of `offset` (in UTF-16 code units, as editors count). */
  column: number;
  /** `unexpected "}"` or `unexpected end of input`. */
  reason: string;
}

/**
 * Locates the first syntax error of a text that `JSON.parse` refused. Engines word (and place) their
 * own messages differently — some give an offset, some a line — so the location is computed here, from
 * the offset in the original text, pretty-printed or not. Costs one pass up to the error.
 *
 * @example
 * ```ts
 * locateJsonError('{\n  "a": 1,\n}'); // { offset: 12, line: 3, column: 1, reason: 'unexpected "}"' }
 * ```
 */
export function locateJsonError(text: string): JsonErrorLocation {
  const offset = findSyntaxError(text);
  const { line, column } = lineColumn(text, offset);
  const reason =
    offset >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[offset])}`;
  return { offset, line, column, reason };
}

/**
 * The 1-based line and column of a 0-based offset (`\n` ends a line; a `\r` before it is part of it).
 *
 * @example
 * ```ts
 * lineColumn('ab\ncd', 4); // { line: 2, column: 2 }
 * ```
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  // indexOf jumps from newline to newline: a 50 MB text costs a few milliseconds.
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Offset of the first character that makes `text` invalid JSON (text.length for a premature end).
 *
 * @example
 * ```ts
 * findSyntaxError('{"a": 1,}'); // 8 (the '}')
 * ```
 */
export function findSyntaxError(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '"') {
      string();
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            fail();
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          fail();
        }
        continue;
      }
      i++;
    }
    fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return text.length;
  } catch (at) {
    return typeof at === 'number' ? at : text.length;
  }
}
