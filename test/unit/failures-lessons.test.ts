/**
 * Failure lessons of rearview/heuristic as insights and key points: one insight per class, a search
 * that matched nothing read as an answer, fixes too one-off to be a rule, and a lesson learned again.
 * Regression: a real Claude Code session gave one "Inspect the raw output … before retrying `Bash`"
 * key point per failed call; it now gives one lesson per class, carrying the fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import {
  type FixPart,
  fixText,
  groupFailures,
  judgeFailure,
  reflectFromTrajectories,
  searchFoundNothing,
  stepsFromMessages,
} from 'rearview/failures';
import { memoryStore } from 'rearview/kv';
import { createRearview, lessons } from 'rearview/session';
import { entriesFromMessages } from 'rearview/snapshot';
import { parseTranscript } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';

describe('reflectFromTrajectories', () => {
  it('one insight per class: the lesson as recommendation, every occurrence then the fix in traceRefs', () => {
    const steps = [
      { tool: 'Bash', action: 'make', error: 'make: *** No rule to make target "all". Stop.' },
      { tool: 'Bash', action: 'make', error: 'make: *** No rule to make target "all". Stop.' },
      { tool: 'Bash', action: 'make -C src' },
    ];
    const [insight, ...rest] = reflectFromTrajectories([{ id: 't', steps, outcome: { failed: true } }]);
    expect(rest).toEqual([]);
    expect(insight).toEqual({
      fact: 'Tool `Bash` failed 2 times with "make: No rule to make target "…". Stop." (a changed call worked at step 3)',
      recommendation: 'When `Bash` (make) fails with `make: No rule to make target "…". Stop.`: add `-C`.',
      category: 'anti_pattern',
      confidence: 'high',
      tags: ['tool_failure', 'tool:Bash', 'fix_found', 'recurring'],
      traceRefs: ['trajectory:t:event:0', 'trajectory:t:event:1', 'trajectory:t:event:2'],
    });
    // Solved runs only when asked (the seed's rule), where fixes are found.
    expect(reflectFromTrajectories([{ id: 't', steps, outcome: { failed: false } }])).toEqual([]);
    expect(
      reflectFromTrajectories([{ id: 't', steps, outcome: { failed: false } }], { allOutcomes: true }),
    ).toHaveLength(1);
  });
});

describe('searchFoundNothing', () => {
  // Codex CLI runs `rg` through bash and reports exit status 1 with an empty output; Cline writes
  // "Command failed with exit code 1."; mini-swe-agent "Command exited with code 1". Each was a
  // lesson ("`shell` failed 7 times with "no output"": change `'Dockerfile*'` to `'eslint.config.*'`).
  const codex = (cmd: string) => JSON.stringify({ command: ['bash', '-lc', cmd], workdir: '/w' });

  it('reads a search that matched nothing as an answer, in every runner', () => {
    for (const step of [
      { tool: 'shell', action: codex("rg --files -g 'Dockerfile*'"), error: '' },
      {
        tool: 'bash',
        action: 'ls -R sklearn/linear_model | grep Ridge',
        error: 'Command exited with code 1',
      },
      {
        tool: 'execute_command',
        action: '{"command":"netstat -ano | findstr \\"5432\\""}',
        error: 'Command failed with exit code 1.',
      },
      { tool: 'Bash', action: '{"command":"cd app && git grep -n TODO"}', error: 'Exit code 1' },
      { tool: 'bash', action: 'npx tsc 2>&1 | grep -E "a|b"', error: '\n' },
    ])
      expect(searchFoundNothing(step), step.action).toBe(true);
  });

  it('keeps a search that failed, a search not last in its command, and every other command', () => {
    for (const step of [
      // An error message, another exit status, a search whose status the next command sets.
      { tool: 'bash', action: 'grep -r x nope/', error: 'grep: nope/: No such file or directory' },
      { tool: 'bash', action: 'grep -r x .', error: 'Command exited with code 2' },
      { tool: 'bash', action: 'grep -q x a.txt && echo found', error: '' },
      // A `|` inside quotes is no pipe: the command is `echo`.
      { tool: 'bash', action: 'echo "a | grep b"', error: '' },
      { tool: 'bash', action: 'npm test', error: '' },
      { tool: 'shell', action: codex('find specs -regex x'), error: '' },
      // Not a shell call: a tool with a JSON input of its own.
      { tool: 'Grep', action: '{"pattern":"x"}', error: '' },
      { tool: 'bash', action: 'grep x a', error: undefined },
    ])
      expect(searchFoundNothing(step), step.action).toBe(false);
  });

  it('is no failure to learn from: no class, no lesson', () => {
    const steps = [
      { tool: 'bash', action: 'grep -rn merge_attrs xarray/core', error: 'Command exited with code 1' },
      { tool: 'bash', action: 'grep -rn merge_attrs xarray/core', error: 'Command exited with code 1' },
      { tool: 'bash', action: 'cat setup.cfg', error: 'cat: setup.cfg: No such file or directory' },
      { tool: 'bash', action: 'cat setup.py' },
    ];
    const classes = groupFailures([{ id: 'r', steps }]);
    expect(classes.map((c) => c.errorClass)).toEqual(['cat: setup.cfg: No such file or directory']);
    const { messages } = parseTranscript(
      JSON.stringify([
        { role: 'user', content: 'Where is the Dockerfile?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rg --files -g "Dockerfile*"' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'Exit code 1' }],
        },
        { role: 'assistant', content: 'There is no Dockerfile in this repository.' },
      ]),
    );
    expect(lessons({ messages }).insights.filter((i) => i.category === 'anti_pattern')).toEqual([]);
    // Nor is it a problem the snapshot carries on.
    expect(entriesFromMessages(messages).entries.filter((e) => e.role === 'tool')).toEqual([]);
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.anything(), (step) => {
        expect(typeof searchFoundNothing(step as never)).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.record({ tool: fc.string(), action: fc.string(), error: fc.string() }), (step) => {
        expect(typeof searchFoundNothing(step)).toBe('boolean');
      }),
    );
  });
});

const data = resolve(import.meta.dirname, '../../../shared/data/claude-code-jsonl');

describe('one-off fixes', () => {
  const run = (steps: { tool: string; action: string; error?: string }[]) =>
    reflectFromTrajectories([{ id: 't', steps }], { allOutcomes: true });

  it('tags a fix its judge refuses one_off, with medium confidence, and proposes no key point for it', () => {
    // Another value for the task's own argument worked: what worked once, not a rule.
    const [value] = run([
      { tool: 'Bash', action: 'npm run test:e2e', error: 'npm error Missing script: "test:e2e"' },
      { tool: 'Bash', action: 'npm run test:e2e:ci' },
    ]);
    expect(value!.tags).toEqual(['tool_failure', 'tool:Bash', 'fix_found', 'one_off']);
    expect(value!.confidence).toBe('medium');
    // An unreadable error ("Error") teaches nothing, whatever changed.
    const [bare] = run([
      { tool: 'Bash', action: 'make -j4', error: 'Error' },
      { tool: 'Bash', action: 'make -j4 --keep-going' },
    ]);
    expect(bare!.tags).toContain('one_off');
    // A setup step is a rule: no tag, high confidence, and a key point.
    const [setup] = run([
      { tool: 'Bash', action: 'pytest -q', error: '(eval):1: command not found: pytest' },
      { tool: 'Bash', action: 'source .venv/bin/activate && pytest -q' },
    ]);
    expect(setup!.tags).toEqual(['tool_failure', 'tool:Bash', 'fix_found']);
    expect(setup!.confidence).toBe('high');
    const { proposed } = lessons({
      messages: [],
      trajectories: [
        {
          id: 't',
          steps: [
            {
              tool: 'Bash',
              action: 'ls src/componets',
              error: 'ls: src/componets: No such file or directory',
            },
            { tool: 'Bash', action: 'ls src/components' },
            { tool: 'Bash', action: 'pytest -q', error: '(eval):1: command not found: pytest' },
            { tool: 'Bash', action: 'source .venv/bin/activate && pytest -q' },
          ],
        },
      ],
    });
    expect(proposed.map((p) => p.text)).toEqual([
      'When `Bash` (pytest) fails with "(eval):N: command not found: pytest": first run `source .venv/bin/activate`.',
    ]);
  });

  it('judges as learn does: the judge is the one rearview/learn exports', async () => {
    const learn = await import('rearview/learn');
    expect(learn.judgeFailure).toBe(judgeFailure);
    expect(
      judgeFailure('npm error code ENOTFOUND', 'pass `with_escalated_permissions`/`justification`'),
    ).toBe('failure: a permission prompt');
  });

  it('takes no rule from writing a file that a read found missing', () => {
    const missing = 'File does not exist. Note: your current working directory is <path>';
    expect(judgeFailure(missing, { parts: [{ kind: 'other-tool', values: ['Write'] }] })).toBe(
      'failure: a missing file written',
    );
    expect(
      judgeFailure('ENOENT: no such file or directory, open <path>', 'use `write_to_file` instead'),
    ).toBe('failure: a missing file written');
    // Searching for the file, or reading a folder with the tool that lists it, is a lesson.
    expect(judgeFailure(missing, { parts: [{ kind: 'other-tool', values: ['Glob'] }] })).toBeUndefined();
    expect(
      judgeFailure('EISDIR: illegal operation on a directory, read', {
        parts: [{ kind: 'other-tool', values: ['List'] }],
      }),
    ).toBeUndefined();
    // A missing program is not a missing file: setting up what provides it is the lesson.
    expect(
      judgeFailure('(eval):N: command not found: pytest', 'first run `source .venv/bin/activate`'),
    ).toBeUndefined();
    // A `cd` dropped is where that task ran, as a `cd` added is: read from its parts or its words.
    const dropped: FixPart[] = [{ kind: 'drop-setup', values: ['cd test-env'] }];
    expect(fixText(dropped)).toBe('drop the step `cd test-env`');
    const missingDir = '(eval):cd:N: no such file or directory: test-env';
    expect(judgeFailure(missingDir, { parts: dropped })).toBe('failure: a one-off argument');
    expect(judgeFailure(missingDir, fixText(dropped))).toBe('failure: a one-off argument');
    expect(judgeFailure(missingDir, 'drop the step `source env.sh`')).toBeUndefined();
  });

  it('proposes no key point for a failure with no fix, however often it recurred', () => {
    const steps = [1, 2, 3].map(() => ({
      tool: 'Bash',
      action: 'make',
      error: 'make: *** No rule to make target "all". Stop.',
    }));
    const [insight] = run(steps);
    expect(insight!.tags).toEqual(['tool_failure', 'tool:Bash', 'no_fix', 'recurring']);
    expect(lessons({ messages: [], trajectories: [{ id: 't', steps }] }).proposed).toEqual([]);
  });
});

describe.skipIf(!existsSync(data))('real Claude Code sessions', () => {
  const session = (f: string) =>
    parseTranscript(readFileSync(join(data, f), 'utf8'), { lenient: true }).messages;

  it('one lesson per class, not one per failed call, each carrying its fix and every occurrence', () => {
    const messages = session('4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
    const failed = messages.filter((m) => m.role === 'tool' && m.isError).map((m) => `message:${m.id}`);
    const insights = reflectFromTrajectories([stepsFromMessages(messages)], { allOutcomes: true });
    expect(failed).toHaveLength(5);
    expect(insights.length).toBeLessThan(failed.length);
    expect(
      insights
        .flatMap((i) => i.traceRefs)
        .filter((r) => failed.includes(r))
        .sort(),
    ).toEqual([...failed].sort());
    expect(new Set(insights.map((i) => i.recommendation)).size).toBe(insights.length);
    for (const i of insights) expect(i.recommendation).not.toMatch(/inspect (the )?raw/i);
    const push = insights.find((i) => i.recommendation.includes('(git push)'));
    expect(push?.recommendation).toMatch(/no upstream branch.*: add `--set-upstream`\.$/);
    expect(push?.fact).toMatch(/\(a changed call worked at step \d+\)$/);
  });

  it('groups a class across two sessions', () => {
    const runs = [
      '258c7280-ae70-4798-800f-63464d01a85d.jsonl',
      '4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
    ].map((f) => stepsFromMessages(session(f), f));
    const push = groupFailures(runs).filter((c) => c.errorClass.includes('no upstream branch'));
    expect(push).toHaveLength(1);
    expect(push[0]).toMatchObject({ runs: 2, subject: 'git push' });
    expect(push[0]!.occurrences).toHaveLength(2);
  });
});

describe('a failure lesson learned again', () => {
  const session = (branch: string) => [
    { role: 'user', content: 'push it' },
    { role: 'assistant', content: '{"command":"git push"}', toolName: 'Bash', toolUseId: `${branch}-1` },
    {
      role: 'tool',
      content: `Exit code 128\nfatal: The current branch ${branch} has no upstream branch.`,
      toolName: 'Bash',
      toolUseId: `${branch}-1`,
      isError: true,
    },
    {
      role: 'assistant',
      content: `{"command":"git push --set-upstream origin ${branch}"}`,
      toolName: 'Bash',
      toolUseId: `${branch}-2`,
    },
    { role: 'tool', content: `pushed ${branch}`, toolName: 'Bash', toolUseId: `${branch}-2` },
  ];

  it('raises the helpful count of the key point that says it instead of adding a copy', async () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: { broadcast: false } });
    const first = await rv.endSession({ messages: session('feat-a') });
    expect(first.added.map((a) => a.text)).toEqual([
      'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.',
    ]);
    const second = await rv.endSession({ messages: session('feat-b') });
    expect(second.added).toEqual([]);
    expect(second.duplicates.map((d) => d.of)).toEqual([first.added[0]!.name]);
    expect(second.tags).toEqual({ applied: 1, skipped: 0, by: 'heuristic' });
    const pb = await rv.playbook();
    expect(pb.sections['MISTAKES TO AVOID']).toHaveLength(1);
    expect(pb.sections['MISTAKES TO AVOID'][0]).toMatchObject({ helpful: 1, harmful: 0 });
  });
});
