/**
 * `npx tsx eval/transcript/console-wrap.ts [--dir <fresh-console copies>] [--gemini <copies>]`: does the console reader
 * join the breaks the terminal made, and only those? Two rounds of line breaks inside a paragraph
 * block of console copies (`sets/console-wrap/labels.jsonl`: 120 + 100), each judged blind by a reader
 * who saw the two lines and the file, never rearview's decision (`wrap`: the terminal's; `written`:
 * the writer's), a second reader on 40 + 25. Rows hold references and SHA-256s only; each pair is
 * found again in the reading that keeps every break, and today's reader is asked whether it joins it.
 *
 * Round 1 was drawn at the first version (one width per copy: 60 joined breaks, 60 kept); its misses
 * led to the second (a width per kind of prose, the early console's cost note counted in the line,
 * 1 line in 64 above the cap): round 1 is tuned on from there. Round 2 was drawn from the second
 * version, excluding round 1's pairs (50 joined, 50 kept), and judged once.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bothReadings, breakJoined } from '../../tools/shared/console-breaks';
import { sharedDataDir } from '../../tools/shared/data';

interface Row {
  id: string;
  round: number;
  source: 'shared' | 'fresh-console' | 'fresh-gemini';
  file: string;
  messageLine: number;
  role: string;
  shaA: string;
  shaB: string;
  joinedWhenDrawn: boolean;
  label: 'wrap' | 'written' | 'unclear';
  second?: string;
}

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
/** The `fresh-console` copies (a folder holding `console/`) and the Gemini CLI copies (`files/`). */
const copies = arg('--dir');
const gemini = arg('--gemini');
const rows = readFileSync(resolve(import.meta.dirname, 'sets/console-wrap/labels.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Row);

/** Today's decision on a row's break, or undefined when its file or its lines are not found. */
function joinedToday(r: Row): boolean | undefined {
  const root =
    r.source === 'shared'
      ? sharedDataDir()
      : r.source === 'fresh-console'
        ? copies && join(copies, 'console')
        : gemini && join(gemini, 'files');
  if (!root) return undefined;
  const format = r.source === 'fresh-gemini' ? 'gemini-cli-console' : 'claude-code-console';
  try {
    return breakJoined(bothReadings(join(root, r.file), format), r.messageLine, r.shaA, r.shaB);
  } catch {
    return undefined;
  }
}

const f = (k: number, n: number) => (n === 0 ? '—' : `${k} of ${n} (${((100 * k) / n).toFixed(1)} %)`);
console.log('| round | pairs found | joined: judged wrap | kept: judged wrap | second reader agrees |');
console.log('|---|---|---|---|---|');
for (const round of [1, 2, 3]) {
  const mine = rows.filter((r) => r.round === round);
  const found = mine.map((r) => ({ r, joined: joinedToday(r) })).filter((x) => x.joined !== undefined);
  const joined = found.filter((x) => x.joined);
  const kept = found.filter((x) => !x.joined);
  const second = mine.filter((r) => r.second !== undefined);
  console.log(
    `| ${round} | ${found.length} of ${mine.length} | ${f(joined.filter((x) => x.r.label === 'wrap').length, joined.length)} | ${f(kept.filter((x) => x.r.label === 'wrap').length, kept.length)} | ${f(second.filter((r) => r.second === r.label).length, second.length)} |`,
  );
}
if (process.argv.includes('--list'))
  for (const r of rows) {
    const j = joinedToday(r);
    if (j === (r.label === 'written'))
      console.log(r.id, r.label, j ? 'joined' : 'kept', r.source, r.file, r.messageLine);
  }
