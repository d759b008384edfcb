/**
 * A key glued after another of a kind whose characters can begin it: `sk-…sk-…` (the first key's
 * letters run on into the second's `sk`), `ghp_…ghp_…`, `https://hooks.slack.com/…https://…`, one JWT
 * after another. The first key's match then ends inside the second (at its `-`, `_`, `:` or `.`) and
 * what is left (`-…`, `_…`) is no key: it would stay in clear. The scan's probes start at word
 * boundaries, so such a key is looked for inside the match too: where a glued kind's fixed start stands,
 * tried without its look back, and kept when it ends past the match.
 */
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
    if (!glued.starts.has(text.charCodeAt(p))) continue;
    glued.prefix.lastIndex = p;
    if (!glued.prefix.test(text)) continue;
    if (++tries > INSIDE_TRIES) return undefined;
    glued.sticky.lastIndex = p;
    const m = glued.sticky.exec(text);
    if (m === null) continue;
    const span = interpret(text, rules, m, p, glued.alts);
    if (span !== undefined && span.end > end) return span;
  }
  return undefined;
}
