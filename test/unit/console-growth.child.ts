/**
 * Run by test/unit/linear-time.test.ts in a child process with a fixed young generation
 * (`node --max-semi-space-size=1`): the growth of detected console-turn parsing, printed as JSON.
 */
import { safeParseTranscript } from '../../lib/transcript/index';
import { doublings, fill, measureGrowth } from './linear-time';

const g = measureGrowth(
  (text: string) => safeParseTranscript(text, { lenient: true }),
  (n) => fill(n, '> a\n⏺ b\n  ⎿  c\n'),
  doublings(12_500, 4),
);
process.stdout.write(JSON.stringify(g));
