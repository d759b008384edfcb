/**
 * Evidence that names a place (lib/snapshot/word-list.ts, placeholder.ts, root.ts): words joined by
 * slashes ("run/lint/typecheck/test") are no path unless another path of the session goes through
 * their first folder or they are written in a code span; paths left to fill in (`path/to/file`,
 * `your-username`) are no evidence; a session folder whose name holds a space is read whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLinks } from '../../lib/categorise/index';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  readSnapshotSource,
} from '../../lib/snapshot/index';
import { cutSpellings, linksThroughRoot, rootSpellings } from '../../lib/snapshot/root';
import {
  addFolders,
  bareWordLists,
  dropWordLists,
  firstFolder,
  wordListShape,
} from '../../lib/snapshot/word-list';
import { parseTranscript } from '../../lib/transcript/index';
import { claudeSession } from '../fixtures/claude-session';
import { notesInput } from '../fixtures/notes-input';

const notes = (values: string[], root?: string) => notesInput(values, 'set up the project', root);
const evidence = (values: string[], root?: string) =>
  deterministicSnapshot(notes(values, root)).requiredEvidenceLinks;

describe('wordListShape', () => {
  it('reads three or more plain names joined by slashes, nothing with an extension, digit, _ or a trailing slash', () => {
    for (const link of [
      'run/lint/typecheck/test',
      'TDD/BDD/ATDD',
      'src/main/java',
      'new/removed-files/unchanged',
    ])
      expect(wordListShape(link), link).toBe(true);
    for (const link of [
      'read/write',
      'src/a.ts',
      'lib/v2/tests',
      'app/static/js/',
      '/usr/local/bin',
      './a/b/c',
      'a_b/c/d',
      '-loading/error/empty',
      'a//b/c',
      '',
    ])
      expect(wordListShape(link), link).toBe(false);
  });

  it('firstFolder and addFolders name the folders a path goes through (not a URL host)', () => {
    expect(firstFolder('src/main/java')).toBe('src');
    const folders = new Set<string>();
    addFolders('/home/ana/app/src/a.ts', folders);
    addFolders('https://github.com/ana/repo/blob/x.md', folders);
    addFolders('C:\\w\\lib\\b.ts', folders);
    expect([...folders]).toEqual(['home', 'ana', 'app', 'src', 'repo', 'blob', 'C:', 'w', 'lib']);
  });
});

describe('dropWordLists', () => {
  it('drops the bare lists no other link vouches for, keeps order and renumbers, and says how often each was read', () => {
    const c = (text: string, cat = 4) => ({ cat, text, order: -1 });
    const list = c('new/removed/unchanged');
    const folder = c('src/main/java');
    const quoted = c('a/b/c');
    const cands = [c('fix the build', 1), list, folder, c('/w/app/src/x.ts'), quoted];
    const dropped: [string, number][] = [];
    dropWordLists(
      cands,
      new Map([
        [list, 2],
        [folder, 1],
        [quoted, -1],
      ]),
      (d, reads) => dropped.push([d.text, reads]),
    );
    expect(dropped).toEqual([['new/removed/unchanged', 2]]);
    expect(cands.map((x) => [x.text, x.order])).toEqual([
      ['fix the build', 0],
      ['src/main/java', 1],
      ['/w/app/src/x.ts', 2],
      ['a/b/c', 3],
    ]);
  });
});

describe('bareWordLists', () => {
  it('marks word lists written bare (1) and in a code span, quotes or a mention (2)', () => {
    const text = 'Add run/lint/test commands; see `storage/datasets/default`, "a/b/c" and src/a.ts.';
    const links = findLinks(text);
    expect(links).toEqual(['run/lint/test', 'storage/datasets/default', 'a/b/c', 'src/a.ts']);
    expect([...bareWordLists(text, links)!]).toEqual([1, 2, 2, 0]);
    expect(bareWordLists('see src/a.ts', ['src/a.ts'])).toBeNull();
  });

  it('never throws (property)', () => {
    const part = fc.constantFrom('a', 'b/', '/', '`', ' ', 'c.ts', '@', '-', 'x/y/z');
    const text = fc.array(part, { maxLength: 20 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const links = findLinks(t);
        const out = bareWordLists(t, links);
        // Null exactly when no link has the shape; else one mark a link, non-zero for the shaped ones.
        expect(out === null).toBe(!links.some(wordListShape));
        if (out !== null) expect([...out].map((v) => v > 0)).toEqual(links.map(wordListShape));
      }),
    );
  });
});

describe('the snapshot', () => {
  it('lists no bare word list, traces it, and changes no other list', () => {
    const values = [
      'I will add run/lint/typecheck/test commands to the README.',
      'Our TDD/BDD/ATDD experts should review the plan.',
      'The retry lives in src/net/retry.ts.',
    ];
    const t = deterministicSnapshotWithTrace(notes(values));
    expect(t.snapshot.requiredEvidenceLinks).toEqual(['src/net/retry.ts']);
    expect(t.dropped.filter((d) => d.reason === 'word_list').map((d) => d.text)).toEqual([
      'run/lint/typecheck/test',
      'TDD/BDD/ATDD',
    ]);
    expect(t.kept.map((k) => k.text)).not.toContain('TDD/BDD/ATDD');
    // What the words say is read as before: only the evidence list changes.
    const plain = deterministicSnapshot(notes(values));
    expect(plain.nextActions).toEqual(t.snapshot.nextActions);
  });

  it('keeps a bare folder path another path of the session goes through, and one written in a code span', () => {
    const listed = evidence([
      'I will move the services to src/main/java/com/example next.',
      'Opened /work/app/src/main/resources/app.yml.',
      'I will point Crawlee at `storage/datasets/default` next.',
      'I will compare new/removed/unchanged rows next.',
    ]);
    expect(listed).toContain('src/main/java/com/example');
    expect(listed).toContain('storage/datasets/default');
    expect(listed).not.toContain('new/removed/unchanged');
  });

  it('a word list read once in a code span stays; lists do not vouch for each other', () => {
    expect(evidence(['Run `a/b/c` now.', 'Then a/b/c again.'])).toEqual(['a/b/c']);
    expect(evidence(['null for new/removed/unchanged', 'or new/removed/changed/unchanged'])).toEqual([]);
  });

  it('lists no path left to fill in', () => {
    const t = deterministicSnapshotWithTrace(
      notes([
        'Run yarn mermaid-to-png path/to/file on the docs.',
        'git clone https://github.com/your-username/your-repo-name.git',
        'Open /Users/xxx/demo/MyApp and docs/setup.md.',
      ]),
    );
    expect(t.snapshot.requiredEvidenceLinks).toEqual(['docs/setup.md']);
    expect(t.dropped.filter((d) => d.reason === 'placeholder').map((d) => d.text)).toEqual([
      'path/to/file',
      'https://github.com/your-username/your-repo-name.git',
      '/Users/xxx/demo/MyApp',
    ]);
  });
});

describe('a session folder whose name holds a space', () => {
  const root = '/Users/ana/My app';

  it('reads paths through it whole, then lists them relative to it', () => {
    const spaced = cutSpellings(rootSpellings(root)!);
    expect(spaced).toEqual(['/Users/ana/My app', '~/My app']);
    expect(linksThroughRoot('See /Users/ana/My app/src/a.ts and ~/My app/b.md', spaced, findLinks)).toEqual([
      '/Users/ana/My app/src/a.ts',
      '~/My app/b.md',
    ]);
    expect(linksThroughRoot('See src/a.ts', spaced, findLinks)).toBeNull();
    expect(cutSpellings(rootSpellings('/Users/ana/app')!)).toEqual([]);
    expect(
      evidence(
        [
          'The bug is in /Users/ana/My app/src/a.ts:4.',
          'cd /Users/ana/My app',
          'Also /Users/ana/My apple/x.ts',
        ],
        root,
      ),
    ).toEqual(['/Users/ana/My apple/x.ts', 'src/a.ts:4']);
    // A drive folder with a space, in both separators; a folder with a letter outside ASCII.
    expect(
      evidence(
        ['The bug is in C:\\Users\\Ana Maria\\proj\\src\\a.ts:4 now.', 'also c:/Users/Ana Maria/proj/b.ts'],
        'C:\\Users\\Ana Maria\\proj',
      ),
    ).toEqual(['b.ts', 'src\\a.ts:4']);
    expect(evidence(['The bug is in /home/ana/café/src/a.ts:4 now.'], '/home/ana/café')).toEqual([
      'src/a.ts:4',
    ]);
    // Without the folder the path is cut at the space, as before.
    expect(evidence(['The bug is in /Users/ana/My app/src/a.ts:4.'])).toEqual([
      '/Users/ana/My',
      'app/src/a.ts:4',
    ]);
  });

  it('reads the paths of tool calls through it too, from a Claude Code session that records it', () => {
    const text = claudeSession(root, [
      'Fix the total in the cart',
      [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: `${root}/src/cart.ts` } }],
    ]);
    const source = readSnapshotSource(text);
    expect(source.input.root).toBe(root);
    expect(deterministicSnapshot(source.input).requiredEvidenceLinks).toEqual(['src/cart.ts']);
    const { entries } = entriesFromMessages(parseTranscript(text).messages, { root });
    expect(entries.filter((e) => e.scope === 'evidence').map((e) => e.value)).toEqual([
      `${root}/src/cart.ts`,
    ]);
    // A session without tool calls, through the shared fixture.
    const plain = readSnapshotSource(claudeSession(root, ['Fix it', `It is in ${root}/lib/total.ts.`]));
    expect(deterministicSnapshot(plain.input).requiredEvidenceLinks).toEqual(['It is in lib/total.ts.']);
  });
});
