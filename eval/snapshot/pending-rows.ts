/**
 * What `pending.ts` reads the labelled rows of `sets/pending/` with: the rows of a labels file, counts
 * by label, and today's lists of a shared file with the test of whether one of them holds a row (the
 * row's text, its entry nearest the message it was drawn from).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deterministicSnapshotWithTrace, readSnapshotSource } from '../../lib/snapshot/index';
import { keptBreakAliases } from '../../tools/shared/console-breaks';

/** One labelled row (references only: no text). */
export interface Row {
  round: number;
  category?: string;
  id: string;
  file: string;
  author: string;
  message: number;
  sha256: string;
  group: string;
  role: string;
  label: string;
  reader: number;
  second?: string;
}

/** The rows of one labels file of the set. */
export const readRows = (name: string): Row[] =>
  readFileSync(join(import.meta.dirname, 'sets/pending', name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
export const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** How many rows carry each label, in the rules' order: `pending 3, not-pending 5, …`. */
export const countsOf = (labels: readonly string[]) => (rs: readonly Row[]) =>
  labels.map((l) => `${l} ${rs.filter((r) => r.label === l).length}`).join(', ');
export const counts = countsOf(['pending', 'not-pending', 'not-a-step', 'unclear']);
export const tally = countsOf(['open', 'resolved', 'not-a-problem', 'unclear']);

/** The lists a labelled row can point into. */
export type ListName = 'nextActions' | 'blockers' | 'unresolvedQuestions' | 'openHypotheses';
export const LISTS: readonly ListName[] = [
  'nextActions',
  'blockers',
  'unresolvedQuestions',
  'openHypotheses',
];

/**
 * Today's items of a file, by list (`kept`, as `message#sha256` of their source entry), and where each
 * entry's text sits (`at`: sha256 → message numbers) so that a label finds its entry after a reader
 * change renumbers the messages (a call read out of prose adds one). One parse and one snapshot a file.
 */
export interface FileLists {
  kept: Record<ListName, Set<string>>;
  at: Map<string, number[]>;
  /** Console copies: the hash of an entry labelled before the terminal's wraps were joined → today's. */
  alias?: Map<string, string>;
}

/** A file's lists (see {@link FileLists}); with `runs`, agent runs too (a run's entries come from its steps). */
export function listsOf(text: string, runs = false): FileLists | null {
  let src: ReturnType<typeof readSnapshotSource>;
  try {
    src = readSnapshotSource(text);
  } catch {
    return null;
  }
  if (src.kind !== 'transcript' && !(runs && src.kind === 'trajectory')) return null;
  const entries = src.input.entries ?? [];
  const kept = Object.fromEntries(LISTS.map((l) => [l, new Set<string>()])) as Record<ListName, Set<string>>;
  const at = new Map<string, number[]>();
  for (const e of entries) {
    const key = sha(String(e.value).trim());
    const list = at.get(key);
    if (list) list.push(e.sourceIteration);
    else at.set(key, [e.sourceIteration]);
  }
  for (const item of deterministicSnapshotWithTrace(src.input).kept) {
    if (!(LISTS as readonly string[]).includes(item.category)) continue;
    const id = item.sources.find((s) => /^m\d+$/.test(s));
    const e = id ? entries[Number(id.slice(1)) - 1] : undefined;
    if (e) kept[item.category as ListName].add(`${e.sourceIteration}#${sha(String(e.value).trim())}`);
  }
  const alias = keptBreakAliases(text);
  return alias ? { kept, at, alias } : { kept, at };
}

/** Whether a file's list holds a labelled row: its text's entry nearest the message it was drawn from. */
export function holds(lists: FileLists | null | undefined, r: Row, list: ListName): boolean {
  const key = lists?.alias?.get(r.sha256) ?? r.sha256;
  const at = lists?.at.get(key);
  if (!lists || !at) return false;
  let best = at[0]!;
  for (const m of at) if (Math.abs(m - r.message) < Math.abs(best - r.message)) best = m;
  return lists.kept[list].has(`${best}#${key}`);
}
