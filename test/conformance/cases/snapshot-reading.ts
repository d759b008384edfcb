/**
 * Conformance cases for the snapshot's reading of a transcript (`entriesFromMessages`): sentences,
 * the scopes that say what a session shows is over, and the agent's own plan.
 */
import {
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  entriesFromSteps,
  planSteps,
} from 'rearview/snapshot';
import { parseTranscript, type Step } from 'rearview/transcript';
import { check } from '../check';
import type { ConformanceCase } from '../suite';

export const snapshotReadingCases: ConformanceCase[] = [
  {
    // A Chinese or Japanese paragraph gives one entry per sentence (。！？ end one without a space).
    name: 'snapshot/Chinese and Japanese sentences',
    run() {
      const { entries } = entriesFromMessages(
        parseTranscript(
          JSON.stringify([
            { role: 'user', content: '页面一直显示 404，怎么回事？' },
            {
              role: 'assistant',
              content:
                '这个错误是因为 `@/contents` 路径别名在运行时无法解析。让我先查看一下 routes 的结构。ビルドは成功しましたが、テストが二つ失敗しています！',
            },
          ]),
        ).messages,
      );
      check(entries.length === 4, 'one entry per sentence');
      return { values: entries.map((e) => [e.key, e.scope, e.value]) };
    },
  },
  {
    // An agent's sentence that ends with a colon (ASCII or full-width) introduces what follows it: no next
    // action, unless it is the session's last words; the person's latest turn, answered, asks nothing.
    name: 'snapshot/sentences that introduce what follows them',
    run() {
      const messages = parseTranscript(
        JSON.stringify([
          { role: 'user', content: 'Make the logo container fit the logo — café ☕' },
          { role: 'assistant', content: 'The container now fits the logo.' },
          // The latest turn: its question, answered below, is no open question.
          { role: 'user', content: 'Why does the favicon still look blurry on retina screens?' },
          {
            role: 'assistant',
            content: '调整外层容器，使其宽度自适应 logo：\n```tsx\n<div className="w-fit" />\n```',
          },
          {
            role: 'assistant',
            content: 'To check it in your browser, follow these steps:\n\n1. Open the dev tools.',
          },
          { role: 'assistant', content: 'Next I will shrink the favicon too:' },
        ]),
      ).messages;
      const { objective, entries } = entriesFromMessages(messages);
      const t = deterministicSnapshotWithTrace({ objective, entries });
      check(
        !t.snapshot.nextActions.some((a) => a.includes('调整外层容器')),
        'a sentence introducing code is no next action',
      );
      check(
        t.snapshot.nextActions.includes('Next I will shrink the favicon too:'),
        "the session's last words stay a next action",
      );
      check(
        entries.some((e) => e.scope === 'replied') && t.snapshot.unresolvedQuestions.length === 0,
        "the person's answered question is not open",
      );
      return { scopes: entries.map((e) => [e.key, e.scope]), snapshot: t.snapshot, dropped: t.dropped };
    },
  },
  {
    // What came before the person's latest turn, or the agent said after it, with an edit that worked
    // after it (scope `superseded`): no blocker or next action any more; with only a failed edit, stays.
    name: 'snapshot/problems an edit went past',
    run() {
      // An assistant message with its text and an Edit call, and the person-seat message with its result.
      const call = (id: string, text: string, file: string) => ({
        role: 'assistant',
        content: [
          { type: 'text', text },
          { type: 'tool_use', id, name: 'Edit', input: { file_path: file } },
        ],
      });
      const result = (id: string, file: string, worked: boolean) => ({
        role: 'user',
        content: [
          worked
            ? { type: 'tool_result', tool_use_id: id, content: `The file ${file} has been updated.` }
            : { type: 'tool_result', tool_use_id: id, content: 'Error: file is read-only', is_error: true },
        ],
      });
      const session = (editWorked: boolean) =>
        parseTranscript(
          JSON.stringify([
            { role: 'user', content: 'The upload page crashes with a 413 error — café ☕' },
            { role: 'assistant', content: 'Uploads over 1 MB fail with a 413 error from nginx.' },
            // Not right after the problem (that would be acting on it, scope `fixed`): later on.
            call('t1', 'Raising the body size limit in the config.', 'nginx.conf'),
            result('t1', 'nginx.conf', editWorked),
            { role: 'user', content: 'Thanks. Now add a progress bar to the upload form.' },
            // After the latest turn, the agent's words with an edit that worked later: superseded too.
            { role: 'assistant', content: 'Next I will hook the progress bar into the upload events.' },
            call('t2', 'Adding the hook to the form now.', 'form.tsx'),
            result('t2', 'form.tsx', editWorked),
            { role: 'assistant', content: 'I added the progress bar to the upload form.' },
          ]),
        ).messages;
      const read = (editWorked: boolean) => {
        const { objective, entries } = entriesFromMessages(session(editWorked));
        return { entries, trace: deterministicSnapshotWithTrace({ objective, entries }) };
      };
      const worked = read(true);
      const failed = read(false);
      const problem = 'Uploads over 1 MB fail with a 413 error from nginx.';
      check(!worked.trace.snapshot.blockers.includes(problem), 'a problem an edit went past is no blocker');
      check(
        worked.trace.dropped.some((d) => d.text === problem && d.reason === 'resolved'),
        'dropped as resolved',
      );
      check(failed.trace.snapshot.blockers.includes(problem), 'a failed edit leaves the problem listed');
      check(
        worked.entries.some((e) => e.value === problem && e.scope === 'superseded'),
        'the problem is superseded',
      );
      const plan = 'Next I will hook the progress bar into the upload events.';
      check(!worked.trace.snapshot.nextActions.includes(plan), "the agent's plan an edit went past is done");
      check(failed.trace.snapshot.nextActions.includes(plan), 'with no edit that worked it stays');
      return {
        scopes: [worked, failed].map((r) => r.entries.map((e) => [e.key, e.scope])),
        snapshots: [worked.trace.snapshot, failed.trace.snapshot],
      };
    },
  },
  {
    // The person's latest turn answered at length in words (1,500 characters of the agent's text, in
    // UTF-16 units): scope `delivered`, no next action; a shorter answer leaves it `replied`.
    name: 'snapshot/the latest turn answered at length',
    run() {
      const request = 'Write a short story about a lighthouse keeper — café ☕';
      const read = (answer: string) => {
        const { objective, entries } = entriesFromMessages(
          parseTranscript(
            JSON.stringify([
              { role: 'user', content: request },
              { role: 'assistant', content: answer },
            ]),
          ).messages,
        );
        return { entries, snapshot: deterministicSnapshotWithTrace({ objective, entries }).snapshot };
      };
      const story = 'The lamp turned all night, and the keeper counted ships — 灯台. '.repeat(30);
      const long = read(story);
      const short = read(story.slice(0, 200));
      check(long.entries[0]?.scope === 'delivered', 'answered at length: delivered');
      check(!long.snapshot.nextActions.includes(request), 'no next action');
      check(short.entries[0]?.scope === 'replied', 'a short answer: replied');
      return {
        scopes: [long, short].map((r) => r.entries.map((e) => [e.key, e.scope])),
        length: story.length,
      };
    },
  },
  {
    // Edits SpecStory renders in the agent's prose (Cursor's ```diff section, Copilot's empty fence)
    // are calls with no result, which count as applied: the problem before the latest turn is
    // superseded. Cline's results pair with their calls; a denied write is a declined call.
    name: 'snapshot/edits rendered without a result',
    run() {
      const problem = 'The build fails because `tsconfig.json` excludes the src folder — ça casse.';
      const exported = (edit: string) =>
        [
          '_**User**_',
          '',
          'The build is broken.',
          '',
          '---',
          '',
          '_**Assistant (copilot/claude-sonnet-4)**_',
          '',
          problem,
          '',
          edit,
          '',
          '---',
          '',
          '_**User**_',
          '',
          'Now add a README badge.',
        ].join('\n');
      const read = (text: string) => {
        const t = parseTranscript(text);
        const { objective, entries } = entriesFromMessages(t.messages);
        return {
          calls: t.messages.filter((m) => m.toolName).map((m) => [m.toolName, m.content.length]),
          scopes: entries.map((e) => [e.key, e.scope]),
          blockers: deterministicSnapshotWithTrace({ objective, entries }).snapshot.blockers,
        };
      };
      const cursor = read(exported('---\n\n```diff\n- "exclude": ["src"]\n+ "exclude": []\n```'));
      const copilot = read(exported('Let me fix the config: \n```\n\n```'));
      const none = read(exported('Let me look at it:\n```json\n{"exclude": ["src"]}\n```'));
      for (const [name, r] of [
        ['cursor', cursor],
        ['copilot', copilot],
      ] as const) {
        check(r.calls.length === 1, `${name}: one edit call`);
        check(!r.blockers.includes(problem), `${name}: the problem is no blocker`);
      }
      check(none.calls.length === 0 && none.blockers.includes(problem), 'code in prose is no edit');
      const cline = parseTranscript([
        { role: 'user', content: [{ type: 'text', text: '<task>\nFix .env\n</task>' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'w1', name: 'write_to_file', input: { path: '.env' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: "[write_to_file for '.env'] Result:\nThe user denied this operation." },
          ],
        },
      ]).messages.filter((m) => m.role === 'tool');
      check(cline[0]?.toolUseId === 'w1' && cline[0]?.isError === true, 'a denied write answers its call');
      return { cursor, copilot, none, cline: cline.map((m) => [m.toolUseId, m.isError]) };
    },
  },
  {
    // An agent run: what a step said before the run's last step that changed a file and did not fail
    // is `superseded` (SWE-agent's `edit`, which names no file, counts); what came after keeps its scope.
    name: 'snapshot/an agent run past its last write',
    run() {
      const steps: Step[] = [
        {
          index: 0,
          thought: 'The parser drops the ümlaut — a KeyError in parse().',
          tool: 'bash',
          action: 'python repro.py',
          error: 'KeyError: ü',
          source: { index: 0 },
        },
        {
          index: 1,
          thought: 'Next I will default the key in parse().',
          tool: 'edit',
          action: 'edit 12:12\n    return d.get(k)\nend_of_edit',
          observation: 'File updated.',
          source: { index: 1 },
        },
        {
          index: 2,
          thought: 'The script passes now. Next I will submit.',
          tool: 'submit',
          action: 'submit',
          observation: 'diff --git a/parse.py',
          source: { index: 2 },
        },
      ];
      const entries = entriesFromSteps(steps);
      const snapshot = deterministicSnapshotWithTrace({ objective: 'Fix parse()', entries }).snapshot;
      check(
        entries.find((e) => e.key === 's0.t0')?.scope === 'superseded',
        'before the last write: superseded',
      );
      check(entries.find((e) => e.key === 's2.t0')?.scope === 'thought', 'after it: a thought');
      check(!snapshot.blockers.some((b) => b.includes('KeyError')), 'the old problem is no blocker');
      const noWrite = entriesFromSteps(
        steps.map((s) => (s.index === 1 ? { ...s, tool: 'bash', action: 'cat parse.py' } : s)),
      );
      check(!noWrite.some((e) => e.scope === 'superseded'), 'no write: nothing superseded');
      return { scopes: entries.map((e) => [e.key, e.scope]), snapshot };
    },
  },
  {
    // The agent's own plan (its to-do tool, in each shape the formats give it): the open steps of the
    // latest plan are next actions while nothing happened after it; the agent's words its own call
    // follows right away were carried out by it (`done`).
    name: 'snapshot/the agent’s plan and the words a call carries out',
    run() {
      const shapes = [
        planSteps({
          toolName: 'TodoWrite',
          content:
            '{"todos":[{"content":"Add the flag","status":"completed"},{"content":"Écrire le test ✓","status":"in_progress"}]}',
        }),
        planSteps({ toolName: 'update_plan', content: '{"plan":[{"step":"移除边框","status":"pending"}]}' }),
        planSteps({ toolName: 'TodoWrite', content: '\u2612 Fix the command   \n\u2610 Read the database' }),
        planSteps({ toolName: 'todo_write', content: '- [x] Done\n- [-] Guard the path\n- [ ] Add a test' }),
        planSteps({
          toolName: 'manage_todo_list',
          content: 'todoList: `[map[id:1 status:not-started title:Create the table]]`',
        }),
        // Cline's list carried by any call, and Antigravity's task artifact.
        planSteps({
          toolName: 'execute_command',
          content: JSON.stringify({
            command: 'npm test',
            task_progress: '- [x] Read it\n- [ ] Fix the parser',
          }),
        }),
        planSteps({
          toolName: 'write_to_file',
          content: JSON.stringify({
            ArtifactMetadata: { ArtifactType: 'task' },
            CodeContent: '- `[/]` Add the entities\n  - [ ] Écrire les dépôts',
          }),
        }),
      ];
      check(
        shapes.every((x) => x !== undefined && x.length > 0),
        'every shape is read',
      );
      const messages = parseTranscript(
        JSON.stringify([
          { role: 'user', content: 'Add a --since flag to the list command.' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Let me look at the parser first.' },
              { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'cli/args.ts' } },
            ],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't1', content: 'export function parse…' }],
          },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool_use',
                id: 't2',
                name: 'TodoWrite',
                input: {
                  todos: [
                    { content: 'Add the flag to the parser', status: 'completed' },
                    { content: 'Write the test for --since', status: 'pending' },
                  ],
                },
              },
            ],
          },
        ]),
      ).messages;
      const { objective, entries } = entriesFromMessages(messages);
      const snapshot = deterministicSnapshotWithTrace({ objective, entries }).snapshot;
      check(snapshot.nextActions.includes('Write the test for --since'), 'the open step is a next action');
      check(!snapshot.nextActions.includes('Add the flag to the parser'), 'a closed step is not');
      check(
        !snapshot.nextActions.includes('Let me look at the parser first.'),
        'the read carried the words out',
      );
      return { shapes, scopes: entries.map((e) => [e.key, e.scope, e.value]), snapshot };
    },
  },
];
