/**
 * The snapshot's reading of a transcript (`entriesFromMessages`): what a person typed and what the
 * agent said are read; text in the user's seat that no person wrote (a harness's injected context,
 * hooks, command expansions) is neither the objective nor an entry; what came before the person's
 * latest turn is answered.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  objectiveFromText,
  readSnapshotSource,
  snapshotInputFrom,
} from 'rearview/snapshot';
import { type Message, parseTranscript } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';
import { statesNoTask } from '../../lib/snapshot/objective';
import { msg } from './snapshot-adapters-helpers';

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
});
