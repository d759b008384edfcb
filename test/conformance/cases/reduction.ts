import { parsePatch, prefixRetention, pruneTrajectory } from 'rearview/compress';
import type { Step } from 'rearview/transcript';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

const view = (from: number, to: number, edit?: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) =>
      `${String(from + i).padStart(6)}\tvaleur_${from + i} = café(${from + i === edit ? 'é' : from + i})`,
  ).join('\n');

const steps: Step[] = [
  {
    index: 0,
    action: 'ls -la',
    observation: ['README.md', 'm.py', 'tests', 'setup.cfg', 'tox.ini', 'docs']
      .map((f) => `-rw-r--r-- 1 u u 10 ${f}`)
      .join('\n'),
    source: { index: 0 },
  },
  { index: 1, action: 'nl -ba m.py', observation: view(1, 30), source: { index: 1 } },
  {
    index: 2,
    action: 'pip install -e .',
    observation: `Collecting café\n  Downloading café-1.0.whl (18 kB)\n${'━'.repeat(30)} 18/18 kB\nSuccessfully installed café-1.0\n${Array.from({ length: 12 }, (_, i) => `note ${i} ☕ sans intérêt`).join('\n')}`,
    source: { index: 2 },
  },
  {
    index: 3,
    action: 'pytest',
    thought: 'valeur_7 est suspecte',
    observation: `${Array.from({ length: 6 }, (_, i) => `tests/t.py::test_${i} PASSED`).join('\n')}\nE   AssertionError: valeur_7 ≠ 8 🐍\nFAILED tests/t.py::test_7`,
    source: { index: 3 },
  },
  { index: 4, action: "sed -i 's/café(7)/café(é)/' m.py", observation: '', source: { index: 4 } },
  { index: 5, action: 'nl -ba m.py', observation: view(1, 30, 7), source: { index: 5 } },
  {
    index: 6,
    action: 'pytest',
    observation: 'E   AssertionError: valeur_7 ≠ 8 🐍\n1 failed in 0.2s',
    source: { index: 6 },
  },
  {
    index: 7,
    action: 'pytest',
    observation: `${'.'.repeat(12)} [100%]\n12 passed in 0.1s`,
    source: { index: 7 },
  },
];
const submission = '--- a/m.py\n+++ b/m.py\n@@ -7,1 +7,1 @@\n-valeur_7 = café(7)\n+valeur_7 = café(é)';

export const reductionCases: ConformanceCase[] = [
  {
    name: 'reduction/pruneTrajectory',
    run() {
      const rules = pruneTrajectory(steps, { submission });
      const masked = pruneTrajectory(steps, { submission, window: 3, minUselessLines: 100 });
      check(rules.steps[3]!.observation!.includes('E   AssertionError: valeur_7 ≠ 8 🐍'), 'error line kept');
      check(
        rules.steps[5]!.observation === steps[5]!.observation,
        'final view of the patched file kept whole',
      );
      check(
        rules.steps[0]!.observation!.startsWith('[rearview: expired'),
        'listing expired once m.py opened',
      );
      check(masked.diagnostics.saved.masked > 0, 'window masks old outputs');
      checkEqual(parsePatch(submission), [{ path: 'm.py', oldLines: [7], newLines: [7] }], 'parsePatch');
      return { rules, masked };
    },
  },
  {
    name: 'reduction/cacheFriendly',
    run() {
      const reduce = (p: readonly Step[]) =>
        pruneTrajectory(p, { submission, window: 2, cacheFriendly: true }).steps;
      const cache = prefixRetention(steps, reduce);
      const full = prefixRetention(steps, (p) => pruneTrajectory(p, { submission, window: 2 }).steps);
      check(cache.retainedPercent >= full.retainedPercent, 'cache-friendly keeps at least as much prefix');
      return { cache, full, steps: reduce(steps) };
    },
  },
];
