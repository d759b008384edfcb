/**
 * The transcript reader on the JSON formats (anthropic, openai, sharegpt, claude-code-jsonl, jsonl) and
 * format detection.
 */
import { describe, expect, it } from 'vitest';
import { detectFormat, parseTranscript } from '../../lib/transcript/index';
import { brief, fixture } from './transcript-helpers';

describe('anthropic', () => {
  const messages = [
    { role: 'user', content: 'List the files' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should use ls', signature: 's' },
        { type: 'text', text: 'Sure.' },
        { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'ls' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ls: permission denied', is_error: true },
        { type: 'text', text: 'Try sudo?' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'No sudo.' },
        { type: 'text', text: 'Use chmod.' },
      ],
    },
  ];

  it('splits blocks into messages, pairs tool results and flags errors', () => {
    const t = parseTranscript(messages);
    expect(t.format).toBe('anthropic');
    expect(brief(t.messages)).toEqual([
      ['user', 'List the files', null, null, false],
      ['assistant', 'Sure.', null, null, false],
      ['assistant', '{"command":"ls"}', 'bash', 'toolu_1', false],
      ['tool', 'ls: permission denied', 'bash', 'toolu_1', true],
      ['user', 'Try sudo?', null, null, false],
      ['assistant', 'No sudo.\nUse chmod.', null, null, false],
    ]);
    expect(t.messages.map((m) => m.id)).toEqual(['m0', 'm1.0', 'm1.1', 'm2.0', 'm2.1', 'm3']);
    expect(t.messages[3]!.source).toEqual({ index: 2 });
    expect(t.ignoredKinds).toEqual({ thinking: 1 });
    expect(t.skipped).toEqual([]);
  });

  it('accepts {system, messages} and {messages} wrappers, from text or a value', () => {
    const wrapped = { system: 'Be terse.', messages };
    const t = parseTranscript(JSON.stringify(wrapped));
    expect(t.format).toBe('anthropic');
    expect(t.messages[0]).toMatchObject({ id: 'system', role: 'system', content: 'Be terse.' });
    expect(t.messages).toHaveLength(7);
    const blocks = parseTranscript({
      system: [{ type: 'text', text: 'A' }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(blocks.format).toBe('anthropic');
    expect(blocks.messages.map((m) => m.content)).toEqual(['A', 'hi']);
    expect(parseTranscript({ messages }).messages).toHaveLength(6);
    expect(detectFormat(new TextEncoder().encode(JSON.stringify(messages)))).toBe('anthropic');
  });

  it('gives the same ids for the same input', () => {
    expect(parseTranscript(messages)).toEqual(parseTranscript(JSON.parse(JSON.stringify(messages))));
  });
});

describe('openai', () => {
  const chat = [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '18C' },
    { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '10:00' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'It is 18C at 10:00.' }] },
  ];

  it('reads tool_calls and tool messages, pairing names by id', () => {
    const t = parseTranscript(chat);
    expect(t.format).toBe('openai');
    expect(brief(t.messages)).toEqual([
      ['system', 'You are helpful.', null, null, false],
      ['user', 'Weather in Paris?', null, null, false],
      ['assistant', '{"city":"Paris"}', 'get_weather', 'call_1', false],
      ['assistant', '{}', 'get_time', 'call_2', false],
      ['tool', '18C', 'get_weather', 'call_1', false],
      ['tool', '10:00', 'get_time', 'call_2', false],
      ['assistant', 'It is 18C at 10:00.', null, null, false],
    ]);
    expect(t.messages[2]!.id).toBe('m2.0');
  });

  it('maps developer to system and keeps assistant text before its tool calls', () => {
    const t = parseTranscript([
      { role: 'developer', content: 'rules' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'c', function: { name: 'f', arguments: {} } }],
      },
    ]);
    expect(brief(t.messages)).toEqual([
      ['system', 'rules', null, null, false],
      ['assistant', 'Checking.', null, null, false],
      ['assistant', '{}', 'f', 'c', false],
    ]);
  });

  it('a plain role/content array is reported as openai', () => {
    expect(detectFormat([{ role: 'user', content: 'hi' }])).toBe('openai');
  });
});

describe('sharegpt', () => {
  it('reads {conversations} from a fixture', () => {
    const t = parseTranscript(fixture('sharegpt.json'));
    expect(t.format).toBe('sharegpt');
    expect(t.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(t.messages[0]!.content).toContain('\ntop of the stairs?');
    expect(t.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
  });

  it('reads a bare turn list, system and tool speakers, and function_call turns', () => {
    const t = parseTranscript([
      { from: 'system', value: 'sys' },
      { from: 'human', value: 'hi' },
      { from: 'function_call', value: '{"name":"search","arguments":{"q":"x"}}' },
      { from: 'observation', value: 'found' },
      { from: 'gpt', value: 'done' },
    ]);
    expect(t.format).toBe('sharegpt');
    expect(brief(t.messages)).toEqual([
      ['system', 'sys', null, null, false],
      ['user', 'hi', null, null, false],
      ['assistant', '{"q":"x"}', 'search', null, false],
      ['tool', 'found', null, null, false],
      ['assistant', 'done', null, null, false],
    ]);
  });

  it('accepts an array of exactly one conversation and rejects several', () => {
    const one = { conversations: [{ from: 'human', value: 'a' }] };
    expect(parseTranscript([one]).messages).toHaveLength(1);
    expect(() => parseTranscript([one, one])).toThrow(
      '[sharegpt] Input holds 2 conversations; a transcript is one conversation: parse each element on its own (index 1)',
    );
  });
});

describe('claude-code-jsonl', () => {
  const text = fixture('claude-code-session.jsonl');

  it('keeps user/assistant events, pairs tool_use with tool_result, ignores the rest', () => {
    const t = parseTranscript(text);
    expect(t.format).toBe('claude-code-jsonl');
    expect(brief(t.messages)).toEqual([
      ['user', 'mix phx.server doesnt seem to start', null, null, false],
      ['assistant', 'Let me try running the server to see the error.', null, null, false],
      ['assistant', '{"command":"mix phx.server 2>&1 | head -80","timeout":30000}', 'Bash', 'toolu_1', false],
      [
        'tool',
        'Exit code 1\n** (Mix) Could not start application spotter: port 4000 in use',
        'Bash',
        'toolu_1',
        true,
      ],
      ['assistant', 'Port 4000 is taken. Let me find the process.', null, null, false],
      ['assistant', '{"command":"lsof -i :4000"}', 'Bash', 'toolu_2', false],
      ['tool', 'beam.smp 4242 dev', 'Bash', 'toolu_2', false],
      ['assistant', 'An old server (pid 4242) holds the port. Stop it with `kill 4242`.', null, null, false],
    ]);
    expect(t.messages[0]).toMatchObject({ id: 'u-1', ts: '2026-02-10T21:11:56.846Z', source: { line: 3 } });
    expect(t.messages.slice(4, 6).map((m) => m.id)).toEqual(['a-4.0', 'a-4.1']);
    expect(t.ignoredKinds).toEqual({
      'file-history-snapshot': 1,
      progress: 2,
      thinking: 1,
      sidechain: 1,
      system: 1,
      'queue-operation': 1,
    });
    expect(t.ignored).toBe(7);
    expect(t.skipped).toEqual([]);
  });

  it('includes sidechains on request', () => {
    const t = parseTranscript(text, { includeSidechains: true });
    expect(t.messages.map((m) => m.content)).toContain('(subagent) looking at ports');
  });

  it('also reads a JSON array of events and a single event', () => {
    const events = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const fromArray = parseTranscript(JSON.stringify(events, null, 2));
    expect(fromArray.format).toBe('claude-code-jsonl');
    expect(fromArray.messages).toHaveLength(8);
    expect(fromArray.messages[0]!.source).toEqual({ index: 2 });
    const single = parseTranscript(JSON.stringify(events[2]));
    expect(single.messages[0]).toMatchObject({
      content: 'mix phx.server doesnt seem to start',
      source: { line: 1 },
    });
  });
});

describe('jsonl', () => {
  it('reads lines of any message shape', () => {
    const text = [
      '{"role":"user","content":"hi","timestamp":"2025-01-01T00:00:00Z"}',
      '',
      '{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}]}',
      '{"role":"tool","tool_call_id":"t1","content":"a.txt"}',
      '{"from":"gpt","value":"done"}',
    ].join('\r\n');
    const t = parseTranscript(text);
    expect(t.format).toBe('jsonl');
    expect(t.messages.map((m) => [m.id, m.role, m.content, m.toolName ?? null, m.source.line])).toEqual([
      ['m1', 'user', 'hi', null, 1],
      ['m3', 'assistant', '{}', 'ls', 3],
      ['m4', 'tool', 'a.txt', 'ls', 4],
      ['m5', 'assistant', 'done', null, 5],
    ]);
    expect(t.messages[0]!.ts).toBe('2025-01-01T00:00:00Z');
  });
});

describe('detectFormat', () => {
  it.each([
    ['anthropic', [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: '' }] }]],
    [
      'openai',
      [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
    ],
    ['openai', { messages: [{ role: 'tool', tool_call_id: 'x', content: '' }] }],
    ['sharegpt', { conversations: [] }],
    ['sharegpt', [{ from: 'human', value: 'x' }]],
    [
      'claude-code-jsonl',
      '{"type":"progress","uuid":"p"}\n{"type":"user","message":{"role":"user","content":"x"}}',
    ],
    ['claude-code-console', '> hello\n\n⏺ Hi'],
    ['claude-code-console', '╭──╮\n│ ✻ Welcome to Claude Code research preview! │\n╰──╯'],
    ['claude-code-console', '> fix it\n\n● Bash(npm test)'],
    ['claude-code-console', '╭─── Claude Code v2.0.33 ───╮\n│ Welcome back! │'],
    ['plain', 'User: what now?\n● a bullet point\nAI: ok'],
    ['plain', 'User: hi'],
    ['plain', 'Notes\nHuman: a\nAI: b'],
    ['jsonl', '{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}'],
    ['jsonl', '{"from":"human","value":"a"}'],
  ])('%s ← %j', (format, input) => {
    expect(detectFormat(input)).toBe(format);
  });

  it.each([
    [''],
    ['just some prose'],
    [42],
    [null],
    [[]],
    [{ a: 1 }],
    ['\u0000\u0001binary'],
    ['{"a":1}\n{"b":2}'],
  ])('undefined for %j', (input) => {
    expect(detectFormat(input)).toBeUndefined();
  });
});
