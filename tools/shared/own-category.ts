/**
 * Which category the deterministic snapshot gave each entry's own text, for tests, the conformance
 * suite and the evaluations. Read from the trace: every link an entry mentions is listed as evidence
 * whatever the entry is, and a pointer with one word ("See a.py") is listed as its link, so an evidence
 * item that equals the entry's listed text does not tell by itself whether the entry is evidence.
 */
import { squash } from '../../lib/categorise/index.js';
import {
  deterministicSnapshotWithTrace,
  listedText,
  type SnapshotCategory,
  type SnapshotInput,
} from '../../lib/snapshot/index.js';
import { withoutListMarker } from '../../lib/snapshot/sentences.js';

/** Reasons a trace gives an entry whose own text took no category. */
const NONE = new Set(['uncategorized', 'resolved', 'done']);

/**
 * The category of each entry of `input` (in order), or 'none'.
 *
 * @example
 * ```ts
 * ownCategories({ objective: '', entries: [{ scope: 'notes', key: 'k', value: 'See a.py', sourceIteration: 0 }] });
 * // ['requiredEvidenceLinks']
 * ```
 */
export function ownCategories(input: SnapshotInput): (SnapshotCategory | 'none')[] {
  const trace = deterministicSnapshotWithTrace(input);
  const entries = input.entries ?? [];
  const none = new Set<string>();
  for (const d of trace.dropped) if (NONE.has(d.reason)) for (const s of d.sources ?? []) none.add(s);
  // Every item (kept, or merged into one) with each source it holds, by its text.
  const bySource = new Map<string, { category: SnapshotCategory; text: string }[]>();
  const note = (category: SnapshotCategory, text: string, sources: readonly string[]) => {
    for (const s of sources) {
      const list = bySource.get(s);
      if (list === undefined) bySource.set(s, [{ category, text }]);
      else list.push({ category, text });
    }
  };
  for (const k of trace.kept) note(k.category, k.text, k.sources);
  for (const d of trace.dropped)
    if (d.category !== undefined && !NONE.has(d.reason)) note(d.category, d.text, d.sources ?? []);
  return entries.map((e, i) => {
    const source = `m${i + 1}`;
    if (none.has(source)) return 'none';
    const value = typeof e.value === 'string' ? e.value : String(e.value ?? '');
    const items = bySource.get(source) ?? [];
    // The entry's own words first: "Run `a.py`." is a step, and its link is listed too.
    const own = withoutListMarker(squash(value));
    const listed = listedText(value);
    return (
      (items.find((item) => item.text === own) ?? items.find((item) => item.text === listed))?.category ??
      'none'
    );
  });
}
