/**
 * The agent's own plan (its to-do tool) in the snapshot: the open steps of its latest plan are next
 * actions while neither the person has spoken nor an edit has worked since. Every shape the shared data
 * holds (Claude Code's TodoWrite input and its console list, Codex's update_plan, Gemini CLI's
 * write_todos, Copilot's manage_todo_list, Markdown checklists), never a throw, linear time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deterministicSnapshot,
  entriesFromMessages,
  isPlanMessage,
  planSteps,
  snapshotInputFrom,
} from '../../lib/snapshot/index';
import { type Message, parseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

const call = (toolName: string, content: string, role: Message['role'] = 'assistant'): Message => ({
  id: `c${toolName}`,
  role,
  toolName,
  content,
  source: {},
});

describe('planSteps', () => {
  // Each plan tool's input, and the steps (text, still open) read from it.
  const TOOL_INPUTS: readonly [string, string, [string, boolean][]][] = [
    [
      'TodoWrite',
      JSON.stringify({
        todos: [
          { content: 'Add the --since flag', status: 'completed', activeForm: 'Adding the flag' },
          { content: 'Write the test', status: 'in_progress', activeForm: 'Writing the test' },
          { content: 'Update the README', status: 'pending', activeForm: 'Updating the README' },
        ],
      }),
      [
        ['Add the --since flag', false],
        ['Write the test', true],
        ['Update the README', true],
      ],
    ],
    [
      'update_plan',
      '{"plan":[{"status":"completed","step":"Search the styles"},{"status":"pending","step":"Remove the border"}]}',
      [
        ['Search the styles', false],
        ['Remove the border', true],
      ],
    ],
    [
      'write_todos',
      '{"todos":[{"description":"Port the exporter","status":"cancelled"},{"description":"Add fixtures","status":"pending"}]}',
      [
        ['Port the exporter', false],
        ['Add fixtures', true],
      ],
    ],
    [
      'manage_todo_list',
      '{"operation":"write","todoList":[{"id":1,"title":"Add migrations","status":"not-started"}]}',
      [['Add migrations', true]],
    ],
  ];
  it.each(TOOL_INPUTS)('reads the list of %s’s input, with each step’s state', (tool, input, steps) => {
    expect(planSteps(call(tool, input))).toEqual(steps.map(([text, open]) => ({ text, open })));
  });

  it('reads the list a console or an export shows for the call or its result', () => {
    // Claude Code's console, under `⏺ Update Todos` (a trailing pad included).
    expect(
      planSteps(
        call(
          'TodoWrite',
          '\u2612 Fix the /hi command      \n\u2610 Write the BDD test\n\u2610 Read the database',
          'tool',
        ),
      ),
    ).toEqual([
      { text: 'Fix the /hi command', open: false },
      { text: 'Write the BDD test', open: true },
      { text: 'Read the database', open: true },
    ]);
    // Markdown exports: done, in progress, open.
    expect(
      planSteps(
        call(
          'todo_write',
          '**Agent task list:**\n- [x] Fix the icon path\n- [-] Guard wrap_path\n- [\u26a1] Update the docs\n- [ ] Add a test',
          'tool',
        ),
      ),
    ).toEqual([
      { text: 'Fix the icon path', open: false },
      { text: 'Guard wrap_path', open: true },
      { text: 'Update the docs', open: true },
      { text: 'Add a test', open: true },
    ]);
  });

  it('reads the Go maps a SpecStory export prints for Copilot’s list', () => {
    expect(
      planSteps(
        call(
          'manage_todo_list',
          '**Input:**\n\n- todoList: `[map[description:Add the migrations. id:1 status:completed title:Create the meals table] map[description:A field. id:2 status:in-progress title:Add dietary_restrictions to guests] map[id:3 status:not-started title:Test it]]`',
          'tool',
        ),
      ),
    ).toEqual([
      { text: 'Create the meals table', open: false },
      { text: 'Add dietary_restrictions to guests', open: true },
      { text: 'Test it', open: true },
    ]);
  });

  it('reads the to-do list Cline carries in the input of any call (`task_progress`)', () => {
    expect(
      planSteps(
        call(
          'execute_command',
          JSON.stringify({
            command: 'npm test',
            requires_approval: false,
            task_progress: '- [x] Read the failing test\n- [ ] Fix the parser\n- [ ] Run the suite',
          }),
        ),
      ),
    ).toEqual([
      { text: 'Read the failing test', open: false },
      { text: 'Fix the parser', open: true },
      { text: 'Run the suite', open: true },
    ]);
    // Another tool's input without it, or with something else under that name, is no plan.
    expect(planSteps(call('execute_command', '{"command":"npm test"}'))).toBeUndefined();
    expect(planSteps(call('execute_command', '{"task_progress": 3}'))).toBeUndefined();
    expect(planSteps(call('execute_command', '{"task_progress": "all good"}'))).toBeUndefined();
    expect(isPlanMessage({ toolName: 'execute_command' })).toBe(false);
  });

  it('reads the task list Antigravity writes as an artifact of type `task`, its boxes in backticks', () => {
    const write = (artifactType: string) =>
      call(
        'write_to_file',
        JSON.stringify({
          ArtifactMetadata: { ArtifactType: artifactType, RequestFeedback: false, Summary: 'Task tracker' },
          CodeContent:
            '# Build\n\n- `[x]` Scaffold the app\n- `[/]` Add the entities\n  - [ ] Write the repositories\n',
          TargetFile: 'C:\\Users\\k\\.gemini\\antigravity\\brain\\8c90\\task.md',
        }),
      );
    expect(planSteps(write('task'))).toEqual([
      { text: 'Scaffold the app', open: false },
      { text: 'Add the entities', open: true },
      { text: 'Write the repositories', open: true },
    ]);
    // Another artifact (an implementation plan, a walkthrough) is no task list.
    expect(planSteps(write('implementation_plan'))).toBeUndefined();
  });

  it('gives nothing for a result without steps, another tool, or a plan too long to be one', () => {
    expect(planSteps(call('update_plan', 'Plan updated', 'tool'))).toBeUndefined();
    expect(planSteps(call('Bash', '- [ ] not a plan'))).toBeUndefined();
    expect(planSteps(call('TodoWrite', '{"todos": "none"}'))).toBeUndefined();
    expect(planSteps(call('TodoWrite', `- [ ] a\n${'x'.repeat(30_000)}`))).toBeUndefined();
    expect(isPlanMessage({ toolName: 'todowrite' })).toBe(true);
    expect(isPlanMessage({})).toBe(false);
  });

  it('never throws, whatever the content (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('TodoWrite', 'update_plan', 'todo_write'),
        fc.oneof(fc.string(), fc.json()),
        (tool, content) => {
          const steps = planSteps(call(tool, content));
          if (steps) for (const s of steps) expect(s.text.length).toBeGreaterThan(0);
        },
      ),
      { seed: 20261124, numRuns: 500 },
    );
  });

  it('reads a long list and a long line in linear time', () => {
    for (const make of [
      (n: number) => '- [ ] step\n'.repeat(Math.ceil(n / 11)),
      (n: number) => `- [ ]${' '.repeat(n)}x`,
      (n: number) => `\u2610 ${'a '.repeat(n / 2)}`,
      (n: number) => 'map[status:x title:y '.repeat(Math.ceil(n / 21)),
      (n: number) => `map[${'status: '.repeat(Math.ceil(n / 8))}`,
    ]) {
      const g = measureGrowth((s: string) => planSteps(call('TodoWrite', s)), make, doublings(2_000));
      expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
    }
  });
});

describe('the snapshot reads the latest plan', () => {
  const session = (after: Message[]): Message[] => [
    { id: 'u1', role: 'user', content: 'Add a --since flag to the list command.', source: {} },
    { id: 'a1', role: 'assistant', content: 'I will plan this first.', source: {} },
    call(
      'TodoWrite',
      '{"todos":[{"content":"Add the flag to the parser","status":"completed"},{"content":"Write the test for --since","status":"pending"}]}',
    ),
    ...after,
  ];
  const snap = (messages: Message[]) => {
    const { objective, entries } = entriesFromMessages(messages);
    return deterministicSnapshot(snapshotInputFrom(objective, entries));
  };

  it('lists its open steps as next actions while the person has not spoken since', () => {
    const s = snap(session([]));
    expect(s.nextActions).toContain('Write the test for --since');
    expect(s.nextActions).not.toContain('Add the flag to the parser');
  });

  it('a later plan replaces it; a plan the person spoke after is over', () => {
    const done = call(
      'TodoWrite',
      '{"todos":[{"content":"Write the test for --since","status":"completed"}]}',
    );
    expect(snap(session([{ ...done, id: 'c2' }])).nextActions).not.toContain('Write the test for --since');
    const spoke: Message = {
      id: 'u2',
      role: 'user',
      content: 'Forget the flag, fix the crash instead.',
      source: {},
    };
    expect(snap(session([spoke])).nextActions).not.toContain('Write the test for --since');
  });

  it('a plan with an edit that worked after it was worked on: agents leave steps they did marked open', () => {
    const edit: Message = {
      id: 'e1',
      role: 'assistant',
      toolName: 'Edit',
      toolUseId: 't1',
      content: '{"file_path":"test/list.test.ts","old_string":"a","new_string":"b"}',
      source: {},
    };
    const ok: Message = {
      id: 'r1',
      role: 'tool',
      toolName: 'Edit',
      toolUseId: 't1',
      content: 'The file was updated.',
      source: {},
    };
    expect(snap(session([edit, ok])).nextActions).not.toContain('Write the test for --since');
    // A failed edit changed nothing: the step is still open.
    expect(
      snap(session([edit, { ...ok, isError: true, content: 'String not found.' }])).nextActions,
    ).toContain('Write the test for --since');
  });

  it('a console session cut after its first plan with open steps lists them', () => {
    const text = [
      '> list the books I read last',
      '',
      '\u23fa Update Todos',
      '  \u23bf  \u2612 Fix the /hi slash command',
      '     \u2610 Write BDD test for list recent',
      '     \u2610 Implement the database reader',
    ].join('\n');
    const s = snap(parseTranscript(text).messages);
    expect(s.nextActions).toEqual(
      expect.arrayContaining(['Write BDD test for list recent', 'Implement the database reader']),
    );
    expect(s.nextActions).not.toContain('Fix the /hi slash command');
  });

  it('reads the console’s `⏺ Read Todos` as a call of TodoRead whose output is the list as it stands', () => {
    const text = [
      '> what else was in progress?',
      '',
      '\u23fa Read Todos',
      '',
      '  \u23bf  \u2612 Simplify the README',
      '     \u2610 Add the CI badge',
    ].join('\n');
    const { messages } = parseTranscript(text);
    const calls = messages.filter((m) => m.role === 'assistant');
    expect(calls.map((m) => m.toolName)).toEqual(['TodoRead']);
    expect(messages.some((m) => m.role === 'assistant' && m.content === 'Read Todos')).toBe(false);
    const output = messages.find((m) => m.role === 'tool')!;
    expect(isPlanMessage(output)).toBe(true);
    expect(planSteps(output)).toEqual([
      { text: 'Simplify the README', open: false },
      { text: 'Add the CI badge', open: true },
    ]);
    expect(snap(messages).nextActions).toContain('Add the CI badge');
  });
});
