/**
 * Scores categorizers on the labelled sets (sets/<n>/entries.jsonl + labels.tsv): accuracy (all and hard
 * entries), per-category precision and recall, and the confusion matrix, per split of sources
 * (tune / held-out / untouched). An entry's prediction is the category its own text goes to
 * (requiredEvidenceLinks when the entry is itself a pointer to evidence), else irrelevant.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { findLinks, squash, words } from '../../lib/categorise/index.js';
import { NOTE_CLASSES } from '../../lib/categorise-model/index.js';
import { ownCategories } from '../../tools/shared/own-category.js';
import { classify as oldClassify } from './old-classify.js';
import { loadMoreEntries } from './sample-more.js';
import { loadReportSet } from './sample-report.js';
import { setFile } from './sets.js';

/**
 * The labels of the sets, in the order the shipped notes reader's weights use: one list, so that the
 * weights the evaluation writes and the classes the library reads them as cannot drift apart.
 */
export const LABELS = NOTE_CLASSES;
export type Label = (typeof LABELS)[number];

export interface LabelledEntry {
  id: string;
  kind: string;
  file: string;
  pos: string;
  text: string;
  label: Label;
  hard: boolean;
}

/** Which split each source kind belongs to (fixed before labelling, see LABELLING.md). */
export const SPLIT: Record<string, 'tune' | 'held-out' | 'untouched'> = {
  'swe-agent': 'tune',
  'claude-code-jsonl': 'tune',
  'mini-swe-agent': 'held-out',
  'console-agent': 'held-out',
  'console-summary': 'untouched',
  // The second, blind set adds aider's replies: held out for its one scoring, then tuned on (sets/2/LABELLING.md).
  'aider-reply': 'tune',
};

const DIR = import.meta.dirname;

/** The labels of one labels*.tsv file (`id\tlabel\thard` rows, `#` comments), by id. */
export function readLabels(file: string): Map<string, { label: Label; hard: boolean }> {
  const labels = new Map<string, { label: Label; hard: boolean }>();
  for (const line of readFileSync(resolve(DIR, file), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#') || line === 'id\tlabel\thard') continue; // comments, a header row
    const [id, label, hard] = line.split('\t');
    if (!LABELS.includes(label as Label)) throw new Error(`${file}: unknown label ${label} for ${id}`);
    labels.set(id!, { label: label as Label, hard: hard === '1' });
  }
  return labels;
}

/**
 * The ids a notes set's `excluded.tsv` lists (`id\treason` rows, `#` comments): entries a later reader
 * no longer gives as prose, labelled but left out of the score. None when the set has no such file.
 */
export function readExcluded(set: string): string[] {
  const file = resolve(DIR, `sets/${set}/excluded.tsv`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t')[0]!);
}

/** Joins entries with their labels; every entry must have one. */
function joinLabels<E extends { id: string }>(
  entries: E[],
  file: string,
): (E & { label: Label; hard: boolean })[] {
  const labels = readLabels(file);
  return entries.map((e) => {
    const lab = labels.get(e.id);
    if (!lab) throw new Error(`${file}: no label for ${e.id}`);
    return { ...e, ...lab };
  });
}

/** The labelled set: entries joined with their labels (every entry must have one). */
export function loadLabelled(): LabelledEntry[] {
  const entries = readFileSync(resolve(DIR, setFile(1, 'entries.jsonl')), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Omit<LabelledEntry, 'label' | 'hard'>);
  return joinLabels(entries, setFile(1, 'labels.tsv'));
}

/**
 * The second labelled set (sets/2/entries.jsonl + sets/2/labels.tsv, sets/2/LABELLING.md): labelled blind
 * to the categoriser, aider texts re-read from the shared data and checked by hash. Ids `more-…`.
 */
export function loadLabelledMore(): (LabelledEntry & { stratum: string })[] {
  const entries = loadMoreEntries().map((e) => ({
    id: e.id,
    kind: e.kind,
    file: e.file,
    pos: e.pos,
    text: e.text,
    stratum: e.stratum,
  }));
  return joinLabels(entries, setFile(2, 'labels.tsv'));
}

/**
 * Labelled set n ≥ 3 (sets/<n>/entries.jsonl + labels.tsv, its LABELLING.md): entries of the report
 * kinds (set 30: aider replies of untouched authors), each set labelled blind to the categoriser and
 * held untouched until its one scoring (its LABELLING.md says whether its errors were then listed to
 * write rules). Ids `set<n>-…`. Sets hold fewer entries as the data's report-kind sentences run out.
 */
export function loadReportLabels(n: number): (LabelledEntry & { stratum: string })[] {
  return joinLabels(loadReportSet(n), setFile(n, 'labels.tsv'));
}

export type Categorizer = (text: string) => Label;

/**
 * The deterministic snapshot of today (lib/snapshot) on a one-entry input: the category that holds
 * the entry's own text. A link the entry merely mentions also lands under evidence, as the snapshot
 * keeps every link, but that does not make the sentence evidence: it counts as irrelevant.
 */
export const snapshotCategorizer: Categorizer = (text) => {
  const own = ownCategories({
    objective: '',
    entries: [{ scope: 'notes', key: 'k', value: text, sourceIteration: 0 }],
  })[0];
  return own === undefined || own === 'none' ? 'irrelevant' : own;
};

/** The older rule set, frozen in old-classify.ts as a baseline, read the same way. */
export const oldCategorizer: Categorizer = (text) => {
  const own = squash(text);
  return oldClassify(words(own), own).category ?? 'irrelevant';
};

const has = (ws: string[], list: string) => {
  const set = new Set(list.split(' '));
  return ws.some((w) => set.has(w));
};

/** A plain keyword categorizer: the first keyword family found decides, no negation, no tense. */
export const keywordCategorizer: Categorizer = (text) => {
  const ws = words(text);
  if (text.trimEnd().endsWith('?')) return 'unresolvedQuestions';
  if (has(ws, 'maybe might perhaps probably likely possibly seems suspect hypothesis'))
    return 'openHypotheses';
  if (has(ws, 'error errors fail fails failed failing failure broken blocked exception crash timeout cannot'))
    return 'blockers';
  if (has(ws, 'todo next need should will let add fix run check update implement create remove'))
    return 'nextActions';
  if (findLinks(text).length > 0) return 'requiredEvidenceLinks';
  return 'irrelevant';
};

export interface Score {
  n: number;
  accuracy: number;
  hardN: number;
  hardAccuracy: number;
  perLabel: Record<
    Label,
    { precision: number | null; recall: number | null; support: number; predicted: number }
  >;
  /** confusion[label][predicted] */
  confusion: Record<Label, Record<Label, number>>;
  errors: { id: string; label: Label; predicted: Label; text: string }[];
}

export function score(entries: readonly LabelledEntry[], cat: Categorizer): Score {
  const confusion = emptyConfusion();
  let right = 0;
  let hardN = 0;
  let hardRight = 0;
  const errors: Score['errors'] = [];
  for (const e of entries) {
    const p = cat(e.text);
    confusion[e.label][p]++;
    if (p === e.label) right++;
    else errors.push({ id: e.id, label: e.label, predicted: p, text: e.text });
    if (e.hard) {
      hardN++;
      if (p === e.label) hardRight++;
    }
  }
  return {
    n: entries.length,
    accuracy: entries.length ? right / entries.length : 0,
    hardN,
    hardAccuracy: hardN ? hardRight / hardN : 0,
    perLabel: perLabelOf(confusion),
    confusion,
    errors,
  };
}

/** A confusion table of zeros: `confusion[label][predicted]`. */
export function emptyConfusion(): Score['confusion'] {
  return Object.fromEntries(
    LABELS.map((l) => [l, Object.fromEntries(LABELS.map((p) => [p, 0]))]),
  ) as Score['confusion'];
}

/** Precision, recall, support and predicted count of each category, from a confusion table. */
export function perLabelOf(confusion: Score['confusion']): Score['perLabel'] {
  const perLabel = {} as Score['perLabel'];
  for (const l of LABELS) {
    const support = LABELS.reduce((s, p) => s + confusion[l][p], 0);
    const predicted = LABELS.reduce((s, t) => s + confusion[t][l], 0);
    perLabel[l] = {
      precision: predicted ? confusion[l][l] / predicted : null,
      recall: support ? confusion[l][l] / support : null,
      support,
      predicted,
    };
  }
  return perLabel;
}

/**
 * A short hash of every source file of lib/snapshot: the rules an experiment scored, which other
 * work may change between its runs (learned.ts and learned-open.ts print it with their figures).
 */
export function rulesFingerprint(): string {
  const lib = resolve(DIR, '../../lib/snapshot');
  return createHash('sha256')
    .update(
      readdirSync(lib)
        .filter((f) => f.endsWith('.ts'))
        .sort()
        .map((f) => `${f}\n${readFileSync(resolve(lib, f), 'utf8')}`)
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);
}
