import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRearviewError, TranscriptError } from '../../lib/core/index';
import {
  parseTrajectory,
  parseTranscript,
  safeParseTrajectory,
  safeParseTranscript,
} from '../../lib/transcript/index';

function errorOf(fn: () => unknown): TranscriptError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(TranscriptError);
    expect(isRearviewError(err)).toBe(true);
    return err as TranscriptError;
  }
  throw new Error('expected a TranscriptError');
}

describe('errors name the format and the line or index', () => {
  it.each([
    ['empty input', '', undefined, '[auto] Input is empty (line 1)', 'transcript_empty'],
    ['whitespace only', ' \n\t\n', undefined, '[auto] Input is empty (line 1)', 'transcript_empty'],
    ['empty with a format', '', 'jsonl', '[jsonl] Input is empty (line 1)', 'transcript_empty'],
    ['null', null, undefined, '[auto] Input is empty', 'transcript_empty'],
    [
      'binary garbage',
      'PK\u0003\u0004\u0000\u0000\u0008\u0000',
      undefined,
      '[auto] Input looks binary (a NUL byte), not a transcript (line 1)',
      'transcript_binary',
    ],
    [
      'control bytes on line 2',
      `ok\n${'\u0001\u0002\u0003\u0004'.repeat(8)}`,
      undefined,
      '[auto] Input looks binary (32 control characters), not a transcript (line 2)',
      'transcript_binary',
    ],
    [
      'undetectable prose',
      'Dear diary, today I wrote code.',
      undefined,
      '[auto] Could not detect the format: no JSON, no Claude Code console markers (⏺ or ● Tool(…), ⎿), no aider session header ("# aider chat started at"), no "User:" / "Assistant:" prefixes and no <user> … </user> tags (line 1)',
      'transcript_unknown_format',
    ],
    [
      'an unknown object',
      { foo: 1 },
      undefined,
      '[auto] The object has none of the keys of a known format (messages, conversations, role, type)',
      'transcript_unknown_format',
    ],
    [
      'broken JSON array',
      '[{"role":"user",',
      undefined,
      '[auto] Input is not valid JSON: ',
      'transcript_unknown_format',
    ],
    [
      'broken JSON object',
      '{"messages": [',
      undefined,
      '[auto] Input is neither JSON nor JSONL: ',
      'transcript_unknown_format',
    ],
    [
      'not JSON for a JSON format',
      'hello',
      'anthropic',
      '[anthropic] Input is not valid JSON: ',
      'transcript_invalid',
    ],
    [
      'a JSONL line that is not JSON',
      '{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}\n{oops}',
      undefined,
      '[jsonl] Line is not valid JSON: ',
      'transcript_invalid',
    ],
    [
      'a JSONL line that is not an object',
      '{"role":"user","content":"a"}\n[1,2]',
      'jsonl',
      '[jsonl] Line is not a JSON object, got array (line 2)',
      'transcript_invalid',
    ],
    [
      'a message with no role',
      [{ role: 'user', content: 'a' }, { content: 'b' }],
      'openai',
      '[openai] Message has no role (index 1)',
      'transcript_invalid',
    ],
    [
      'content of the wrong type',
      [{ role: 'user', content: 42 }],
      'anthropic',
      '[anthropic] Message content must be a string or an array of content blocks, got number (index 0)',
      'transcript_invalid',
    ],
    [
      'an unknown role',
      '{"role":"wizard","content":"x"}',
      undefined,
      '[jsonl] Unknown message role "wizard" (line 1)',
      'transcript_invalid',
    ],
    [
      'a Claude Code event without message',
      '{"type":"progress","uuid":"p"}\n{"type":"user","uuid":"u"}',
      undefined,
      '[claude-code-jsonl] The user event has no "message" object (line 2)',
      'transcript_invalid',
    ],
    [
      'a ShareGPT turn with a non-string value',
      {
        conversations: [
          { from: 'human', value: 'a' },
          { from: 'gpt', value: { text: 'b' } },
        ],
      },
      undefined,
      '[sharegpt] Turn value must be a string, got object (index 1)',
      'transcript_invalid',
    ],
    [
      'an unknown format option',
      'x',
      'yaml',
      '[yaml] Unknown transcript format "yaml"',
      'transcript_unknown_format',
    ],
  ])('%s', (_, input, format, message, code) => {
    const err = errorOf(() => parseTranscript(input, format ? { format: format as never } : {}));
    expect(err.message.startsWith(message)).toBe(true);
    expect(err.code).toBe(code);
    const safe = safeParseTranscript(input, format ? { format: format as never } : {});
    expect(safe.ok).toBe(false);
    if (!safe.ok) expect(safe.error.message).toBe(err.message);
  });

  it('a broken line deep in a JSONL file names that line', () => {
    const good = '{"role":"user","content":"a"}';
    const text = [...Array<string>(99).fill(good), '{"role":"user","content":}', good].join('\n');
    expect(errorOf(() => parseTranscript(text)).message).toMatch(
      /^\[jsonl\] Line is not valid JSON: unexpected "}" \(line 100, column 26\)$/,
    );
  });

  it('trajectory errors', () => {
    expect(errorOf(() => parseTrajectory('')).message).toBe('[auto] Input is empty (line 1)');
    expect(errorOf(() => parseTrajectory('User: hi')).message).toBe(
      '[auto] Input is not JSON or JSONL (line 1)',
    );
    expect(errorOf(() => parseTrajectory('{"a":1}')).message).toMatch(
      /^\[auto\] Could not detect the trajectory format/,
    );
    expect(errorOf(() => parseTrajectory('[1]', { format: 'swe-agent' })).message).toBe(
      '[swe-agent] Expected a JSON object, got an array',
    );
    expect(errorOf(() => parseTrajectory({ trajectory: [{ action: 'ls' }, 'oops'] })).message).toBe(
      '[swe-agent] Trajectory entry is not an object, got string (index 1)',
    );
    expect(
      errorOf(() =>
        parseTrajectory({ trajectory_format: 'mini-swe-agent-1', messages: [{ role: 'user', content: 1 }] }),
      ).message,
    ).toBe(
      '[mini-swe-agent] Message content must be a string or an array of text blocks, got number (index 0)',
    );
  });
});

describe('lenient mode keeps the good items and reports every bad one', () => {
  it('JSONL', () => {
    const text = [
      '{"role":"user","content":"a"}',
      'not json',
      '42',
      '{"content":"no role"}',
      '{"role":"assistant","content":"b"}',
      '{"role":"assistant","content":{"bad":true}}',
    ].join('\n');
    const t = parseTranscript(text, { lenient: true });
    expect(t.format).toBe('jsonl');
    expect(t.messages.map((m) => m.content)).toEqual(['a', 'b']);
    expect(t.skipped.map((s) => [s.line, s.reason.replace(/:.*/, '')])).toEqual([
      [2, 'Line is not valid JSON'],
      [3, 'Line is not a JSON object, got number'],
      [4, 'Message has no role'],
      [6, 'Message content must be a string or an array of content blocks, got object'],
    ]);
    expect(t.ignored).toBe(0);
  });

  it('Claude Code: invalid lines are skipped, non-message events only counted', () => {
    const text = [
      '{"type":"progress","uuid":"p1","sessionId":"s"}',
      '{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}',
      '{"type":"assistant","uuid":"a1","message":"oops"}',
      '{"type":"assistant","uuid":"a2","isSidechain":true,"message":{"role":"assistant","content":"side"}}',
      '{"truncated":',
      '{"type":"assistant","uuid":"a3","message":{"role":"assistant","content":[{"type":"text"}]}}',
      '{"type":"assistant","uuid":"a4","message":{"role":"assistant","content":"bye"}}',
    ].join('\n');
    const t = parseTranscript(text, { lenient: true });
    expect(t.messages.map((m) => m.id)).toEqual(['u1', 'a4']);
    expect(t.skipped.map((s) => s.line)).toEqual([3, 5, 6]);
    expect(t.skipped[2]!.reason).toBe('Text block 0 has no text string');
    expect(t.ignoredKinds).toEqual({ progress: 1, sidechain: 1 });
    expect(() => parseTranscript(text)).toThrow(
      '[claude-code-jsonl] The assistant event has no "message" object (line 3)',
    );
  });

  it('arrays and trajectories', () => {
    const t = parseTranscript([{ role: 'user', content: 'a' }, 'x', { role: 'assistant', content: 'b' }], {
      lenient: true,
    });
    expect(t.messages).toHaveLength(2);
    expect(t.skipped).toEqual([{ index: 1, reason: 'Item is not an object, got string' }]);
    const traj = parseTrajectory({ trajectory: [{ action: 'ls' }, 7, { action: 'pwd' }] }, { lenient: true });
    expect(traj.steps.map((s) => [s.index, s.action, s.source.index])).toEqual([
      [0, 'ls', 0],
      [1, 'pwd', 2],
    ]);
    expect(traj.skipped).toEqual([{ index: 1, reason: 'Trajectory entry is not an object, got number' }]);
  });
});

describe('safe variants never throw', () => {
  const formats = [
    undefined,
    'anthropic',
    'openai',
    'sharegpt',
    'claude-code-jsonl',
    'claude-code-console',
    'plain',
    'jsonl',
    'aider',
    'codex',
    'antigravity',
  ] as const;
  const trajFormats = [
    undefined,
    'swe-agent',
    'mini-swe-agent',
    'claude-code-jsonl',
    'codex',
    'antigravity',
  ] as const;
  const check = (input: unknown) => {
    for (const format of formats) {
      for (const lenient of [false, true]) {
        const r = safeParseTranscript(input, format ? { format, lenient } : { lenient });
        if (!r.ok) {
          expect(r.error).toBeInstanceOf(TranscriptError);
          expect(r.error.message).toMatch(/^\[[a-z-]+\] /);
        }
      }
    }
    for (const format of trajFormats) {
      const r = safeParseTrajectory(input, format ? { format, lenient: true } : {});
      if (!r.ok) expect(r.error).toBeInstanceOf(TranscriptError);
    }
  };

  it('over arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), check), { numRuns: 300 });
  });

  it('over line-structured strings made of transcript-ish fragments', () => {
    const fragment = fc.constantFrom(
      '{"role":"user","content":"a"}',
      '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}}',
      '{"type":"assistant","uuid":"u","message":{"content":[{"type":"tool_use","name":"x","id":"t"}]}}',
      '> hi',
      '⏺ Bash(ls)…',
      '  ⎿  out',
      'User: a',
      'Assistant: b',
      '<returncode>1</returncode>',
      '{"from":"gpt"}',
      '{',
      '[',
      '',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (lines) => check(lines.join('\n'))),
      { numRuns: 300 },
    );
  });

  it('over arbitrary JSON values, as values and as text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        check(value);
        check(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it('over arbitrary message-like objects', () => {
    const anyish = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.anything(), { maxLength: 3 }),
      fc.object(),
    );
    const msg = fc.record(
      {
        role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool', 'x'), anyish),
        content: anyish,
        tool_calls: anyish,
        from: anyish,
        value: anyish,
        type: fc.oneof(fc.constantFrom('user', 'assistant', 'progress'), anyish),
        message: anyish,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 6 }), (items) => {
        check(items);
        check({ messages: items });
        check({ conversations: items });
        check({ trajectory: items, info: {} });
        check({ messages: items, trajectory_format: 'mini-swe-agent-1' });
        check(items.map((i) => JSON.stringify(i)).join('\n'));
      }),
      { numRuns: 100 },
    );
  });

  it('on very deep nesting and bytes', () => {
    check('['.repeat(100_000));
    check(new Uint8Array([0xff, 0xfe, 0x00, 0x41]));
    check(new TextEncoder().encode('User: hi'));
    expect(safeParseTranscript(new TextEncoder().encode('\ufeffUser: hi')).ok).toBe(true);
  });
});
