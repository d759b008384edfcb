/**
 * Findings in the input's own positions, from one or two readings of a text. The scan reads through a
 * placeholder wedged into a key (`AKIA[email-1]Q3EG…`: a key cut by one is still a key), but a later
 * pass over the redacted output sees that placeholder as a boundary, and a key that ends right there
 * (`sk-…G2YG[email-1]eyJ…`, whose fixed length is what makes it a key) is only whole in that reading.
 * A text with such a placeholder is read both ways and what either finds is redacted (but for an
 * address that ends at the placeholder: its domain was cut by it), findings that
 * overlap becoming one, named by the longer. Literal placeholders (see the redactor) that a finding
 * covers go with it.
 */
import { ECHO_KIND, type Echoes } from './echoes.js';
import type { Span } from './scanner.js';
import { originalRange, type Skeleton } from './skeleton.js';

/** @internal A finding: `[start, end)` of the input, and its kind. */
export interface Found {
  start: number;
  end: number;
  kind: string;
}

/**
 * @internal The spans of a scan of `sk.text` in the input's positions (the value only: a setting's
 * name stays), each named by its kind (an echo by the kind `echoes` found its value as).
 *
 * @example
 * ```ts
 * foundOf(spans, sk, echoes); // [{ start, end, kind }, …] in order
 * ```
 */
export function foundOf(spans: readonly Span[], sk: Skeleton, echoes: Pick<Echoes, 'kindOf'>): Found[] {
  const out: Found[] = [];
  for (const s of spans) {
    const [start, end] = originalRange(sk, s.valueStart, s.end);
    const kind = s.kind === ECHO_KIND ? echoes.kindOf(sk.text.slice(s.valueStart, s.end)) : s.kind;
    out.push({ start, end, kind });
  }
  return out;
}

/**
 * @internal Two readings' findings as one list in order: overlapping ones joined, named by the longer.
 * Each list is in order and without overlaps; so is the result. Linear after the sort.
 *
 * @example
 * ```ts
 * mergeFound([{ start: 0, end: 9, kind: 'email' }], [{ start: 0, end: 40, kind: 'openai-key' }]);
 * // [{ start: 0, end: 40, kind: 'openai-key' }]
 * ```
 */
export function mergeFound(a: readonly Found[], b: readonly Found[]): Found[] {
  const all = [...a, ...b].sort((x, y) => x.start - y.start || y.end - x.end);
  const out: Found[] = [];
  let longest = 0;
  for (const f of all) {
    const last = out[out.length - 1];
    if (last === undefined || f.start >= last.end) {
      out.push({ ...f });
      longest = f.end - f.start;
      continue;
    }
    if (f.end - f.start > longest) {
      longest = f.end - f.start;
      last.kind = f.kind;
    }
    last.end = Math.max(last.end, f.end);
  }
  return out;
}

/**
 * @internal The literal placeholders to replace: the ranges of `a` and `b` (flat start, end pairs of
 * the input; the same range may be in both) in order, but for those a finding overlaps.
 *
 * @example
 * ```ts
 * uncovered([5, 14], [5, 14], [{ start: 0, end: 4, kind: 'email' }]); // [5, 14]
 * ```
 */
export function uncovered(a: readonly number[], b: readonly number[], found: readonly Found[]): number[] {
  const starts = new Map<number, number>();
  for (const pairs of [a, b]) for (let i = 0; i < pairs.length; i += 2) starts.set(pairs[i]!, pairs[i + 1]!);
  const ranges = [...starts].sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  let j = 0;
  for (const [start, end] of ranges) {
    while (j < found.length && found[j]!.end <= start) j++;
    if (j >= found.length || found[j]!.start >= end) out.push(start, end);
  }
  return out;
}
