/**
 * Antigravity step logs, on a small synthetic fixture written for these tests (the real files are
 * walked by transcript-data-agents.test.ts): messages, trajectories, corrupt-line skipping, located
 * errors, the ids of resent messages; and Claude Code's queued prompts.
 */
import { describe, expect, it } from 'vitest';
import { parseTrajectory, parseTranscript } from '../../lib/transcript/index';
import { at, jsonl, step } from './agent-log-fixtures';
import { antigravity, antigravityText } from './transcript-agents-helpers';

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
