/**
 * `npm run eval:snapshot`: how well the deterministic snapshot sorts memory entries, on the
 * hand-labelled sets of eval/snapshot/: 520 sentences from five kinds of real agent output (rules in
 * eval/snapshot/LABELLING.md), 330 more labelled blind with aider replies and two enriched strata
 * (sets/2/LABELLING.md), and sets 3-30 (5,536 entries, each labelled blind and scored once; each set's
 * sets/<n>/LABELLING.md says whether its errors were then listed to write rules, "spent"). Per split — tune (rules were
 * chosen there), held-out and untouched kinds of sets 1-2, each later set, and the report-kind
 * entries whose errors were never listed — it prints accuracy (all and hard entries), per-category
 * precision/recall and the confusion matrix of the snapshot, beside two baselines in the same run: a
 * plain keyword categorizer and an older rule set (frozen in eval/snapshot/old-classify.ts).
 *
 * Flags: `--errors` lists the snapshot's misses on the tune split and the spent sets (`SPENT`; never on
 * splits that stand for unseen data; `--all-errors` lists every split's); `--dev` prints only the tune split and the spent sets;
 * `--json` prints the scores as JSON;
 * `--reflection` runs the deterministic-vs-reflected report instead (eval/snapshot/reflection.ts).
 */
import {
  type Categorizer,
  keywordCategorizer,
  LABELS,
  type LabelledEntry,
  loadLabelled,
  loadLabelledMore,
  loadReportLabels,
  oldCategorizer,
  type Score,
  SPLIT,
  score,
  snapshotCategorizer,
} from './snapshot/score.js';

/**
 * The report-kind sets after the first two (sets/<n>/), and those spent (errors listed to write rules). Listed,
 * not read from the folder: a set joins when it is scored, so no run of this script scores a set whose
 * labels are still being written, or prints a blind set's figure before its one scoring.
 */
const LATER_SETS = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
];
/**
 * Sets drawn from authors no rule was written from, of a kind the rules were tuned on: set 30 holds
 * the aider replies of the three repositories no earlier set sampled (sample-aider.ts). Scored apart
 * from the report kinds; their texts are read from ../shared/data (left out without it).
 */
const STRANGER_SETS = [30];
const SPENT = new Set([
  3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
]);

const args = new Set(process.argv.slice(2));
if (args.has('--reflection')) {
  await import('./snapshot/reflection.js');
} else {
  run();
}

function run(): void {
  const first = loadLabelled();
  const more = loadLabelledMore();
  const all: LabelledEntry[] = [...first, ...more];
  const splits: [string, LabelledEntry[]][] = [
    ['tune', all.filter((e) => SPLIT[e.kind] === 'tune')],
    ['held-out', all.filter((e) => SPLIT[e.kind] === 'held-out')],
    ['untouched', all.filter((e) => SPLIT[e.kind] === 'untouched')],
    ['cross-source', all.filter((e) => SPLIT[e.kind] !== 'tune')],
    // The first set alone (520 entries), as reported before the blind second set existed.
    ['cross-source, set 1', first.filter((e) => SPLIT[e.kind] !== 'tune')],
    // The blind second set outside the tune kinds (aider replies are tune now): its uniform draws,
    // then the two enriched strata apart.
    [
      'cross-source, set 2 (uniform)',
      more.filter((e) => SPLIT[e.kind] !== 'tune' && !e.stratum.endsWith('-enriched')),
    ],
    // The enriched strata, outside the tune kinds (their mini-swe-agent half).
    [
      'set 2, questions stratum',
      more.filter((e) => e.stratum === 'question-enriched' && SPLIT[e.kind] !== 'tune'),
    ],
    [
      'set 2, evidence stratum',
      more.filter((e) => e.stratum === 'evidence-enriched' && SPLIT[e.kind] !== 'tune'),
    ],
  ];
  const report = all.filter((e) => SPLIT[e.kind] !== 'tune');
  // Each later set (report kinds only, sets/<n>/LABELLING.md) apart, so the splits above keep their
  // figures as sets are added: the set, its uniform draws, its evidence stratum. A spent set's errors
  // were listed to write rules; the sets after the last spent one stand for unseen entries.
  const listable = new Set(['tune']);
  const cumulative = [...report];
  for (const n of LATER_SETS) {
    const set = loadReportLabels(n);
    const spent = SPENT.has(n);
    const parts: [string, LabelledEntry[]][] = [
      [`set ${n} (${spent ? 'spent' : 'untouched'})`, set],
      [`set ${n}, uniform`, set.filter((e) => e.stratum === 'uniform')],
      [`set ${n}, evidence stratum`, set.filter((e) => e.stratum === 'evidence-enriched')],
    ];
    splits.push(...parts);
    if (spent) for (const [name] of parts) listable.add(name);
    cumulative.push(...set);
    splits.push([`report kinds, sets 1-${n}`, [...cumulative]]);
  }
  for (const n of STRANGER_SETS) {
    const set = loadReportLabels(n);
    if (set.length > 0) splits.push([`set ${n} (aider replies of untouched authors)`, set]);
  }
  // The report kinds' entries whose errors no rule has looked at.
  const unseen = LATER_SETS.filter((n) => !SPENT.has(n));
  splits.push(['never listed, sets 1-2', report]);
  if (unseen.length > 0)
    splits.push([
      `never listed, sets 1-2 + ${unseen.join(', ')}`,
      [...report, ...unseen.flatMap((n) => loadReportLabels(n))],
    ]);

  const cats: [string, Categorizer][] = [
    ['snapshot', snapshotCategorizer],
    ['old rules', oldCategorizer],
    ['keywords', keywordCategorizer],
  ];
  // While tuning, `--tune-only` keeps every split but tune out of sight (set 3's too).
  if (args.has('--tune-only')) splits.splice(1);
  // `--dev` keeps only what rules may be written from: the tune split and the spent sets.
  if (args.has('--dev')) splits.splice(0, splits.length, ...splits.filter(([name]) => listable.has(name)));
  const results = splits.map(([name, es]) => ({
    split: name,
    kinds: [...new Set(es.map((e) => e.kind))],
    scores: Object.fromEntries(cats.map(([c, f]) => [c, score(es, f)])) as Record<string, Score>,
  }));
  if (args.has('--json')) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  const pct = (x: number | null) => (x === null ? '   —' : `${(x * 100).toFixed(0).padStart(3)}%`);
  const out: string[] = [`Labelled entries: ${all.length} (${countBy(all.map((e) => e.kind))})`, ''];
  out.push('split         categorizer  n    accuracy  hard (n)');
  for (const r of results)
    for (const [c, s] of Object.entries(r.scores))
      out.push(
        `${r.split.padEnd(13)} ${c.padEnd(12)} ${String(s.n).padEnd(4)} ${pct(s.accuracy).padEnd(9)} ${pct(s.hardAccuracy)} (${s.hardN})`,
      );
  for (const r of results) {
    out.push('', `## ${r.split} (${r.kinds.join(', ')})`);
    out.push('precision / recall (support, predicted)');
    out.push(
      `  ${'category'.padEnd(22)} ${Object.keys(r.scores)
        .map((c) => c.padEnd(30))
        .join('')}`,
    );
    for (const l of LABELS) {
      const cells = Object.values(r.scores).map((s) => {
        const p = s.perLabel[l];
        return `${pct(p.precision)} / ${pct(p.recall)} (${p.support}, ${p.predicted})`.padEnd(30);
      });
      out.push(`  ${l.padEnd(22)} ${cells.join('')}`);
    }
    const s = r.scores.snapshot!;
    out.push('confusion of the snapshot (rows: label, columns: predicted; H B N Q E I)');
    for (const l of LABELS)
      out.push(`  ${l.padEnd(22)} ${LABELS.map((p) => String(s.confusion[l][p]).padStart(4)).join('')}`);
    // Errors of splits that stand for unseen data are listed only on purpose (`--all-errors`): once
    // read, they are no longer unseen.
    if ((args.has('--errors') && listable.has(r.split)) || args.has('--all-errors'))
      for (const e of s.errors) out.push(`  ✗ ${e.id} ${e.label} → ${e.predicted}: ${e.text.slice(0, 140)}`);
  }
  console.log(out.join('\n'));
}

function countBy(xs: string[]): string {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m].map(([k, v]) => `${k} ${v}`).join(', ');
}
