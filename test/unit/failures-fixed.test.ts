/**
 * `fixedFailures`: the failed calls a later call made good, the same set `groupFailures` pairs with a
 * fix (checked against it call by call on random runs), in one pass whatever the number of failures;
 * and the snapshot that reads it: a failed call made good is no blocker.
 */
import fc from 'fast-check';
import { type CallStep, fixedFailures, groupFailures } from 'rearview/failures';
import {
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  entriesFromSteps,
  reflectedSnapshotPrompt,
  snapshotInputFrom,
} from 'rearview/snapshot';
import { isFileEditTool, type Message } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

const CALLS: Pick<CallStep, 'tool' | 'action'>[] = [
  { tool: 'Bash', action: 'npm test' },
  { tool: 'Bash', action: 'npm test -- --watch=false' },
  { tool: 'Bash', action: 'make' },
  { tool: 'Bash', action: 'make -C src' },
  { tool: 'Bash', action: 'git push' },
  { tool: 'Bash', action: 'ls' },
  { tool: 'Read', action: '{"file_path":"a.ts"}' },
  { tool: 'Read', action: '{"file_path":"b.ts","offset":1}' },
  { tool: 'Edit', action: '{"file_path":"a.ts","old_string":"x"}' },
  { tool: 'push_files', action: '{"message":"m"}' },
  { tool: 'push_files', action: '{"message":"n"}' },
  // Another job (failures-same-job.test.ts): still made good; a package runner, a versioned program.
  { tool: 'Bash', action: 'npm run test:e2e' },
  { tool: 'Bash', action: 'npm run lint' },
  { tool: 'Bash', action: 'gt deacon start' },
  { tool: 'Bash', action: 'gt deacon status' },
  { tool: 'Bash', action: 'uv venv --help' },
  { tool: 'Bash', action: 'vercel deploy' },
  { tool: 'Bash', action: 'cd web && npx -y vercel deploy --prod' },
  { tool: 'Bash', action: 'python app.py' },
  { tool: 'Bash', action: 'python3.11 app.py --check' },
  // Kinds (an edit is fixed by an edit, a read by a read) and commands the console cut.
  { tool: 'Write', action: '{"file_path":"a.ts","content":"x"}' },
  { tool: 'Bash', action: 'export A=1 B=2 && pyt…' },
  { tool: 'Bash', action: 'DEV=1 URL=x …' },
];

describe('fixedFailures', () => {
  it('finds a later success on the target, of another tool on it, or of the same tool without one; a cut command only again', () => {
    const fixed = fixedFailures({
      id: 'r',
      steps: [
        { tool: 'Bash', action: 'npm test', error: 'Error: 2 tests failed', ref: 'a' },
        { tool: 'Read', action: '{"file_path":"a.ts"}', error: 'File too large', ref: 'b' },
        { tool: 'push_files', action: '{"message":"m"}', error: 'Git Repository is empty', ref: 'c' },
        { tool: 'Bash', action: 'git push', error: 'rejected', ref: 'd' },
        { tool: 'Bash', action: 'npm test -- --run' },
        { tool: 'Grep', action: '{"path":"a.ts","pattern":"x"}' },
        { tool: 'push_files', action: '{"message":"n"}' },
        {
          tool: 'Edit',
          action: '{"file_path":"b.ts","old_string":"x"}',
          error: 'File has not been read yet',
          ref: 'g',
        },
        // A read is another job than the edit: it still makes `g` good (groupFailures: `other-job`).
        { tool: 'Read', action: '{"file_path":"b.ts"}' },
        { tool: 'Read', action: '{"file_path":"c.ts"}', error: 'File does not exist.', ref: 'i' },
        // Writing the file the read did not find is another job, and makes `i` good.
        { tool: 'Write', action: '{"file_path":"c.ts","content":"x"}' },
        { tool: 'Bash', action: 'export A=1 B=2 && pyt…', error: 'Error', ref: 'h' },
        // A command the console cut (no program to read): only the same command again makes it good.
        { tool: 'Bash', action: 'find . -name "*.log"' },
        { tool: 'Bash', action: 'make', error: 'make: *** [all] Error 2', ref: 'e' },
        { tool: 'Bash', action: 'make', error: 'No (tell Claude what to do differently)', ref: 'f' },
      ],
    });
    // `git push` never worked again, `make` failed last, and a declined call is no failure.
    expect([...fixed].sort()).toEqual(['a', 'b', 'c', 'g', 'i']);
  });

  it('is the set groupFailures pairs with a fix, call by call, on random runs', () => {
    const step = fc.record({ call: fc.constantFrom(...CALLS), failed: fc.boolean() });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 14 }), (drawn) => {
        const steps: CallStep[] = drawn.map((d, i) => ({
          ...d.call,
          ref: `s${i}`,
          ...(d.failed ? { error: `Error: failure ${i % 3}` } : {}),
        }));
        const fixed = fixedFailures({ id: 'r', steps });
        steps.forEach((s, i) => {
          if (s.error === undefined) return;
          // The failure alone among the successes: groupFailures looks for its fix.
          const alone = steps.filter((o, j) => j === i || o.error === undefined);
          const [c] = groupFailures([{ id: 'r', steps: alone }]);
          expect(fixed.has(s.ref!), JSON.stringify(steps)).toBe(c?.fix !== undefined);
        });
      }),
    );
  });

  it('never throws on junk', () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        expect(fixedFailures(junk as never)).toBeInstanceOf(Set);
        expect(fixedFailures({ id: 'r', steps: [junk] } as never)).toBeInstanceOf(Set);
      }),
    );
  });

  it('takes one pass: many failures, one success at the end', () => {
    const runOf = (n: number) => ({
      id: 'r',
      steps: [
        ...Array.from({ length: n }, (_, i) => ({
          tool: 'Bash',
          action: `make t${i % 50}`,
          error: 'Error 2',
        })),
        { tool: 'Bash', action: 'make t1' },
      ],
    });
    expect(fixedFailures(runOf(100)).size).toBe(2);
    const g = measureGrowth(fixedFailures, runOf, doublings(2_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

/** Messages as a transcript gives them: each with its source line. */
const located = (list: Omit<Message, 'source'>[]): Message[] =>
  list.map((m, i) => ({ ...m, source: { line: i + 1 } }) as Message);

describe('isFileEditTool', () => {
  it("knows each agent's edit and write tools, and no tool that writes no file", () => {
    for (const name of [
      'Edit',
      'Write',
      'MultiEdit',
      'NotebookEdit',
      'Update',
      'edit_file_v2',
      'Edit file',
      'search_replace',
      'write_to_file',
      'replace_file_content',
      'multi_replace_file_content',
      'apply_patch',
      'replace_string_in_file',
      'replace_in_file',
      'editedExistingFile',
      'newFileCreated',
      'create_file',
      'write_file',
      'edit',
      'create',
      'insert',
    ])
      expect(isFileEditTool(name), name).toBe(true);
    for (const name of [
      'todo_write',
      'TodoWrite',
      'update_plan',
      'write_stdin',
      'TaskUpdate',
      'Read',
      'view_file',
      'Bash',
      'read_file_v2',
      'mcp__siyuan-mcp__update_block',
      '',
    ])
      expect(isFileEditTool(name), name).toBe(false);
  });
});

describe('the snapshot and failed calls made good', () => {
  const session = (fixedLater: boolean): Message[] =>
    located([
      { id: 'u1', role: 'user', content: 'Run the tests and fix what fails.' },
      { id: 'a1', role: 'assistant', content: 'Running them.' },
      { id: 'c1', role: 'assistant', toolName: 'Bash', toolUseId: 't1', content: '{"command":"npm test"}' },
      {
        id: 'r1',
        role: 'tool',
        toolName: 'Bash',
        toolUseId: 't1',
        isError: true,
        content: 'Error: 2 tests failed in test/sum.test.ts',
      },
      { id: 'a2', role: 'assistant', content: 'The sum rounds early.' },
      { id: 'c2', role: 'assistant', toolName: 'Bash', toolUseId: 't2', content: '{"command":"npm test"}' },
      {
        id: 'r2',
        role: 'tool',
        toolName: 'Bash',
        toolUseId: 't2',
        ...(fixedLater ? {} : { isError: true }),
        content: fixedLater ? 'All 12 tests passed.' : 'Error: 2 tests failed in test/sum.test.ts',
      },
    ]);

  it('gives scope `fixed` to an error a later call made good, and lists it as no blocker', () => {
    const { objective, entries } = entriesFromMessages(session(true));
    expect(entries.find((e) => e.key === 'r1.err')?.scope).toBe('fixed');
    const trace = deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries));
    expect(trace.snapshot.blockers.join('\n')).not.toContain('2 tests failed');
    expect(trace.dropped).toContainEqual(
      expect.objectContaining({
        text: '2 tests failed in test/sum.test.ts',
        reason: 'resolved',
      }),
    );
  });

  it('keeps an error that still stood at the end', () => {
    const { objective, entries } = entriesFromMessages(session(false));
    expect(entries.filter((e) => e.key === 'r1.err' || e.key === 'r2.err').map((e) => e.scope)).toEqual([
      'observation',
      'observation',
    ]);
    const { snapshot } = deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries));
    expect(snapshot.blockers.join('\n')).toContain('2 tests failed');
  });

  it('reads scope `fixed` from callers too: a question or a step in the error is not listed either', () => {
    const { snapshot } = deterministicSnapshotWithTrace({
      objective: 'Build the site',
      entries: [
        {
          scope: 'fixed',
          key: 'e1',
          value: 'Module not found. Run `npm install` first.',
          sourceIteration: 1,
        },
        { scope: 'fixed', key: 'e2', value: 'Did you mean _types?', sourceIteration: 2 },
        { scope: 'observation', key: 'e3', value: 'Error: port 3000 is in use', sourceIteration: 3 },
      ],
    });
    expect(snapshot.blockers).toEqual(['Error: port 3000 is in use']);
    expect(snapshot.nextActions).toEqual([]);
    expect(snapshot.unresolvedQuestions).toEqual([]);
  });

  it("reads an agent run's failed steps the same way", () => {
    const entries = entriesFromSteps([
      {
        index: 0,
        tool: 'bash',
        action: 'python reproduce.py',
        error: 'SyntaxError: invalid syntax',
        source: {},
      },
      {
        index: 1,
        tool: 'bash',
        action: 'pytest tests/test_io.py',
        error: 'FAILED tests/test_io.py::test_read',
        source: {},
      },
      { index: 2, tool: 'bash', action: 'python reproduce.py', observation: 'OK', source: {} },
    ]);
    expect(entries.map((e) => [e.key, e.scope])).toEqual([
      ['s0.err', 'fixed'],
      ['s1.err', 'observation'],
    ]);
  });

  it("gives scope `fixed` to the agent's words right before an edit that worked and to the request it answered", () => {
    const at = (editWorked: boolean) =>
      entriesFromMessages(
        located([
          { id: 'u1', role: 'user', content: 'Fix the login test.' },
          { id: 'a1', role: 'assistant', content: 'The test config is missing `secret_key_base`.' },
          {
            id: 'c1',
            role: 'assistant',
            toolName: 'Edit',
            toolUseId: 't1',
            content: '{"file_path":"config/test.exs"}',
          },
          {
            id: 'r1',
            role: 'tool',
            toolName: 'Edit',
            toolUseId: 't1',
            ...(editWorked ? {} : { isError: true }),
            content: editWorked ? 'The file has been updated.' : 'String to replace not found in file.',
          },
          { id: 'a2', role: 'assistant', content: 'The seeds file still has `org_id`.' },
          {
            id: 'c2',
            role: 'assistant',
            toolName: 'Read',
            toolUseId: 't2',
            content: '{"file_path":"seeds.exs"}',
          },
          { id: 'r2', role: 'tool', toolName: 'Read', toolUseId: 't2', content: 'org_id: 1' },
        ]),
      ).entries.map((e) => [e.key, e.scope]);
    // A read is no action on the problem: the agent's words before it are `done` (the read carried
    // out what they said; a problem they name is still a blocker), not `fixed`. The person's request
    // was answered with the edit: acted on too.
    expect(at(true)).toEqual([
      ['u1.0', 'fixed'],
      ['a1.0', 'fixed'],
      ['c1.l0', 'evidence'],
      ['a2.0', 'done'],
    ]);
    // Not acted on: the person's request was answered in words (`replied`); the agent's words before
    // its (failed) edit are `done`, which keeps the problem they name a blocker.
    expect(at(false).slice(0, 2)).toEqual([
      ['u1.0', 'replied'],
      ['a1.0', 'done'],
    ]);
  });

  it("reads the person's turn to its end: a notification in their seat ends no turn, their next message does", () => {
    const scopes = entriesFromMessages(
      located([
        { id: 'u1', role: 'user', content: 'The login page returns 403 since the deploy.' },
        { id: 'a1', role: 'assistant', content: 'Checking the policy.' },
        { id: 'n1', role: 'user', synthetic: 'notification', content: 'Background task finished.' },
        {
          id: 'c1',
          role: 'assistant',
          toolName: 'Write',
          toolUseId: 't1',
          content: '{"file_path":"policy.json"}',
        },
        { id: 'r1', role: 'tool', toolName: 'Write', toolUseId: 't1', content: 'File written.' },
        { id: 'u2', role: 'user', content: 'It still returns 403.' },
        { id: 'a2', role: 'assistant', content: 'Then the bucket policy is not the cause.' },
      ]),
    ).entries.map((e) => [e.key, e.scope]);
    expect(scopes).toEqual([
      ['u1.0', 'fixed'],
      // Not right before the edit (the notification comes between), but before the latest turn with an
      // edit that worked after it: superseded.
      ['a1.0', 'superseded'],
      ['c1.l0', 'evidence'],
      ['u2.0', 'replied'],
      ['a2.0', 'assistant'],
    ]);
  });

  it('tells the reflection so, only when such an entry is in its input', () => {
    const line =
      'An entry of scope "fixed" names a problem a later call fixed or acted on: it is never a blocker.';
    const entry = (scope: string) => ({
      scope,
      key: 'e',
      value: 'Error: port 3000 is in use',
      sourceIteration: 1,
    });
    expect(reflectedSnapshotPrompt({ objective: 'Serve', entries: [entry('fixed')] })).toContain(line);
    expect(reflectedSnapshotPrompt({ objective: 'Serve', entries: [entry('observation')] })).not.toContain(
      line,
    );
  });
});
