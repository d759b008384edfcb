import { classifyTurn, DEFAULT_MARKERS, compileMarkers } from '/work/main/lib/heuristic/index';
import { oldExamples, strangerExamples } from '/work/main/eval/heuristic/reader-data';
import { HELD_OUT } from '/work/main/eval/heuristic/data';
const all = [...oldExamples(), ...strangerExamples().examples];
const dev = all.filter((e) => !e.duplicate && e.evidence && !HELD_OUT.has(e.split) && e.split !== 'strangers-final');
const m = compileMarkers(DEFAULT_MARKERS);
for (const e of dev.filter((e) => e.labels.includes('preference'))) {
  const c = classifyTurn(e.evidence!.text, m);
  console.log(`[${e.source} ${e.lang} ${e.labels.join('+')} st=${e.standing} first=${e.evidence!.first} m=${c.preference?'P':''}${c.correction?'C':''}] ${e.evidence!.text.slice(0, 260).replace(/\s+/g, ' ')}\n   => ${e.instruction}`);
}
