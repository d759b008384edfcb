/**
 * The snapshot's reading of the agent's sentences (`entriesFromMessages`): sentence ends in any
 * language, in linear time; the person's latest turn answered in words; colon-ended sentences that
 * introduce what follows; and the places a tool call names.
 */
import fc from 'fast-check';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  reflectedSnapshotPrompt,
  snapshotInputFrom,
} from 'rearview/snapshot';
import type { Message } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';
import { SENTENCE } from '../../lib/snapshot/sentences';
import { describeGrowth, doublings, measureGrowth } from './linear-time';
import { msg } from './snapshot-adapters-helpers';

describe('entriesFromMessages: what is still to do is said last', () => {
  it('reads a Chinese or Japanese paragraph sentence by sentence: 。！？ end a sentence without a space', () => {
    const { entries } = entriesFromMessages([
      msg('u1', 'user', '为什么在dev环境下会水合错误？'),
      msg(
        'a1',
        'assistant',
        '这个水合错误提示说明服务端渲染的 HTML 和客户端渲染的内容不匹配。根据错误信息，问题出现在 MDX 内容的渲染上。他说「需要重启服务器。」然后再试一次！',
      ),
      msg('a2', 'assistant', 'ビルドは成功しました。次にテストを実行して結果を確認します。'),
    ]);
    expect(entries.map((e) => e.value)).toEqual([
      '为什么在dev环境下会水合错误？',
      '这个水合错误提示说明服务端渲染的 HTML 和客户端渲染的内容不匹配。',
      '根据错误信息，问题出现在 MDX 内容的渲染上。',
      // A closing quote after 。 stays with its sentence.
      '他说「需要重启服务器。」然后再试一次！',
      // Under 12 characters, as in English, a sentence gives no entry ("ビルドは成功しました。", 11).
      '次にテストを実行して結果を確認します。',
    ]);
  });

  it('gives no entry for a line that is one markup tag (a model echoing its prompt’s tags)', () => {
    const { entries } = entriesFromMessages([
      msg('u1', 'user', 'Implement the stub functions so the tests pass.'),
      msg(
        'a1',
        'assistant',
        '<format_example>\nTHOUGHT: Open the target file to see the stubs.\n</format_example>',
      ),
      msg('a2', 'assistant', 'Wrap the value in <section class="note"> before the list.'),
    ]);
    expect(entries.map((e) => e.value)).toEqual([
      'Implement the stub functions so the tests pass.',
      'THOUGHT: Open the target file to see the stubs.',
      'Wrap the value in <section class="note"> before the list.',
    ]);
  });

  it('reads the same sentences as splitting the whole text would, stopping at three (property)', () => {
    // The reference: the message split at every sentence end (the same pattern, so that what is tested
    // is the stop-at-three search), then its first three long enough pieces.
    const reference = (text: string): string[] => {
      const out: string[] = [];
      let fence = false;
      for (const raw of text.split(SENTENCE)) {
        const line = raw.trim();
        if (line.startsWith('```')) {
          fence = !fence;
          continue;
        }
        if (fence || line.length < 12 || /^<\/?[A-Za-z][\w.:-]*\s*\/?>$/.test(line)) continue;
        out.push(line.length > 300 ? line.slice(0, 300).replace(/\s\S*$/, '') : line);
        if (out.length >= 3) break;
      }
      return out;
    };
    const piece = fc.constantFrom(
      '。',
      '！',
      '？',
      '」',
      '. ',
      '? ',
      'A',
      'b',
      ' ',
      '\n',
      '```',
      'word ',
      '这是一个句子',
      '`x`',
      '<format_example>',
      '</b>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        const got = entriesFromMessages([msg('a1', 'assistant', text)]).entries.map((e) => e.value);
        expect(got, JSON.stringify(text)).toEqual(reference(text));
      }),
    );
  });

  it('stays linear on runs of full-width sentence ends and spaces', () => {
    const messagesOf = (n: number): Message[] => [
      msg('u1', 'user', 'Go on with the export.'),
      msg('a1', 'assistant', `${'。 '.repeat(n)}${'！」'.repeat(n)}继续导出数据的工作。`),
    ];
    // Bare sentence ends give no entry; a closing quote keeps 「！」 with what follows it.
    expect(entriesFromMessages(messagesOf(10)).entries.map((e) => e.value)).toEqual([
      'Go on with the export.',
      `${'！」'.repeat(10)}继续导出数据的工作。`,
    ]);
    const g = measureGrowth((m: Message[]) => entriesFromMessages(m), messagesOf, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it("the person's latest turn, answered by the agent in words, asks no open question any more", () => {
    const session = (reply: Message[]) =>
      entriesFromMessages([
        msg('u1', 'user', 'Add the export button to the report page.'),
        msg('a1', 'assistant', 'Added the export button.'),
        msg('u2', 'user', 'Why does the export skip the last row? Please fix it.'),
        ...reply,
      ]).entries;
    // A tool call alone, or an error of the model's own call, answers nothing.
    const unanswered = session([
      { ...msg('c1', 'assistant', '{"cmd":"npm test"}'), toolName: 'Bash' },
      msg('a2', 'assistant', 'API Error: 500 Internal server error.'),
    ]);
    expect(unanswered.filter((e) => e.key.startsWith('u2')).map((e) => e.scope)).toEqual(['user', 'user']);
    expect(deterministicSnapshot(snapshotInputFrom('Export', unanswered)).unresolvedQuestions).toEqual([
      'Why does the export skip the last row?',
    ]);
    const answered = session([
      msg('a2', 'assistant', 'The loop stopped one row early; it now reads every row.'),
    ]);
    expect(answered.filter((e) => e.key.startsWith('u2')).map((e) => e.scope)).toEqual([
      'replied',
      'replied',
    ]);
    const trace = deterministicSnapshotWithTrace(snapshotInputFrom('Export', answered));
    expect(trace.snapshot.unresolvedQuestions).toEqual([]);
    expect(trace.dropped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ text: 'Why does the export skip the last row?', reason: 'done' }),
      ]),
    );
    // A step the turn asks for is still read as the person's.
    expect(trace.snapshot.nextActions).toContain('Please fix it.');
  });

  it('a sentence ending with ":" is no done step when it is the session\'s last words', () => {
    const scopes = entriesFromMessages([
      msg('u1', 'user', 'Plan the migration.'),
      msg('a1', 'assistant', 'Here is what I will do next:'),
    ]).entries.map((e) => e.scope);
    expect(scopes).toEqual(['replied', 'assistant']);
  });

  it("an agent's sentence ending with a colon introduces what follows it: scope `done`, never a next action", () => {
    const answer = [
      msg('u1', 'user', 'How do I add Tailwind?'),
      msg(
        'a1',
        'assistant',
        'To install Tailwind CSS in your project, follow these steps:\n\n1. npm i tailwindcss',
      ),
      msg(
        'a2',
        'assistant',
        '检查当前代码，调整容器宽度以自适应 logo 大小：\n```tsx\n<div className="w-auto" />\n```',
      ),
    ];
    const { entries } = entriesFromMessages([
      ...answer,
      msg('a3', 'assistant', 'Next I will wire the config file:'),
      msg('u2', 'user', 'Also, first update the lockfile:'),
    ]);
    expect(entries.map((e) => [e.key, e.scope])).toEqual([
      ['u1.0', 'answered'],
      ['a1.0', 'answered'],
      ['a1.1', 'answered'],
      ['a2.0', 'answered'],
      ['a3.0', 'answered'],
      ['u2.0', 'user'],
    ]);
    // After the person's latest turn: the agent's sentences that introduce code or steps are done; the
    // person's turn, answered, is `replied`; the last words of the session stay.
    const after = entriesFromMessages([
      ...answer,
      msg('a3', 'assistant', 'Next I will wire the config file:   \n'),
    ]).entries;
    expect(after.map((e) => [e.key, e.scope])).toEqual([
      ['u1.0', 'replied'],
      ['a1.0', 'done'],
      ['a1.1', 'assistant'],
      ['a2.0', 'done'],
      ['a3.0', 'assistant'],
    ]);
    const snapshot = deterministicSnapshot(snapshotInputFrom('Add Tailwind', after));
    expect(snapshot.nextActions).toEqual(['Next I will wire the config file:']);
  });

  it('stays linear on a last message of colon-ended sentences and long trailing space', () => {
    const messagesOf = (n: number): Message[] => [
      msg('u1', 'user', 'Go on with the export.'),
      msg(
        'a1',
        'assistant',
        `Here are the steps for the export:\n${'Here are the steps for the export:\n'.repeat(2)}${' \n'.repeat(n)}`,
      ),
    ];
    // The same words three times: only the last is the session's last words.
    expect(entriesFromMessages(messagesOf(10)).entries.map((e) => e.scope)).toEqual([
      'replied',
      'done',
      'done',
      'assistant',
    ]);
    const g = measureGrowth((m: Message[]) => entriesFromMessages(m), messagesOf, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it("gives `done` exactly to the agent's colon-ended sentences after the latest turn that are not the last words and to its words a call follows, and `replied` to that turn once the agent answered it (property)", () => {
    const kind = fc.constantFrom('user', 'plain', 'intro', 'intro-code', 'intro-wide', 'call');
    const messageOf = (k: string, i: number): Message => {
      if (k === 'user') return msg(`m${i}`, 'user', `Please fix row ${i} of the export:`);
      if (k === 'call') return { ...msg(`m${i}`, 'assistant', `{"cmd":"ls ${i}"}`), toolName: 'Bash' };
      const text =
        k === 'plain'
          ? `I will check row ${i} of the export.`
          : k === 'intro'
            ? `Here are the steps for row ${i}:`
            : k === 'intro-code'
              ? `Now update row ${i} of the export:\n\`\`\`ts\nrow(${i});\n\`\`\``
              : `现在修改第 ${i} 行的导出代码：`;
      return msg(`m${i}`, 'assistant', text);
    };
    fc.assert(
      fc.property(fc.array(kind, { maxLength: 10 }), (kinds) => {
        const messages = kinds.map(messageOf);
        const latest = kinds.lastIndexOf('user');
        // The agent answered the latest turn in words: any message of its own text after it.
        const replied = kinds.some((k, j) => j > latest && k !== 'call' && k !== 'user');
        for (const e of entriesFromMessages(messages).entries) {
          const i = e.sourceIteration;
          const k = kinds[i]!;
          if (k === 'call') continue;
          // Only a plain intro with nothing after it is the session's last words (code follows the other).
          const lastWords = i === kinds.length - 1 && k !== 'intro-code';
          // The agent's words its own call follows right away were carried out by it: `done`.
          const want =
            i < latest
              ? 'answered'
              : k === 'user'
                ? replied
                  ? 'replied'
                  : 'user'
                : kinds[i + 1] === 'call'
                  ? 'done'
                  : k === 'plain' || lastWords
                    ? 'assistant'
                    : 'done';
          expect(e.scope, `${kinds.join(',')} @${i}`).toBe(want);
        }
      }),
    );
  });

  it('`done` is part of the snapshot input format: such an entry is never a next action', () => {
    const entry = (scope: string) => ({
      scope,
      key: 'k',
      value: 'Run the migration on staging next.',
      sourceIteration: 1,
    });
    expect(deterministicSnapshot({ objective: 'Ship it', entries: [entry('notes')] }).nextActions).toEqual([
      'Run the migration on staging next.',
    ]);
    expect(deterministicSnapshot({ objective: 'Ship it', entries: [entry('done')] }).nextActions).toEqual([]);
    // `answered` (the agent's words before the person's latest turn) is no guess either.
    const guess = { ...entry('answered'), value: 'The cache might be stale.' };
    expect(
      deterministicSnapshot({ objective: 'Ship it', entries: [entry('answered'), guess] }),
    ).toMatchObject({
      nextActions: [],
      openHypotheses: [],
    });
    expect(
      deterministicSnapshot({ objective: 'Ship it', entries: [{ ...guess, scope: 'done' }] }).openHypotheses,
    ).toEqual(['The cache might be stale.']);
    expect(reflectedSnapshotPrompt({ objective: 'Ship it', entries: [guess] })).toContain('scope "answered"');
    // The reflection is told so, only when such an entry is in its input.
    const line =
      'An entry of scope "done" was carried out, answered or overtaken: it is never a next action or an open question.';
    expect(reflectedSnapshotPrompt({ objective: 'Ship it', entries: [entry('done')] })).toContain(line);
    expect(reflectedSnapshotPrompt({ objective: 'Ship it', entries: [entry('notes')] })).not.toContain(line);
  });
});

describe('entriesFromMessages: the places a tool call names', () => {
  const call = (id: string, toolName: string, content: string): Message => ({
    ...msg(id, 'assistant', content),
    toolName,
  });
  const evidenceOf = (messages: Message[]) =>
    entriesFromMessages(messages)
      .entries.filter((e) => e.scope === 'evidence')
      .map((e) => e.value);

  it('an edit or a write gives the file it changes, not the links of the content it writes', () => {
    const write = JSON.stringify({
      file_path: 'src/app/layout.tsx',
      content:
        "import { Inter } from 'next/font/google';\nimport './globals.css';\n// see https://nextjs.org/docs",
    });
    expect(evidenceOf([call('w', 'Write', write)])).toEqual(['src/app/layout.tsx']);
    const edit = JSON.stringify({ file_path: 'lib/a.ts', old_string: 'x', new_string: "from './b.js'" });
    expect(evidenceOf([call('e', 'Edit', edit)])).toEqual(['lib/a.ts']);
  });

  it('a patch gives each file it changes (at most three), not the files its lines mention', () => {
    const patch =
      '*** Begin Patch\n*** Update File: docs/setup.md\n@@\n-see src/old.ts\n+see src/new.ts\n*** Add File: src/new.ts\n+export {}\n*** End Patch';
    expect(evidenceOf([call('p', 'apply_patch', patch)])).toEqual(['docs/setup.md', 'src/new.ts']);
    // Codex's older rollouts run it through the shell, its lines escaped in the call's JSON.
    const shell = JSON.stringify({ command: ['bash', '-lc', `apply_patch <<'PATCH'\n${patch}\nPATCH`] });
    expect(evidenceOf([call('s', 'shell', shell)])).toEqual(['docs/setup.md', 'src/new.ts']);
  });

  it('another call gives the first three links it names', () => {
    expect(evidenceOf([call('r', 'Bash', '{"command":"cat a/b.ts c/d.ts e/f.ts g/h.ts"}')])).toEqual([
      'a/b.ts',
      'c/d.ts',
      'e/f.ts',
    ]);
  });
});
