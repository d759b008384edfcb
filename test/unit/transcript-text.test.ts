/**
 * The transcript reader on the text formats: a Claude Code console copy (prompts, agent lines, tool
 * calls and their outputs) and plain prefixed or role-tagged chats, in linear time.
 */
import { describe, expect, it } from 'vitest';
import { parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth } from './linear-time';
import { brief, fixture } from './transcript-helpers';

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
