/**
 * `npx tsx eval/heuristic/reader-speed.ts`: time per turn of the reader, the correction model and the
 * markers alone, over every strangers turn (their evidence as the library gives it), best of 5 runs.
 */
import { classifyTurn } from '../../lib/heuristic/index';
import { correctionScore, readerScores } from '../../lib/heuristic-model/index';
import { strangerExamples } from './reader-data';

const turns = strangerExamples()
  .examples.map((e) => e.evidence)
  .filter((e) => e !== undefined);
const chars = turns.reduce((s, e) => s + e.text.length, 0);
const time = (f: () => void) => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
};
const rows: [string, () => void][] = [
  [
    'markers (classifyTurn)',
    () => {
      for (const e of turns) classifyTurn(e.text);
    },
  ],
  [
    'correctionModel',
    () => {
      for (const e of turns) correctionScore(e);
    },
  ],
  [
    'reader',
    () => {
      for (const e of turns) readerScores(e);
    },
  ],
];
for (const [name, f] of rows) {
  const ms = time(f);
  console.log(
    `${name}: ${((ms / turns.length) * 1000).toFixed(1)} µs per turn (${turns.length} turns, ${chars} chars, ${ms.toFixed(0)} ms)`,
  );
}
