import { classifyTurn, compileMarkers, DEFAULT_MARKERS } from '/work/main/lib/heuristic/index';
import { oldExamples, strangerExamples } from '/work/main/eval/heuristic/reader-data';
import { HELD_OUT } from '/work/main/eval/heuristic/data';
const all = [...oldExamples(), ...strangerExamples().examples];
const dev = all.filter((e) => !e.duplicate && e.evidence && !HELD_OUT.has(e.split) && e.split !== 'strangers-final');
console.log('dev', dev.length, 'pref', dev.filter((e) => e.labels.includes('preference')).length);
const empty = Object.fromEntries(Object.keys(DEFAULT_MARKERS).map((k) => [k, []]));
const rows: any[] = [];
for (const p of DEFAULT_MARKERS.preference) {
  const m = compileMarkers({ ...empty, preference: [p] } as any);
  let hit = 0, tp = 0, first = 0; const ex: string[] = [];
  for (const e of dev) {
    if (classifyTurn(e.evidence!.text, m).preference) { hit++; if (e.labels.includes('preference')) tp++; else if (ex.length < 3) ex.push(e.labels.join('+') + '| ' + e.evidence!.text.slice(0, 140).replace(/\n/g, ' ')); }
  }
  rows.push({ p, hit, tp, prec: hit ? (tp / hit).toFixed(2) : '-', ex });
}
rows.sort((a, b) => b.hit - a.hit);
for (const r of rows) { console.log(r.p, r.hit, r.tp, r.prec); if (process.argv[2]) for (const x of r.ex) console.log('    ', x); }
const m = compileMarkers(DEFAULT_MARKERS);
let hit = 0, tp = 0; for (const e of dev) if (classifyTurn(e.evidence!.text, m).preference) { hit++; if (e.labels.includes('preference')) tp++; }
console.log('all', hit, tp);
