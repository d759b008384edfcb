/**
 * `npx tsx eval/snapshot/agreement.ts`: how far two careful readers agree on the same memory entries,
 * the ceiling that frames the categoriser's figures. Sets 3, 5, 19 and 26-29 (sets/<n>/) were each
 * labelled twice, independently and blind to the categoriser and to each other: labels.tsv (the first
 * reader, whose labels the figures use) and labels-second.tsv. The second readers of sets
 * 26-29 judged each entry from its own sentence, never opening the trajectory around it (the categoriser
 * sees no more); set 29's first reader read the context of 42 terse entries. Sets 26-28's second
 * readings came after their first reader's errors had been listed to write rules: the snapshot's figures on them are of rules
 * written from their first reader's errors, so only the readers' agreement there is a fresh figure.
 * Prints, as JSON per set: the second reader
 * scored against the first as if it were a categoriser (accuracy, accuracy on the first reader's hard
 * entries, per-category precision / recall, Cohen's kappa); the snapshot against each reader; and the
 * snapshot on the entries both readers labelled alike.
 */
import {
  type Categorizer,
  keywordCategorizer,
  LABELS,
  type LabelledEntry,
  loadReportLabels,
  readLabels,
  type Score,
  score,
  snapshotCategorizer,
} from './score.js';
import { setFile } from './sets.js';

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/** Cohen's kappa of two labellings of the same entries. */
function kappa(pairs: readonly [string, string][]): number {
  const n = pairs.length;
  let agree = 0;
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  let chance = 0;
  for (const l of LABELS) chance += ((a.get(l) ?? 0) / n) * ((b.get(l) ?? 0) / n);
  return (agree / n - chance) / (1 - chance);
}

function brief(s: Score) {
  return {
    n: s.n,
    accuracy: round(s.accuracy),
    hard: { n: s.hardN, accuracy: round(s.hardAccuracy) },
    perLabel: Object.fromEntries(
      LABELS.map((l) => [
        l,
        {
          precision: round(s.perLabel[l].precision),
          recall: round(s.perLabel[l].recall),
          support: s.perLabel[l].support,
          predicted: s.perLabel[l].predicted,
        },
      ]),
    ),
  };
}

export function agreement(n: 3 | 5 | 19 | 26 | 27 | 28 | 29) {
  const first = loadReportLabels(n);
  const secondLabels = readLabels(setFile(n, 'labels-second.tsv'));
  const byText = new Map(first.map((e) => [e.text, secondLabels.get(e.id)!]));
  if (secondLabels.size !== first.length || [...byText.values()].some((v) => !v))
    throw new Error(`${setFile(n, 'labels-second.tsv')} must label every entry of set ${n} once`);
  const secondReader: Categorizer = (text) => byText.get(text)!.label;
  // The same entries with the second reader's labels and hard flags, to score against it.
  const asSecond: LabelledEntry[] = first.map((e) => ({ ...e, ...secondLabels.get(e.id)! }));
  const agreed = first.filter((e) => secondLabels.get(e.id)!.label === e.label);
  const bothHard = first.filter((e) => e.hard && secondLabels.get(e.id)!.hard);
  return {
    entries: first.length,
    readers: {
      secondVsFirst: brief(score(first, secondReader)),
      kappa: round(kappa(first.map((e) => [e.label, secondLabels.get(e.id)!.label]))),
      hardFlag: {
        first: first.filter((e) => e.hard).length,
        second: asSecond.filter((e) => e.hard).length,
        both: bothHard.length,
      },
      // Hard entries both readers flagged: how often the second reader gives the first's label.
      onBothHard: round(
        bothHard.filter((e) => secondLabels.get(e.id)!.label === e.label).length / bothHard.length,
      ),
    },
    snapshot: {
      vsFirst: brief(score(first, snapshotCategorizer)),
      vsSecond: brief(score(asSecond, snapshotCategorizer)),
      // Where the readers agree, the label is as sure as these labels get.
      onAgreed: brief(score(agreed, snapshotCategorizer)),
    },
    keywords: {
      vsFirst: round(score(first, keywordCategorizer).accuracy),
      onAgreed: round(score(agreed, keywordCategorizer).accuracy),
    },
  };
}

if (process.argv[1]?.endsWith('agreement.ts'))
  console.log(
    JSON.stringify(
      {
        set3: agreement(3),
        set5: agreement(5),
        set19: agreement(19),
        set26: agreement(26),
        set27: agreement(27),
        set28: agreement(28),
        set29: agreement(29),
      },
      null,
      2,
    ),
  );
