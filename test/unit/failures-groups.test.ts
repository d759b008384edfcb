/**
 * Failure lessons of rearview/heuristic: one class per tool and error class across runs, each paired
 * with the later call that worked and what changed — or, without one, what failed and how often —
 * and the rule a fix makes (or does not).
 */
import { failureLesson, failureRule, fixText, groupFailures, judgeFailure } from 'rearview/failures';
import { describe, expect, it } from 'vitest';
import { TOO_BIG } from './failures-helpers';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';

describe('groupFailures and failureLesson', () => {
  // The fix is a changed command whose first line holds a long run of spaces and no `&&` or `;`: its
  // setup parts were split with a regex that tried `\s*` from every space (8.4 s on 80 KB).
  it('compares commands with a long run of spaces in linear time', () => {
    const runOf = (cmd: string) => ({
      id: 'r',
      steps: [
        { tool: 'Bash', action: cmd, error: 'error: no' },
        { tool: 'Bash', action: `cd app && ${cmd}` },
      ],
    });
    expect(groupFailures([runOf(fill(300, ' ', 'make', 'b'))])[0]!.fix?.change).toBe('first run `cd app`');
    const built = new Map<string, ReturnType<typeof runOf>>();
    const g = measureGrowth(
      (cmd: string) => groupFailures([built.get(cmd) ?? built.set(cmd, runOf(cmd)).get(cmd)!]),
      (n) => fill(n, ' ', 'make', 'b'),
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('writes no rule for a fix that names no change, and says only that a changed call worked', () => {
    const c = {
      tool: 'Bash',
      errorClass: 'x failed',
      subject: '',
      occurrences: [{ run: 'r', step: 1, ref: 'a' }],
      runs: 1,
      fix: { step: 2, run: 'r', ref: 'b', kind: 'changed' as const, change: '', parts: [] },
    };
    expect(failureRule(c)).toBeUndefined();
    expect(failureLesson(c)).toBe('`Bash` fails with "x failed": a changed call worked (step 2).');
    // A retry and an unseen input name no change either; a change makes the rule.
    expect(failureRule({ ...c, fix: { ...c.fix, kind: 'retry' as const } })).toBeUndefined();
    expect(
      failureRule({ ...c, fix: { ...c.fix, kind: 'unseen' as const, change: 'add `-x`' } }),
    ).toBeUndefined();
    expect(failureRule({ ...c, fix: { ...c.fix, change: 'add `-x`' } })).toBe(
      'When `Bash` fails with "x failed": add `-x`.',
    );
  });

  it('states the fix that worked: arguments passed, with its step', () => {
    const [c, ...rest] = groupFailures([
      {
        id: 'r',
        steps: [
          { tool: 'Read', action: '{"file_path":"big.ts"}', error: TOO_BIG(30000) },
          { tool: 'Grep', action: '{"pattern":"x"}' },
          { tool: 'Read', action: '{"file_path":"big.ts","offset":1,"limit":500}' },
        ],
      },
    ]);
    expect(rest).toEqual([]);
    expect(c!.fix).toMatchObject({
      step: 3,
      kind: 'changed',
      change: 'pass `offset`/`limit`',
      ref: 'trajectory:r:event:2',
    });
    expect(failureLesson(c!)).toBe(
      'When `Read` fails with "File content (N tokens) exceeds maximum allowed tokens (N). Please use offset and limit parameters.": pass `offset`/`limit`.',
    );
  });

  it('pairs a shell failure with the next success of the same command, flags added', () => {
    const [c] = groupFailures([
      {
        id: 's',
        steps: [
          {
            tool: 'Bash',
            action: '{"command":"git push 2>&1"}',
            error: 'Exit code 128\nfatal: The current branch feat-x has no upstream branch.',
          },
          { tool: 'Bash', action: '{"command":"ls"}' },
          { tool: 'Bash', action: '{"command":"git push --set-upstream origin feat-x 2>&1"}' },
        ],
      },
    ]);
    expect(failureLesson(c!)).toBe(
      'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.',
    );
  });

  it("finds Windows' `npm.cmd` as the fix for PowerShell's refusal of `npm.ps1`", () => {
    const refused =
      'npm : File C:\\Program Files\\nodejs\\npm.ps1 cannot be loaded because running scripts is disabled on this system.';
    const [c] = groupFailures([
      {
        id: 's',
        steps: [
          { tool: 'run_command', action: '{"CommandLine":"npm install"}', error: refused },
          { tool: 'run_command', action: '{"CommandLine":"npm.cmd install"}' },
        ],
      },
    ]);
    expect(failureLesson(c!)).toBe(
      'When `run_command` (npm install) fails with "File <path> cannot be loaded because running scripts is disabled on this system.": run `npm.cmd` instead of `npm`.',
    );
    // Antigravity quotes its command lines; the fix there was Windows' shell.
    const [d] = groupFailures([
      {
        id: 't',
        steps: [
          {
            tool: 'run_command',
            action: '{"CommandLine":"\\"npx -y create-vite --help\\""}',
            error: refused,
          },
          { tool: 'run_command', action: '{"CommandLine":"\\"cmd /c npx -y create-vite --help\\""}' },
        ],
      },
    ]);
    expect(failureLesson(d!)).toBe(
      'When `run_command` (npx create-vite) fails with "File <path> cannot be loaded because running scripts is disabled on this system.": run it through `cmd /c`.',
    );
    // Each fix as parts a program reads: another name of the program, and a shell wrapped around.
    expect(c!.fix).toMatchObject({
      parts: [{ kind: 'program', values: ['npm.cmd', 'npm'] }],
    });
    expect(d!.fix).toMatchObject({ parts: [{ kind: 'wrapper', values: ['cmd /c'] }] });
    // Both are rules, not one-off arguments: each is a key point.
    for (const x of [c!, d!]) {
      expect(x.fix).toMatchObject({ kind: 'changed' });
      const fix = x.fix as { change: string; parts: Parameters<typeof fixText>[0] };
      // The words a person reads are the parts' words (`fixText`), which `judgeFailure` reads back.
      expect(fixText(fix.parts)).toBe(fix.change);
      expect(judgeFailure(x.errorClass, { parts: fix.parts })).toBeUndefined();
      expect(judgeFailure(x.errorClass, fix.change)).toBeUndefined();
    }
  });

  it('compares the flags of the command that failed, not of the commands chained after it', () => {
    const [c] = groupFailures([
      {
        id: 'r',
        steps: [
          {
            tool: 'Bash',
            action: 'rsync -a --no-dereference ~/.claude/ app/.claude/ && rm -rf ~/.claude',
            error: "Exit code 1\nrsync: unrecognized option `--no-dereference'",
          },
          { tool: 'Bash', action: 'rsync -a ~/.claude/ app/.claude/ && rm -rf ~/.claude && ls -la app' },
        ],
      },
    ]);
    // Read over the whole line, `ls -la` gave "add `-la`" beside the flag that was dropped.
    expect(c!.fix?.parts).toEqual([{ kind: 'drop-flag', values: ['--no-dereference'] }]);
  });

  it('credits no flag another failed call of the same failure had (added) or lacked (dropped)', () => {
    const error = 'Error: No value for required variable';
    const run = (steps: { action: string; error?: string }[]) =>
      groupFailures([{ id: 'r', steps: steps.map((s) => ({ tool: 'Bash', ...s })) }])[0]!.fix;
    // `-out` was on a failing call too: `-chdir` is what worked.
    expect(
      run([
        { action: 'terraform plan', error },
        { action: 'terraform plan -out p.tfplan -var-file dev.tfvars', error },
        { action: 'terraform -chdir=infra plan -out p.tfplan' },
      ])?.parts,
    ).toEqual([{ kind: 'add-flag', values: ['-chdir'] }]);
    // Dropping `-var-file` did not help the call that had none: only `-chdir` is credited.
    expect(
      run([
        { action: 'terraform plan -var-file=dev.tfvars', error },
        { action: 'terraform plan -out p.tfplan', error },
        { action: 'terraform -chdir=infra plan' },
      ])?.change,
    ).toBe('add `-chdir`');
    // Every flag of the working call was tried by a failed one: no change is credited.
    const none = run([
      { action: 'terraform plan', error },
      { action: 'terraform plan -refresh=false', error },
      { action: 'terraform plan -refresh=false' },
    ]);
    expect(none?.kind).toBe('retry');
    expect(none?.change).toBe('');
  });

  it('groups one class across runs, counts every occurrence, and never invents a fix', () => {
    const run = (id: string, branch: string) => ({
      id,
      steps: [
        {
          tool: 'Bash',
          action: 'git push',
          error: `fatal: The current branch ${branch} has no upstream branch.`,
        },
      ],
    });
    const classes = groupFailures([run('a', 'one'), run('b', 'two-2')]);
    expect(classes).toHaveLength(1);
    expect(classes[0]).toMatchObject({
      runs: 2,
      occurrences: [
        { run: 'a', step: 1 },
        { run: 'b', step: 1 },
      ],
    });
    expect(classes[0]!.fix).toBeUndefined();
    expect(failureLesson(classes[0]!)).toBe(
      '`Bash` `git push` failed with "fatal: The current branch <name> has no upstream branch." twice in 2 runs; no later call succeeded.',
    );
  });

  it('another tool on the same target, a retry, and calls the user declined', () => {
    const classes = groupFailures([
      {
        id: 'x',
        steps: [
          {
            tool: 'Edit',
            action: '{"file_path":"a.ts","old_string":"x"}',
            error: 'String to replace not found in file.',
          },
          { tool: 'Write', action: '{"file_path":"a.ts","content":"y"}' },
          { tool: 'Bash', action: '{"command":"npm test"}', error: 'Exit code 1\n3 failed, 2 passed' },
          { tool: 'Bash', action: '{"command":"npm test"}' },
          {
            tool: 'Glob',
            action: '{"pattern":"*"}',
            error: "The user doesn't want to proceed with this tool use.",
          },
        ],
      },
    ]);
    expect(classes.map((c) => [c.tool, c.fix?.kind, c.fix?.change])).toEqual([
      ['Edit', 'other-tool', 'use `Write` instead'],
      ['Bash', 'retry', ''],
    ]);
    expect(failureLesson(classes[1]!)).toContain(
      'the same command later succeeded with no change rearview can name (step 4)',
    );
  });
});
