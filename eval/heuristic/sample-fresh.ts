/**
 * Draws a further held-out sample (see LABELLING.md): turns in none of the labelled sets already in this
 * folder (neither the same message nor the same text), same sources and strata, seeded shuffle
 * (mulberry32). Writes unlabelled rows to stdout; labels were added by a reader who saw only the rules,
 * the earlier labels and the turns, never the detector.
 *
 * `npx tsx eval/heuristic/sample-fresh.ts <seed> <first n> <split> <console> <followup> <uniform> > rows.jsonl`
 * (the fresh set: `4005 1000 fresh 130 70 40`; the final set: `4006 2000 final 110 60 30`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTranscript } from '../../lib/transcript/index';
import { mulberry32 } from '../../tools/shared/random';
import { type Candidate, drawer, sharegptTurns } from './candidates';
import { loadLabelledSets } from './run';

const data = join(import.meta.dirname, '../../../shared/data');

const [seed, firstN, split, nConsole, nFollowup, nUniform] = process.argv.slice(2);
const seen = loadLabelledSets();

const consoleTurns: Candidate[] = [];
for (const f of readdirSync(join(data, 'claude-code-console'))
  .filter((f) => /^day-\d+\.md$/.test(f))
  .sort()) {
  const { messages } = parseTranscript(readFileSync(join(data, 'claude-code-console', f), 'utf8'), {
    format: 'claude-code-console',
    lenient: true,
  });
  for (const m of messages) {
    if (m.role !== 'user' || m.content.trim() === '') continue;
    const line = (m.source as { line?: number } | undefined)?.line;
    consoleTurns.push({
      source: `claude-code-console/${f}`,
      ...(line !== undefined ? { line } : {}),
      messageId: m.id,
      firstUserTurn: false,
      text: m.content.trim().slice(0, 600),
    });
  }
}
const shareTurns = sharegptTurns(data);
const draw = drawer(seen, mulberry32(Number(seed)));
const rows = [
  ...draw(consoleTurns, Number(nConsole), 'console-uniform'),
  ...draw(
    shareTurns.filter((c) => !c.firstUserTurn && c.text.length < 400),
    Number(nFollowup),
    'sharegpt-followup',
  ),
];
rows.push(...draw(shareTurns, Number(nUniform), 'sharegpt-uniform'));
let n = Number(firstN);
for (const { firstUserTurn: _f, ...r } of rows) {
  console.log(JSON.stringify({ n: n++, ...r, split }));
}
