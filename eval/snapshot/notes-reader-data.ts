/**
 * The labelled sets the notes reader (issue 39) trains and is scored on, read through the sets'
 * loader functions (not their paths, which may move), with each entry's group: the author or agent
 * whose prose it is. Folds and the kept-apart set are unions of groups, never a random cut.
 *
 * Groups: an aider reply belongs to the owner of its repository (`aider/<owner>+<repo>.md`); the
 * console agent's prose and its session summaries share one group (one developer's sessions); every
 * other kind is one agent run by one author (swe-agent, claude-code-jsonl, mini-swe-agent). A set
 * marked `keptApart` (the strangers' notes: 438 sentences of 64 authors no rule was written from) is
 * kept apart whole; its rows name their author (`owner/repo`), which is their group.
 *
 * The kept-apart groups were fixed from the group names alone, before any figure was computed:
 * `fnv1a32('notes-reader-final#' + group) % 5 === 0`. With the sets of 2 December 2026 that is
 * swe-agent (130 entries), claude-code-jsonl (130) and six aider owners (3oFiz4, 87maxi, Abhisekpm,
 * BBXtreme, ZeyadMahfouzz, sannysanoff: 51).
 */
import { fnv1a32 } from '../../lib/core/index.js';
import { type LabelledEntry, loadLabelled, loadLabelledMore, loadReportLabels, readLabels } from './score.js';
import { entriesOf } from './sets/strangers-notes/apart.js';
import { loadStrangersNotes } from './sets/strangers-notes/sample.js';
import { NOTES2_ENTRIES } from './sets/strangers-notes-2/sample.js';

export interface LabelledSet {
  name: string;
  load: () => readonly LabelledEntry[];
  /** The whole set is kept apart (scored once, never trained or chosen on). */
  keptApart?: boolean;
}

/** Report sets 3, 4, … for as long as their loader finds one. */
function reportSets(): LabelledSet[] {
  const out: LabelledSet[] = [];
  for (let n = 3; ; n++) {
    try {
      const rows = loadReportLabels(n);
      out.push({ name: String(n), load: () => rows });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return out;
      throw e;
    }
  }
}

/**
 * A draw of agent prose kept as references (`sets/<set>/entries.jsonl` at `path`, re-read from the
 * shared data) joined with its blind labels (`sets/<set>/labels.tsv`); every row must have one.
 *
 * @example
 * ```ts
 * labelledDraw('sharegpt-notes', SHAREGPT_ENTRIES)[0].label; // 'irrelevant'
 * ```
 */
export function labelledDraw(set: string, path: string) {
  const labels = readLabels(`sets/${set}/labels.tsv`);
  return loadStrangersNotes(path).map((e) => {
    const lab = labels.get(e.id);
    if (!lab) throw new Error(`${set}: no label for ${e.id}`);
    return { ...e, ...lab };
  });
}

/** The strangers' notes (64 authors no rule was written from) with their blind labels. */
const strangersNotes = (): LabelledEntry[] => labelledDraw('strangers-notes', entriesOf(1));

/** Every labelled set. Adding one is one line here. */
export function labelledSets(): LabelledSet[] {
  return [
    { name: '1', load: loadLabelled },
    { name: '2', load: loadLabelledMore },
    ...reportSets(),
    { name: 'strangers-notes', load: strangersNotes, keptApart: true },
  ];
}

export interface GroupedEntry extends LabelledEntry {
  set: string;
  group: string;
  keptApart: boolean;
}

/** The author or agent whose prose an entry is (see the module comment). */
export function groupOf(e: Pick<LabelledEntry, 'kind' | 'file'> & { author?: string }): string {
  // Sets that name the author per row (the strangers' notes) group by it.
  if (typeof e.author === 'string' && e.author !== '') return `${e.kind}:${e.author}`;
  if (e.kind === 'aider-reply') return `aider:${e.file.replace(/^aider\//, '').split('+')[0]}`;
  if (e.kind.startsWith('console')) return 'console';
  return e.kind;
}

/** Whether a group is kept apart: a hash of its name, fixed before any result. */
export const keptApartGroup = (group: string): boolean => fnv1a32(`notes-reader-final#${group}`) % 5 === 0;

/**
 * The cross-validation fold of a group: each single-agent kind is its own fold; aider owners are
 * bunched into three folds by a hash of the owner (each owner has 2-50 entries).
 */
export function foldOf(group: string): string {
  if (!group.startsWith('aider:')) return group;
  return `aider-${fnv1a32(`notes-reader-fold#${group}`) % 3}`;
}

/** All labelled entries with set, group and whether they are kept apart. */
export function loadGrouped(): GroupedEntry[] {
  const out: GroupedEntry[] = [];
  for (const s of labelledSets())
    for (const e of s.load() as (LabelledEntry & { author?: string })[]) {
      const group = groupOf(e);
      out.push({ ...e, set: s.name, group, keptApart: s.keptApart === true || keptApartGroup(group) });
    }
  return out;
}

/** A strangers' notes entry: its author, file and place in the file besides its label. */
export interface StrangerEntry extends GroupedEntry {
  author: string;
  file: string;
  pos: string;
  stratum: string;
}

/**
 * The five draws of the strangers' notes (`strangers-notes`, `-2` … `-5`: 2,190 blind-labelled sentences
 * of the 64 authors added last to the shared data), every one grouped by its author and none kept
 * apart: sets 3-5 were each scored once and are spent, and the shipped notes reader trains on all five
 * (notes-reader-context.ts).
 */
export function strangersPool(): StrangerEntry[] {
  const draws: [string, string][] = [
    ['strangers-notes', entriesOf(1)],
    ['strangers-notes-2', NOTES2_ENTRIES],
    ...[3, 4, 5].map((n): [string, string] => [`strangers-notes-${n}`, entriesOf(n)]),
  ];
  return draws.flatMap(([set, path]) =>
    labelledDraw(set, path).map((e) => ({ ...e, set, group: e.author, keptApart: false })),
  );
}
