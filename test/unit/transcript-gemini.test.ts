/**
 * Gemini CLI: session JSON files and terminal transcripts. The shared data holds one session file
 * and no terminal transcript (no file in ../shared/data has a `✦` line), so the terminal reader is
 * tested on fixtures written here from the documented shapes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declinedCall, TranscriptError } from '../../lib/core/index';
import { detectFormat, parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth, OBJECT_STEP, thrown } from './linear-time';

const SESSION = {
  sessionId: 's-1',
  projectHash: 'abc',
  startTime: '2026-01-01T10:00:00.000Z',
  messages: [
    { id: 'u1', timestamp: '2026-01-01T10:00:00.000Z', type: 'user', content: 'Add a dark mode toggle' },
    {
      id: 'g1',
      timestamp: '2026-01-01T10:00:05.000Z',
      type: 'gemini',
      model: 'gemini-2.5-pro',
      content: 'Looking at the theme first.',
      thoughts: [{ subject: 'Plan', description: 'Read the theme file.' }],
      toolCalls: [
        {
          id: 'read_file-1',
          name: 'read_file',
          args: { file_path: 'src/theme.ts' },
          result: [
            { functionResponse: { id: 'read_file-1', name: 'read_file', response: { output: 'export {}' } } },
          ],
          status: 'success',
        },
        {
          id: 'shell-2',
          name: 'run_shell_command',
          args: { command: 'npm test' },
          result: [
            { functionResponse: { id: 'shell-2', name: 'run_shell_command', response: { error: 'exit 1' } } },
          ],
          status: 'error',
        },
      ],
    },
    { id: 'i1', timestamp: '2026-01-01T10:00:06.000Z', type: 'info', content: 'Request cancelled.' },
    {
      id: 'u2',
      timestamp: '2026-01-01T10:01:00.000Z',
      type: 'user',
      content: [{ text: 'No, keep the colors.' }],
    },
  ],
};

const CONSOLE = `
 ███ GEMINI banner

Tips for getting started:
1. Ask questions, edit files, or run commands.

╭──────────────────────────────────────────╮
│  > list the files and fix the failing    │
│    test in utils                         │
╰──────────────────────────────────────────╯

 ╭──────────────────────────────────────────╮
 │ ✓  ReadFolder .                           │
 │                                          │
 │    Listed 3 item(s).                     │
 ╰──────────────────────────────────────────╯
 ╭──────────────────────────────────────────╮
 │ ✗  Shell npm test                        │
 │                                          │
 │    1 failing                             │
 ╰──────────────────────────────────────────╯
✦ The test fails because the date is parsed
  in local time. I will fix it.

> no, use UTC everywhere

✦ Understood.
`;

describe('gemini-cli session JSON', () => {
  it('is detected by its shape', () => {
    expect(detectFormat(SESSION)).toBe('gemini-cli');
    expect(detectFormat(JSON.stringify(SESSION, null, 2))).toBe('gemini-cli');
  });

  it('reads turns, tool calls with results and failures, thoughts and metadata', () => {
    const t = parseTranscript(SESSION);
    expect(t.format).toBe('gemini-cli');
    expect(t.messages.map((m) => [m.role, m.toolName ?? '', m.isError ?? false, m.content])).toEqual([
      ['user', '', false, 'Add a dark mode toggle'],
      ['assistant', '', false, 'Looking at the theme first.'],
      ['assistant', 'read_file', false, '{"file_path":"src/theme.ts"}'],
      ['tool', 'read_file', false, 'export {}'],
      ['assistant', 'run_shell_command', false, '{"command":"npm test"}'],
      ['tool', 'run_shell_command', true, 'exit 1'],
      ['system', '', false, 'Request cancelled.'],
      ['user', '', false, 'No, keep the colors.'],
    ]);
    expect(t.messages[3]!.toolUseId).toBe('read_file-1');
    expect(t.messages[0]).toMatchObject({ id: 'u1', ts: '2026-01-01T10:00:00.000Z', source: { index: 0 } });
    expect(t.meta).toEqual({ agent: 'gemini-cli', sessionId: 's-1', models: ['gemini-2.5-pro'] });
    expect(t.ignoredKinds.thinking).toBe(1);
  });

  it('malformed input throws a located TranscriptError', () => {
    const broken = '{\n  "sessionId": "s",\n  "messages": [\n    {"type": "user", "content": }\n  ]\n}';
    const err = thrown<TranscriptError>(() => parseTranscript(broken, { format: 'gemini-cli' }));
    expect(err).toBeInstanceOf(TranscriptError);
    expect(err.message).toMatch(/^\[gemini-cli\] Input is not valid JSON: .+ \(line 4, column 33\)$/);
    const bad = {
      sessionId: 's',
      messages: [
        { type: 'user', content: 'hi' },
        { type: 'gemini', content: 3 },
      ],
    };
    expect(thrown<TranscriptError>(() => parseTranscript(bad)).message).toBe(
      '[gemini-cli] Message content must be a string or an array of parts, got number (index 1)',
    );
  });

  it('never throws anything but a TranscriptError (property)', () => {
    const msg = fc.record({
      type: fc.constantFrom('user', 'gemini', 'info', 'error', 'other', 5),
      content: fc.oneof(
        fc.string({ maxLength: 10 }),
        fc.array(fc.anything(), { maxLength: 3 }),
        fc.integer(),
      ),
      toolCalls: fc.oneof(
        fc.constant(undefined),
        fc.array(
          fc.record({
            name: fc.oneof(fc.string(), fc.integer()),
            args: fc.anything(),
            result: fc.anything(),
          }),
        ),
      ),
    });
    fc.assert(
      fc.property(fc.record({ sessionId: fc.string(), messages: fc.array(msg, { maxLength: 6 }) }), (v) => {
        const r = safeParseTranscript(v, { format: 'gemini-cli' });
        if (!r.ok) expect(r.error).toBeInstanceOf(TranscriptError);
      }),
      { numRuns: 300 },
    );
  });

  it('stays linear in the number of tool calls (time at 2x / time at 1x ≤ 3)', () => {
    const make = (n: number) => ({
      sessionId: 's',
      messages: [
        { type: 'user', content: 'go' },
        {
          type: 'gemini',
          content: '',
          toolCalls: Array.from({ length: n }, (_, i) => ({
            id: `c${i}`,
            name: 'x',
            args: {},
            status: 'error',
          })),
        },
      ],
    });
    // 400 to 6,400 calls: under 16,000 messages, past which building the output takes a step of its
    // own (see OBJECT_STEP in linear-time.ts; from 5,000 calls CI measured 5.93 2.35 5.07).
    const g = measureGrowth((v: unknown) => parseTranscript(v), make, doublings(OBJECT_STEP / 20, 4));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('gemini-cli-console terminal transcripts', () => {
  it('is detected by its ✦ lines', () => {
    expect(detectFormat(CONSOLE)).toBe('gemini-cli-console');
    expect(detectFormat('✦ hello')).toBe('gemini-cli-console');
  });

  it('reads boxed and bare prompts, ✦ replies, and tool boxes with their status', () => {
    const t = parseTranscript(CONSOLE);
    expect(t.format).toBe('gemini-cli-console');
    expect(t.messages.map((m) => [m.role, m.toolName ?? '', m.isError ?? false, m.content])).toEqual([
      ['user', '', false, 'list the files and fix the failing\ntest in utils'],
      ['assistant', 'ReadFolder', false, '.'],
      ['tool', 'ReadFolder', false, 'Listed 3 item(s).'],
      ['assistant', 'Shell', false, 'npm test'],
      ['tool', 'Shell', true, '1 failing'],
      ['assistant', '', false, 'The test fails because the date is parsed\nin local time. I will fix it.'],
      ['user', '', false, 'no, use UTC everywhere'],
      ['assistant', '', false, 'Understood.'],
    ]);
    expect(t.messages[0]!.source).toEqual({ line: 8 });
    expect(t.messages[2]!.toolUseId).toBe(t.messages[1]!.toolUseId);
    expect(t.ignored).toBeGreaterThan(0);
  });

  it("reads a cancelled call (`-`) as `Cancelled`, and the empty input box's placeholder as no prompt", () => {
    const text = [
      '> set up the repository',
      '',
      '╭──────────────────────────────────────────╮',
      '│ -  Shell git init [in /abs] (Initialize) │',
      '╰──────────────────────────────────────────╯',
      '',
      '> use a relative path instead',
      '',
      '✦ Understood.',
      '',
      '╭──────────────────────────────────────────╮',
      '│ >   Type your message or @path/to/file   │',
      '╰──────────────────────────────────────────╯',
      '> Type your message or @path/to/file',
    ].join('\n');
    const t = parseTranscript(text);
    expect(t.messages.map((m) => [m.role, m.toolName ?? '', m.isError ?? false, m.content])).toEqual([
      ['user', '', false, 'set up the repository'],
      ['assistant', 'Shell', false, 'git init [in /abs] (Initialize)'],
      ['tool', 'Shell', true, 'Cancelled'],
      ['user', '', false, 'use a relative path instead'],
      ['assistant', '', false, 'Understood.'],
    ]);
    expect(t.ignoredKinds['input box']).toBe(2);
    // The person's next turn answers an interruption, as after Claude Code's or Cursor's.
    expect(declinedCall(t.messages[2]!.content)).toBe(true);
  });

  it('throws a located TranscriptError when nothing is found', () => {
    const err = thrown<TranscriptError>(() =>
      parseTranscript('just some text\n╭──╮\n│ tip │\n╰──╯\n', { format: 'gemini-cli-console' }),
    );
    expect(err.message).toBe(
      '[gemini-cli-console] No Gemini CLI prompt, reply (✦) or tool box found (line 1)',
    );
  });

  it('never throws anything but a TranscriptError (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '╭──╮',
        '│ > hi │',
        '│ ✓  Read a │',
        '│ ✗  Shell x │',
        '│ x  Edit │',
        '╰──╯',
        '✦ ok',
        '> q',
        '  more',
        '',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (lines) => {
        const r = safeParseTranscript(lines.join('\n'), { format: 'gemini-cli-console' });
        if (!r.ok) expect(r.error).toBeInstanceOf(TranscriptError);
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['an unclosed box', (n: number) => `╭──╮\n${'│ ✓  Read a │\n'.repeat(n)}`],
    ['thousands of box tops', (n: number) => '╭──╮\n'.repeat(n)],
    ['one long ✦ reply', (n: number) => `✦ start\n${'  line\n'.repeat(n)}`],
    // Every line at the width the terminal wrapped at (79): each one is joined to the reply.
    ['one long ✦ reply wrapped at a width', (n: number) => `✦ start\n${`  ${'a '.repeat(38)}a\n`.repeat(n)}`],
  ])('stays linear on %s (each doubling at most triples the time, one step allowed)', (_, make) => {
    // 6,250 to 100,000 lines in four doublings: the young generation fills between 20,000 and 40,000
    // lines, where one doubling steps up (measured 4.6x once, then 2.1x per doubling up to 320,000
    // lines); measureGrowth allows that one step and fails a scan that is quadratic anywhere.
    const g = measureGrowth(
      (text) => safeParseTranscript(text, { format: 'gemini-cli-console' }),
      (n) => make(n),
      { sizes: [6_250, 12_500, 25_000, 50_000, 100_000], rounds: 3 },
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

const DIR = resolve(import.meta.dirname, '../../../shared/data/other-agents');
const present = existsSync(DIR);
if (!present) console.warn(`transcript-gemini: ${DIR} is absent, skipping the real-data walk`);

describe.skipIf(!present)('the real Gemini CLI session in ../shared/data/other-agents', () => {
  it('parses; turns and tool calls match an independent count and SOURCES.jsonl', () => {
    const rows = readFileSync(join(DIR, 'SOURCES.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; agent: string; human_turns: number })
      .filter((r) => r.agent === 'gemini-cli');
    expect(rows.length).toBe(1);
    for (const row of rows) {
      const path = join(DIR, row.file);
      expect(readdirSync(join(path, '..')).length).toBeGreaterThan(0);
      const text = readFileSync(path, 'utf8');
      const raw = JSON.parse(text) as { messages: { type: string; toolCalls?: unknown[] }[] };
      const t = parseTranscript(text);
      expect(t.format).toBe('gemini-cli');
      const human = t.messages.filter((m) => m.role === 'user' && !m.synthetic).length;
      expect(human).toBe(raw.messages.filter((m) => m.type === 'user').length);
      expect(human).toBe(row.human_turns);
      const calls = raw.messages.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0);
      expect(t.messages.filter((m) => m.role === 'assistant' && m.toolName).length).toBe(calls);
      console.log(
        `gemini-cli totals: ${JSON.stringify({ files: 1, sessions: 1, human, toolCalls: calls, failed: t.messages.filter((m) => m.isError).length })}`,
      );
    }
  });
});
