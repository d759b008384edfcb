/**
 * Echoes: a value found by its context (`Authorization: Bearer 4f9c…`, `password: "…"`) is often
 * repeated without it (`your CRON_SECRET is 4f9c…`, pasted back in a later message). Once found, such a
 * value is redacted wherever it appears in the same text, and in every later text of the same redactor.
 */
import type { CustomRule } from './scanner.js';

/**
 * Kinds recognised by their context only (the kinds with a shape of their own are found anywhere), and
 * private keys, whose body lines are pasted on their own.
 */
const CONTEXTUAL: ReadonlySet<string> = new Set([
  'secret',
  'bearer-token',
  'basic-auth',
  'aws-secret-key',
  'url-credentials',
  'private-key',
]);
const BASE64_LINE = /^[A-Za-z0-9+/=]{40,}$/;

/**
 * What to look for: the value itself, the password of URL credentials (`user:password`), and each
 * base64 line of a private key (a setting's value may hold one too, `"private_key": "-----BEGIN…"`).
 */
function parts(kind: string, value: string): string[] {
  if (kind === 'url-credentials') {
    const colon = value.indexOf(':');
    return colon >= 0 ? [value, value.slice(colon + 1)] : [value];
  }
  if (value.includes('PRIVATE KEY')) {
    return value.split(/(?:\\r)?\\n|\r?\n|[ \t]+/).filter((line) => BASE64_LINE.test(line));
  }
  return [value];
}

/** Bounds the alternation: beyond it, later values are still redacted where their context is. */
const MAX_ECHOES = 512;
const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;
const SYMBOL = /[^A-Za-z0-9\s]/;
const LONG_NUMBER = /^[0-9]{14,}$/;

/**
 * Whether a value is worth looking for elsewhere: a contextual kind, at least 8 characters, holding a
 * letter and a digit or a symbol, or at least 12 characters; or a number of at least 14 digits (a
 * client id, `DISCORD_CLIENT_ID=…`). Shorter values (`demo`, `admin`), plain words, short numbers and
 * dates (`token: 2024-01-01`) would turn ordinary text into placeholders wherever they repeat.
 */
function worthEchoing(kind: string, value: string): boolean {
  return (
    CONTEXTUAL.has(kind) &&
    value.length >= 8 &&
    value.length <= 1024 &&
    (LETTER.test(value)
      ? DIGIT.test(value) || SYMBOL.test(value) || value.length >= 12
      : LONG_NUMBER.test(value))
  );
}

/** Kind of the rule that finds echoes; its spans are renamed to the kind the value was found as. */
export const ECHO_KIND = '\u0000echo';

/** The values to look for, and one alternation of them (longest first), rebuilt when a value is added. */
export class Echoes {
  private readonly kinds = new Map<string, string>();
  private rule: CustomRule | undefined;

  /** Remembers `value` (of `kind`) when it is worth looking for elsewhere; whether it is new. */
  add(kind: string, value: string): boolean {
    let fresh = false;
    for (const part of parts(kind, value)) {
      if (this.kinds.has(part) || this.kinds.size >= MAX_ECHOES || !worthEchoing(kind, part)) continue;
      this.kinds.set(part, kind);
      this.rule = undefined;
      fresh = true;
    }
    return fresh;
  }

  /** How many values are remembered. */
  get size(): number {
    return this.kinds.size;
  }

  /** The values remembered after the first `known` (in the order they were found). */
  since(known: number): string[] {
    return [...this.kinds.keys()].slice(known);
  }

  /** Whether `value` is remembered. */
  has(value: string): boolean {
    return this.kinds.has(value);
  }

  /** How many times the remembered values occur in `text` (without overlaps). */
  count(text: string): number {
    const re = this.asRule()?.regex;
    if (!re) return 0;
    re.lastIndex = 0;
    let n = 0;
    while (re.exec(text) !== null) n++;
    return n;
  }

  /** The kind `value` was first found as. */
  kindOf(value: string): string {
    return this.kinds.get(value) ?? 'secret';
  }

  /**
   * A scan rule matching every remembered value (literally; the longest at a position), or `undefined`
   * when there is none. As a rule of the scan, an echo's end is a boundary like any match's, so a second
   * pass over the output finds exactly what this one found.
   */
  asRule(): CustomRule | undefined {
    if (this.kinds.size === 0) return undefined;
    this.rule ??= {
      kind: ECHO_KIND,
      regex: new RegExp(
        [...this.kinds.keys()]
          .sort((a, b) => b.length - a.length)
          .map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
          .join('|'),
        'g',
      ),
    };
    return this.rule;
  }
}
