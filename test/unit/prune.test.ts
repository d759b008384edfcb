/** pruneTrajectory: each category, what is never removed, the masking window and cache-friendly mode. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isErrorLine,
  parsePatch,
  patchProtection,
  prefixRetention,
  pruneTrajectory,
  viewLineNumber,
} from '../../lib/compress/index';
import { pathMatcher } from '../../lib/compress/patch';
import { editedFile } from '../../lib/compress/prune-rules';
import type { Step } from '../../lib/transcript/index';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';

const step = (index: number, action: string, observation: string, extra: Partial<Step> = {}): Step => ({
  index,
  action,
  observation,
  tool: 'bash',
  source: { index },
  ...extra,
});
const numbered = (from: number, to: number, text: (n: number) => string) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${String(from + i).padStart(6)}\t${text(from + i)}`).join(
    '\n',
  );
const pad = (n: number) => Array.from({ length: n }, (_, i) => step(100 + i, 'true', ''));

describe('parsePatch', () => {
  it('finds the files and the line numbers each hunk touches on both sides', () => {
    const diff = [
      'diff --git a/m.py b/m.py',
      '--- a/m.py',
      '+++ b/m.py',
      '@@ -10,4 +10,5 @@ def f():',
      '     a = 1',
      '-    b = 2',
      '+    b = 3',
      '+    c = 4',
      '     d = 5',
    ].join('\n');
    expect(parsePatch(diff)).toEqual([{ path: 'm.py', oldLines: [11], newLines: [11, 12] }]);
    expect(viewLineNumber('    12\tx')).toBe(12);
    expect(viewLineNumber('  7→x')).toBe(7);
    expect(viewLineNumber('x')).toBeUndefined();
  });
});

describe('patchProtection', () => {
  it('reads touched lines of an unnumbered view by position and matches absolute paths', () => {
    const diff = '--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -2,1 +2,1 @@\n-b = 2\n+b = 3';
    const steps = [step(0, 'cat /testbed/pkg/m.py', 'a = 1\nb = 3\nc = 4')];
    const p = patchProtection(
      steps,
      diff,
      (s) => (s.action?.startsWith('cat ') ? s.action.slice(4) : undefined),
      editedFile,
    );
    expect([...p.finalViews]).toEqual([0]);
    expect(p.lines.has('b = 3')).toBe(true);
    expect(p.lines.has('a = 1')).toBe(false);
    expect(pathMatcher(['pkg/m.py'])('/testbed/pkg/m.py')).toBe('pkg/m.py');
    expect(pathMatcher(['pkg/m.py'])('/testbed/other/m.py')).toBeUndefined();
  });

  it('without a submission, keeps the last Read of a file an Edit changed whole', () => {
    const read = (n: number) =>
      step(
        n,
        JSON.stringify({ file_path: '/r/a.ts' }),
        numbered(1, 30, (k) => `const unrelated${k} = ${k};`),
        {
          tool: 'Read',
        },
      );
    const edit = step(1, JSON.stringify({ file_path: '/r/a.ts', old_string: 'x', new_string: 'y' }), 'ok', {
      tool: 'Edit',
    });
    const steps = [read(0), edit, read(2), ...pad(2)];
    const r = pruneTrajectory(steps);
    expect(r.steps[2]!.observation).toBe(steps[2]!.observation);
    expect(r.steps[0]!.observation).toMatch(/^\[rearview: expired: output of `Read \/r\/a.ts`/);
  });
});

describe('editedFile of a patch', () => {
  const patch =
    '*** Begin Patch\n*** Update File: src/app.js\n@@\n-a\n+b\n*** Add File: src/new.js\n+x\n*** End Patch';
  it("reads the first file a Codex patch updates or adds, as written or through Codex's shell", () => {
    expect(editedFile(step(0, patch, 'Success.', { tool: 'apply_patch' }))).toBe('src/app.js');
    const shell = JSON.stringify({ command: ['bash', '-lc', `apply_patch <<'PATCH'\n${patch}\nPATCH`] });
    expect(editedFile(step(0, shell, 'Success.', { tool: 'shell' }))).toBe('src/app.js');
    const spaced = '*** Begin Patch\n*** Add File: /Users/ana/Ta la/README.md\n+x\n*** End Patch';
    expect(editedFile(step(0, spaced, '', { tool: 'apply_patch' }))).toBe('/Users/ana/Ta la/README.md');
    // A deletion changes no line to keep; a shell call that only prints a patch edits nothing.
    expect(
      editedFile(
        step(0, '*** Begin Patch\n*** Delete File: a.js\n*** End Patch', '', { tool: 'apply_patch' }),
      ),
    ).toBeUndefined();
    expect(
      editedFile(step(0, JSON.stringify({ command: ['cat', 'notes.patch'] }), patch, { tool: 'shell' })),
    ).toBeUndefined();
  });

  it('without a submission, keeps the last view of a file a Codex patch changed', () => {
    const read = (n: number) =>
      step(
        n,
        JSON.stringify({ file_path: 'src/app.js' }),
        numbered(1, 30, (k) => `const unrelated${k} = ${k};`),
        {
          tool: 'Read',
        },
      );
    const steps = [read(0), step(1, patch, 'Success.', { tool: 'apply_patch' }), read(2), ...pad(2)];
    const r = pruneTrajectory(steps);
    expect(r.steps[2]!.observation).toBe(steps[2]!.observation);
    expect(r.steps[0]!.observation).toMatch(/^\[rearview: expired: output of `Read src\/app.js`/);
  });

  it('stays linear on a patch of near misses', () => {
    const make = (n: number) =>
      step(0, `*** Begin Patch\n${'*** Update Fil'.repeat(n)}`, '', { tool: 'apply_patch' });
    expect(editedFile(make(10))).toBeUndefined();
    const g = measureGrowth(editedFile, make, doublings(5_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('pruneTrajectory', () => {
  it('expires a file view superseded by a later full view, naming the step that replaced it', () => {
    const view = numbered(1, 30, (n) => `alpha_${n} = beta(${n})`);
    const steps = [
      step(0, 'cat -n m.py', view),
      step(1, 'cat -n m.py', view.replace('beta(4)', 'gamma(4)')),
      ...pad(1),
    ];
    const r = pruneTrajectory(steps);
    expect(r.steps[0]!.observation).toBe(
      '[rearview: expired: output of `cat -n m.py` (superseded by the view in step 1)]',
    );
    expect(r.steps[1]!.observation).toContain('gamma(4)');
    expect(r.diagnostics.saved.expired).toBeGreaterThan(0);
    expect(r.diagnostics.steps[0]!.lost).toEqual([
      'expired: output of `cat -n m.py` (superseded by the view in step 1)',
    ]);
  });

  it('expires an earlier run of a command, keeping only the error lines the last run does not show', () => {
    const log = Array.from({ length: 30 }, (_, i) => `tests/t.py::case_${i} collected and run`).join('\n');
    const first = `${log}\nAssertionError: only in the first run\nE   assert 1 == 2\nsome log line here`;
    const last = `${log}\nE   assert 1 == 2\n1 failed`;
    const r = pruneTrajectory([step(0, 'pytest t.py', first), step(1, 'pytest t.py', last), ...pad(1)]);
    const kept = r.steps[0]!.observation!;
    expect(kept).toContain('AssertionError: only in the first run');
    expect(kept).not.toContain('E   assert 1 == 2');
    expect(kept).not.toContain('some log line');
    expect(r.steps[1]!.observation).toBe(last);
  });

  it('expires a directory listing once a file in it is opened', () => {
    const listing = ['README.md', 'setup.py', 'src', 'tests', 'tox.ini', 'docs', 'CHANGELOG.md', 'LICENSE']
      .map((f) => `-rw-r--r-- 1 root root 4096 Nov 24 12:00 ${f}`)
      .join('\n');
    const r = pruneTrajectory([step(0, 'ls -la', listing), step(1, 'cat setup.py', 'print(1)'), ...pad(2)]);
    expect(r.steps[0]!.observation).toMatch(
      /^\[rearview: expired: output of `ls -la` \(a listed file was opened in step 1\)\]$/,
    );
  });

  it('points a (nearly) identical output at the earlier one', () => {
    const out = (ms: number) =>
      `server started on port 8080 after ${ms} ms, waiting for requests from clients on every interface now`;
    const r = pruneTrajectory([step(0, 'node a.js', out(12)), step(1, 'node b.js', out(15)), ...pad(2)]);
    expect(r.steps[1]!.observation).toBe('[rearview: redundant: same output as step 0]');
    expect(r.steps[0]!.observation).toBe(out(12));
  });

  it('removes progress bars, install logs, passing-test tables and repeated frames as redundant', () => {
    const out = [
      'Collecting numpy',
      '  Downloading numpy-1.26.whl (18 MB)',
      '     ━━━━━━━━━━━━━━━━━━━━━━━━━ 18.2/18.2 MB 40.1 MB/s eta 0:00:00',
      'Successfully installed numpy-1.26',
      'tests/test_a.py::test_one PASSED',
      'tests/test_a.py::test_two PASSED',
      'tests/test_a.py::test_three PASSED',
      'Traceback (most recent call last):',
      '  File "r.py", line 3, in f',
      '    return f(n - 1)',
      '  File "r.py", line 3, in f',
      '    return f(n - 1)',
      'RecursionError: maximum recursion depth exceeded',
    ].join('\n');
    const r = pruneTrajectory([step(0, 'make all', out), ...pad(2)]);
    const kept = r.steps[0]!.observation!;
    expect(kept).not.toContain('Downloading');
    expect(kept).not.toContain('test_two PASSED');
    expect(kept.split('  File "r.py", line 3, in f').length).toBe(2);
    expect(kept).toContain('RecursionError: maximum recursion depth exceeded');
    expect(kept).toContain('Traceback (most recent call last):');
    expect(r.diagnostics.saved.redundant).toBeGreaterThan(0);
    expect(r.diagnostics.saved.useless).toBe(0);
  });

  it('removes lines of a long output that no later thought or action mentions', () => {
    const out = Array.from({ length: 20 }, (_, i) => `config_key_${i} = setting_${i}`).join('\n');
    const steps = [
      step(0, 'cat settings.ini', out),
      step(1, 'grep config_key_7 app.py', 'app.py: use config_key_7', {
        thought: 'config_key_7 is the culprit',
      }),
      ...pad(2),
    ];
    const kept = pruneTrajectory(steps).steps[0]!.observation!;
    expect(kept).toContain('config_key_7 = setting_7');
    expect(kept).not.toContain('config_key_3 = setting_3');
    expect(kept).toContain('[rearview: 7 useless lines removed]');
  });

  it('masks outputs older than the window, keeping their error lines and naming the command', () => {
    const out = Array.from({ length: 5 }, (_, i) => `row ${i} of the table`).join('\n');
    const steps = [step(0, 'python run.py', `${out}\nValueError: bad row`), ...pad(5)];
    const r = pruneTrajectory(steps, { window: 5 });
    expect(r.steps[0]!.observation).toBe(
      '[rearview: masked: 6 lines of output of `python run.py`; re-run it to see them]\nValueError: bad row',
    );
    expect(pruneTrajectory(steps, { window: 6 }).steps[0]!.observation).toBe(steps[0]!.observation);
  });

  it('never removes the lines the final patch touches nor the last view of a patched file', () => {
    const view = numbered(1, 40, (n) => `x_${n} = compute(${n})`);
    const diff = '--- a/m.py\n+++ b/m.py\n@@ -20,1 +20,1 @@\n-x_20 = compute(20)\n+x_20 = compute(21)';
    const steps = [
      step(0, 'nl -ba m.py', view),
      step(1, "sed -i 's/compute(20)/compute(21)/' m.py", ''),
      step(2, 'nl -ba m.py', view.replace('compute(20)', 'compute(21)')),
      ...pad(6),
    ];
    const r = pruneTrajectory(steps, { submission: diff, window: 2 });
    expect(r.steps[0]!.observation).toContain('x_20 = compute(20)');
    expect(r.steps[0]!.observation).not.toContain('x_19 = compute(19)');
    expect(r.steps[2]!.observation).toBe(steps[2]!.observation);
  });

  it('keeps every distinct error line, on any trajectory', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'ValueError: bad',
        'E   assert 0',
        'ok',
        'PASSED',
        'Collecting x',
        '  File "a.py", line 1, in f',
      ),
      fc.string({ maxLength: 20 }),
    );
    const stepArb = fc.record({
      action: fc.constantFrom('pytest', 'cat -n a.py', 'ls', 'python r.py', 'cat a.py'),
      observation: fc.array(line, { maxLength: 15 }).map((l) => l.join('\n')),
    });
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 12 }), fc.option(fc.nat(6)), (raw, window) => {
        const steps = raw.map((s, i) => step(i, s.action, s.observation));
        const errors = (ss: readonly Step[]) =>
          new Set(
            ss.flatMap((s) => (s.observation ?? '').split('\n').filter((l) => l.trim() && isErrorLine(l))),
          );
        const kept = errors(pruneTrajectory(steps, window === null ? {} : { window }).steps);
        for (const e of errors(steps)) expect(kept.has(e) || [...kept].some((k) => k.includes(e))).toBe(true);
      }),
    );
  });

  it('in cache-friendly mode rewrites a step once, when it leaves the window', () => {
    const stepArb = fc.record({
      action: fc.constantFrom('pytest', 'cat -n a.py', 'ls', 'python r.py', "sed -i 's/a/b/' a.py"),
      observation: fc.array(fc.constantFrom('a.py', 'Error: x', 'value_1 = 2', 'PASSED', 'row'), {
        maxLength: 14,
      }),
    });
    // Counted so the property cannot pass by never rewriting anything.
    let rewrites = 0;
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 14 }), fc.integer({ min: 1, max: 4 }), (raw, window) => {
        const steps = raw.map((s, i) => step(i, s.action, s.observation.join('\n')));
        let previous: readonly Step[] = [];
        for (let t = 1; t <= steps.length; t++) {
          const current = pruneTrajectory(steps.slice(0, t), { window, cacheFriendly: true }).steps;
          for (let i = 0; i < previous.length; i++)
            if (previous[i]!.observation !== current[i]!.observation) {
              rewrites++;
              expect(i).toBe(t - window - 1);
            }
          previous = current;
        }
      }),
    );
    expect(rewrites).toBeGreaterThan(0);
  });

  it('is deterministic and leaves thoughts and actions alone', () => {
    const steps = [step(0, 'ls', 'a.py\nb.py', { thought: 'look' }), step(1, 'cat a.py', 'x = 1'), ...pad(2)];
    const a = pruneTrajectory(steps, { window: 1 });
    expect(pruneTrajectory(steps, { window: 1 })).toEqual(a);
    expect(a.steps.map((s) => [s.thought, s.action])).toEqual(steps.map((s) => [s.thought, s.action]));
  });
});

describe('pruneTrajectory in linear time', () => {
  // One long line of an old observation goes through the noise and passing-test rules: `\d+…B/s` was
  // tried from each digit and `\s*(?:[…])?\s*$` split a run of spaces every way (3.1 s on a 40 KB line
  // of digits, 3.6 s on 80 KB of spaces after `a.py .`).
  it.each([
    ['a line of digits', (n: number) => fill(n, '0')],
    ['a test file row, then spaces', (n: number) => fill(n, ' ', 'a.py . ', 'x')],
  ])('on an observation of %s', (_name, make) => {
    const built = new Map<string, Step[]>();
    const steps = (obs: string) => [step(0, 'pytest', obs), ...pad(12)];
    const g = measureGrowth(
      (obs: string) => pruneTrajectory(built.get(obs) ?? built.set(obs, steps(obs)).get(obs)!, { window: 1 }),
      make,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
  // `sed -iiii…`: the file is the last word, found once (the regex read the line again for each `i`,
  // 11 s on 160 KB).
  it('finds the file of a sed with a long run of flags', () => {
    expect(editedFile(step(0, `sed -${'i'.repeat(50)} 's/a/b/' m.py`, ''))).toBe('m.py');
    const g = measureGrowth(
      (line: string) => editedFile(step(0, line, '')),
      (n) => fill(n, 'i', 'sed -', "'"),
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  // A listing whose line is a long run of slashes before its name: each line's name dropped its
  // trailing slashes with `/\/+$/`, which read the run again from each slash (11 s on 160 KB).
  it('on a listing line of slashes', () => {
    const steps = (line: string) => [
      step(0, 'ls', line),
      step(1, 'cat a.py', 'x = 1'),
      step(2, 'echo done', 'x'),
    ];
    const built = new Map<string, Step[]>();
    const g = measureGrowth(
      (line: string) => pruneTrajectory(built.get(line) ?? built.set(line, steps(line)).get(line)!),
      (n) => fill(n, '/', '', 'x/'),
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('prefixRetention', () => {
  it('counts the whole previous context as cached when nothing is rewritten', () => {
    const steps = [step(0, 'a', 'one'), step(1, 'b', 'two'), step(2, 'c', 'three')];
    const r = prefixRetention(steps, (p) => p);
    expect(r).toMatchObject({ calls: 2, retainedPercent: 100, observationSavedPercent: 0 });
  });

  it('loses the prefix from the first rewritten step on', () => {
    const steps = [step(0, 'a', 'one'), step(1, 'b', 'two'), step(2, 'c', 'three'), step(3, 'd', 'four')];
    const r = prefixRetention(steps, (p) =>
      p.map((s, i) => (i === 0 && p.length === 3 ? { ...s, observation: '' } : s)),
    );
    expect(r.retainedPercent).toBeLessThan(100);
    expect(r.retainedTokens).toBeLessThan(r.contextTokens);
    expect(r.observationTokensAfter).toBeLessThan(r.observationTokensBefore);
  });
});
