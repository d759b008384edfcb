import { findLinks } from 'rearview/categorise';
import { compactTrajectory } from 'rearview/compress';
import { fixtureClient, requestKey } from 'rearview/llm';
import {
  computeTrajectoryReduction,
  createSnapshotMemo,
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  inferRoot,
  placeKey,
  readSnapshotSource,
  reflectedSnapshotPrompt,
  type SnapshotInput,
  samePlaces,
  warmSnapshotMemo,
} from 'rearview/snapshot';
import { parseTranscript } from 'rearview/transcript';
import { collidingWords, randomWords } from '../../../tools/shared/flood';
import { ownCategories } from '../../../tools/shared/own-category';
import { claudeSession } from '../../fixtures/claude-session';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

const input: SnapshotInput = {
  objective: 'Fix the failing retry tests — café ☕ edition',
  entries: [
    {
      scope: 'notes',
      key: 'a',
      value: 'CI is red: 3 retry tests failing in test/retry.test.ts',
      sourceIteration: 2,
    },
    { scope: 'notes', key: 'b', value: 'no error found in lib/llm/anthropic.ts', sourceIteration: 3 },
    { scope: 'notes', key: 'c', value: 'the flaky websocket test is fixed', sourceIteration: 3 },
    { scope: 'notes', key: 'd', value: 'maybe the jitter is not pinned to 0', sourceIteration: 4 },
    { scope: 'notes', key: 'e', value: 'Should 529 be retried like 503?', sourceIteration: 4 },
    { scope: 'notes', key: 'f', value: 'Run the retry suite with the jitter pinned', sourceIteration: 5 },
    {
      scope: 'notes',
      key: 'g',
      value: '3 retry tests failing in test/retry.test.ts again',
      sourceIteration: 5,
    },
    { scope: 'notes', key: 'h', value: 'Zürich 🚀 deploy blocked by quota', sourceIteration: 5 },
  ],
  tasks: [{ id: 'T1', title: 'Release 0.2', status: 'blocked' }],
  previous: {
    currentObjective: 'Fix the failing retry tests',
    openHypotheses: [],
    blockers: ['websocket test flaky'],
    nextActions: [],
    unresolvedQuestions: [],
    requiredEvidenceLinks: [],
  },
};

/** One note per rule that decides ahead of the words (lib/snapshot/stance.ts, lead.ts), with the category it gives. */
const STANCE: [string, string][] = [
  ['Wire the billing webhook — done.', 'none'],
  ['TASK-12 (Rate-limit the login form): Not Started.', 'nextActions'],
  ['Rotate the signing keys: Blocked', 'blockers'],
  ['Step 3: Rename the column in the migration.', 'nextActions'],
  ['**BillingPage** – wire the retry banner', 'nextActions'],
  ['The reviewer questioned the need for a second cache layer.', 'unresolvedQuestions'],
  ['The maintainer suggested splitting the parser into two passes.', 'nextActions'],
  ['User rightly pointed out that the fixture holds one invoice.', 'blockers'],
  ['So we must NOT touch the generated files.', 'blockers'],
  ['I shouldn’t change the public signature of parse().', 'blockers'],
  ['So the new ordering seems fine.', 'none'],
  ['That looks wrong.', 'blockers'],
  ['I should probably remove the unused import.', 'nextActions'],
  ['If the queue is empty at shutdown, the flush would return early.', 'openHypotheses'],
  ['If I rewrite the loop as:', 'nextActions'],
  ["Here's what we should do:", 'nextActions'],
  ['So we just need the tenant id from the session.', 'nextActions'],
  ['If `normalize` drops the trailing slash?', 'openHypotheses'],
  ['That was an oversight in the retry policy.', 'blockers'],
  ['Ça marche: Done.', 'none'],
  ['The patch file I created was:', 'requiredEvidenceLinks'],
  ['The PR description points to `src/retry/policy.ts`.', 'requiredEvidenceLinks'],
  ['This means `}}` is commented out!', 'blockers'],
  ["It didn't print anything!", 'blockers'],
  ['Modifying `src/retry/policy.ts` to cap the jitter.', 'nextActions'],
  ['Instead of pinning exact versions, we should:', 'nextActions'],
  // A problem word after "on" or "handles" names a case the code copes with (lib/categorise/named.ts).
  ['All LLM paths fail-safe on missing key, 26 regression tests pass.', 'none'],
  ['The loader fails on a missing key.', 'blockers'],
  // Listed without the list marker and box of its message.
  ['- [ ] Add the lockfile to the backend image', 'nextActions'],
];

/** Trajectory reduction: deterministic snapshot, compactor and the reflected path over fixtures. */
export const snapshotCases: ConformanceCase[] = [
  {
    name: 'snapshot/stance rules',
    run() {
      const stance: SnapshotInput = {
        objective: '',
        entries: STANCE.map(([value], i) => ({ scope: 'notes', key: `s${i}`, value, sourceIteration: i })),
      };
      const s = deterministicSnapshot(stance);
      const got = ownCategories(stance);
      STANCE.forEach(([value, want], i) => {
        checkEqual(got[i], want, value);
      });
      check(
        s.nextActions.includes('Add the lockfile to the backend image'),
        'a step is listed without its box',
      );
      return { snapshot: s, got };
    },
  },
  {
    name: 'snapshot/deterministicSnapshot',
    run() {
      const s = deterministicSnapshot(input);
      const t = deterministicSnapshotWithTrace(input);
      checkEqual(s, t.snapshot, 'trace gives the same snapshot');
      check(!s.blockers.some((b) => b.includes('no error')), 'negated problem is not a blocker');
      check(s.requiredEvidenceLinks.includes('test/retry.test.ts'), 'paths go to evidence');
      return { snapshot: s, kept: t.kept, dropped: t.dropped, consolidated: t.consolidatedCount };
    },
  },
  {
    // What a session shows is over: aider's own "Applied edit to" report (scope `fixed`), and the agent's
    // guess before the person's latest turn (scope `answered`).
    name: 'snapshot/scopes from an aider session',
    run() {
      const history = [
        '# aider chat started at 2025-05-24 16:40:00',
        '',
        '#### the server fails with DuplicateTableError when it reloads',
        '',
        'The error occurs because `create_tables` runs on every reload. It might be the reloader importing main twice.',
        '',
        '> Applied edit to backend/app/utils/database.py  ',
        '',
        '#### now uploads fail with a 413 — café ☕',
        '',
        'Uploads over 1 MB fail with a 413 error from nginx. It might be the default client_max_body_size.',
        '',
        '#### raised it, uploads work. The progress bar is stuck at 99%.',
        '',
        'The progress bar may be waiting for a response event that never fires.',
        '',
      ].join('\n');
      const { objective, entries } = entriesFromMessages(parseTranscript(history).messages);
      const t = deterministicSnapshotWithTrace({ objective, entries });
      check(
        !t.snapshot.openHypotheses.some((h) => h.includes('client_max_body_size')),
        "the agent's guess before the latest turn is no open hypothesis",
      );
      check(
        !t.snapshot.blockers.some((b) => b.includes('DuplicateTableError')),
        'a request aider applied an edit for is no blocker',
      );
      return { scopes: entries.map((e) => [e.key, e.scope]), snapshot: t.snapshot, dropped: t.dropped };
    },
  },
  {
    name: 'snapshot/samePlaces',
    run() {
      // One place in several spellings (home folders, `./`, slashes, a relative path and longer ones),
      // names two places end, URLs, line locations and non-ASCII names.
      const links = [
        '/Users/ana/proj/app/src/Main.kt',
        'app/src/Main.kt',
        '~/.claude/',
        '/home/ana/.claude',
        './docs/café/読む.md',
        'docs/café/読む.md',
        'config.py',
        'app/config.py',
        'tests/config.py',
        'https://example.com/a/',
        'https://example.com/a',
        'a.py:12',
        'src/a.py:12',
        'a.py',
        '../up/x.ts',
        'x.ts',
      ];
      const { group, spelling } = samePlaces(links);
      checkEqual([...group], [0, 0, 2, 2, 4, 4, 6, 7, 8, 9, 9, 11, 11, 13, 14, 15], 'groups');
      checkEqual(spelling[0], 'app/src/Main.kt', 'the relative spelling is listed');
      const listed = deterministicSnapshot({
        objective: '',
        entries: links.map((value, i) => ({ scope: 'evidence', key: `l${i}`, value, sourceIteration: i })),
      }).requiredEvidenceLinks;
      return {
        group: [...group],
        spelling: [...group].map((g) => spelling[g]),
        keys: links.map(placeKey),
        listed,
      };
    },
  },
  {
    name: 'snapshot/Windows paths',
    run() {
      // Folders and drives read back from a name, escapes told from separators, one place with the
      // slash spelling, and the session's drive folder.
      const texts = [
        '/add app\\components\\Header.tsx',
        'at C:\\TASK-99\\repo\\src\\a.ts:12, then C:/TASK-99/repo/b.ts',
        'app\\styles\\tailwind.css and backend\\tests\\test_a.py',
        'Error:\\napp\\components\\Footer.tsx',
        'Found 2 results.\\n\\nbackend/api/index.js',
        'node .\\tmp\\test-toc.js and @c:\\Users\\ana\\notes.txt:3',
      ];
      const links = texts.map((t) => findLinks(t));
      checkEqual(links[0], ['app\\components\\Header.tsx'], 'folders before the name');
      checkEqual(links[3], ['app\\components\\Footer.tsx'], 'an escape before the first folder');
      const listed = deterministicSnapshot({
        objective: '',
        entries: [...texts, 'app/components/Header.tsx', 'C:\\TASK-99\\repo'].map((value, i) => ({
          scope: 'notes',
          key: `w${i}`,
          value,
          sourceIteration: i,
        })),
        root: 'C:\\TASK-99\\repo',
      }).requiredEvidenceLinks;
      check(!listed.includes('C:\\TASK-99\\repo'), 'the session folder is no evidence');
      return { links, keys: links.flat().map(placeKey), listed };
    },
  },
  {
    name: 'snapshot/folder read from the paths of a session that records none',
    run() {
      // A plain message list names two files absolute and relative: their relative paths start in the
      // folder, a Windows one here with either separator and drive-letter case.
      const messages = [
        { role: 'user', content: 'Fix the cart total' },
        {
          role: 'assistant',
          content:
            'I read C:\\work\\shop\\src\\cart.ts and c:/work/shop/lib/tax.ts:12; the bug is in src/cart.ts, which adds lib/tax.ts twice.',
        },
      ];
      const source = readSnapshotSource(JSON.stringify(messages));
      checkEqual(source.rootFrom, 'paths', 'the folder is read from the paths');
      checkEqual(source.input.root, 'C:/work/shop', 'the folder the relative paths start in');
      checkEqual(inferRoot(['/Users/ana/x/a.ts', 'x/a.ts']), undefined, 'one file is not enough');
      const listed = deterministicSnapshot(source.input).requiredEvidenceLinks;
      check(listed.includes('src/cart.ts'), 'evidence relative to the folder');
      return { root: source.input.root, listed };
    },
  },
  {
    name: 'snapshot/evidence seen from the session folder',
    run() {
      // The folder a Claude Code session records (its `cwd`): evidence under it is listed relative to
      // it, the folder and those above it are left out, in POSIX, home and drive spellings.
      const transcript = parseTranscript(
        claudeSession('/Users/ana/café', [
          'Fix the 読む test',
          'The test is /Users/ana/café/tests/読む.test.ts:12 and the config ~/café/vite.config.ts; see /Users/ana/other/notes.md.',
        ]),
      );
      checkEqual(transcript.meta?.cwd, '/Users/ana/café', 'the folder the session records');
      const values = [
        '/Users/ana/café/tests/読む.test.ts:12',
        '~/café/vite.config.ts',
        '/Users/ana/café',
        '/Users/ana/',
        '/Users/ana/cafe/x.ts',
        'See `/Users/ana/café/docs/setup.md` first.',
        'Set the base to https://your-domain.com/api.',
      ];
      const entries = values.map((value, i) => ({ scope: 'notes', key: `e${i}`, value, sourceIteration: i }));
      const t = deterministicSnapshotWithTrace({
        objective: 'fix the test',
        entries,
        root: '/Users/ana/café/',
      });
      const listed = t.snapshot.requiredEvidenceLinks;
      check(
        !listed.some((e) => e === '/Users/ana/café' || e === '/Users/ana/'),
        'the folder and above are left out',
      );
      check(listed.includes('tests/読む.test.ts:12'), 'relative to the folder');
      check(!listed.some((e) => e.includes('your-domain')), 'no placeholder link');
      const drive = deterministicSnapshot({
        objective: '',
        entries: ['C:\\w\\repo\\src\\a.ts', 'C:/w/repo/b.ts', 'C:\\w'].map((value, i) => ({
          scope: 'evidence',
          key: `d${i}`,
          value,
          sourceIteration: i,
        })),
        root: 'C:\\w\\repo',
      }).requiredEvidenceLinks;
      const home = deterministicSnapshot({
        objective: '',
        entries: [{ scope: 'evidence', key: 'h', value: '/home/ana/.config/app.json', sourceIteration: 0 }],
        root: '/home/ana',
      }).requiredEvidenceLinks;
      checkEqual(home, ['~/.config/app.json'], 'under ~/ when the folder is a home folder');
      check(drive.includes('b.ts'), 'a drive folder');
      // A folder whose name holds a space is read whole, in notes and in a tool call's paths.
      const spacedSession = claudeSession('/Users/ana/Mi café', [
        'Arregla el total',
        [
          {
            type: 'text',
            text: 'The total is in /Users/ana/Mi café/src/total.ts:8; I will add run/lint/test scripts.',
          },
          {
            type: 'tool_use',
            id: 't1',
            name: 'Read',
            input: { file_path: '/Users/ana/Mi café/src/cart.ts' },
          },
        ],
      ]);
      const spaced = deterministicSnapshotWithTrace(readSnapshotSource(spacedSession).input);
      check(
        spaced.snapshot.requiredEvidenceLinks.includes('src/cart.ts'),
        "a tool call's path under the folder",
      );
      check(!spaced.snapshot.requiredEvidenceLinks.includes('run/lint/test'), 'no word list');
      return {
        cwd: transcript.meta?.cwd,
        listed,
        dropped: t.dropped.filter((d) => d.reason === 'root'),
        drive,
        home,
        spaced: spaced.snapshot.requiredEvidenceLinks,
        spacedDropped: spaced.dropped.filter((d) => d.reason === 'root' || d.reason === 'word_list'),
      };
    },
  },
  {
    name: 'snapshot/memo',
    run() {
      // Four calls through one memo, small enough to start over once: each must read as without it.
      const memo = createSnapshotMemo({ maxTexts: 12 });
      const stance = STANCE.map(([value], i) => ({
        scope: 'notes',
        key: `s${i}`,
        value,
        sourceIteration: i,
      }));
      const calls: SnapshotInput[] = [
        input,
        { ...input, entries: [...input.entries, ...stance] },
        { ...input, entries: input.entries.slice(2) },
        { objective: 'Release 0.2', entries: [...stance, ...input.entries] },
      ];
      const left: number[] = [];
      const out = calls.map((c, i) => {
        // Half the calls start from a memo warmed 3 texts at a time.
        if (i % 2 === 1)
          for (let l = 1; l > 0; ) {
            l = warmSnapshotMemo(memo, c, { limit: 3 });
            left.push(l);
          }
        const t = deterministicSnapshotWithTrace(c, { memo });
        checkEqual(t, deterministicSnapshotWithTrace(c), `call ${i + 1} through the memo`);
        return t.snapshot;
      });
      return { out, size: memo.size, left };
    },
  },
  {
    name: 'snapshot/hash flooding',
    run() {
      // 128 words that share one FNV-1a hash flood the snapshot's tables (past PROBE_LIMIT probes they
      // go to the runtime's Map): the snapshot must read as one of ordinary words in their place.
      const words = collidingWords(7, 32).map((w) => `${w}q`);
      const control = randomWords(words).map((w) => `${w.slice(0, -1)}q`);
      const back = new Map(control.map((c, i) => [c, words[i]!]));
      const notes = (ws: readonly string[]): SnapshotInput => ({
        objective: 'Fix the build',
        entries: ws.map((w, i) => ({
          scope: 'notes',
          key: `w${i}`,
          value: `The build fails on ${w}`,
          sourceIteration: i,
        })),
      });
      const got = deterministicSnapshotWithTrace(notes(words));
      const want = JSON.stringify(deterministicSnapshotWithTrace(notes(control))).replace(
        /[a-z]{20,}/g,
        (c) => back.get(c) ?? c,
      );
      checkEqual(got, JSON.parse(want), 'colliding words read as ordinary ones');
      return { snapshot: got.snapshot, dropped: got.dropped.length };
    },
  },
  {
    name: 'snapshot/compactTrajectory',
    run() {
      const rows = Array.from({ length: 80 }, (_, i) => `row ${i} é`).join('\n');
      const code = Array.from(
        { length: 12 },
        (_, i) => `${String(i + 1).padStart(6)}\tline_${i} = ${i}`,
      ).join('\n');
      const steps = [
        { index: 0, action: 'nl -ba m.py', observation: code, source: { index: 0 } },
        { index: 1, action: 'ls -R', observation: `${rows}\nValueError: boom`, source: { index: 1 } },
        { index: 2, action: 'ls -R', observation: `${rows}\nValueError: boom`, source: { index: 2 } },
        {
          index: 3,
          action: 'nl -ba m.py',
          observation: code.replace('line_4 = 4', 'line_4 = 44'),
          source: { index: 3 },
        },
        { index: 4, action: 'echo done', observation: 'done', source: { index: 4 } },
        { index: 5, action: 'echo done', observation: 'done', source: { index: 5 } },
      ];
      const r = compactTrajectory(steps);
      check(r.steps[0]!.observation!.includes('line_4 = 4'), 'the changed line survives');
      check(r.steps[1]!.observation!.includes('ValueError: boom'), 'error line survives');
      return r;
    },
  },
  {
    name: 'snapshot/computeTrajectoryReduction over fixtures',
    async run() {
      const reply = {
        current_objective: 'Fix the failing retry tests',
        open_hypotheses: ['maybe the jitter is not pinned to 0'],
        blockers: [{ text: 'CI red: 3 retry tests failing', sources: ['m1', 'm7'] }, 'Release 0.2'],
        next_actions: ['Run the retry suite with the jitter pinned'],
        unresolved_questions: ['Should 529 be retried like 503?'],
        required_evidence_links: ['test/retry.test.ts'],
        dropped: [{ value: 'the flaky websocket test is fixed', reason: 'resolved' }],
      };
      const request = {
        messages: [{ role: 'user' as const, content: reflectedSnapshotPrompt(input) }],
        maxTokens: 2048,
        temperature: 0,
      };
      const key = await requestKey(request, 'claude-haiku-4-5');
      const llm = fixtureClient(
        [{ key, text: JSON.stringify(reply), usage: { inputTokens: 900, outputTokens: 120 } }],
        {
          model: 'claude-haiku-4-5',
        },
      );
      let t = 0;
      const now = () => (t += 7);
      const used = await computeTrajectoryReduction(input, {
        llm,
        now,
        minSnapshotTokens: 0,
        minSavingsTokens: 0,
      });
      checkEqual(used.diagnostics.reflectionUsed, true, 'reflection adopted');
      const skipped = await computeTrajectoryReduction(input, { llm, now });
      checkEqual(skipped.diagnostics.reflectionSkippedReason, 'below_threshold', 'small snapshot skips');
      const hallucinated = fixtureClient(
        [{ key, text: JSON.stringify({ ...reply, blockers: ['The database is down'] }) }],
        { model: 'claude-haiku-4-5' },
      );
      const rejected = await computeTrajectoryReduction(input, {
        llm: hallucinated,
        now,
        minSnapshotTokens: 0,
        minSavingsTokens: -1000,
      });
      checkEqual(rejected.diagnostics.reflectionSkippedReason, 'validation_failed', 'hallucination rejected');
      return { used, skipped, rejected };
    },
  },
];
