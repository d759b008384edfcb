/**
 * Run by test/unit/linear-time-parsers.test.ts in a child process with a fixed young generation
 * (`node --max-semi-space-size=1`): the growth of detected console-turn parsing, printed as JSON.
 */
import { safeParseTranscript } from '../../lib/transcript/index';
import { doublings, fill, measureGrowth } from './linear-time';

const g = measureGrowth(
  (text: string) => safeParseTranscript(text, { lenient: true }),
  (n) => fill(n, '> a\n⏺ b\n  ⎿  c\n'),
  // 50 KB to 800 KB: between 50 and 200 KB the cost steps up once (caches), and on a busy machine that
  // step can fill the last doublings of a shorter range; beyond it each doubling costs twice again.
  // Below 50 KB a call is too short to time alone: one run measured 4.02 then 0.99 from 12.5 KB.
  { ...doublings(50_000, 4), rounds: 6, sampleMs: 8 },
);
process.stdout.write(JSON.stringify(g));
