/**
 * `npx tsx eval/heuristic/reader-standing.ts`: the reader's second decision — does a correction or
 * preference hold a standing instruction (worth keeping for future sessions) or is it a one-off? — as
 * a logistic regression over the reader's features, measured on 5 folds grouped by author over the
 * tuning rows labelled correction or preference: the `strangers` split and the older sets' tuning
 * splits (`sets/standing/`; `--strangers-only` for the first alone). Not shipped: a measurement of
 * whether the features can tell the two apart. Last, the shipped decision (the key-point writer) on
 * the same rows, where its rules were written (a tuned figure). Never reads a held-out split.
 * `READER_STANDING_SYNTH=a.jsonl,b.jsonl` adds invented corrections and preferences (their `standing`)
 * to every fold's training, never to its test rows. Measured 5 December 2026 (751 rows, 105 standing):
 * AP 0.232 without, 0.304 with `sets/synthetic/`, 0.352 with it and `sets/synthetic-2/` (precision at
 * logit ≥ 0: 0.375 / 0.528 / 0.463, recall 0.029 / 0.181 / 0.238); the writer's rules: precision
 * 0.842, recall 0.152 (tuned on these rows; 0.875 / 0.133 since stop 72's reading of "I like X").
 * Not shipped: still far below the writer's precision.
 */
import { fnv1a32 } from '../../lib/core/index';
import { readerBuckets } from '../../lib/heuristic-model/index';
import { keyPointVerdict } from '../../lib/playbook/index';
import type { Category } from './data';
import {
  distinctTexts,
  type Example,
  OLD_TUNE,
  oldExamples,
  strangerExamples,
  syntheticExamples,
} from './reader-data';
import { logits, train } from './reader-train';

/** `--strangers-only`: the `strangers` rows alone, as before the older sets had standing labels. */
const STRANGERS_ONLY = process.argv.includes('--strangers-only');
const rows = distinctTexts(
  [
    ...strangerExamples().examples.filter((e) => e.split === 'strangers' && !e.duplicate),
    ...(STRANGERS_ONLY ? [] : oldExamples().filter((e) => OLD_TUNE.has(e.split))),
  ].filter((e) => e.standing !== null),
);
// `train` fits four outputs from `labels`: the standing decision rides on the first ('correction').
const asStanding = (e: Example): Example => ({
  ...e,
  labels: e.standing ? (['correction'] as Category[]) : [],
});
const data = rows.map(asStanding);
// READER_STANDING_SYNTH=a.jsonl,b.jsonl: invented corrections and preferences join every fold's training.
const synth = process.env.READER_STANDING_SYNTH
  ? syntheticExamples(process.env.READER_STANDING_SYNTH.split(','))
      .filter((e) => e.evidence !== undefined && e.standing !== null)
      .map(asStanding)
  : [];
const feats = (() => {
  const memo = new Map<string, number[]>();
  return (e: Example) => {
    let v = memo.get(e.id);
    if (!v) {
      v = readerBuckets(e.evidence!);
      memo.set(e.id, v);
    }
    return v;
  };
})();
const z = new Map<string, number>();
for (let k = 0; k < 5; k++) {
  const inK = (e: Example) => fnv1a32(`fold#${e.author}`) % 5 === k;
  const m = train([...data.filter((e) => !inK(e)), ...synth], feats);
  for (const e of data.filter(inK)) z.set(e.id, logits(m, feats(e))[0]!);
}
const pos = data.filter((e) => e.labels.length > 0).length;
console.log(
  `${data.length} corrections/preferences (${STRANGERS_ONLY ? 'strangers split' : "strangers split + the older sets' tuning splits"}, distinct), ${pos} standing, ${new Set(data.map((e) => e.author)).size} authors`,
);
const order = [...data].sort((a, b) => z.get(b.id)! - z.get(a.id)!);
let tp = 0;
let ap = 0;
order.forEach((e, i) => {
  if (e.labels.length > 0) {
    tp++;
    ap += tp / (i + 1);
  }
});
console.log(
  `out-of-fold average precision ${(ap / pos).toFixed(3)} (base rate ${(pos / data.length).toFixed(3)})`,
);
for (const cut of [0, -16, -32]) {
  const said = data.filter((e) => z.get(e.id)! >= cut);
  const right = said.filter((e) => e.labels.length > 0).length;
  console.log(
    `logit ≥ ${cut / 16}: precision ${(right / Math.max(1, said.length)).toFixed(3)}, recall ${(right / pos).toFixed(3)} (${said.length} said)`,
  );
}
// Baseline: the marker detector's preference signal ("from now on", "always") as the decision.
const saidM = data.filter((e) => e.evidence!.signals.preference);
const rightM = saidM.filter((e) => e.labels.length > 0).length;
console.log(
  `markers' preference signal: precision ${(rightM / Math.max(1, saidM.length)).toFixed(3)}, recall ${(rightM / pos).toFixed(3)} (${saidM.length} said)`,
);
// The shipped decision: the key-point writer (`keyPointVerdict`) on the turn's text. Its standing
// rules were written on these rows (the tuning split), so this is a tuned figure, not a result; the
// blind judges of eval/heuristic/KEYPOINT-JUDGING.md measure it on authors it was not written on.
const verdicts = data.map((e) => ({ e, v: keyPointVerdict(e.evidence!.text) }));
const saidW = verdicts.filter(({ v }) => v.keyPoint !== undefined);
const rightW = saidW.filter(({ e }) => e.labels.length > 0).length;
const refused: Record<string, string> = {};
for (const reason of new Set(verdicts.map(({ v }) => v.refused ?? 'kept'))) {
  const rows = verdicts.filter(({ v }) => (v.refused ?? 'kept') === reason);
  refused[reason] = `${rows.filter(({ e }) => e.labels.length > 0).length}/${rows.length}`;
}
console.log(
  `the writer (keyPointVerdict): precision ${(rightW / Math.max(1, saidW.length)).toFixed(3)}, recall ${(rightW / pos).toFixed(3)} (${saidW.length} said); standing/all by verdict ${JSON.stringify(refused)}`,
);
