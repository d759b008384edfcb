/**
 * aider histories written with a reasoning model: the model's thoughts, which aider writes between
 * `<thinking-content-…>` and `</thinking-content-…>` (or `<think>` and `</think>`), are not the reply.
 * Invented histories in the shape of recent aider ones (prompt lines end with two spaces).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deterministicSnapshot, entriesFromMessages, snapshotInputFrom } from '../../lib/snapshot/index';
import { parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';

const TAG = 'thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b';
const history = (...reply: string[]) =>
  [
    '# aider chat started at 2026-03-01 09:15:02',
    '',
    '#### why does the login form reset?  ',
    '',
    ...reply,
    '',
    '> Tokens: 7.4k sent, 1.2k received.  ',
    '',
    '#### thanks  ',
    '',
  ].join('\n');

describe('aider reasoning blocks', () => {
  it('passes over a <thinking-content-…> block and counts it; the reply after it is the reply', () => {
    const t = parseTranscript(
      history(
        `<${TAG}>`,
        '',
        'Okay, the user wants me to check the form. Let me start by reviewing each file.',
        '',
        `</${TAG}>`,
        '',
        'The form resets because `key` changes on every render.',
      ),
    );
    const replies = t.messages.filter((m) => m.role === 'assistant');
    expect(replies.map((m) => m.content.trim())).toEqual([
      'The form resets because `key` changes on every render.',
    ]);
    expect(t.ignoredKinds?.thinking).toBe(1);
    // Nothing of the reasoning reaches the snapshot.
    const { objective, entries } = entriesFromMessages(t.messages);
    const s = deterministicSnapshot(snapshotInputFrom(objective, entries));
    expect(JSON.stringify(s)).not.toContain('reviewing each file');
  });

  it('passes over a <think> block, a one-line block, and keeps a tag quoted in code', () => {
    const t = parseTranscript(
      history(
        '<think>',
        'The user is getting an error. I should check the imports.',
        '</think>',
        '',
        '<think>short</think>',
        'Install the package:',
        '',
        '```html',
        '<think>not reasoning: a line of code</think>',
        '```',
      ),
    );
    const reply = t.messages.find((m) => m.role === 'assistant')!.content;
    expect(reply).not.toContain('I should check the imports');
    expect(reply).not.toContain('short');
    expect(reply).toContain('Install the package:');
    expect(reply).toContain('<think>not reasoning: a line of code</think>');
    expect(t.ignoredKinds?.thinking).toBe(2);
  });

  it('ends a block left open at the next prompt: no turn is lost', () => {
    const t = parseTranscript(history(`<${TAG}>`, 'Thinking that never closes.'));
    expect(t.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'why does the login form reset?',
      'thanks',
    ]);
    expect(t.messages.some((m) => m.content.includes('never closes'))).toBe(false);
  });

  it("sees an architect's hand-off once the reply's reasoning is not part of the reply", () => {
    const text = [
      '# aider chat started at 2026-03-01 09:15:02',
      '',
      '#### add a codelist  ',
      '',
      `<${TAG}>`,
      'I should tell the editor what to do.',
      `</${TAG}>`,
      '',
      'Create `codelists/disease.csv` with two rows.',
      '',
      '#### Create `codelists/disease.csv` with two rows.  ',
      '',
    ].join('\n');
    const users = parseTranscript(text).messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.synthetic)).toEqual([undefined, 'handoff']);
  });

  it('reads a lone closing tag as the end of reasoning whose opening the model never wrote', () => {
    // DeepSeek-R1's distills: the chat template opens the block, so the history shows only `</think>`.
    const reply = [
      'The user asks about the form. I should look at the key.',
      '</think>',
      '',
      'Give the form a stable `key`.',
    ];
    const t = parseTranscript(history(...reply));
    expect(t.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
      'Give the form a stable `key`.',
    ]);
    expect(t.ignoredKinds?.thinking).toBe(1);
  });

  it('sees a hand-off of a reply whose reasoning ended in a lone closing tag, with or without that reasoning', () => {
    const reasoning = ['I should tell the editor what to do.', '</think>', ''];
    const answer = 'Create `codelists/disease.csv` with two rows.';
    for (const handed of [[answer], [...reasoning, answer]]) {
      const text = [
        '# aider chat started at 2026-03-01 09:15:02',
        '',
        '#### add a codelist  ',
        '',
        ...reasoning,
        answer,
        '',
        ...handed.map((l) => `#### ${l}  `),
        '',
      ].join('\n');
      const users = parseTranscript(text).messages.filter((m) => m.role === 'user');
      expect(users.map((m) => m.synthetic)).toEqual([undefined, 'handoff']);
    }
  });

  it("sees a hand-off that folds the reply's runs of spaces and drops its blank lines, after aider's token count", () => {
    const text = [
      '# aider chat started at 2025-06-24 12:00:43',
      '',
      '#### write a dataset with three age bands',
      '',
      'Editor,',
      '',
      'Create `dataset_definition.py`. It will:',
      '',
      '1.  Calculate the age on a date.',
      '2.  Create three bands.',
      '',
      '```python',
      'age = patients.age_on(index_date)',
      '```',
      '',
      '> Tokens: 8.7k sent, 775 received. Cost: $0.02 message, $0.02 session.',
      '',
      // As aider logged it: no trailing spaces, an empty `####` for each blank line it kept.
      '#### Editor,',
      '',
      '####',
      '',
      '#### Create `dataset_definition.py`. It will:',
      '',
      '#### 1. Calculate the age on a date.',
      '',
      '#### 2. Create three bands.',
      '',
      '#### ```python',
      '',
      '#### age = patients.age_on(index_date)',
      '',
      '#### ```',
      '',
    ].join('\n');
    const users = parseTranscript(text).messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.synthetic)).toEqual([undefined, 'handoff']);
    // A person's prompt that only starts like the reply is theirs.
    const own = text.replace('#### 2. Create three bands.', '#### 2. Create four bands.');
    expect(
      parseTranscript(own)
        .messages.filter((m) => m.role === 'user')
        .map((m) => m.synthetic),
    ).toEqual([undefined, undefined]);
  });

  it('keeps a closing tag a code block of the reply holds', () => {
    const t = parseTranscript(history('Wrap it:', '', '```', '</think>', '```'));
    expect(t.messages.find((m) => m.role === 'assistant')!.content).toContain('</think>');
  });
});

describe('aider reasoning blocks in the shared histories', () => {
  const dir = sharedDataDir();
  it.skipIf(!dir || !existsSync(join(dir, 'aider')))(
    'are passed over and counted, but where a code block of the reply holds them',
    () => {
      let files = 0;
      let blocks = 0;
      for (const name of readdirSync(join(dir!, 'aider')).filter((f) => f.endsWith('.md'))) {
        const text = readFileSync(join(dir!, 'aider', name), 'utf8');
        const t = parseTranscript(text);
        const n = t.ignoredKinds?.thinking ?? 0;
        // Counted independently: the opening tags at the start of a line.
        const opened = (text.match(/^\s*<(?:thinking-content-[0-9a-f]+|think)>/gm) ?? []).length;
        // And the lone closing lines: a `</think>` with no opening tag since the last closing one.
        let orphans = 0;
        let open = false;
        for (const line of text.split('\n')) {
          if (/^\s*<(?:thinking-content-[0-9a-f]+|think)>/.test(line))
            open = !/<\/(?:thinking-content-[0-9a-f]+|think)>/.test(line);
          else if (/^\s*<\/think>\s*$/.test(line)) {
            if (!open) orphans++;
            open = false;
          }
        }
        // A tag left in a reply is one a code block of the reply holds: an odd number of fence lines
        // before it (a reply whose fence never closes keeps what follows, aider's output too).
        let left = 0;
        for (const m of t.messages.filter((x) => x.role === 'assistant'))
          for (const at of [...m.content.matchAll(/^\s*<(?:thinking-content-[0-9a-f]+|think)>/gm)].map(
            (x) => x.index,
          )) {
            left++;
            const fences = (m.content.slice(0, at).match(/^\s*```/gm) ?? []).length;
            expect(fences % 2, `${name} line ${m.source.line}`).toBe(1);
          }
        expect(n + left, name).toBe(opened + orphans);
        if (n > 0) files++;
        blocks += n;
      }
      // 234 opening tags: 232 blocks passed over; 2 sit after a reply's code block that never closes
      // (one history), read as code. And 34 blocks of one more history (a DeepSeek-R1 distill) that
      // show only their closing tag.
      expect([files, blocks]).toEqual([9, 266]);
    },
    60_000,
  );
});
