import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFormat, type Message, parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/transcripts', name), 'utf8');
const brief = (messages: Message[]) =>
  messages.map((m) => [m.role, m.content, m.toolName ?? null, m.toolUseId ?? null, m.isError ?? false]);

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

describe('claude-code-console', () => {
  it('reads prompts, agent lines, tool calls and indented outputs from a real excerpt', () => {
    const t = parseTranscript(fixture('console-day.txt'));
    expect(t.format).toBe('claude-code-console');
    const users = t.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(["Let's review TODO together", 'project setup first']);
    const read = t.messages.find((m) => m.toolName === 'Read')!;
    expect(read).toMatchObject({ role: 'assistant', content: 'file_path: "TODO.md"' });
    const output = t.messages.find((m) => m.role === 'tool' && m.toolUseId === read.toolUseId)!;
    expect(output.content.split('\n')).toEqual([
      '# BookMinder Project TODO',
      '## Requirements Status',
      '… +27 lines (ctrl+r to see all)',
    ]);
    // Sub-calls under a Call(…) are one output; the welcome box and the ✔ line are ignored.
    const call = t.messages.find((m) => m.toolName === 'Call')!;
    expect(t.messages.find((m) => m.role === 'tool' && m.toolUseId === call.toolUseId)!.content).toContain(
      'Bash(pip --version)…',
    );
    expect(t.ignoredKinds).toEqual({ other: 1, box: 1, status: 1 });
    const multi = t.messages.find((m) => m.content.startsWith('Looking at our current TODO'))!;
    expect(multi.content).toContain('\n\n1. Create README.md');
  });

  it('handles continuation lines, thinking blocks and errors', () => {
    const text = [
      '> first line',
      '  second line',
      '',
      '✻ Thinking…',
      '',
      '  hidden reasoning',
      '',
      '⏺ Update(file_path: a.py)…',
      '  ⎿  Error: String to replace not found in file.',
      '',
      '⏺ Done.',
    ].join('\n');
    const t = parseTranscript(text);
    expect(brief(t.messages)).toEqual([
      ['user', 'first line\nsecond line', null, null, false],
      ['assistant', 'file_path: a.py', 'Update', 'm8', false],
      ['tool', 'Error: String to replace not found in file.', 'Update', 'm8', true],
      ['assistant', 'Done.', null, null, false],
    ]);
    expect(t.ignoredKinds).toEqual({ thinking: 1 });
  });

  it('reads `●`, the agent mark of Linux and Windows terminals, as `⏺`', () => {
    const mac = [
      '╭─── Claude Code v2.0.33 ───╮',
      '│   /home/ana/proj   │ Tips │',
      '│   /help for help   │      │',
      '╰────────────────────────────╯',
      '',
      '> run the tests',
      '',
      '⏺ Bash(npm test)',
      '  ⎿  Error: Exit code 1',
      '     sh: 1: vitest: not found',
      '',
      '⏺ Bash(npx vitest run)',
      '  ⎿  ✓ 12 tests passed',
      '',
      '⏺ All tests pass.',
    ].join('\n');
    const linux = mac.replaceAll('⏺', '●');
    const t = parseTranscript(linux);
    expect(t.format).toBe('claude-code-console');
    expect(brief(t.messages)).toEqual([
      ['user', 'run the tests', null, null, false],
      ['assistant', 'npm test', 'Bash', 'm8', false],
      ['tool', 'Error: Exit code 1\nsh: 1: vitest: not found', 'Bash', 'm8', true],
      ['assistant', 'npx vitest run', 'Bash', 'm12', false],
      ['tool', '✓ 12 tests passed', 'Bash', 'm12', false],
      ['assistant', 'All tests pass.', null, null, false],
    ]);
    expect(t.messages).toEqual(parseTranscript(mac).messages);
    // The later welcome box shows the session's folder alone in its left pane.
    expect(t.meta?.cwd).toBe('/home/ana/proj');
  });

  it('reads `❯ ` prompts, prompts wrapped at the margin, and `✻ … for 1m 5s` status lines', () => {
    const text = [
      '❯ Read @CLAUDE.md and the plan, then report which tasks exist. Do not ',
      'edit anything yet.',
      '  Also list the tests.',
      '',
      '● Read(CLAUDE.md)',
      '  ⎿  Read 187 lines',
      '',
      '✻ Brewed for 1m 5s',
      '',
      '❯ 监控',
      '✻ Worked for 46s · 1 background task still running',
      'Cleaning up orphaned requests...',
    ].join('\n');
    const t = parseTranscript(text);
    expect(brief(t.messages)).toEqual([
      [
        'user',
        'Read @CLAUDE.md and the plan, then report which tasks exist. Do not \nedit anything yet.\nAlso list the tests.',
        null,
        null,
        false,
      ],
      ['assistant', 'CLAUDE.md', 'Read', 'm5', false],
      ['tool', 'Read 187 lines', 'Read', 'm5', false],
      // A line at the margin continues a prompt only right after it: not after a status line.
      ['user', '监控', null, null, false],
    ]);
    expect(t.ignoredKinds).toEqual({ status: 2, other: 1 });
  });

  it('reads a prompt quoted line by line as one, and pytest marks in a copied output as output', () => {
    const text = [
      '> i wouldnt rely too much on the old implementation. go into it with a fresh mind. the',
      '> ticket should give you all the context you need.',
      '>   ⎿  Interrupted by user',
      '',
      '● Bash(pytest -q)',
      '  ⎿  Error: Exit code 1',
      '        result = run()',
      '>       assert result > 0',
      'E       AssertionError: assert 0 > 0',
    ].join('\n');
    expect(brief(parseTranscript(text).messages)).toEqual([
      [
        'user',
        'i wouldnt rely too much on the old implementation. go into it with a fresh mind. the\nticket should give you all the context you need.',
        null,
        null,
        false,
      ],
      ['tool', 'Interrupted by user', null, null, false],
      ['assistant', 'pytest -q', 'Bash', 'm5', false],
      ['tool', 'Error: Exit code 1\n   result = run()\n>       assert result > 0', 'Bash', 'm5', true],
    ]);
  });

  it('reads a call wrapped onto more lines as its whole arguments, without the cost note', () => {
    const text = [
      '⏺ Bash(git commit -m "Fix the import…                     Cost: $0.0745 (13.2s)',
      '',
      '      Body line.")',
      '  ⎿  [main e7a5fa4] Fix the import',
      '',
      '● Bash(curl -s localhost:3001/status | python3 -m',
      '      json.tool)',
      '  ⎿  Error: Exit code 1',
      '',
      '● Bash(git log --oneline -200 | grep fix',
      '      … (ctrl+r to expand)',
      '',
      '⏺ Done.                     Cost: $0.3920 (7.8s)',
    ].join('\n');
    expect(brief(parseTranscript(text).messages)).toEqual([
      ['assistant', 'git commit -m "Fix the import…\n\nBody line."', 'Bash', 'm1', false],
      ['tool', '[main e7a5fa4] Fix the import', 'Bash', 'm1', false],
      ['assistant', 'curl -s localhost:3001/status | python3 -m\njson.tool', 'Bash', 'm6', false],
      ['tool', 'Error: Exit code 1', 'Bash', 'm6', true],
      // The console's note that it cut the command is kept, and no `)` is taken from it.
      ['assistant', 'git log --oneline -200 | grep fix\n… (ctrl+r to expand)', 'Bash', 'm10', false],
      ['assistant', 'Done.', null, null, false],
    ]);
  });
});

describe('plain', () => {
  it('reads prefixed multi-line turns in every accepted spelling', () => {
    const text =
      'System: be nice\nHuman: hi\nthere\n\nAI: hello\n**Claude:** bold\nassistant: lower\nUser:\nnext line';
    const t = parseTranscript(text);
    expect(t.format).toBe('plain');
    expect(t.messages.map((m) => [m.role, m.content, m.source.line])).toEqual([
      ['system', 'be nice', 1],
      ['user', 'hi\nthere', 2],
      ['assistant', 'hello', 5],
      ['assistant', 'bold', 6],
      ['assistant', 'lower', 7],
      ['user', 'next line', 8],
    ]);
  });

  it('reads a chat in role tags, whose blocks run to their closing tags', () => {
    const text = [
      '<user>',
      'Summarise these logs.',
      'User: this prefix is pasted text, not a turn',
      '',
      '</user>',
      '<assistant model="gemini-2.5-pro-0506">',
      'Okay, here is the summary.',
      '<user>still the reply</user> too',
      '</assistant>',
      '<USER>One line.</User>',
      'Assistant: a prefix after the blocks starts a turn',
    ].join('\n');
    const t = parseTranscript(text);
    expect(t.format).toBe('plain');
    expect(t.messages.map((m) => [m.role, m.content, m.source.line])).toEqual([
      ['user', 'Summarise these logs.\nUser: this prefix is pasted text, not a turn', 1],
      ['assistant', 'Okay, here is the summary.\n<user>still the reply</user> too', 6],
      ['user', 'One line.', 10],
      ['assistant', 'a prefix after the blocks starts a turn', 11],
    ]);
  });

  it('reads role tags inside a chat of prefixes as text (a few-shot prompt pasted into a turn)', () => {
    const t = parseTranscript(
      'User: answer like this:\n<user>\nhi\n</user>\n<assistant>hello</assistant>\nAssistant: ok',
    );
    expect(t.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'answer like this:\n<user>\nhi\n</user>\n<assistant>hello</assistant>'],
      ['assistant', 'ok'],
    ]);
  });

  it('takes a role tag for a chat only with its closing tag, and an unclosed block runs to the end', () => {
    expect(safeParseTranscript('<system>\nYou are a helpful assistant.\n').ok).toBe(false);
    expect(safeParseTranscript('<userinfo>\nname\n</userinfo>').ok).toBe(false);
    const t = parseTranscript('<user>\nhi\n</user>\n<assistant>\nhello\n\nand more');
    expect(t.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'hello\n\nand more'],
    ]);
  });

  it.each([
    ['tags never closed', (n: number) => `<user>\n${'<assistant a="'.repeat(n)}`],
    ['a tag line of spaces and quotes', (n: number) => `<user>\n</user>\n<assistant ${' "'.repeat(n)}`],
    ['blocks opened on one line each', (n: number) => '<user>x\n'.repeat(n)],
    ['closing tags with trailing spaces', (n: number) => `<user>\n${'</user  \n'.repeat(n)}</user>`],
  ])('stays linear on %s (time at 2x / time at 1x ≤ 3)', (_, make) => {
    const g = measureGrowth((s: string) => safeParseTranscript(s), make, doublings(6_250));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('counts a preamble as ignored', () => {
    const t = parseTranscript('Here is my chat:\nUser: a\nAssistant: b');
    expect(t.format).toBe('plain');
    expect(t.messages).toHaveLength(2);
    expect(t.ignoredKinds).toEqual({ preamble: 1 });
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

describe('aider', () => {
  // Synthetic, in the shape of a recent aider's .aider.chat.history.md: prompt lines end with two spaces.
  const recent = [
    '',
    '# aider chat started at 2025-03-01 09:15:02',
    '',
    '> Aider v0.86.1  ',
    '> Git repo: .git with 12 files  ',
    '',
    '#### /add src/app.py  ',
    '',
    '> Added src/app.py to the chat  ',
    '',
    '#### make the parser strict  ',
    '#### and report the line number  ',
    '',
    'I will change `parse` to raise on bad lines.',
    '',
    '#### Plan',
    '',
    '```python',
    '> not aider output, a quoted line inside code',
    '```',
    '',
    '> Tokens: 2.1k sent, 120 received.  ',
    '> Applied edit to src/app.py  ',
    '> Commit 1a2b3c4 feat: strict parser  ',
    '',
    '#### /undo  ',
    '',
    '> Removed: 1a2b3c4 feat: strict parser  ',
    '> Now at:  0f0f0f0 initial  ',
    '',
    '#### /ask why did the tests fail?  ',
    '',
    '#### why did the tests fail?  ',
    '',
    'Because `parse` returned None.',
    '',
    '> Tokens: 1k sent, 20 received.  ',
    '> src/other.py  ',
    "#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  ",
    '',
    '#### /run pytest -q  ',
    '',
    '> FAILED tests/test_app.py::test_parse - ValueError  ',
    '',
    '# aider chat started at 2025-03-02 10:00:00',
    '',
    '#### No, keep it lenient.  ',
    '',
    'Reverted to the lenient parser.',
    '',
  ].join('\n');

  it('reads sessions, prompts, replies and aider output as separate messages', () => {
    expect(detectFormat(recent)).toBe('aider');
    const t = parseTranscript(recent);
    expect(t.format).toBe('aider');
    expect(t.skipped).toEqual([]);
    expect(t.messages.map((m) => [m.role, m.source.line, m.synthetic ?? null])).toEqual([
      ['system', 2, null],
      ['tool', 4, null],
      ['user', 7, 'command'],
      ['tool', 9, null],
      ['user', 11, null],
      ['assistant', 14, null],
      ['tool', 22, null],
      ['user', 26, null],
      ['tool', 28, null],
      ['user', 31, 'command'],
      ['user', 33, null],
      ['assistant', 35, null],
      ['tool', 37, null],
      ['user', 39, 'confirmation'],
      ['user', 41, 'command'],
      ['tool', 43, null],
      ['system', 45, null],
      ['user', 47, null],
      ['assistant', 49, null],
    ]);
    const [header, startup, , , prompt, reply, applied, undo, undone] = t.messages;
    expect(header).toMatchObject({
      content: 'aider chat started at 2025-03-01 09:15:02',
      ts: '2025-03-01T09:15:02',
    });
    expect(startup).toMatchObject({
      toolName: 'aider',
      content: 'Aider v0.86.1\nGit repo: .git with 12 files',
    });
    // A multi-line prompt is one message; trailing Markdown line breaks are dropped.
    expect(prompt!.content).toBe('make the parser strict\nand report the line number');
    // The model's own `####` heading and a `> ` line inside its code block stay in its reply.
    expect(reply!.content).toBe(
      'I will change `parse` to raise on bad lines.\n\n#### Plan\n\n```python\n> not aider output, a quoted line inside code\n```',
    );
    expect(applied!.content).toBe(
      'Tokens: 2.1k sent, 120 received.\nApplied edit to src/app.py\nCommit 1a2b3c4 feat: strict parser',
    );
    expect(applied!.isError).toBeUndefined();
    // /undo is the person rejecting the edit: a visible user event, never synthetic.
    expect(undo).toMatchObject({ role: 'user', content: '/undo' });
    expect(undo!.synthetic).toBeUndefined();
    expect(undone!.content).toContain('Removed: 1a2b3c4');
    expect(t.messages[15]).toMatchObject({
      isError: true,
      content: 'FAILED tests/test_app.py::test_parse - ValueError',
    });
    expect(t.messages.filter((m) => m.role === 'user' && !m.synthetic).map((m) => m.content)).toEqual([
      'make the parser strict\nand report the line number',
      '/undo',
      'why did the tests fail?',
      'No, keep it lenient.',
    ]);
  });

  it('reads the old layout: no trailing spaces, blank lines between the lines of one prompt', () => {
    const old = [
      '# aider chat started at 2024-08-20 14:08:19',
      '',
      '> Aider v0.50.1',
      '',
      '#### /clear',
      '',
      '#### /drop',
      '',
      '> Dropping all files from the chat session.',
      '',
      '#### first line of a long prompt',
      '',
      '#### second line of it',
      '',
      'Sure, here is a fix:',
      '',
      '```',
      '#### inside the reply code',
      '```',
      '',
      '#### /help how do I add files?',
      '',
      '#### # Question: how do I add files?',
      '',
      '#### # Relevant docs:',
      '',
      '#### /add <file> adds a file',
      '',
      'Use /add.',
    ].join('\n');
    const t = parseTranscript(old);
    expect(t.format).toBe('aider');
    const users = t.messages.filter((m) => m.role === 'user');
    expect(users.map((m) => [m.content, m.synthetic ?? null])).toEqual([
      ['/clear', 'command'],
      ['/drop', 'command'],
      ['first line of a long prompt\nsecond line of it', null],
      ['/help how do I add files?', null],
      // The prompt /help builds from the docs (commands it quotes included) is aider's, not the person's.
      ['# Question: how do I add files?\n# Relevant docs:\n/add <file> adds a file', 'command'],
    ]);
    expect(t.messages.find((m) => m.role === 'assistant')!.content).toBe(
      'Sure, here is a fix:\n\n```\n#### inside the reply code\n```',
    );
  });

  it('flags the architect reply aider hands to the editor, and reads commands as aider does', () => {
    const text = [
      '# aider chat started at 2025-01-01 00:00:00',
      '',
      '#### /architect add a cache  ',
      '',
      '#### add a cache  ',
      '',
      'Plan: wrap `load` in an LRU cache.',
      '',
      '  Keep the size at 128.',
      '',
      '> Tokens: 1k sent, 50 received.  ',
      '',
      '#### Plan: wrap `load` in an LRU cache.  ',
      '####   ',
      '####   Keep the size at 128.  ',
      '',
      'src/load.py',
      '',
      '#### /tok  ',
      '',
      '#### /a  ',
      '',
      '#### !ls  ',
      '',
      '#### /Add is not a command  ',
      '',
      '> Invalid command: /Add  ',
      '',
      '#### <blank>  ',
    ].join('\n');
    const users = parseTranscript(text).messages.filter((m) => m.role === 'user');
    expect(users.map((m) => [m.content.split('\n')[0], m.synthetic ?? null])).toEqual([
      ['/architect add a cache', 'command'],
      ['add a cache', null],
      ['Plan: wrap `load` in an LRU cache.', 'handoff'],
      ['/tok', 'command'],
      ['/a', 'command'],
      ['!ls', 'command'],
      ['/Add is not a command', 'command'],
      ['<blank>', 'confirmation'],
    ]);
  });

  it('is selectable by name, and rejects text with no aider chat with a located error', () => {
    expect(parseTranscript('#### hi  \n\nHello!', { format: 'aider' }).messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(() => parseTranscript('\n\nDear diary, no chat here.', { format: 'aider' })).toThrow(
      '[aider] No aider chat found: expected a "# aider chat started at …" line or "#### " prompt lines (line 3)',
    );
    expect(() => parseTranscript([{ role: 'user', content: 'x' }], { format: 'aider' })).toThrow(
      /^\[aider\] Expected aider chat history text/,
    );
    // Text before the first header or prompt is counted, not kept.
    const t = parseTranscript('stray line\n# aider chat started at 2025-01-01 00:00:00\n\n#### hi  ');
    expect(t.ignoredKinds).toEqual({ preamble: 1 });
    // A Markdown document with a `####` heading is not an aider history.
    expect(detectFormat('Intro\n\n#### Notes\n\nSome text.')).toBeUndefined();
  });
});

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

describe('aider (property)', () => {
  // No trailing spaces: a person's own would read as a recent aider's line break.
  const words = fc.stringMatching(/^[a-z](?:[a-z ,.?]{0,39}[a-z.?])?$/);
  const session = fc.array(
    fc.record({
      prompt: fc.array(words, { minLength: 1, maxLength: 3 }),
      reply: fc.array(words, { minLength: 0, maxLength: 3 }),
      output: fc.array(words, { minLength: 0, maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 5 },
  );

  it('every prompt a person typed comes back once, in order, with its lines, whatever the layout', () => {
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 3 }), fc.boolean(), (sessions, old) => {
        const lines: string[] = [];
        sessions.forEach((turns, s) => {
          lines.push(`# aider chat started at 2025-01-0${s + 1} 10:00:00`, '');
          for (const t of turns) {
            // Recent aider: consecutive lines with a Markdown line break; old: blank-separated, bare.
            for (const p of t.prompt) lines.push(old ? `#### ${p}` : `#### ${p}  `, ...(old ? [''] : []));
            if (!old) lines.push('');
            // Old aider's layout cannot tell two prompts in a row from one two-line prompt; aider
            // always answers in between (a reply or its own output), so the generator does too.
            const reply = old && !t.reply.length && !t.output.length ? ['ok'] : t.reply;
            if (reply.length) lines.push(...reply, '');
            if (t.output.length) lines.push(...t.output.map((o) => `> ${o}  `), '');
          }
        });
        const parsed = parseTranscript(lines.join('\n'));
        expect(parsed.format).toBe('aider');
        const norm = (p: string[]) =>
          p
            .map((l) => l.trimEnd())
            .join('\n')
            .trim();
        const expected = sessions.flat().map((t) => norm(t.prompt));
        const users = parsed.messages.filter((m) => m.role === 'user');
        expect(users.map((m) => m.content)).toEqual(expected);
        expect(users.every((m) => m.synthetic === undefined || m.synthetic === 'handoff')).toBe(true);
        expect(parsed.messages.filter((m) => m.role === 'system').length).toBe(sessions.length);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws anything but a TranscriptError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const r = safeParseTranscript(`# aider chat started at x\n${text}`, { format: 'aider' });
        expect(r.ok).toBe(true);
        const any = safeParseTranscript(text, { format: 'aider' });
        if (!any.ok) expect(any.error.message).toMatch(/^\[aider\] /);
      }),
      { numRuns: 300 },
    );
  });
});
