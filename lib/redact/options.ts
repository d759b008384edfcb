/**
 * Checking and compiling {@link RedactOptions} into the rules the scanner runs; the default
 * configuration is compiled once, on first use.
 */
import { type Issue, ValidationError } from '../core/index.js';
import { BUILTIN_KINDS, type BuiltinKind } from './kinds.js';
import { type CompiledRules, type CustomRule, compileRules } from './rules.js';

/**
 * A caller-supplied pattern. A string is matched literally (every occurrence); a `RegExp` is used with
 * its own flags plus `g` (a non-global expression still replaces every occurrence). Empty matches are
 * ignored.
 *
 * @example
 * ```ts
 * const patterns: RedactPattern[] = [
 *   { kind: 'ticket', pattern: /TCK-\d+/ },
 *   { kind: 'codename', pattern: 'Project Bluebird' },
 * ];
 * ```
 */
export interface RedactPattern {
  /** Kind name used in placeholders: lower-case letters, digits, `-` and `_`, starting with a letter. */
  kind: string;
  pattern: string | RegExp;
}

/**
 * Values never redacted: exact strings (addresses compared case-insensitively), regular expressions
 * that must match the whole value, or a predicate.
 *
 * @example
 * ```ts
 * const allow: RedactAllow = ['noreply@anthropic.com', /.*@example\.com/];
 * const onlyExternal: RedactAllow = (value, kind) => kind === 'email' && value.endsWith('@corp.io');
 * ```
 */
export type RedactAllow = readonly (string | RegExp)[] | ((value: string, kind: string) => boolean);

/**
 * Options for {@link redact}, {@link createRedactor} and friends.
 *
 * @example
 * ```ts
 * const options: RedactOptions = {
 *   kinds: { email: false },
 *   patterns: [{ kind: 'ticket', pattern: /TCK-\d+/ }],
 *   allow: ['noreply@anthropic.com'],
 * };
 * ```
 */
export interface RedactOptions {
  /**
   * Turn built-in kinds off (`{ email: false }`) — or back on. Every built-in kind is on by default.
   */
  kinds?: Partial<Record<BuiltinKind, boolean>>;
  /** Extra patterns, tried beside the built-in kinds; at the same position they win, in order. */
  patterns?: readonly RedactPattern[];
  /** Values to leave as they are, e.g. `['noreply@anthropic.com']`. */
  allow?: RedactAllow;
  /**
   * Put each redacted value in its finding's `original` (default `false`). The values stay in memory
   * only — for a "show what was redacted" view; never persist or send a result built with this on.
   */
  includeOriginals?: boolean;
}

const KIND_NAME = /^[a-z][a-z0-9_-]{0,63}$/;
/** Kind of a placeholder that was already in a text when an earlier call had handed it out. */
export const LITERAL_KIND = 'placeholder';

/** Checked and compiled {@link RedactOptions}. */
export interface Config {
  rules: CompiledRules;
  isAllowed: ((value: string, kind: string) => boolean) | undefined;
  includeOriginals: boolean;
}

function configure(options: RedactOptions | undefined): Config {
  const issues: Issue[] = [];
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new ValidationError([{ path: '', message: 'must be an object' }], { subject: 'Redact options' });
  }
  const { kinds, patterns = [], allow, includeOriginals = false } = options ?? {};
  const enabled = new Set<string>(BUILTIN_KINDS);
  if (kinds !== undefined) {
    if (typeof kinds !== 'object' || kinds === null)
      issues.push({ path: 'kinds', message: 'must be an object' });
    else {
      for (const [name, on] of Object.entries(kinds)) {
        if (!(BUILTIN_KINDS as readonly string[]).includes(name)) {
          issues.push({
            path: `kinds.${name}`,
            message: `unknown kind; built-in kinds: ${BUILTIN_KINDS.join(', ')}`,
          });
        } else if (on === false) enabled.delete(name);
        else if (on !== true && on !== undefined)
          issues.push({ path: `kinds.${name}`, message: 'must be a boolean' });
      }
    }
  }
  const custom: CustomRule[] = [];
  if (!Array.isArray(patterns)) issues.push({ path: 'patterns', message: 'must be an array' });
  else {
    patterns.forEach((p: RedactPattern, i) => {
      const path = `patterns[${i}]`;
      if (typeof p !== 'object' || p === null) {
        issues.push({ path, message: 'must be an object { kind, pattern }' });
        return;
      }
      if (typeof p.kind !== 'string' || !KIND_NAME.test(p.kind)) {
        issues.push({
          path: `${path}.kind`,
          message: 'must be lower-case letters, digits, "-" or "_", starting with a letter (at most 64)',
        });
      }
      let regex: RegExp | undefined;
      if (typeof p.pattern === 'string') {
        if (p.pattern === '') issues.push({ path: `${path}.pattern`, message: 'must not be empty' });
        else regex = new RegExp(escapeRegExp(p.pattern), 'g');
      } else if (p.pattern instanceof RegExp) {
        regex = new RegExp(p.pattern.source, `${p.pattern.flags.replace(/[gy]/g, '')}g`);
      } else issues.push({ path: `${path}.pattern`, message: 'must be a string or a RegExp' });
      if (regex && typeof p.kind === 'string') custom.push({ kind: p.kind, regex });
    });
  }
  let isAllowed: Config['isAllowed'];
  if (typeof allow === 'function') isAllowed = allow;
  else if (Array.isArray(allow)) {
    const exact = new Set<string>();
    const lower = new Set<string>();
    const regexes: RegExp[] = [];
    allow.forEach((a: unknown, i) => {
      if (typeof a === 'string') {
        exact.add(a);
        lower.add(a.toLowerCase());
      } else if (a instanceof RegExp)
        regexes.push(new RegExp(`^(?:${a.source})$`, a.flags.replace(/[gy]/g, '')));
      else issues.push({ path: `allow[${i}]`, message: 'must be a string or a RegExp' });
    });
    isAllowed = (value, kind) =>
      exact.has(value) ||
      (kind === 'email' && lower.has(value.toLowerCase())) ||
      regexes.some((r) => r.test(value));
  } else if (allow !== undefined) {
    issues.push({ path: 'allow', message: 'must be an array of strings and RegExps, or a function' });
  }
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Redact options' });
  const known = [...BUILTIN_KINDS, ...custom.map((c) => c.kind), LITERAL_KIND];
  return {
    rules: compileRules(enabled, custom, known),
    isAllowed,
    includeOriginals: includeOriginals === true,
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The compiled default configuration, built on first use (nothing runs at import time). */
let defaultConfig: Config | undefined;
let defaultConfigWithOriginals: Config | undefined;

/**
 * The checked and compiled configuration for `options`. The defaults (with or without
 * `includeOriginals`) are compiled once and shared; any other options are checked and compiled on
 * every call, so a caller redacting many texts with its own options should hold one `createRedactor`.
 */
export function configFor(options: RedactOptions | undefined): Config {
  const onlyOriginals =
    options === undefined ||
    (options !== null &&
      typeof options === 'object' &&
      Object.keys(options).every(
        (k) => k === 'includeOriginals' || options[k as keyof RedactOptions] === undefined,
      ));
  if (!onlyOriginals) return configure(options);
  if (options?.includeOriginals === true) {
    defaultConfigWithOriginals ??= configure(options);
    return defaultConfigWithOriginals;
  }
  defaultConfig ??= configure(undefined);
  return defaultConfig;
}
