/**
 * The transcript reader on aider chat histories, recent and old layouts: sessions, prompts, replies,
 * aider's own output and commands; property tests that every typed prompt comes back and that nothing
 * but a TranscriptError is thrown.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseTranscript, safeParseTranscript } from '../../lib/transcript/index';

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
