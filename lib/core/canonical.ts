import { ValidationError } from './errors.js';

/**
 * Canonical JSON, byte-identical to Python's
 * `json.dumps(value, sort_keys=True, separators=(",", ":"))` (with its default `ensure_ascii=True`).
 *
 * The gated post-turn reflection hashes prompts this way and its fixtures were made in Python, so every detail matters:
 * - keys sorted by Unicode code point (Python's `str` order), not UTF-16 code unit order;
 * - every character outside printable ASCII (U+0020–U+007E) written as `\uXXXX` in lowercase hex,
 *   astral characters as surrogate pairs; `\n \r \t \b \f \" \\` as short escapes;
 * - integers as integers; other numbers in Python's float `repr` (`1e-05`, `1e+16`, `0.1`, `1.5`);
 * - `NaN`, `Infinity`, `-Infinity` as Python writes them (Python's default `allow_nan=True`).
 *
 * JavaScript has one number type, so an integer-valued number is written as a Python `int` (`1`,
 * never `1.0`); a Python float such as `1.0` cannot be reproduced from a JS value. Object properties
 * whose value is `undefined` are omitted (as `JSON.stringify` does); objects with `toJSON` (such as
 * `Date`) are serialized through it; `bigint` is written as an integer.
 *
 * @throws {ValidationError} code `validation_failed` for values JSON cannot hold (functions,
 * symbols, `Map`, `Set`, class instances, cycles), naming the key path.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, null, 'é'] }); // '{"a":[true,null,"\\u00e9"],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out, '$', new Set());
  return out.join('');
}

function write(value: unknown, out: string[], path: string, seen: Set<object>): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(quote(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      out.push(pyNumber(value));
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    case 'object':
      break;
    default:
      throw invalid(path, `${typeof value} cannot be serialized as JSON`);
  }
  const obj = value as object;
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') {
    write((obj as { toJSON: (key: string) => unknown }).toJSON(''), out, path, seen);
    return;
  }
  if (seen.has(obj)) throw invalid(path, 'circular reference');
  seen.add(obj);
  if (Array.isArray(obj)) {
    out.push('[');
    for (let i = 0; i < obj.length; i++) {
      if (i > 0) out.push(',');
      const item = obj[i];
      // Like JSON.stringify: holes and undefined inside arrays become null.
      if (item === undefined) out.push('null');
      else write(item, out, `${path}[${i}]`, seen);
    }
    out.push(']');
  } else {
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      throw invalid(path, `${proto?.constructor?.name ?? 'object'} is not a plain object`);
    }
    const keys = Object.keys(obj)
      .filter((k) => (obj as Record<string, unknown>)[k] !== undefined)
      .sort(compareCodePoints);
    out.push('{');
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (i > 0) out.push(',');
      out.push(quote(key), ':');
      write((obj as Record<string, unknown>)[key], out, `${path}.${key}`, seen);
    }
    out.push('}');
  }
  seen.delete(obj);
}

function invalid(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }], { subject: 'Value for canonicalJson' });
}

/**
 * Orders strings by Unicode code point, as Python sorts `str`. JavaScript's default order compares
 * UTF-16 code units, which puts astral characters (surrogates, 0xD800–0xDFFF) before U+E000–U+FFFF.
 *
 * @example
 * ```ts
 * ['\u{1F600}', '\uFF01'].sort(compareCodePoints); // ['\uFF01', '\u{1F600}']
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Compare the code points holding the first differing units. A lone surrogate is its own code
      // point (as in Python), so a surrogate unit alone does not tell the order. When the shared unit
      // before is a high surrogate, the code points start there (a pair on one side, maybe not both).
      if (i > 0) {
        const h = a.charCodeAt(i - 1);
        if (h >= 0xd800 && h <= 0xdbff) {
          const d = a.codePointAt(i - 1)! - b.codePointAt(i - 1)!;
          if (d !== 0) return d;
        }
      }
      return a.codePointAt(i)! - b.codePointAt(i)!;
    }
  }
  return a.length - b.length;
}

const SHORT_ESCAPES: Record<number, string> = {
  34: '\\"',
  92: '\\\\',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  8: '\\b',
  12: '\\f',
};

function quote(s: string): string {
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    if (i > runStart) out += s.slice(runStart, i);
    out += SHORT_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
    runStart = i + 1;
  }
  if (runStart < s.length) out += s.slice(runStart);
  return `${out}"`;
}

/** Python's `repr` for numbers that came from an `int` (integral) or a `float` (everything else). */
function pyNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (Number.isInteger(x)) return BigInt(x).toString();
  // toExponential() with no argument gives the shortest round-trip digits, as Python's repr does.
  const [mantissa, expPart] = x.toExponential().split('e') as [string, string];
  const exp = Number(expPart);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = Math.abs(exp).toString().padStart(2, '0');
  return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
}
