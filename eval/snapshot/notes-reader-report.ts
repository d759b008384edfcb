/**
 * Figures and tables of the notes reader's evaluation (notes-reader.ts), and the writer of the shipped
 * weights (lib/categorise-model/weights.ts).
 */
import { notesReader } from '../../lib/categorise-model/index.js';
import type { IntModel } from './notes-reader-model.js';
import {
  emptyConfusion,
  keywordCategorizer,
  LABELS,
  type Label,
  oldCategorizer,
  perLabelOf,
  type Score,
  snapshotCategorizer,
} from './score.js';

/**
 * The readers every scored-once notes set is read with, in one run: today's rules, the notes model
 * (`rearview/categorise-model`), the keyword baseline and the frozen older rules.
 */
export const NOTES_METHODS = {
  today: snapshotCategorizer,
  'model (notes reader)': (text: string) => notesReader(text) ?? 'irrelevant',
  keyword: keywordCategorizer,
  'old rules (frozen)': oldCategorizer,
} as const;

/**
 * Each of {@link NOTES_METHODS} scored on labelled `entries`, with figures per `groupOf` group, and the
 * groups in order: what `table` prints.
 */
export function scoreMethods<E extends { text: string; label: Label; hard: boolean }>(
  entries: readonly E[],
  groupOf: (e: E) => string,
): { summaries: Record<string, Summary>; groups: string[] } {
  const rows = (cat: (text: string) => string): Row[] =>
    entries.map((e) => ({ label: e.label, pred: cat(e.text) as Label, hard: e.hard, group: groupOf(e) }));
  return {
    summaries: Object.fromEntries(Object.entries(NOTES_METHODS).map(([n, cat]) => [n, summarise(rows(cat))])),
    groups: [...new Set(entries.map(groupOf))].sort(),
  };
}

export interface Row {
  label: Label;
  pred: Label;
  hard: boolean;
  group: string;
}

/** A {@link Score} without its error list, with the same figures per group. */
export type Summary = Omit<Score, 'errors'> & {
  byGroup: Record<string, { n: number; accuracy: number; hardN: number; hardAccuracy: number }>;
};

function acc(rows: readonly Row[]) {
  const hard = rows.filter((r) => r.hard);
  return {
    n: rows.length,
    accuracy: rows.length ? rows.filter((r) => r.pred === r.label).length / rows.length : 0,
    hardN: hard.length,
    hardAccuracy: hard.length ? hard.filter((r) => r.pred === r.label).length / hard.length : 0,
  };
}

/** Accuracy (all, hard), per-category precision and recall, confusion and per-group figures. */
export function summarise(rows: readonly Row[]): Summary {
  const confusion = emptyConfusion();
  for (const r of rows) confusion[r.label][r.pred]++;
  const perLabel = perLabelOf(confusion);
  const groups = [...new Set(rows.map((r) => r.group))];
  const byGroup = Object.fromEntries(groups.map((g) => [g, acc(rows.filter((r) => r.group === g))]));
  return { ...acc(rows), perLabel, confusion, byGroup };
}

const pct = (x: number | null) => (x === null ? '  -  ' : `${(x * 100).toFixed(1)}`.padStart(5));
const SHORT: Record<Label, string> = {
  openHypotheses: 'hyp',
  blockers: 'block',
  nextActions: 'next',
  unresolvedQuestions: 'quest',
  requiredEvidenceLinks: 'evid',
  irrelevant: 'none',
};

/** Method rows: pooled accuracy / hard, each group's, then precision / recall per category; confusions. */
export function table(s: Record<string, Summary>, groups: readonly string[], accuracyOnly = false): string {
  const first = Object.values(s)[0]!;
  const lines = [
    `| method | all (n ${first.n}) | hard (n ${first.hardN}) | ${groups.map((g) => `${g} (n ${first.byGroup[g]?.n ?? 0})`).join(' | ')} |`,
    `|---|---|---|${groups.map(() => '---').join('|')}|`,
  ];
  for (const [name, x] of Object.entries(s))
    lines.push(
      `| ${name} | ${pct(x.accuracy)} | ${pct(x.hardAccuracy)} | ${groups
        .map((g) =>
          x.byGroup[g] ? `${pct(x.byGroup[g].accuracy)} / ${pct(x.byGroup[g].hardAccuracy)}` : '-',
        )
        .join(' | ')} |`,
    );
  if (accuracyOnly) return lines.join('\n');
  lines.push(
    '',
    `| method | ${LABELS.map((l) => `${SHORT[l]} P / R`).join(' | ')} |`,
    `|---|${LABELS.map(() => '---').join('|')}|`,
  );
  for (const [name, x] of Object.entries(s))
    lines.push(
      `| ${name} | ${LABELS.map((l) => `${pct(x.perLabel[l].precision)} / ${pct(x.perLabel[l].recall)}`).join(' | ')} |`,
    );
  for (const [name, x] of Object.entries(s).filter(([n]) => n === 'today' || n.startsWith('model'))) {
    lines.push(
      '',
      `confusion, ${name} (rows: label, columns: predicted): ${LABELS.map((l) => SHORT[l]).join(' ')}`,
    );
    for (const l of LABELS)
      lines.push(
        `  ${SHORT[l].padEnd(5)} ${LABELS.map((p) => String(x.confusion[l][p]).padStart(5)).join(' ')}`,
      );
  }
  return lines.join('\n');
}

/** The source of lib/categorise-model/weights.ts for a trained model. */
export function encodeWeights(m: IntModel, meta: Record<string, string | number>): string {
  const buckets = [...m.w.keys()].sort((a, b) => a - b);
  let previous = 0;
  const parts = buckets.map((b) => {
    const s = [(b - previous).toString(36), ...[...m.w.get(b)!].map((v) => v.toString(36))].join(':');
    previous = b;
    return s;
  });
  return `/**
 * @internal The notes reader's data, written by
 * \`npx tsx eval/snapshot/notes-reader-context.ts --final --write\` (do not edit): the bias per category
 * and the integer weights (sixteenths of a logit) by hashed feature bucket (delta-coded, base 36), in
 * the order ${LABELS.join(', ')};
 * \`TRAINED\` is the setting the strangers' author folds chose, trained on ${meta.n} labelled entries:
 * the older sets outside their kept-apart groups and the five strangers' draws.
 */
export const TRAINED = { featureSet: '${meta.featureSet}', l2: ${meta.l2}, epochs: ${meta.epochs} } as const;
export const BIAS: readonly number[] = [${[...m.bias].join(', ')}];
export const WEIGHTS: string =
  '${parts.join(' ')}';
`;
}
