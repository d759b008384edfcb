/**
 * Turns no person wrote (synthetic): Claude Code's continuation summaries, meta events, command
 * expansions, hooks and notifications, the same openings in every format, and agent runs' tasks.
 */
import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../lib/transcript/index';

describe('turns no person wrote (synthetic)', () => {
  it('Claude Code: continuation summaries, meta events, command expansions, hooks and notifications', () => {
    const ev = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ type: 'user', uuid, sessionId: 's', message: { role: 'user', content }, ...extra });
    const jsonl = [
      ev('u1', 'Fix the login bug'),
      ev(
        'u2',
        'This session is being continued from a previous conversation that ran out of context. The user said: no, use REST.',
        {
          isCompactSummary: true,
        },
      ),
      ev('u3', [{ type: 'text', text: 'Skill body: always run the tests.' }], { isMeta: true }),
      ev('u4', '<command-message>review</command-message>\n<command-name>/review</command-name>'),
      ev('u5', '<local-command-stdout>Reconnected.</local-command-stdout>'),
      ev('u6', '<system-reminder>\nPostToolUse hook: lint failed\n</system-reminder>'),
      ev('u7', '<task-notification>\n<task-id>b1</task-id>\n</task-notification>'),
      ev('u8', 'This session is being continued from a previous conversation (pasted without the flag).'),
      ev('u9', 'No, that is wrong.'),
      ev('u10', '<bash-input> sudo npm i -g pkg</bash-input>'),
      ev('u11', '<bash-stdout></bash-stdout><bash-stderr>sudo: a password is required</bash-stderr>'),
      ev('u12', 'Unknown skill: run'),
    ].join('\n');
    const t = parseTranscript(jsonl);
    expect(t.messages.map((m) => [m.id, m.synthetic ?? null])).toEqual([
      ['u1', null],
      ['u2', 'summary'],
      ['u3', 'meta'],
      ['u4', 'command'],
      ['u5', 'command'],
      ['u6', 'hook'],
      ['u7', 'notification'],
      ['u8', 'summary'],
      ['u9', null],
      ['u10', 'command'],
      ['u11', 'command'],
      ['u12', 'command'],
    ]);
  });

  it('the same openings are recognised in every format, only in the user seat', () => {
    const summary = 'This session is being continued from a previous conversation that ran out of context.';
    expect(
      parseTranscript(`User: ${summary}\nAssistant: ${summary}`).messages.map((m) => m.synthetic ?? null),
    ).toEqual(['summary', null]);
    expect(
      parseTranscript({ conversations: [{ from: 'human', value: '<command-name>/x</command-name>' }] })
        .messages[0]!.synthetic,
    ).toBe('command');
    expect(parseTranscript([{ role: 'user', content: ` ${summary}` }]).messages[0]!.synthetic).toBe(
      'summary',
    );
    expect(
      parseTranscript([{ role: 'user', content: 'The session is fine' }]).messages[0]!.synthetic,
    ).toBeUndefined();
  });

  it('agent runs read as transcripts: the task and every tool output in the user seat', () => {
    const mini = {
      trajectory_format: 'mini-swe-agent-1',
      info: { exit_status: 'Submitted' },
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Fix the bug. Do not use print debugging, use the logger instead.' },
        { role: 'assistant', content: 'THOUGHT: look\n\n```bash\nls\n```' },
        { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' },
      ],
    };
    const t = parseTranscript(mini);
    expect(t.messages.map((m) => m.synthetic ?? null)).toEqual([null, 'task', null, 'observation']);
    const swe = {
      history: [
        { role: 'user', content: 'Demo' },
        { role: 'user', content: 'Task' },
        { role: 'assistant', content: 'ls' },
      ],
    };
    expect(parseTranscript(swe).messages.map((m) => m.synthetic ?? null)).toEqual(['task', 'task', null]);
    // A plain {messages} chat is not an agent run: its user turns are a person's.
    expect(parseTranscript({ messages: mini.messages }).messages[1]!.synthetic).toBeUndefined();
  });
});
