/**
 * What a console copy shows besides its turns: a later console's input box, npm's banner in a call's
 * output, a copy cut inside the agent's reply or pasted without its indents; the never-throw property,
 * linear time, and a console command that is not the session's objective.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../../lib/core/index';
import { deterministicSnapshot, entriesFromMessages, snapshotInputFrom } from '../../lib/snapshot/index';
import { parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth } from './linear-time';
import { consoleSession } from './transcript-harness-lines-helpers';

/** A console copy's lines read as `[role, content]` pairs. */
const read = (lines: string[]) =>
  parseTranscript(lines.join('\n'), { format: 'claude-code-console' }).messages.map((m) => [
    m.role,
    m.content,
  ]);

describe('console slash commands', () => {
  it("a later console's input box is no turn: an empty prompt sends nothing, and its rules end a prompt", () => {
    const rule = '\u2500'.repeat(60);
    const box = [rule, '> ', rule, '  \u23f5\u23f5 accept edits on (shift+tab to cycle)'];
    const copy = (prompt: string[]) =>
      parseTranscript(
        ['> add the auth router', '', '\u23fa The router is registered.', '', ...prompt, ''].join('\n'),
      ).messages.map((m) => [m.role, m.content]);
    const done = [
      ['user', 'add the auth router'],
      ['assistant', 'The router is registered.'],
    ];
    // The copy ends in the empty box: no turn of the person's after the reply.
    expect(copy(box)).toEqual(done);
    // A prompt typed in the box (the copy's last lines): its text alone, without the rule or the status.
    expect(
      copy([rule, '> now add the tests', rule, '  \u23f5\u23f5 accept edits on (shift+tab to cycle)']),
    ).toEqual([...done, ['user', 'now add the tests']]);
    // An empty prompt alone is no turn either.
    expect(copy(['>'])).toEqual(done);
  });

  it("npm's banner in a call's output copied without its indent is output, not a prompt", () => {
    const run = ['> run the tests', '', '\u23fa Bash(npm test)'];
    const after = ['', '\u23fa All pass.', '', '> thanks'];
    // The banner as the output's first lines, and after another line of output.
    expect(read([...run, '\u23bf  > @acme/pkg@1.0.0-rc.1 test', '> vitest run', ...after])).toEqual([
      ['user', 'run the tests'],
      ['assistant', 'npm test'],
      ['tool', '> @acme/pkg@1.0.0-rc.1 test\n> vitest run'],
      ['assistant', 'All pass.'],
      ['user', 'thanks'],
    ]);
    expect(read([...run, '\u23bf  (no content)', '> pkg@1.0.0 test', '> tsc', ...after])[2]).toEqual([
      'tool',
      '(no content)\n> pkg@1.0.0 test\n> tsc',
    ]);
    // pnpm's banner names the folder too.
    expect(read([...run, '\u23bf  > web@0.1.0 dev /Users/ana/web', '> next dev', ...after])[2]).toEqual([
      'tool',
      '> web@0.1.0 dev /Users/ana/web\n> next dev',
    ]);
    // A prompt after the output's blank line is the person's, even right after a banner line.
    expect(read([...run, '\u23bf  > pkg@1.0.0 test', '', '> vitest run please']).at(-1)).toEqual([
      'user',
      'vitest run please',
    ]);
    // Outside a call's output a prompt that looks like a banner is still the person's.
    expect(read(['> pkg@1.0.0 test']).at(-1)).toEqual(['user', 'pkg@1.0.0 test']);
  });

  it("a copy cut inside the agent's reply starts with that reply: the first prompt answers it", () => {
    const cut = [
      '  The parser now reads the header and the',
      '  tests pass.',
      '',
      '> no, the header is optional',
    ];
    expect(read(cut)).toEqual([
      ['assistant', 'The parser now reads the header and the\ntests pass.'],
      ['user', 'no, the header is optional'],
    ]);
    // Only at the copy's very start: indented lines after a title, a shell line or the logo are not the agent's.
    expect(read(['# Day 1', '', '  - set up', '', '> go on'])).toEqual([['user', 'go on']]);
    expect(read(['claude', '  the parser now reads', '', '> go on'])).toEqual([['user', 'go on']]);
    expect(read(['  \u2598\u2598 \u259d\u259d    /Users/ana/proj', '', '> go on'])).toEqual([
      ['user', 'go on'],
    ]);
    // A call's output (indented by five or more) cut from its call is not the agent's prose either.
    expect(read(['      45  2. Explore the data', '', '> go on'])).toEqual([['user', 'go on']]);
  });

  it('a copy without its indents keeps each block whole across blank lines: a pasted log, a reply, an output', () => {
    const flat = [
      '> the build fails:',
      'Traceback (most recent call last):',
      '',
      'ValueError: bad',
      '',
      '\u23fa Bash(python x.py)',
      '\u23bf  Error: bad',
      '',
      'more output',
      '',
      '\u23fa The fix is in.',
      '',
      'It was the parser.',
      '',
      '\u2736 Pondering\u2026 (3s \u00b7 esc to interrupt)',
      '\u00b7 Creating\u2026 (0s \u00b7 esc to interrupt)',
      '',
      '> no, still broken',
    ];
    expect(read(flat)).toEqual([
      ['user', 'the build fails:\nTraceback (most recent call last):\n\nValueError: bad'],
      ['assistant', 'python x.py'],
      ['tool', 'Error: bad\n\nmore output'],
      ['assistant', 'The fix is in.\n\nIt was the parser.'],
      ['user', 'no, still broken'],
    ]);
    // With its indents (one output indented is enough to tell), a line at the margin after a blank
    // line is no block's, as before.
    const indented = flat.map((l) => (l.startsWith('\u23bf') ? `  ${l}` : l));
    expect(read(indented)[0]).toEqual(['user', 'the build fails:\nTraceback (most recent call last):']);
    expect(read(indented)[3]).toEqual(['assistant', 'The fix is in.']);
  });

  it('never throws on copies pieced from console lines, flat or indented, and keeps no empty turn (property)', () => {
    const piece = fc.constantFrom(
      '> fix it',
      '>',
      '\u23fa Bash(npm test)',
      '\u23fa Done.',
      '\u23bf  > pkg@1.0.0 test',
      '  \u23bf  Error: bad',
      '\u23bf  ok',
      '> vitest run',
      '  prose of the agent',
      'a line at the margin',
      '',
      '\u2500'.repeat(20),
      '\u00b7 Creating\u2026 (0s \u00b7 esc to interrupt)',
      '      45  a call output',
      '  \u2598\u2598 \u259d\u259d',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (lines) => {
        const r = safeParseTranscript(lines.join('\n'), { format: 'claude-code-console' });
        // A copy with a prompt in it is always read; one without may be refused, with a typed error.
        // A `> ` line right under npm's banner is the banner's second line, not a prompt.
        const prompted = lines.some((l, i) => l === '> fix it' && !lines[i - 1]?.includes('pkg@1.0.0'));
        if (prompted) expect(r.ok).toBe(true);
        if (!r.ok) {
          expect(r.error).toBeInstanceOf(TranscriptError);
          return;
        }
        if (prompted)
          expect(r.value.messages.some((m) => m.role === 'user' && m.content.includes('fix it'))).toBe(true);
        for (const m of r.value.messages) {
          expect(typeof m.content).toBe('string');
          if (m.role === 'user') expect(m.content.trim()).not.toBe('');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('tells a copy without its indents in linear time', () => {
    const g = measureGrowth(
      (s: string) => parseTranscript(s, { format: 'claude-code-console' }),
      (n: number) => `> go\n\n\u23fa A\n${' '.repeat(n)}x\n${'\t '.repeat(n)}\n\u23bf`,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('reads lines that almost end as a folded summary in linear time', () => {
    const g = measureGrowth(
      (s: string) => parseTranscript(s, { format: 'claude-code-console' }),
      (n: number) => `> go\n\n\u23fa A${' '.repeat(n)}(ctrl+o to expand) x\n  B${' '.repeat(n)} to expand)\n`,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('a console command is not the session’s objective', () => {
    const t = parseTranscript(consoleSession('/model Opus', 'Add a --since flag to the list command.'));
    const { objective, entries } = entriesFromMessages(t.messages);
    expect(objective).toBe('Add a --since flag to the list command.');
    expect(deterministicSnapshot(snapshotInputFrom(objective, entries)).currentObjective).toBe(
      'Add a --since flag to the list command.',
    );
  });
});
