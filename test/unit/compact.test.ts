/** compactTrajectory: each rule, its markers, the invariants (error lines, changed lines) and determinism. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compactTrajectory, isErrorLine, renderStep, viewedFile } from '../../lib/compress/index';
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
const file = (from: number, to: number, changed?: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) =>
      `${String(from + i).padStart(6)}\t    value_${from + i} = compute(${from + i})${from + i === changed ? '  # new' : ''}`,
  ).join('\n');
const pad = (n: number) => Array.from({ length: n }, (_, i) => step(100 + i, 'true', ''));

describe('compactTrajectory', () => {
  it('replaces a repeated identical output by a pointer to the first', () => {
    const out = 'collected 12 items\n............\n12 passed in 0.31s and nothing else of note here at all';
    const { steps } = compactTrajectory([step(0, 'pytest', out), step(1, 'pytest', out), ...pad(2)]);
    expect(steps[1]!.observation).toBe('[rearview: same output as step 0]');
    expect(steps[1]!.compacted).toMatchObject({ rules: ['repeat'], removedLines: 3 });
    expect(steps[0]!.compacted).toBeUndefined();
  });

  it('elides lines a later view of the same file shows again, keeping the lines that changed', () => {
    const first = file(1, 30);
    const later = file(1, 30, 12).replace(
      'value_12 = compute(12)  # new',
      'value_12 = compute(12, fast=True)',
    );
    const { steps } = compactTrajectory([
      step(0, 'nl -ba src/m.py', first),
      step(1, "sed -i '12s/12)/12, fast=True)/' src/m.py", ''),
      step(2, 'nl -ba src/m.py', later),
      ...pad(2),
    ]);
    const text = steps[0]!.observation!;
    expect(text).toContain('value_12 = compute(12)'); // the patched line survives
    expect(text).toContain('[rearview: 11 lines shown again in step 2]');
    expect(text).toContain('[rearview: 18 lines shown again in step 2]');
    expect(steps[0]!.compacted!.rules).toEqual(['superseded']);
    expect(steps[2]!.observation).toBe(later);
    expect(viewedFile(steps[0]!)).toBe('src/m.py');
  });

  it('elides a Write result that echoes the written content', () => {
    const content = Array.from({ length: 8 }, (_, i) => `line ${i} of the module`).join('\n');
    const echo = Array.from(
      { length: 8 },
      (_, i) => `${String(i + 1).padStart(6)}→line ${i} of the module`,
    ).join('\n');
    const { steps } = compactTrajectory([
      step(
        0,
        JSON.stringify({ file_path: '/a/m.txt', content }),
        `The file /a/m.txt has been updated:\n${echo}`,
        { tool: 'Write' },
      ),
      ...pad(2),
    ]);
    expect(steps[0]!.observation).toBe(
      'The file /a/m.txt has been updated:\n[rearview: 8 lines of the content this step writes]',
    );
  });

  it('cuts long outputs to head and tail, keeping every error line and whole tracebacks', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `progress line ${i}`);
    lines[80] = 'Traceback (most recent call last):';
    lines[81] = '  File "x.py", line 3, in <module>';
    lines[82] = '    main()';
    lines[83] = 'ValueError: bad input';
    lines[120] = 'ERROR tests/test_a.py::test_b - AssertionError';
    const { steps } = compactTrajectory([step(0, 'python run.py', lines.join('\n')), ...pad(2)]);
    const out = steps[0]!.observation!.split('\n');
    expect(out.slice(0, 15)).toEqual(lines.slice(0, 15));
    expect(out.slice(-10)).toEqual(lines.slice(-10));
    for (const l of lines.slice(80, 84)) expect(out).toContain(l);
    expect(out).toContain(lines[120]);
    expect(out).toContain('[rearview: 65 lines removed]');
    expect(steps[0]!.compacted!.rules).toEqual(['truncated']);
  });

  it('never cuts file views or code to head and tail (a patch may touch any line)', () => {
    const view = file(1, 120);
    const code = `${file(1, 120)}\n   121\t    done()`;
    const { steps } = compactTrajectory([
      step(0, 'cat -n big.py', view),
      step(1, 'python -c "show()"', code),
      ...pad(2),
    ]);
    expect(steps[0]!.observation).toBe('[rearview: 120 lines shown again in step 1]');
    expect(steps[1]!.observation).toBe(code); // code-like output of an unrecognised command: never cut
  });

  it('collapses runs of an identical line and cuts very long lines', () => {
    const out = ['start', ...Array(50).fill('WARNING: deprecated'), 'x'.repeat(5000), 'end'].join('\n');
    const { steps } = compactTrajectory([step(0, 'make', out), ...pad(2)]);
    const text = steps[0]!.observation!;
    expect(text).toContain('WARNING: deprecated\n[rearview: previous line repeated 49 more times]');
    expect(text).toMatch(/\[rearview: 4100 characters removed\]/);
    expect(steps[0]!.compacted!.rules.sort()).toEqual(['long_lines', 'repeated_lines']);
  });

  it('leaves the last keepRecent steps untouched and reports tokens', () => {
    const big = Array.from({ length: 100 }, (_, i) => `row ${i}`).join('\n');
    const r = compactTrajectory([step(0, 'ls', big), step(1, 'ls', `${big}\n`), step(2, 'ls', big)], {
      keepRecent: 1,
    });
    expect(r.steps[2]!.observation).toBe(big);
    expect(r.diagnostics.savedTokens).toBe(r.diagnostics.tokensBefore - r.diagnostics.tokensAfter);
    expect(r.diagnostics.steps.map((s) => s.rules)).toEqual([['truncated'], ['repeat'], []]);
  });

  it('is deterministic and keeps every error line of a real trajectory excerpt', () => {
    const text = readFileSync(new URL('../fixtures/snapshot/steps-excerpt.json', import.meta.url), 'utf8');
    const steps = JSON.parse(text) as Step[];
    const a = compactTrajectory(steps);
    expect(JSON.stringify(a)).toBe(JSON.stringify(compactTrajectory(JSON.parse(text))));
    const kept = a.steps.map(renderStep).join('\n');
    for (const s of steps)
      for (const l of (s.observation ?? '').split('\n')) if (isErrorLine(l)) expect(kept).toContain(l.trim());
    expect(a.diagnostics.savedTokens).toBeGreaterThan(0);
  });
});

describe('isErrorLine in linear time', () => {
  // A long run of word characters with no `Error:` after it: `\w+(?:Error|…):` read the run again from
  // each of its characters (5.2 s on 80 KB).
  it.each([
    ['a long word', (n: number) => fill(n, 'a')],
    ['a long word, then a colon', (n: number) => fill(n, 'a_1', '', 'Errors:')],
  ])('%s', (_name, make) => {
    expect(isErrorLine(make(200))).toBe(false);
    const g = measureGrowth(isErrorLine, make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('compactTrajectory in linear time', () => {
  // A heredoc whose body starts with many blank lines and never closes: the single regex read to the
  // end again for each line break it gave back (3.7 s on 40 KB).
  it('on a heredoc of blank lines without its closing tag', () => {
    const built = new Map<string, Step[]>();
    const steps = (action: string) => [step(0, action, 'x'), step(1, 'ls', 'y')];
    const g = measureGrowth(
      (action: string) =>
        compactTrajectory(built.get(action) ?? built.set(action, steps(action)).get(action)!),
      (n) => fill(n, '\n', 'cat <<EOF > a.py', 'x'),
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});
