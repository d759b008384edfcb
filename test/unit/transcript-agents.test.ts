/**
 * Codex CLI rollouts and Antigravity step logs, on small synthetic fixtures written for these tests
 * (the real files are walked by transcript-data-agents.test.ts): detection by content, messages,
 * pairing, synthetic flags, located errors, corrupt-line skipping, trajectories; and Claude Code's
 * queued prompts. Never-throw properties and growth ratios: transcript-agents-props.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../../lib/core/index';
import {
  detectFormat,
  detectTrajectoryFormat,
  parseTrajectory,
  parseTranscript,
} from '../../lib/transcript/index';
import { at, jsonl, step, userText, wrap } from './agent-log-fixtures';

const codex = jsonl([
  wrap(0, 'session_meta', { id: 'sess-1', cwd: '/repo', originator: 'codex_cli_rs' }),
  wrap(1, 'response_item', {
    type: 'message',
    role: 'developer',
    content: [{ type: 'input_text', text: 'sandbox rules' }],
  }),
  wrap(
    2,
    'response_item',
    userText('# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>'),
  ),
  wrap(3, 'response_item', userText('<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>')),
  wrap(4, 'response_item', userText('Run the tests, please.')),
  wrap(5, 'event_msg', { type: 'user_message', message: 'Run the tests, please.', images: [] }),
  wrap(6, 'turn_context', { cwd: '/repo', model: 'gpt-5' }),
  wrap(7, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] }),
  wrap(8, 'response_item', {
    type: 'function_call',
    name: 'shell',
    arguments: '{"command":["npm","test"]}',
    call_id: 'c1',
  }),
  wrap(9, 'response_item', {
    type: 'function_call_output',
    call_id: 'c1',
    output: JSON.stringify({ output: '1 failing', metadata: { exit_code: 1, duration_seconds: 0.5 } }),
  }),
  wrap(10, 'response_item', {
    type: 'custom_tool_call',
    name: 'apply_patch',
    input: '*** Begin Patch',
    call_id: 'c2',
    status: 'completed',
  }),
  wrap(11, 'response_item', {
    type: 'custom_tool_call_output',
    call_id: 'c2',
    output: 'apply_patch verification failed: no match',
  }),
  wrap(12, 'response_item', {
    type: 'function_call',
    name: 'exec_command',
    arguments: '{"cmd":"ls"}',
    call_id: 'c3',
  }),
  wrap(13, 'response_item', {
    type: 'function_call_output',
    call_id: 'c3',
    output: 'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\na.ts',
  }),
  wrap(14, 'response_item', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'One test fails.' }],
  }),
  wrap(15, 'event_msg', { type: 'agent_message', message: 'One test fails.' }),
  wrap(16, 'event_msg', { type: 'token_count', info: null }),
  wrap(
    17,
    'response_item',
    userText('<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>'),
  ),
  wrap(18, 'event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
  wrap(19, 'response_item', userText('No, fix the test instead.')),
  wrap(20, 'event_msg', { type: 'user_message', message: 'No, fix the test instead.' }),
]);

/** The older layout: a header, `record_type` lines and bare response items without timestamps. */
const codexOld = jsonl([
  { id: 'old-1', timestamp: at(0), instructions: null, git: { branch: 'main' } },
  { record_type: 'state' },
  {
    type: 'message',
    id: null,
    role: 'user',
    content: [{ type: 'input_text', text: '<environment_context>x</environment_context>' }],
  },
  { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'list the files' }] },
  { type: 'function_call', id: 'fc_1', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'k1' },
  {
    type: 'function_call_output',
    call_id: 'k1',
    output: JSON.stringify({ output: 'a.ts', metadata: { exit_code: 0 } }),
  },
  { type: 'message', id: null, role: 'assistant', content: [{ type: 'output_text', text: 'a.ts' }] },
]);

const antigravity = [
  step(40, 'USER_EXPLICIT', 'USER_INPUT', {
    content:
      '<USER_REQUEST>\nAdd a login page.\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is noon.\n</ADDITIONAL_METADATA>',
  }),
  step(41, 'SYSTEM', 'CONVERSATION_HISTORY'),
  step(42, 'MODEL', 'PLANNER_RESPONSE', {
    thinking: 'plan it',
    content: 'I will look first.',
    tool_calls: [
      { name: 'view_file', args: { AbsolutePath: '"/src/app.ts"', StartLine: '1' } },
      { name: 'run_command', args: { CommandLine: '"npm test"' } },
    ],
  }),
  step(43, 'MODEL', 'VIEW_FILE', { content: 'export {}' }),
  step(44, 'MODEL', 'RUN_COMMAND', { content: 'The command failed with exit code: 2\nOutput:\nboom' }),
  step(45, 'SYSTEM', 'EPHEMERAL_MESSAGE', {
    content: 'The following is an <EPHEMERAL_MESSAGE> not actually sent by the user.',
  }),
  step(46, 'MODEL', 'PLANNER_RESPONSE', {
    tool_calls: [{ name: 'write_to_file', args: { TargetFile: '"/src/login.ts"' } }],
  }),
  step(47, 'SYSTEM', 'ERROR_MESSAGE', {
    error: 'invalid tool call',
    content: 'Error invalid tool call: bad args',
  }),
  step(48, 'USER_EXPLICIT', 'RUN_COMMAND', {
    content: 'The USER performed the following action:\nCommand: git status',
  }),
  step(49, 'SYSTEM', 'CHECKPOINT', { content: '{{ CHECKPOINT 1 }}\nEarlier parts were truncated.' }),
  step(50, 'USER_EXPLICIT', 'USER_INPUT', {
    content: '<USER_REQUEST>\nThat is wrong, use the existing form.\n</USER_REQUEST>',
  }),
];
const antigravityText = jsonl(antigravity);

describe('detection by content', () => {
  it('tells Codex (both layouts) and Antigravity from Claude Code and generic JSONL', () => {
    expect(detectFormat(codex)).toBe('codex');
    expect(detectFormat(codexOld)).toBe('codex');
    expect(detectFormat(antigravityText)).toBe('antigravity');
    // One line is one JSON value: detected the same.
    expect(detectFormat(JSON.stringify(antigravity[0]))).toBe('antigravity');
    expect(detectFormat(JSON.stringify(wrap(0, 'session_meta', { id: 's' })))).toBe('codex');
    // Parsed values too.
    expect(detectFormat(antigravity)).toBe('antigravity');
    expect(detectFormat(codex.split('\n').map((l) => JSON.parse(l)))).toBe('codex');
    expect(detectTrajectoryFormat(codex)).toBe('codex');
    expect(detectTrajectoryFormat(antigravityText)).toBe('antigravity');
    // Claude Code events and plain message lines keep their formats.
    expect(detectFormat('{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}')).toBe(
      'claude-code-jsonl',
    );
    expect(detectFormat('{"type":"ai-title","sessionId":"s","title":"x"}')).toBe('claude-code-jsonl');
    expect(detectFormat('{"role":"user","content":"hi"}\n{"role":"assistant","content":"yo"}')).toBe('jsonl');
  });
});

describe('Codex CLI rollouts', () => {
  const t = parseTranscript(codex);

  it('reads response items once: the event_msg echoes are counted, not repeated', () => {
    expect(t.format).toBe('codex');
    const users = t.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => [m.content.split('\n')[0], m.synthetic])).toEqual([
      ['# AGENTS.md instructions for /repo', 'meta'],
      ['<environment_context>', 'meta'],
      ['Run the tests, please.', undefined],
      ['<turn_aborted>', 'meta'],
      ['[Request interrupted by user]', undefined],
      ['No, fix the test instead.', undefined],
    ]);
    expect(t.ignoredKinds).toMatchObject({ user_message: 2, agent_message: 1, token_count: 1, reasoning: 1 });
    expect(t.messages.find((m) => m.role === 'system')?.content).toBe('sandbox rules');
    // Source lines and timestamps are kept.
    const prompt = users[2]!;
    expect(prompt.source).toEqual({ line: 5 });
    expect(prompt.ts).toBe(at(4));
  });

  it('pairs calls with outputs by call_id and marks failures', () => {
    const calls = t.messages.filter((m) => m.role === 'assistant' && m.toolName);
    expect(calls.map((m) => [m.toolName, m.toolUseId])).toEqual([
      ['shell', 'c1'],
      ['apply_patch', 'c2'],
      ['exec_command', 'c3'],
    ]);
    const results = t.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => [m.toolName, m.toolUseId, m.isError ?? false, m.content.slice(0, 9)])).toEqual([
      ['shell', 'c1', true, '1 failing'],
      ['apply_patch', 'c2', true, 'apply_pat'],
      ['exec_command', 'c3', false, 'Chunk ID:'],
    ]);
  });

  it('as a trajectory: a step per call, errors and exit codes, the session id', () => {
    const traj = parseTrajectory(codex);
    expect(traj.format).toBe('codex');
    expect(traj.id).toBe('sess-1');
    expect(traj.steps.map((s) => [s.tool, s.exitCode, s.error !== undefined])).toEqual([
      ['shell', 1, true],
      ['apply_patch', undefined, true],
      ['exec_command', 0, false],
    ]);
    expect(traj.outcome).toBeUndefined();
    expect(parseTrajectory(codex, { resolved: true }).outcome).toEqual({ resolved: true, failed: false });
  });

  it("flags a slash command's expanded template as a command, not the person's turn", () => {
    const text = jsonl([
      wrap(0, 'session_meta', { id: 's' }),
      wrap(
        1,
        'response_item',
        userText(
          '\n## User Input\n\n```text\nadd a login page\n```\n\nYou **MUST** consider the user input.',
        ),
      ),
      wrap(2, 'response_item', userText('## User Input is what I meant')),
    ]);
    expect(parseTranscript(text).messages.map((m) => m.synthetic)).toEqual(['command', undefined]);
  });

  it('keeps only the request of a prompt sent from the IDE extension', () => {
    const text = jsonl([
      wrap(0, 'session_meta', { id: 's' }),
      wrap(1, 'response_item', {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '# Context from my IDE setup:\n\n## Open tabs:\n- fix.ts\n\n## My request for Codex:\nremove the border\n',
          },
          { type: 'input_image', image_url: 'data:' },
        ],
      }),
    ]);
    const t = parseTranscript(text);
    expect(t.messages.map((m) => m.content)).toEqual(['remove the border\n']);
    expect(t.ignoredKinds).toMatchObject({ 'ide-context': 1, input_image: 1 });
  });

  it('reads the older layout (header, record_type lines, bare items)', () => {
    const old = parseTranscript(codexOld);
    expect(old.messages.map((m) => [m.role, m.synthetic, m.toolUseId])).toEqual([
      ['user', 'meta', undefined],
      ['user', undefined, undefined],
      ['assistant', undefined, 'k1'],
      ['tool', undefined, 'k1'],
      ['assistant', undefined, undefined],
    ]);
    expect(old.ignoredKinds).toEqual({ session_meta: 1, state: 1 });
    expect(parseTrajectory(codexOld).id).toBe('old-1');
  });

  it('locates bad lines, or skips them in lenient mode losing nothing else', () => {
    const lines = codex.split('\n');
    const broken = [
      ...lines.slice(0, 4),
      '{"timestamp":"x","type":"response_item","payload":',
      ...lines.slice(4),
    ].join('\n');
    const err = (() => {
      try {
        parseTranscript(broken);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TranscriptError);
    expect((err as TranscriptError).location.line).toBe(5);
    expect((err as TranscriptError).message).toMatch(/^\[codex\] Line is not valid JSON/);
    const lenient = parseTranscript(broken, { lenient: true });
    expect(lenient.skipped).toEqual([{ line: 5, reason: expect.stringContaining('not valid JSON') }]);
    expect(lenient.messages.length).toBe(t.messages.length);

    const noPayload = `${lines[0]}\n{"timestamp":"x","type":"response_item","payload":7}`;
    expect(() => parseTranscript(noPayload)).toThrow(
      /\[codex\] The response_item line's payload must be an object.*\(line 2\)/,
    );
    const noCallId = `${lines[0]}\n${JSON.stringify(wrap(1, 'response_item', { type: 'function_call_output', output: 'x' }))}`;
    expect(() => parseTranscript(noCallId)).toThrow(/has no call_id string \(line 2\)/);
  });
});

describe('Antigravity step logs', () => {
  const t = parseTranscript(antigravityText);

  it('keeps only the request the person typed, the agent prose, calls and observations', () => {
    expect(t.format).toBe('antigravity');
    expect(t.messages.map((m) => [m.role, m.toolName, m.toolUseId, m.isError ?? false])).toEqual([
      ['user', undefined, undefined, false],
      ['assistant', undefined, undefined, false],
      ['assistant', 'view_file', '42.0', false],
      ['assistant', 'run_command', '42.1', false],
      ['tool', 'view_file', '42.0', false],
      ['tool', 'run_command', '42.1', true],
      ['assistant', 'write_to_file', '46.0', false],
      ['tool', 'write_to_file', '46.0', true],
      ['tool', 'run_command', undefined, false],
      ['system', undefined, undefined, false],
      ['user', undefined, undefined, false],
    ]);
    const users = t.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.content)).toEqual([
      'Add a login page.',
      'That is wrong, use the existing form.',
    ]);
    expect(t.ignoredKinds).toEqual({
      'user-metadata': 1,
      conversation_history: 1,
      thinking: 1,
      ephemeral_message: 1,
    });
    // Argument values Antigravity JSON-encodes are decoded; plain ones stay text.
    expect(JSON.parse(t.messages[2]!.content)).toEqual({ AbsolutePath: '/src/app.ts', StartLine: '1' });
    expect(t.messages[0]!.source).toEqual({ line: 1 });
    expect(t.messages[0]!.ts).toBe(at(40));
  });

  it('as a trajectory: a step per call, the failed ones marked', () => {
    const traj = parseTrajectory(antigravityText);
    expect(traj.format).toBe('antigravity');
    expect(traj.steps.map((s) => [s.tool, s.exitCode, s.error !== undefined, s.thought])).toEqual([
      ['view_file', undefined, false, 'I will look first.'],
      ['run_command', 2, true, undefined],
      ['write_to_file', undefined, true, undefined],
    ]);
  });

  it('skips a corrupt line (a spliced fragment) even in strict mode, reporting its line', () => {
    const lines = antigravityText.split('\n');
    const fragment = 'ng. Then I will list the directory.","tool_calls":[]}';
    const text = [lines[0], fragment, ...lines.slice(1)].join('\n');
    const r = parseTranscript(text);
    expect(r.skipped).toEqual([{ line: 2, reason: expect.stringContaining('not valid JSON') }]);
    expect(r.messages.length).toBe(t.messages.length);
    expect(parseTrajectory(text).skipped.map((s) => s.line)).toEqual([2]);
    // A log that begins mid-session (its first step is not a request) reads the same way.
    const mid = parseTranscript(lines.slice(3).join('\n'));
    expect(mid.messages[0]!.role).toBe('tool');
  });

  it('throws a located TranscriptError on a step that is JSON but not a step', () => {
    const text = `${JSON.stringify(antigravity[0])}\n{"step_index":"x","source":"MODEL","type":"VIEW_FILE"}`;
    expect(() => parseTranscript(text)).toThrow(
      /^\[antigravity\] Step has no numeric "step_index".*\(line 2\)$/,
    );
    const bad = `${JSON.stringify(antigravity[0])}\n${JSON.stringify(step(1, 'MODEL', 'PLANNER_RESPONSE', { tool_calls: 'x' }))}`;
    expect(() => parseTranscript(bad)).toThrow(/Tool_calls must be an array, got string \(line 2\)/);
    expect(parseTranscript(bad, { lenient: true }).skipped).toEqual([
      { line: 2, reason: 'tool_calls must be an array, got string' },
    ]);
    expect(() => parseTranscript('[1]', { format: 'antigravity' })).toThrow(
      /Item is not an object, got number \(index 0\)/,
    );
  });

  it('gives every message its own id when the person goes back and resends an earlier message', () => {
    // The log numbers the steps after a rewind from the point the person went back to.
    const ask = (i: number, text: string) =>
      step(i, 'USER_EXPLICIT', 'USER_INPUT', { content: `<USER_REQUEST>\n${text}\n</USER_REQUEST>` });
    const reply = (i: number) =>
      step(i, 'MODEL', 'PLANNER_RESPONSE', {
        content: 'Checking.',
        tool_calls: [{ name: 'view_file', args: {} }],
      });
    const tool = (i: number) => step(i, 'MODEL', 'VIEW_FILE', { content: 'ok' });
    const log = [
      ask(1, 'Add a login page.'),
      reply(2),
      tool(3),
      ask(4, 'no, still wrong'),
      reply(5),
      tool(6),
    ];
    const again = [ask(4, 'no, still wrong: use the form in app.ts'), reply(5), tool(6), ask(7, 'thanks')];
    const t = parseTranscript(jsonl([...log, ...again]));
    const ids = t.messages.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      's1',
      's2',
      's2.c0',
      's3',
      's4',
      's5',
      's5.c0',
      's6',
      's4r1',
      's5r1',
      's5r1.c0',
      's6r1',
      's7',
    ]);
    // Each call is answered by its own branch's observation.
    const calls = t.messages.filter((m) => m.toolUseId !== undefined).map((m) => [m.role, m.toolUseId]);
    expect(calls).toEqual([
      ['assistant', '2.0'],
      ['tool', '2.0'],
      ['assistant', '5.0'],
      ['tool', '5.0'],
      ['assistant', '5r1.0'],
      ['tool', '5r1.0'],
    ]);
  });
});

describe('Claude Code line types', () => {
  it('a prompt queued while the agent worked (a queued_command attachment) is a user turn; other attachments are counted', () => {
    const text = jsonl([
      { type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'add a form' } },
      { type: 'attachment', uuid: 'a1', sessionId: 's', attachment: { type: 'todo_reminder', content: [] } },
      {
        type: 'attachment',
        uuid: 'a2',
        sessionId: 's',
        timestamp: at(3),
        attachment: {
          type: 'queued_command',
          prompt: [{ type: 'text', text: 'no, the name is optional' }],
          commandMode: 'prompt',
        },
      },
      {
        type: 'attachment',
        uuid: 'a3',
        sessionId: 's',
        attachment: { type: 'queued_command', prompt: 'ls', commandMode: 'bash' },
      },
      { type: 'ai-title', sessionId: 's', title: 'Form' },
      {
        type: 'user',
        uuid: 'u2',
        isMeta: true,
        sessionId: 's',
        message: { role: 'user', content: 'skill body' },
      },
    ]);
    const t = parseTranscript(text);
    expect(t.format).toBe('claude-code-jsonl');
    expect(t.messages.map((m) => [m.id, m.content, m.synthetic, m.source.line])).toEqual([
      ['u1', 'add a form', undefined, 1],
      ['a2', 'no, the name is optional', undefined, 3],
      ['u2', 'skill body', 'meta', 6],
    ]);
    expect(t.messages[1]!.ts).toBe(at(3));
    expect(t.ignoredKinds).toEqual({ attachment: 2, 'ai-title': 1 });
  });
});
