/**
 * The snapshot's reading of a transcript (`entriesFromMessages`): what a person typed and what the
 * agent said are read; text in the user's seat that no person wrote (a harness's injected context,
 * hooks, command expansions) is neither the objective nor an entry.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  objectiveFromText,
  readSnapshotSource,
  reflectedSnapshotPrompt,
  snapshotInputFrom,
} from 'rearview/snapshot';
import { type Message, parseTranscript } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';
import { statesNoTask } from '../../lib/snapshot/objective';
import { SENTENCE } from '../../lib/snapshot/sentences';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

const msg = (
  id: string,
  role: Message['role'],
  content: string,
  synthetic?: Message['synthetic'],
): Message => ({
  id,
  role,
  content,
  source: {},
  ...(synthetic ? { synthetic } : {}),
});

describe('entriesFromMessages: text no person wrote', () => {
  it('takes the objective from what a person typed, not from injected context or an interruption notice', () => {
    const { objective, entries } = entriesFromMessages([
      msg(
        'a',
        'user',
        '# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nAlways run the linter first.\n</INSTRUCTIONS>',
        'meta',
      ),
      msg('b', 'user', '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>', 'meta'),
      msg('c', 'user', '[Request interrupted by user for tool use]'),
      msg('d', 'user', 'Add a dark mode toggle to the settings page.'),
      msg('e', 'assistant', 'I will add the toggle next to the language picker.'),
    ]);
    expect(objective).toBe('Add a dark mode toggle to the settings page.');
    // The injected AGENTS.md gives no entry ("Always run the linter first." is no work in progress).
    expect(entries.map((e) => e.value)).toEqual([
      '[Request interrupted by user for tool use]',
      'Add a dark mode toggle to the settings page.',
      'I will add the toggle next to the language picker.',
    ]);
  });

  it("reads what the person typed into a command template (spec-kit's `## User Input`)", () => {
    const template = (input: string) =>
      `\n## User Input\n\n\`\`\`text\n${input}\n\`\`\`\n\nYou **MUST** consider the user input before proceeding (if not empty).\n\n## Outline\n\n1. Run the setup script.`;
    expect(
      entriesFromMessages([msg('a', 'user', template('Build a lottery ticket web app.'), 'command')]),
    ).toEqual({
      objective: 'Build a lottery ticket web app.',
      entries: [],
    });
    // An empty input leaves the objective to the next turn a person typed.
    expect(
      entriesFromMessages([
        msg('a', 'user', template(''), 'command'),
        msg('b', 'user', 'Write a README with the test commands.'),
      ]).objective,
    ).toBe('Write a README with the test commands.');
  });

  it('takes no greeting or request to go on as the objective: the next turn states the task', () => {
    for (const opening of [
      'yo wassup',
      'Hello hello',
      'Yo my man',
      'hellooooo!!',
      'please continue',
      'continue the previous response',
      'Good morning, thanks!',
      '你好',
    ]) {
      expect(statesNoTask(opening), opening).toBe(true);
      expect(
        entriesFromMessages([
          msg('a', 'user', opening),
          msg('b', 'assistant', 'Hi! What are we working on?'),
          msg('c', 'user', 'look at this project and tell me what it is about'),
        ]).objective,
        opening,
      ).toBe('look at this project and tell me what it is about');
    }
    // A task, however short or polite, is one; so is a long turn whatever its words.
    for (const task of [
      'Hi! Please add a dark mode toggle.',
      'continue the migration to pnpm',
      'Hello world in Rust',
      'go on '.repeat(20),
    ])
      expect(statesNoTask(task), task).toBe(false);
    // When every turn only greets or asks to go on, there is no objective rather than a greeting.
    expect(entriesFromMessages([msg('a', 'user', 'continue generating')]).objective).toBe('');
  });

  it("keeps an agent's task statement as the objective, and a continuation summary's entries but not as the objective", () => {
    expect(
      entriesFromMessages([msg('t', 'user', 'Fix the off-by-one error in the pager.', 'task')]).objective,
    ).toBe('Fix the off-by-one error in the pager.');
    const { objective, entries } = entriesFromMessages([
      msg(
        's',
        'user',
        'This session is being continued from a previous conversation.\nPending: migrate the tests to vitest.',
        'summary',
      ),
      msg('u', 'user', 'Go on with the migration.'),
    ]);
    expect(objective).toBe('Go on with the migration.');
    expect(entries.map((e) => e.value)).toContain('Pending: migrate the tests to vitest.');
  });
});

describe('objectiveFromText', () => {
  // [why, text, objective]
  const CASES: [string, string, string][] = [
    [
      "mini-swe-agent's template words before the PR description are left out",
      '<pr_description>\nConsider the following PR description:\nhist() no longer respects range when density=True\n</pr_description>\n\n<instructions>…',
      'hist() no longer respects range when density=True',
    ],
    [
      'words of the description itself stay',
      '<pr_description>Consider caching the parsed config.</pr_description>',
      'Consider caching the parsed config.',
    ],
    [
      "a quoted issue's template comments are dropped",
      '<pr_description>\nA direct approach to ITRS transforms. <!-- This comment is hidden when you submit the issue. -->\n<!-- Please check the guidelines. --> Keep obstime.\n</pr_description>',
      'A direct approach to ITRS transforms. Keep obstime.',
    ],
    [
      'text after an unclosed comment stays',
      '<pr_description>Fix the parser <!-- not closed</pr_description>',
      'Fix the parser <!-- not closed',
    ],
    [
      "a person's own text keeps its comments: one may be the task",
      'Implement this TO-DO: <!-- TO-DO: copy the snippets -->',
      'Implement this TO-DO: <!-- TO-DO: copy the snippets -->',
    ],
  ];
  it.each(CASES)('%s', (_why, text, objective) => {
    expect(objectiveFromText(text)).toBe(objective);
  });

  it("reads Terminus' task after its reply-format instructions", () => {
    const prompt =
      'You are an AI assistant tasked with solving command-line tasks in a Linux environment.\n\nFormat your response as JSON…\n\nTask Description:\n# Task\n\nImplement clone_traits to make the tests pass.\n\nCurrent terminal state:\n$';
    expect(objectiveFromText(prompt)).toBe('Implement clone_traits to make the tests pass.');
    // Only as a line of its own: a sentence that mentions a task description is the task.
    expect(objectiveFromText('Rewrite the Task Description: shorter.')).toBe(
      'Rewrite the Task Description: shorter.',
    );
  });
});

describe('entriesFromMessages: the line of a failed call that says what went wrong', () => {
  const observed = (content: string) =>
    entriesFromMessages([{ ...msg('r', 'tool', content), isError: true }]).entries.map((e) => e.value);

  it('reads past a bare exit notice to the message', () => {
    // Antigravity: headers, the runner's notice, "Output:", then the program's message.
    expect(
      observed(
        'Created At: 2026-06-09T12:57:40Z\n\n\t\tThe command failed with exit code: 1\n\t\tOutput:\n\t\tCould not create a project called "app" because of npm naming restrictions:',
      ),
    ).toEqual(['Could not create a project called "app" because of npm naming restrictions:']);
    // Claude Code: "Exit code 2" then stderr, whether or not the stderr line reads as an error line.
    expect(observed('Exit code 2\nls: x: No such file or directory')).toEqual([
      'ls: x: No such file or directory',
    ]);
    expect(observed('Exit code 128\nfatal: not a git repository')).toEqual(['fatal: not a git repository']);
    // A notice with nothing after it is still what there is to say.
    expect(observed('Command exited with code 1')).toEqual(['Command exited with code 1']);
  });

  it('gives no entry for a call the person declined: their decision, not a problem', () => {
    expect(
      observed(
        "The user doesn't want to proceed with this tool use. The tool use was rejected. STOP what you are doing and wait for the user to tell you how to proceed.",
      ),
    ).toEqual([]);
    expect(observed('No (tell Claude what to do differently)')).toEqual([]);
    expect(observed('exec command rejected by user')).toEqual([]);
  });

  it("shows a failed call's question or step as the problem it reports, never as the agent's", () => {
    const snap = deterministicSnapshot(
      snapshotInputFrom('Tidy the types', [
        {
          scope: 'observation',
          key: 'r.err',
          value: 'File does not exist. Did you mean _types?',
          sourceIteration: 1,
        },
        {
          scope: 'observation',
          key: 's.err',
          value: 'Run `npm install` first to fetch the dependencies.',
          sourceIteration: 2,
        },
        { scope: 'assistant', key: 'a.0', value: 'Should I rename the types folder?', sourceIteration: 3 },
      ]),
    );
    expect(snap.blockers).toEqual(
      expect.arrayContaining([
        'File does not exist. Did you mean _types?',
        'Run `npm install` first to fetch the dependencies.',
      ]),
    );
    expect(snap.nextActions).toEqual([]);
    // The agent's own question stays a question.
    expect(snap.unresolvedQuestions).toEqual(['Should I rename the types folder?']);
  });
});

const data = resolve(import.meta.dirname, '../../../shared/data/codex');

describe.skipIf(!existsSync(data))('real Codex CLI rollouts', () => {
  it('no objective or entry comes from the context Codex injects (AGENTS.md, <environment_context>)', () => {
    const files: string[] = [];
    for (const d of readdirSync(data)) {
      const dir = join(data, d);
      if (d.endsWith('.jsonl')) continue;
      for (const f of readdirSync(dir)) if (f.endsWith('.jsonl')) files.push(join(dir, f));
    }
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const f of files) {
      const src = readSnapshotSource(readFileSync(f, 'utf8'));
      expect(src.format, f).toBe('codex');
      const injected = parseTranscript(readFileSync(f, 'utf8'), { lenient: true }).messages.filter(
        (m) => m.role === 'user' && m.synthetic === 'meta',
      );
      expect(injected.length, f).toBeGreaterThan(0);
      expect(src.input.objective, f).not.toMatch(
        /<environment_context>|AGENTS\.md instructions|<user_instructions>/,
      );
      const keys = new Set(src.input.entries.map((e) => e.key.split('.')[0]));
      for (const m of injected) expect(keys.has(m.id), `${f}: ${m.id}`).toBe(false);
    }
  });
});

describe('entriesFromMessages: what is still to do is said last', () => {
  const call = (id: string, content: string): Message => ({
    ...msg(id, 'assistant', content),
    toolName: 'Bash',
  });
  const session = [
    msg('u1', 'user', 'Add a CSV export to the reports page.'),
    msg('a1', 'assistant', 'The export button is missing from the toolbar. I will add the route next.'),
    msg('a2', 'assistant', 'Let me check the router first:'),
    call('c1', '{"command":"cat src/router.ts"}'),
    msg('t1', 'tool', 'export const routes = [];'),
    msg('u2', 'user', 'Please add pagination to the table.'),
    msg('a3', 'assistant', 'Let me look at the table component:'),
    call('c2', '{"command":"cat src/table.tsx"}'),
    msg('a4', 'assistant', 'Next I will add the page size selector.'),
  ];

  it("gives scope `answered` to what came before the person's latest turn and `done` to a step announced right before its call", () => {
    const scopes = Object.fromEntries(entriesFromMessages(session).entries.map((e) => [e.value, e.scope]));
    expect(scopes).toMatchObject({
      'Add a CSV export to the reports page.': 'answered',
      'The export button is missing from the toolbar.': 'answered',
      'I will add the route next.': 'answered',
      'Let me check the router first:': 'answered',
      // The agent answered the latest turn in words: `replied` (still the person's request).
      'Please add pagination to the table.': 'replied',
      'Let me look at the table component:': 'done',
      'Next I will add the page size selector.': 'assistant',
    });
  });

  it('lists only the steps still open as next actions, and keeps what else the earlier messages say', () => {
    const { objective, entries } = entriesFromMessages(session);
    const trace = deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries));
    expect(trace.snapshot.nextActions).toEqual([
      'Next I will add the page size selector.',
      'Please add pagination to the table.',
    ]);
    // A problem stated before the latest turn is still read as one.
    expect(trace.snapshot.blockers).toContain('The export button is missing from the toolbar.');
    expect(trace.dropped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ text: 'Let me look at the table component:', reason: 'done' }),
      ]),
    );
  });

  it("lists no question asked before the person's latest turn: it was answered or overtaken", () => {
    const { objective, entries } = entriesFromMessages([
      msg('u1', 'user', 'Add a CSV export. Should the export include archived rows?'),
      msg('a1', 'assistant', 'Which date format do you want in the file?'),
      msg('u2', 'user', 'ISO dates, and no archived rows. Can you also add a header row?'),
      msg('a2', 'assistant', 'Should the header use the column labels or the field names?'),
    ]);
    const trace = deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries));
    // The latest turn's question was answered by the agent's reply (a question back): only that is open.
    expect([...trace.snapshot.unresolvedQuestions].sort()).toEqual([
      'Should the header use the column labels or the field names?',
    ]);
    expect(trace.dropped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ text: 'Which date format do you want in the file?', reason: 'done' }),
        expect.objectContaining({ text: 'Should the export include archived rows?', reason: 'done' }),
      ]),
    );
  });

  it("lists no guess made before the person's latest turn; the problems said then and a later guess stay", () => {
    const { objective, entries } = entriesFromMessages([
      msg('u1', 'user', 'The upload fails with a 413. It might be the proxy limit.'),
      msg(
        'a1',
        'assistant',
        'Uploads over 1 MB fail with a 413 error from nginx. It might be the default client_max_body_size.',
      ),
      msg('u2', 'user', 'Raised it to 50m, uploads work now. The progress bar is stuck at 99%.'),
      msg('a2', 'assistant', 'The progress bar may be waiting for a response event that never fires.'),
    ]);
    const trace = deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries));
    expect(trace.snapshot.openHypotheses).toEqual(
      expect.arrayContaining(['The progress bar may be waiting for a response event that never fires.']),
    );
    // The agent's guess and the person's, both before the latest turn.
    expect(trace.snapshot.openHypotheses).not.toContain('It might be the default client_max_body_size.');
    expect(trace.snapshot.openHypotheses).not.toContain('It might be the proxy limit.');
    expect(trace.dropped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ text: 'It might be the default client_max_body_size.', reason: 'done' }),
      ]),
    );
    // A problem the agent stated then is still listed (readers found 5 of 40 such still open).
    expect(trace.snapshot.blockers).toContain('Uploads over 1 MB fail with a 413 error from nginx.');
  });

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
