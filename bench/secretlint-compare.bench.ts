/**
 * secretlint 13.1.0 (`lintSource`, recommended preset) beside lib/redact (issue 36), through
 * tools/shared/secretlint-compare.ts: found / planted per source, position and kind on the reference
 * texts (seed 1: secretlint's and gitleaks' kinds in 13 positions, plus secretlint's own shapes), false
 * positives on the look-alikes, CPU time and MB/s on the same texts and on shared real data, and CPU
 * time per doubling (10 → 160 KB) on adversarial input. secretlint is a devDependency measured here,
 * not used by the library.
 *
 * Standalone: `npx tsx bench/secretlint-compare.bench.ts` prints JSON; `npx tsx bench/run.ts secretlint`
 * runs it as a suite.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REFERENCE_POSITIONS, referenceKinds } from '../tools/shared/redact-reference';
import {
  compareReference,
  growth,
  realFile,
  SECRETLINT_ADVERSARIAL,
  secretlintFalsePositives,
  speedOn,
  summarise,
} from '../tools/shared/secretlint-compare';
import { type BenchResult, type BenchSuite, readText, sharedDataDir, walkFiles } from './harness';

/** Real texts: the largest Claude Code log, a Cline history with keys and database URLs, two folders whole. */
const REAL: readonly [name: string, path: string, filter?: (f: string) => boolean][] = [
  ['claude-code-jsonl/4d5611e5 (one log)', 'claude-code-jsonl/4d5611e5-241a-462a-8d15-5122611a9569.jsonl'],
  ['cline/mike4567 (one history)', 'cline/mike4567+MRA04242026/api_conversation_history.json'],
  ['aider (all histories)', 'aider', (f) => f.endsWith('.md')],
  ['other-agents (all files)', 'other-agents', (f) => !f.endsWith('.txt') && f !== 'SOURCES.jsonl'],
];

export async function measureSecretlint() {
  const seed = 1;
  const cells = await compareReference(seed);
  const { bySource, byPosition, byKind, secretlintOnly } = summarise(cells);
  const docs = referenceKinds(seed).flatMap((k) => REFERENCE_POSITIONS.map((p) => p.place(k.text, k.value)));
  const data = sharedDataDir();
  const real: Record<string, unknown> = {};
  for (const [name, rel, filter] of REAL) {
    if (data === undefined) break;
    const path = join(data, rel);
    const files = filter ? walkFiles(path, filter) : [path];
    real[name] = { files: files.length, ...(await realFile(files.map(readText).join('\n'))) };
  }
  const adversarial: Record<string, unknown> = {};
  for (const [name, unit] of SECRETLINT_ADVERSARIAL) adversarial[name] = await growth(unit);
  return {
    seed,
    cells: cells.length,
    foundBySource: bySource,
    foundByPosition: byPosition,
    foundByKind: byKind,
    secretlintOnly,
    falsePositives: await secretlintFalsePositives(seed),
    speedOnPlanted: await speedOn(docs),
    real: data === undefined ? 'skipped: ../shared/data is absent' : real,
    adversarial,
  };
}

const suite: BenchSuite = {
  name: 'secretlint-compare',
  async run(): Promise<BenchResult[]> {
    const m = await measureSecretlint();
    const { secretlint, rearview } = m.speedOnPlanted;
    return [
      {
        name: 'secretlint-compare/planted',
        medianMs: secretlint.wallMs,
        runs: 3,
        mbPerSec: secretlint.mbPerSec,
        rearviewMs: rearview.wallMs,
        ...m,
      },
    ];
  },
};
export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await measureSecretlint(), null, 2));
}
