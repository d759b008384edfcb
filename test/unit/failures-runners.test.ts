/**
 * Failure lessons of rearview/heuristic from each runner's calls: the calls of a transcript read as a
 * run (Claude Code's console, Codex CLI, Antigravity, Cline), calls declined or whose input is not
 * recorded, and which later call counts as the fix.
 */
import { failureLesson, groupFailures, judgeFailure, stepsFromMessages } from 'rearview/failures';
import { parseTranscript } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';

describe('groupFailures and failureLesson', () => {
  it('says nothing changed or not when the failed call’s input is not recorded, and a later real fix wins', () => {
    const notice = 'The string to replace was not found in the file.';
    const [unseen] = groupFailures([
      {
        id: 'x',
        steps: [
          { tool: 'search_replace', action: '', error: notice },
          { tool: 'search_replace', action: '{"file_path":"a.ts","old_string":"y"}' },
        ],
      },
    ]);
    expect(unseen?.fix).toMatchObject({ kind: 'unseen', step: 2, change: '', parts: [] });
    expect(failureLesson(unseen!)).not.toContain('unchanged');
    expect(failureLesson(unseen!)).toContain("does not show the failed call's input");
    // A later occurrence whose input is known and whose fix is real gives the class its fix.
    const [known] = groupFailures([
      {
        id: 'y',
        steps: [
          { tool: 'search_replace', action: '', error: notice },
          { tool: 'search_replace', action: '{"file_path":"a.ts","old_string":"y"}' },
          { tool: 'search_replace', action: '{"file_path":"b.ts","old_string":"z"}', error: notice },
          { tool: 'search_replace', action: '{"file_path":"b.ts","old_string":"z","replace_all":true}' },
        ],
      },
    ]);
    expect(known?.fix).toMatchObject({ kind: 'changed', step: 4 });
    // A tool that takes no input failed, then worked: the same call, retried.
    const [bare] = groupFailures([
      {
        id: 'z',
        steps: [
          { tool: 'TodoRead', action: '', error: 'Error: busy' },
          { tool: 'TodoRead', action: '' },
        ],
      },
    ]);
    expect(bare?.fix?.kind).toBe('retry');
  });

  it('never credits a call the person declined in the console (`No (tell Claude what to do differently)`) as the fix', () => {
    const hook = 'trim trailing whitespace.................................................Failed';
    const { messages } = parseTranscript(
      [
        '> commit it',
        '',
        '⏺ Bash(git commit -m "docs")',
        `  ⎿  Error: ${hook}`,
        '',
        '⏺ Bash(SKIP=trailing-whitespace git commit -m "docs")',
        '  ⎿  No (tell Claude what to do differently)',
        '',
        '> fix the files and commit',
        '',
        '⏺ Bash(git commit -m "docs")',
        '  ⎿  [main 1a2b3c4] docs',
      ].join('\n'),
      { format: 'claude-code-console' },
    );
    const run = stepsFromMessages(messages);
    expect(run.steps.map((s) => s.error?.slice(0, 2))).toEqual(['Er', 'No', undefined]);
    const [c, ...rest] = groupFailures([run]);
    // The declined call is neither a failure nor the call that worked.
    expect(rest).toEqual([]);
    expect(c!.occurrences).toHaveLength(1);
    // Before, the declined call was read as a success: "add the argument `SKIP=…`" was the lesson.
    expect(c!.fix).toMatchObject({ step: 3, kind: 'retry' });
  });

  it("reads Codex CLI's sandbox report for the command's own error, and its declined calls as declined", () => {
    // A rollout written for this test in the shape Codex CLI logs: a git write its sandbox stopped
    // (a Rust debug print around git's message), twice, then a call the person declined.
    const call = (i: number, cmd: string) => ({
      timestamp: `2026-01-01T00:00:0${i}Z`,
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd }),
        call_id: `c${i}`,
      },
    });
    const output = (i: number, text: string) => ({
      timestamp: `2026-01-01T00:00:0${i}Z`,
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: `c${i}`, output: text },
    });
    const denied = (path: string) =>
      `exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: \\"\\", truncated_after_lines: None }, stderr: StreamOutput { text: \\"fatal: Unable to create '${path}/.git/index.lock': Operation not permitted\\\\n\\", truncated_after_lines: None }, duration: 0ns, timed_out: false }, network_policy_decision: None }))" }`;
    const rollout = [
      {
        timestamp: '2026-01-01T00:00:00Z',
        type: 'session_meta',
        payload: { id: 's', cwd: '/w', originator: 'codex_cli_rs' },
      },
      call(1, 'git add -A'),
      output(1, denied('/w/app')),
      call(2, 'git add README.md'),
      output(2, denied('/w/app')),
      call(3, 'git commit -m x'),
      output(3, 'exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }'),
    ]
      .map((o) => JSON.stringify(o))
      .join('\n');
    const { messages } = parseTranscript(rollout);
    const run = stepsFromMessages(messages);
    expect(run.steps.map((s) => s.error !== undefined)).toEqual([true, true, true]);
    const classes = groupFailures([run]);
    // One class, from git's message; the declined commit is no failure and no fix.
    expect(classes.map((c) => [c.errorClass, c.occurrences.length, c.fix])).toEqual([
      ['fatal: Unable to create "…": Operation not permitted', 2, undefined],
    ]);
  });

  it("reads Antigravity's `CommandLine` as the command, and its notes and wait times as no change", () => {
    const call = (command: string, note: string, wait: string) =>
      JSON.stringify({
        CommandLine: command,
        Cwd: '/w/app',
        WaitMsBeforeAsync: wait,
        toolAction: note,
        toolSummary: note,
      });
    const [c, ...rest] = groupFailures([
      {
        id: 'ag',
        steps: [
          {
            tool: 'run_command',
            action: call('git push', 'Pushing the branch', '5000'),
            error:
              'The command failed with exit code: 128\nOutput:\nfatal: The current branch feat has no upstream branch.',
          },
          {
            tool: 'run_command',
            action: call('git push --set-upstream origin feat', 'Pushing again', '10000'),
          },
        ],
      },
    ]);
    expect(rest).toEqual([]);
    expect(c!.errorClass).toBe('fatal: The current branch <name> has no upstream branch.');
    // Before, the fix was "change `CommandLine`/`WaitMsBeforeAsync`/`toolAction`/`toolSummary`".
    expect(c!.fix).toMatchObject({ kind: 'changed', change: 'add `--set-upstream`' });
    expect(failureLesson(c!)).toContain('When `run_command` (git push) fails with');
  });

  it("reads Cline's to-do list and approval flag, passed with every call, as no change", () => {
    const call = (command: string, progress: string, approval: boolean) =>
      JSON.stringify({ command, requires_approval: approval, task_progress: progress });
    const [c, ...rest] = groupFailures([
      {
        id: 'cline',
        steps: [
          {
            tool: 'execute_command',
            action: call('npm install', '- [ ] Install the dependencies', false),
            error: 'npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree',
          },
          {
            tool: 'execute_command',
            action: call(
              'npm install --legacy-peer-deps',
              '- [x] Read the error\n- [ ] Install the dependencies',
              true,
            ),
          },
        ],
      },
    ]);
    expect(rest).toEqual([]);
    // Before, the fix was "change `task_progress`, add `--legacy-peer-deps`".
    expect(c!.fix).toMatchObject({ kind: 'changed', change: 'add `--legacy-peer-deps`' });
  });

  it('credits no fix but the same command when the failed one has no program it can read', () => {
    // Only a setup step failed: `npm test` does not do its job (it once named "run `npm test`
    // instead of ``"); nor does `find` that of a command the console cut after its variables.
    const [c, d] = groupFailures([
      {
        id: 'r',
        steps: [
          { tool: 'Bash', action: 'cd app', error: 'bash: cd: app: No such file or directory' },
          { tool: 'Bash', action: 'npm test' },
          { tool: 'Bash', action: 'DEV=1 URL=http://h:11434 MODEL=g …', error: 'Error: boom' },
          { tool: 'Bash', action: 'find . -name "*.log"' },
          { tool: 'Bash', action: 'DEV=1 URL=http://h:11434 MODEL=g …' },
        ],
      },
    ]);
    expect(c?.fix).toBeUndefined();
    expect(d?.fix).toMatchObject({ kind: 'retry', step: 5 });
  });

  it("credits another tool only of the same kind: a read does not do an edit's job", () => {
    const [c] = groupFailures([
      {
        id: 'r',
        steps: [
          {
            tool: 'Write',
            action: '{"file_path":"a.ps1","content":"x"}',
            error: 'File has not been read yet. Read it first before writing to it.',
          },
          { tool: 'Read', action: '{"file_path":"a.ps1"}' },
          { tool: 'Edit', action: '{"file_path":"a.ps1","old_string":"x","new_string":"y"}' },
        ],
      },
    ]);
    // Refused until the file is read: the read between is the fix, not the other edit tool.
    expect(c?.fix).toMatchObject({
      kind: 'other-tool',
      change: 'first read the file with `Read`',
      parts: [{ kind: 'read-first', values: ['Read'] }],
      step: 3,
    });
    const lesson = failureLesson(c!);
    expect(lesson).toBe(
      'When `Write` fails with "File has not been read yet. Read it first before writing to it.": first read the file with `Read`.',
    );
    expect(judgeFailure(c!.errorClass, c!.fix!)).toBeUndefined();
    expect(judgeFailure(c!.errorClass, c!.fix!.change)).toBeUndefined();
    // Writing the file a read did not find is another job: made good, no fix to learn.
    const [missing] = groupFailures([
      {
        id: 'r',
        steps: [
          { tool: 'Read', action: '{"file_path":"MEMORY.md"}', error: 'File does not exist.' },
          { tool: 'Write', action: '{"file_path":"MEMORY.md","content":"x"}' },
        ],
      },
    ]);
    expect(missing?.fix).toMatchObject({ kind: 'other-job', change: '', step: 2 });
  });

  it('reads the file first only for an edit refused until it is read', () => {
    const edit = (old: string, error?: string) => ({
      tool: 'Edit',
      action: `{"file_path":"a.ts","old_string":"${old}","new_string":"y"}`,
      ...(error ? { error } : {}),
    });
    const read = { tool: 'Read', action: '{"file_path":"a.ts"}' };
    const [again, missed] = groupFailures([
      {
        id: 'r',
        steps: [
          edit(
            'x',
            'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.',
          ),
          read,
          edit('x'),
          edit('z', 'String to replace not found in file.'),
          read,
          edit('w'),
        ],
      },
    ]);
    // The same edit again after the read: the read made it work (a retry becomes a change).
    expect(again?.fix).toMatchObject({ kind: 'changed', change: 'first read the file with `Read`', step: 3 });
    // A missed text corrected after a read: readers credit the corrected text, so the read is not named.
    expect(missed?.fix).toMatchObject({ kind: 'changed', change: 'change `old_string`', step: 6 });
  });

  it('never throws on junk', () => {
    expect(groupFailures('x' as never)).toEqual([]);
    expect(
      groupFailures([null, { id: 1, steps: [null, { error: 5 }, { error: '' }] }] as never),
    ).toHaveLength(1);
  });
});

describe('stepsFromMessages', () => {
  it('pairs calls and results by id, the result referenced, errors from isError', () => {
    const run = stepsFromMessages([
      { role: 'user', content: 'go', id: 'u' },
      { role: 'assistant', content: '{"command":"ls"}', toolName: 'Bash', toolUseId: 't1', id: 'c1' },
      { role: 'assistant', content: '{"file_path":"a"}', toolName: 'Read', toolUseId: 't2', id: 'c2' },
      { role: 'tool', content: 'nope', toolName: 'Read', toolUseId: 't2', isError: true, id: 'r2' },
      { role: 'tool', content: 'a b', toolName: 'Bash', toolUseId: 't1', id: 'r1' },
      { role: 'assistant', content: '{"command":"x"}', toolName: 'Bash', toolUseId: 't3', id: 'c3' },
    ]);
    expect(run.steps).toEqual([
      { index: 0, tool: 'Bash', action: '{"command":"ls"}', ref: 'message:r1' },
      { index: 1, tool: 'Read', action: '{"file_path":"a"}', ref: 'message:r2', error: 'nope' },
    ]);
  });
});
