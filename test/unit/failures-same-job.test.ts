/**
 * A later call that worked is a failure's fix only when it did the failed call's job: another
 * subcommand, file, pattern or message, `--help`, or another program is no fix (`other-job`), and the
 * search goes on to a later call that did the job. Values fixed in place (a path made right, a quoted
 * path, a package's full name, a Windows switch) still count. The same command run through a package
 * runner (`npx vercel deploy` after `vercel deploy`) did the same job. The commands here are invented;
 * the rule's figures on the shared data are in eval/failures/fix-audit.ts.
 */
import { groupFailures, reflectFromTrajectories } from 'rearview/failures';
import { lessons } from 'rearview/session';
import { describe, expect, it } from 'vitest';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

type Call = { tool?: string; action: string; error?: string };
const run = (...steps: Call[]) => ({ id: 'r', steps: steps.map((s) => ({ tool: 'Bash', ...s })) });
const fixOf = (...steps: Call[]) => groupFailures([run(...steps)])[0]?.fix;

describe('another job is no fix', () => {
  it('reads another subcommand, script, branch or file as another job', () => {
    const pairs: [string, string][] = [
      ['gt deacon start', 'gt deacon status'],
      ['npm run test:e2e', 'npm run lint'],
      ['git push -u origin main', 'git push -u origin feature-x'],
      ['sed -n 1,80p src/components/Grid.tsx', 'sed -n 1,80p src/services/logger.ts'],
      ['git commit -m "Fix flaky CI job"', 'git commit -m "Update README badges"'],
      ['grep -n "plutil" fixtures/Books.plist', 'grep -n "itemName" fixtures/Books.plist'],
      ['pytest tests/test_axes.py -k test_hist_density', 'pytest tests/test_axes.py -k test_bar_width'],
    ];
    for (const [failed, later] of pairs) {
      const fix = fixOf({ action: failed, error: 'Error: it failed' }, { action: later });
      expect(fix?.kind, `${failed} → ${later}`).toBe('other-job');
      expect(fix?.change).toBe('');
      expect(fix?.parts).toEqual([]);
    }
  });

  it('reads asking for --help, or a setup step before another program, as another job', () => {
    expect(
      fixOf(
        { action: 'uv venv --path .env', error: 'error: unexpected argument' },
        { action: 'uv venv --help' },
      )?.kind,
    ).toBe('other-job');
    expect(
      fixOf({ action: 'mytool build -p x', error: 'error: bad -p' }, { action: 'mytool build help' })?.kind,
    ).toBe('other-job');
    // A venv activated first, then other tests run: the setup step is not what made it work.
    const fix = fixOf(
      { action: 'pytest tests/io_test.py::test_export', error: 'command not found: pytest' },
      { action: 'source .venv/bin/activate && pytest tests/db_test.py::test_import' },
    );
    expect(fix?.kind).toBe('other-job');
    // The same tests after the setup step: the step is the fix.
    expect(
      fixOf(
        { action: 'pytest tests/io_test.py::test_export', error: 'command not found: pytest' },
        { action: 'source .venv/bin/activate && pytest tests/io_test.py::test_export' },
      )?.change,
    ).toBe('first run `source .venv/bin/activate`');
  });

  it('keeps a value fixed in place as the fix', () => {
    const pairs: [string, string, string][] = [
      ['cat ../proj/README.md', 'cat README.md', 'change `../proj/README.md` to `README.md`'],
      ['brew install postgres', 'brew install postgresql@16', 'change `postgres` to `postgresql@16`'],
      ['node "C:\\Users\\Ana Lee\\app\\send.mjs"', 'node send.mjs', 'change `"C:\\Users\\Ana` to `send.mjs`'],
      ['taskkill /IM proxy.exe /F', 'taskkill /FI "WINDOWTITLE eq proxy" /F', 'change `/IM` to `/FI`'],
      ['npx create-vite ./ --template react', 'npx create-vite app --template react', 'change `./` to `app`'],
      ['pytest specs/cli_spec.py::describe_list', 'pytest specs/cli_spec.py::describe_list::it_lists', ''],
    ];
    for (const [failed, later, change] of pairs) {
      const fix = fixOf({ action: failed, error: 'Error: it failed' }, { action: later });
      expect(fix?.kind, `${failed} → ${later}`).toBe('changed');
      if (change) expect(fix?.change).toBe(change);
    }
    // The same program under another name: a venv's `pytest` for `pytest`.
    expect(
      fixOf({ action: 'pytest -q', error: 'command not found: pytest' }, { action: '.venv/bin/pytest -q' })
        ?.kind,
    ).toBe('changed');
  });

  it('looks past another job to a later call that did the job', () => {
    const fix = fixOf(
      { action: 'gt deacon start', error: 'Error: session already running' },
      { action: 'gt deacon status' },
      { action: 'gt deacon logs' },
      { action: 'gt deacon start --replace' },
    );
    expect(fix).toMatchObject({ kind: 'changed', change: 'add `--replace`', step: 4, failedStep: 1 });
  });

  it('names the failed call each fix answers, when the class failed more than once', () => {
    const fix = fixOf(
      { action: 'gt deacon start', error: 'Error: session already running' },
      { action: 'gt deacon start' },
      { action: 'gt deacon start --verbose', error: 'Error: session already running' },
      { action: 'gt deacon start --replace' },
    );
    // The first failure's fix was a retry (step 2, no change named); the second's names the change.
    expect(fix).toMatchObject({ kind: 'changed', step: 4, failedStep: 3 });
  });

  it('gives up after eight calls of another job, with the first of them', () => {
    const others = Array.from({ length: 8 }, (_, i) => ({ action: `gt deacon status${i}` }));
    const fix = fixOf({ action: 'gt deacon start', error: 'Error: busy' }, ...others, {
      action: 'gt deacon start --replace',
    });
    expect(fix).toMatchObject({ kind: 'other-job', step: 2 });
  });

  it('says so in the lesson and the tags, and proposes no key point', () => {
    const steps = [
      { tool: 'Bash', action: 'npm run test:e2e', error: 'Error: no display' },
      { tool: 'Bash', action: 'npm run lint' },
    ];
    const [insight] = reflectFromTrajectories([{ id: 't', steps }], { allOutcomes: true });
    expect(insight!.tags).toEqual(['tool_failure', 'tool:Bash', 'other_job']);
    expect(insight!.recommendation).toBe(
      '`Bash` `npm run` failed with "no display" once; later calls on it worked (from step 2) but did something else, so what would have fixed it is not known.',
    );
    expect(insight!.fact).not.toContain('a changed call worked');
    expect(lessons({ messages: [], trajectories: [{ id: 't', steps }] }).proposed).toEqual([]);
  });

  it('compares a changed argument of any size in linear time', () => {
    // A quoted argument is read back whole from its command, up to 512 characters.
    const runOf = (n: number) =>
      run(
        { action: `tool "${'ab '.repeat(n)}x"`, error: 'Error: no' },
        { action: `tool "${'ab '.repeat(n)}y" z` },
      );
    // Two long messages that differ at their end are two messages: another job.
    expect(groupFailures([runOf(10)])[0]!.fix).toMatchObject({ kind: 'other-job', failedStep: 1 });
    const g = measureGrowth((r: ReturnType<typeof runOf>) => groupFailures([r]), runOf, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('a package runner, a versioned program name', () => {
  it('reads the same command run through npx, bunx, pnpm dlx or yarn dlx as the fix', () => {
    const cases: [string, string, string][] = [
      ['vercel deploy --prod', 'npx vercel deploy --prod', 'run it through `npx`'],
      ['vercel --version', 'npx -y vercel --version', 'run it through `npx -y`'],
      ['cd web && vercel deploy', 'cd web && npx vercel deploy --prod', 'run it through `npx`, add `--prod`'],
      ['prisma generate', 'pnpm dlx prisma generate', 'run it through `pnpm dlx`'],
      ['tsc --noEmit', 'bunx tsc --noEmit', 'run it through `bunx`'],
      // A bare assignment is a setup step here too, as commandHead reads it.
      [
        'PATH=/opt/node/bin:$PATH && vercel deploy',
        'PATH=/opt/node/bin:$PATH && npx vercel deploy',
        'run it through `npx`',
      ],
    ];
    for (const [failed, later, change] of cases) {
      const fix = fixOf({ action: failed, error: 'zsh:1: command not found: vercel' }, { action: later });
      expect(fix, `${failed} → ${later}`).toMatchObject({ kind: 'changed', change });
    }
    // Another program through the runner is not the same command.
    expect(
      fixOf(
        { action: 'vercel deploy', error: 'command not found: vercel' },
        { action: 'npx netlify deploy' },
      ),
    ).toBe(undefined);
  });

  it('reads the program under its versioned name as the same command', () => {
    const cases: [string, string, string][] = [
      ['python app.py', 'python3 app.py', 'run `python3` instead of `python`'],
      ['pip install -r requirements.txt', 'pip3 install -r requirements.txt', 'run `pip3` instead of `pip`'],
      [
        'python -m pytest',
        'source .venv/bin/activate && python3 -m pytest',
        'first run `source .venv/bin/activate`',
      ],
    ];
    for (const [failed, later, change] of cases) {
      const fix = fixOf({ action: failed, error: 'bash: python: command not found' }, { action: later });
      expect(fix, `${failed} → ${later}`).toMatchObject({ kind: 'changed', change });
    }
    // Another script under the versioned name is another target.
    expect(
      fixOf({ action: 'python app.py', error: 'command not found' }, { action: 'python3 other.py' }),
    ).toBe(undefined);
  });

  it('proposes the runner as a standing rule', () => {
    const trajectories = [
      {
        id: 't',
        steps: [
          { tool: 'Bash', action: 'vercel deploy --prod', error: 'zsh:1: command not found: vercel' },
          { tool: 'Bash', action: 'npx vercel deploy --prod' },
        ],
      },
    ];
    expect(lessons({ messages: [], trajectories }).proposed.map((p) => p.text)).toEqual([
      'When `Bash` (vercel deploy) fails with "zsh:N: command not found: vercel": run it through `npx`.',
    ]);
  });
});

describe('files edited between the failure and the call that worked', () => {
  const steps = (between: { tool: string; action: string; error?: string }[]) => [
    {
      tool: 'Bash',
      action: 'pytest tests/test_io.py::test_load',
      error: 'FAILED tests/test_io.py::test_load',
    },
    ...between,
    { tool: 'Bash', action: 'pytest tests/test_io.py::test_load -x' },
  ];

  it('counts the edits that worked, says so in the fact, and lowers the confidence', () => {
    const edited = steps([
      { tool: 'Edit', action: '{"file_path":"src/io.py","old_string":"a","new_string":"b"}' },
      { tool: 'Read', action: '{"file_path":"src/io.py"}' },
      { tool: 'Write', action: '{"file_path":"src/io2.py","content":"x"}' },
      { tool: 'Edit', action: '{"file_path":"src/io.py"}', error: 'String to replace not found in file.' },
    ]);
    const [c] = groupFailures([{ id: 'r', steps: edited }]);
    expect(c!.fix).toMatchObject({ kind: 'changed', change: 'add `-x`', edits: 2 });
    const [insight] = reflectFromTrajectories([{ id: 'r', steps: edited }], { allOutcomes: true });
    expect(insight!.fact).toContain('(a changed call worked at step 6, after 2 file edits)');
    expect(insight!.confidence).toBe('medium');
  });

  it('says nothing of edits when none worked between, and keeps the confidence', () => {
    const plain = steps([{ tool: 'Read', action: '{"file_path":"src/io.py"}' }]);
    const [c] = groupFailures([{ id: 'r', steps: plain }]);
    expect(c!.fix).toMatchObject({ kind: 'changed', change: 'add `-x`' });
    expect(c!.fix).not.toHaveProperty('edits');
    const [insight] = reflectFromTrajectories([{ id: 'r', steps: plain }], { allOutcomes: true });
    expect(insight!.fact).toContain('(a changed call worked at step 3)');
    // A standing rule with only a read between: high confidence, as before edits were counted.
    const push = [
      { tool: 'Bash', action: 'git push', error: 'fatal: The current branch main has no upstream branch.' },
      { tool: 'Read', action: '{"file_path":"README.md"}' },
      { tool: 'Bash', action: 'git push --set-upstream origin main' },
    ];
    const [rule] = reflectFromTrajectories([{ id: 't', steps: push }], { allOutcomes: true });
    expect(rule!.confidence).toBe('high');
    expect(rule!.fact).toBe(
      'Tool `Bash` failed once with "fatal: The current branch <name> has no upstream branch." (a changed call worked at step 3)',
    );
  });

  it('still proposes a standing rule found after an edit', () => {
    const trajectories = [
      {
        id: 't',
        steps: [
          {
            tool: 'Bash',
            action: 'git push',
            error: 'fatal: The current branch main has no upstream branch.',
          },
          { tool: 'Edit', action: '{"file_path":"README.md"}' },
          { tool: 'Bash', action: 'git push --set-upstream origin main' },
        ],
      },
    ];
    const [insight] = reflectFromTrajectories(trajectories, { allOutcomes: true });
    expect(insight!.confidence).toBe('medium');
    expect(insight!.fact).toContain('after a file edit');
    expect(lessons({ messages: [], trajectories }).proposed.map((p) => p.text)).toEqual([
      'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.',
    ]);
  });
});
