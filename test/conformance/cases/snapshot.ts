import { findLinks } from 'rearview/categorise';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  inferRoot,
  placeKey,
  readSnapshotSource,
  type SnapshotInput,
  samePlaces,
} from 'rearview/snapshot';
import { parseTranscript } from 'rearview/transcript';
import { ownCategories } from '../../../tools/shared/own-category';
import { claudeSession } from '../../fixtures/claude-session';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';
import { input, STANCE } from './snapshot-input';

/**
 * Trajectory reduction, the deterministic snapshot: the stance rules, the categories and scopes, and
 * the places evidence names (spellings, Windows paths, the session folder). The memo, the compactor
 * and the reflected path follow in snapshot-reduction.ts.
 */
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
];
