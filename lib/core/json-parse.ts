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
    const offset = findSyntaxError(text);
    const { line, column } = lineColumn(text, offset);
    const what =
      offset >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[offset])}`;
    throw new ValidationError(
      [{ path: `line ${line}, column ${column}`, message: `${what} (not valid JSON)` }],
      {
        subject,
        cause: err,
      },
    );
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
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
