/**
 * A key glued after another of a kind whose characters can begin it: `sk-…sk-…` (the first key's
 * letters run on into the second's `sk`), `ghp_…ghp_…`, `https://hooks.slack.com/…https://…`, one JWT
 * after another. The first key's match then ends inside the second (at its `-`, `_`, `:` or `.`) and
 * what is left (`-…`, `_…`) is no key: it would stay in clear. The scan's probes start at word
 * boundaries, so such a key is looked for inside the match too: where a glued kind's fixed start stands,
 * tried without its look back, and kept when it ends past the match.
 */
import { isJoiner } from './glued.js';
import { interpret } from './matches.js';
import type { CompiledRules, Span } from './rules.js';

/**
 * Fixed starts tried whole inside one match: a base64 body may hold `eyJ` or `sk` by chance, and each
 * try reads on to the end of its run, so a bound keeps a match read a few times at most.
 */
const INSIDE_TRIES = 8;

/**
 * A glued kind's match that starts in `text[from, end)` and ends past `end` (the end of a match that
 * swallowed its start), or undefined. Linear: one set lookup per position, at most
 * {@link INSIDE_TRIES} whole tries.
 *
 * @example
 * ```ts
 * // `sk-<48>sk` matched, `-<48>` left: the second key starts at the first one's end minus 2.
 * gluedInside(text, rules, 1, end)?.end; // the second key's end
 * ```
 */
export function gluedInside(text: string, rules: CompiledRules, from: number, end: number): Span | undefined {
  const glued = rules.glued;
  if (!glued) return undefined;
  let tries = 0;
  for (let p = from; p < end; p++) {
    if (!startsAt(text, glued, p)) continue;
    if (++tries > INSIDE_TRIES) return undefined;
    glued.sticky.lastIndex = p;
    const m = glued.sticky.exec(text);
    const span = m === null ? cutBefore(text, rules, p) : interpret(text, rules, m, p, glued.alts);
    if (span !== undefined && span.end > end) return span;
  }
  return undefined;
}

/** How far a key of fixed length may run before the next one starts (vendor-scan.ts: 146 and a prefix). */
const CUT_REACH = 200;
/** Next starts tried for one cut: each costs one try of the glued kinds on a slice. */
const CUT_TRIES = 4;

/**
 * The glued key at `p` that a third key glued after it refused (`…sha256~…lin_api_…`: a fixed-length
 * key refuses more of a word after it, and the vendor table's starts are not listed at its end): read
 * up to the next glued start within {@link CUT_REACH}, maybe before one `_` or `-`, it ends there.
 * Bounded: {@link CUT_TRIES} slices.
 */
function cutBefore(text: string, rules: CompiledRules, p: number): Span | undefined {
  const glued = rules.glued!;
  const last = Math.min(text.length - 1, p + CUT_REACH);
  let tries = 0;
  for (let q = p + 17; q <= last; q++) {
    if (!startsAt(text, glued, q)) continue;
    if (++tries > CUT_TRIES) return undefined;
    for (let end = q; end >= q - 1; end--) {
      // At the start, or before one `_` or `-` that joins the two keys.
      if (end < q && !isJoiner(text.charCodeAt(end))) break;
      const sub = text.slice(p, end);
      glued.sticky.lastIndex = 0;
      const m = glued.sticky.exec(sub);
      if (m === null || m[0].length !== sub.length) continue;
      const span = interpret(sub, rules, m, 0, glued.alts);
      if (span !== undefined && span.end === sub.length)
        return { start: span.start + p, valueStart: span.valueStart + p, end, kind: span.kind };
    }
  }
  return undefined;
}

/** Whether a glued kind's fixed start stands at `p` (one set lookup, then the starts' sticky test). */
function startsAt(text: string, glued: NonNullable<CompiledRules['glued']>, p: number): boolean {
  if (!glued.starts.has(text.charCodeAt(p))) return false;
  glued.prefix.lastIndex = p;
  return glued.prefix.test(text);
}
