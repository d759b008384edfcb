/**
 * Key point text is model output that later lands in system prompts: treat it as untrusted. These
 * helpers make it one bounded line of visible text and keep its provenance small and well formed.
 *
 * @module
 */
import { truncateUtf8 } from '../core/index.js';
import type { Provenance } from './delta.js';

/**
 * Default bound on a key point's text: 1000 UTF-8 bytes (about 150–250 English words).
 *
 * @example
 * ```ts
 * utf8ByteLength(sanitizeKeyPointText('x'.repeat(5000))); // 1000 (MAX_KEY_POINT_BYTES)
 * sanitizeKeyPointText(text, { maxBytes: MAX_KEY_POINT_BYTES / 2 });
 * ```
 */
export const MAX_KEY_POINT_BYTES = 1000;

/** Bounds on provenance: session id length, number of trace refs and length of each. */
const MAX_SOURCE_ID = 200;
const MAX_TRACE_REFS = 20;

/** Options of {@link sanitizeKeyPointText}. */
export interface SanitizeOptions {
  /** Longest text kept, in UTF-8 bytes (cut at a code point boundary). Default {@link MAX_KEY_POINT_BYTES}. */
  maxBytes?: number;
}

// C0/C1 controls, zero-width and invisible format characters (ZWSP, ZWNJ, ZWJ, LRM/RLM, bidi embeddings
// and overrides, word joiner and invisible operators, bidi isolates, BOM, soft hyphen, Mongolian vowel
// separator, the Unicode "tag" block used to smuggle invisible instructions), and lone surrogates.
const INVISIBLE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\ufe00|\ufe01|\ufe02|\ufe03|\ufe04|\ufe05|\ufe06|\ufe07|\ufe08|\ufe09|\ufe0a|\ufe0b|\ufe0c|\ufe0d|\ufe0e|\ufe0f|\udb40[\udc00-\udc7f\udd00-\uddef]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// Line breaks and other separators become plain spaces: a key point is one line of a prompt.
const BREAKS = /[\t\n\r\u0085\u2028\u2029]/g;
const SPACES = /[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]{2,}/g;
// A fast pre-check: most texts need nothing.
const NEEDS_WORK =
  /[\u0000-\u001f\u007f-\u00a0\u00ad\u061c\u115f\u1160\u1680\u180e\u2000-\u206f\u3000\u3164\ud800-\udfff\ufeff\uffa0\ufff9-\ufffb]|\ufe0e|\ufe0f| {2}|^\s|\s$/;

/**
 * Makes untrusted key point text safe to inject into a prompt: removes control characters, zero-width
 * and other invisible format characters (including bidi overrides and Unicode tag characters), turns
 * line breaks and tabs into spaces, collapses runs of spaces, trims, and cuts the result to
 * `maxBytes` UTF-8 bytes without splitting a character. Idempotent. Non-strings give `''`.
 *
 * @example
 * ```ts
 * sanitizeKeyPointText('Use\u200b types\n\nalways\u0007'); // 'Use types always'
 * ```
 */
export function sanitizeKeyPointText(text: unknown, options: SanitizeOptions = {}): string {
  if (typeof text !== 'string') return '';
  const maxBytes = options.maxBytes ?? MAX_KEY_POINT_BYTES;
  let out = text;
  if (NEEDS_WORK.test(out)) {
    out = out.replace(BREAKS, ' ').replace(INVISIBLE, '').replace(SPACES, ' ').trim();
  }
  if (out.length > maxBytes / 3) out = truncateUtf8(out, maxBytes).trimEnd();
  return out;
}

/**
 * Keeps a well-formed, bounded copy of provenance: string ids only, each sanitized and at most 200
 * bytes, at most 20 trace refs. Returns `undefined` when nothing is left.
 *
 * @example
 * ```ts
 * sanitizeProvenance({ session: 'sess-1', traceRefs: ['t1', 42] }); // { session: 'sess-1', traceRefs: ['t1'] }
 * ```
 */
export function sanitizeProvenance(source: unknown): Provenance | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const s = source as { session?: unknown; traceRefs?: unknown };
  const out: Provenance = {};
  const session = sanitizeKeyPointText(s.session, { maxBytes: MAX_SOURCE_ID });
  if (session) out.session = session;
  if (Array.isArray(s.traceRefs)) {
    const refs: string[] = [];
    for (const r of s.traceRefs) {
      const ref = sanitizeKeyPointText(r, { maxBytes: MAX_SOURCE_ID });
      if (ref && !refs.includes(ref)) refs.push(ref);
      if (refs.length >= MAX_TRACE_REFS) break;
    }
    if (refs.length) out.traceRefs = refs;
  }
  return out.session !== undefined || out.traceRefs !== undefined ? out : undefined;
}
