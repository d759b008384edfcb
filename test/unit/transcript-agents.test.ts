/**
 * Codex CLI rollouts, on small synthetic fixtures written for these tests (the real files are walked
 * by transcript-data-agents.test.ts): detection by content (Antigravity's step logs too), messages,
 * pairing, synthetic flags, located errors, corrupt-line skipping, trajectories. Antigravity's own
 * tests: transcript-agents-antigravity.test.ts. Never-throw properties and growth ratios:
 * transcript-agents-props.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../../lib/core/index';
import {
  detectFormat,
  detectTrajectoryFormat,
  parseTrajectory,
  parseTranscript,
} from '../../lib/transcript/index';
import { at, jsonl, userText, wrap } from './agent-log-fixtures';
import { antigravity, antigravityText } from './transcript-agents-helpers';

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
