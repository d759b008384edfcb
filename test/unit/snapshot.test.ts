/**
 * The active-context snapshot's deterministic categorizer: negation, resolution, links, duplicates,
 * near duplicates, ranking and caps.
 */
import { describe, expect, it } from 'vitest';
import { findLinks } from '../../lib/categorise/index';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  MAX_CATEGORY_ITEMS,
  MAX_TEXT_LENGTH,
  type SnapshotInput,
} from '../../lib/snapshot/index';
import { e } from './snapshot-helpers';

describe('deterministicSnapshot: categorization', () => {
  it('does not take negated or resolved problems for blockers', () => {
    const s = deterministicSnapshot({
      objective: 'Fix the retry test',
      entries: [
        e('no error found in the retry module'),
        e('the flaky test is fixed'),
        e('not blocked anymore'),
        e('tests no longer fail on CI'),
        e('all checks are green'),
        e('CI is red: retry test failing'),
        e('still failing after the fix to the backoff'),
      ],
    });
    expect(s.blockers.sort()).toEqual([
      'CI is red: retry test failing',
      'still failing after the fix to the backoff',
    ]);
  });

  it('puts hypotheses, questions and actions where they belong', () => {
    const s = deterministicSnapshot({
      objective: 'ship',
      entries: [
        e('maybe the cache key ignores the locale'),
        e('Should we retry on 529?'),
        e('Run the integration suite again'),
        e('need to update the changelog'),
        e('The sky is blue'),
      ],
    });
    expect(s.openHypotheses).toEqual(['maybe the cache key ignores the locale']);
    expect(s.unresolvedQuestions).toEqual(['Should we retry on 529?']);
    expect(s.nextActions.sort()).toEqual(['Run the integration suite again', 'need to update the changelog']);
    expect(s.blockers).toEqual([]);
  });

  it('sends links and file paths to evidence, keeping the entry in its own category', () => {
    const s = deterministicSnapshot({
      objective: 'fix',
      entries: [
        e('Build fails in lib/core/json.ts:42, see https://ci.example.com/run/7.'),
        e('and/or is not a path; setup.py is'),
        e('ci-run-1234 log', 1, 'evidence'),
      ],
    });
    expect(s.blockers).toEqual(['Build fails in lib/core/json.ts:42, see https://ci.example.com/run/7.']);
    expect(s.requiredEvidenceLinks.sort()).toEqual(
      ['ci-run-1234 log', 'https://ci.example.com/run/7', 'lib/core/json.ts:42', 'setup.py'].sort(),
    );
    expect(findLinks('and/or')).toEqual([]);
  });

  it("names a diff's file without its a/ or b/ side", () => {
    const diff =
      'diff --git a/lib/x.py b/lib/x.py\nindex 1f..2e 100644\n--- a/lib/x.py\n+++ b/lib/x.py\n@@ -1 +1 @@';
    expect(findLinks(diff)).toEqual(['lib/x.py', 'lib/x.py', 'lib/x.py', 'lib/x.py']);
    expect(findLinks('--- /dev/null\n+++ b/src/new.ts')).toEqual(['/dev/null', 'src/new.ts']);
    // Elsewhere a folder named a or b is a folder: in prose, or after a `---` that opens no line.
    expect(findLinks('see a/b.ts and b/c.ts')).toEqual(['a/b.ts', 'b/c.ts']);
    expect(findLinks('x --- a/y.ts')).toEqual(['a/y.ts']);
    expect(findLinks('diff --git a/q.py c/q.py')).toEqual(['q.py', 'c/q.py']);
    // A path that opens a diff's added or removed line is the whole path, not its file name.
    expect(findLinks('@@ -1 +1 @@\n-src/old.ts\n+src/new.ts')).toEqual(['src/old.ts', 'src/new.ts']);
    expect(findLinks('+src/a.ts')).toEqual(['src/a.ts']);
    expect(findLinks('a+src/b.ts')).toEqual(['b.ts']);
  });

  it('ends a URL where CJK prose goes on, and takes no date or console.log for a file', () => {
    expect(findLinks('https://github.com/acme/appここにプッシュしてください')).toEqual([
      'https://github.com/acme/app',
    ]);
    expect(findLinks('仓库地址：https://x.dev/a，然后')).toEqual(['https://x.dev/a']);
    expect(findLinks('on 2026/04/05, shown as yyyy/mm/dd or 10/5')).toEqual([]);
    expect(findLinks('最多导致 404/500/白屏')).toEqual([]);
    // Two files, one or the other, are two links; a folder named like a package stays in its path.
    expect(findLinks('改 package.json/_config.yml')).toEqual(['package.json', '_config.yml']);
    // A glob names no file: not its tail (`d.ts`, `test.ts`).
    expect(findLinks("rg -g '*.d.ts' and **/*.test.ts, then src/*.spec.js")).toEqual([]);
    expect(findLinks('*.config.js and vite.config.ts or a.d.ts')).toEqual(['vite.config.ts', 'a.d.ts']);
    expect(findLinks('see node_modules/chart.js/dist/chart.js')).toEqual([
      'node_modules/chart.js/dist/chart.js',
    ]);
    expect(findLinks('use console.log(x), then write notes.md')).toEqual(['notes.md']);
    // A Windows folder may begin with n, t or r after its backslash: no escape is guessed.
    expect(findLinks('C:\\Users\\tom\\report.txt')).toEqual(['C:\\Users\\tom\\report.txt']);
    // Paths that hold dates stay.
    expect(findLinks('tail /var/log/2026/04/05 and C:\\app\\main.py')).toEqual([
      '/var/log/2026/04/05',
      'C:\\app\\main.py',
    ]);
  });

  it('keeps the dot of a dot file; a library name, an XML namespace, a Git range name no place', () => {
    expect(
      findLinks('The `.prettierrc.yaml` sets it; .eslintrc.json too, and (.pre-commit-config.yaml)'),
    ).toEqual(['.prettierrc.yaml', '.eslintrc.json', '.pre-commit-config.yaml']);
    // A sentence's dot glued to a name, and a glob's dot, open no dot file.
    expect(findLinks('Saved it.notes.md holds the rest; rg -g *.d.ts')).toEqual(['it.notes.md']);
    expect(findLinks('Built with Node.js, Next.js and three.js; see src/next.js and vue.js:12')).toEqual([
      'src/next.js',
      'vue.js:12',
    ]);
    expect(findLinks('<svg xmlns="http://www.w3.org/2000/svg"> per https://www.w3.org/TR/WCAG21/')).toEqual([
      'https://www.w3.org/TR/WCAG21/',
    ]);
    expect(findLinks('git log origin/main..HEAD and doc/techspec...main')).toEqual([]);
    // A template literal's URL is code.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text quotes a template literal
    expect(findLinks('fetch(`https://x.dev/search?q=${query}`) then https://x.dev/docs')).toEqual([
      'https://x.dev/docs',
    ]);
    // Dots that are a whole component climb a folder or elide some: still a place.
    expect(findLinks('../a.ts, a/../b.ts and ~/Library/.../Books.plist')).toEqual([
      '../a.ts',
      'a/../b.ts',
      '~/Library/.../Books.plist',
    ]);
  });

  it("reads a framework's route groups and dynamic segments as folders of one path", () => {
    // Next.js, Expo Router and SvelteKit name folders `(group)`, `[param]` and `[...rest]`: the path
    // was cut there (`src/app/file/` and `page.tsx`, two places, neither the file).
    expect(findLinks('Edit src/app/(dashboard)/file/[id]/page.tsx and app/(tabs)/index.tsx.')).toEqual([
      'src/app/(dashboard)/file/[id]/page.tsx',
      'app/(tabs)/index.tsx',
    ]);
    expect(
      findLinks('see app/api/auth/[...nextauth]/route.ts, api/[...auth].ts and app/user/[id].tsx'),
    ).toEqual(['app/api/auth/[...nextauth]/route.ts', 'api/[...auth].ts', 'app/user/[id].tsx']);
    expect(findLinks('the page /share/[token] and app/[product-id]/page.tsx')).toEqual([
      '/share/[token]',
      'app/[product-id]/page.tsx',
    ]);
    // A character class or a call's arguments are no folder; a group is one only before a slash.
    expect(findLinks('git for-each-ref refs/heads/[0-9] and a/[a-zA-Z]/b.ts')).toEqual([
      'refs/heads/',
      'b.ts',
    ]);
    expect(findLinks('call lib/a.ts(12) or foo(bar/baz.ts); x/(y)')).toEqual(['lib/a.ts', 'bar/baz.ts']);
    // Remix and React Router name a route's parameter `$x` and an optional segment `($x)` inside a
    // file's name; a folder may open with a group (`(02)Projects`). The path was cut at them.
    expect(
      findLinks(
        'Edit app/routes/collections.$handle.tsx, `app/routes/($locale).account_.login.tsx` and src/$lib/a.ts',
      ),
    ).toEqual([
      'app/routes/collections.$handle.tsx',
      'app/routes/($locale).account_.login.tsx',
      'src/$lib/a.ts',
    ]);
    expect(findLinks('in /mnt/Docs/(02)Projects/app/src/App.vue')).toEqual([
      '/mnt/Docs/(02)Projects/app/src/App.vue',
    ]);
    // SvelteKit's route files (`+page.svelte`) and its `$lib` alias; a shell variable is no folder.
    expect(findLinks('edit src/routes/blog/[slug]/+page.ts and "$lib/components/Button.svelte"')).toEqual([
      'src/routes/blog/[slug]/+page.ts',
      '$lib/components/Button.svelte',
    ]);
    expect(findLinks('cost $5.00, echo $HOME/.bashrc')).toEqual([]);
  });

  it('reads no dash glued before a path as part of it (a diff line, a list without its space)', () => {
    expect(findLinks('-.specify/templates/spec.md and -src/b.ts')).toEqual([
      '.specify/templates/spec.md',
      'src/b.ts',
    ]);
    expect(findLinks('run -o dist/a.js --verbose')).toEqual(['dist/a.js']);
  });

  it('reads text with its escapes written out: the escape letter is not part of a name', () => {
    // A JSON string or a log that writes `\n`: the line after it starts a name.
    expect(findLinks('Updated.\\nsrc/app.ts compiles')).toEqual(['src/app.ts']);
    expect(findLinks('ran it:\\tmain.py:3 failed')).toEqual(['main.py:3']);
    expect(findLinks('foo();\\nconsole.log(x)')).toEqual([]);
    // A URL ends at the escape: no URL holds a backslash.
    expect(findLinks('git remote add origin https://github.com/ana/app\\n\\n## Next')).toEqual([
      'https://github.com/ana/app',
    ]);
    // An escaped backslash (`\\\\`) is a backslash: the letter after it belongs to the name.
    expect(findLinks('"C:\\\\temp\\\\notes.txt"')).toEqual(['notes.txt']);
    // Text with a Windows path written as it is: a backslash separates folders.
    expect(findLinks('C:\\temp\\notes.txt')).toEqual(['C:\\temp\\notes.txt']);
    expect(findLinks('C:\\temp\\src/tools.ts')).toEqual(['C:\\temp\\src/tools.ts']);
  });

  it('reads a Windows path whole: its folders, its drive, in either separator', () => {
    expect(findLinks('/add app\\components\\Header.tsx')).toEqual(['app\\components\\Header.tsx']);
    expect(findLinks('at C:\\TASK-99\\repo\\src\\a.ts:12, then')).toEqual([
      'C:\\TASK-99\\repo\\src\\a.ts:12',
    ]);
    expect(findLinks('see C:/TASK/repo/a.ts and c:\\Users\\me\\main.py.')).toEqual([
      'C:/TASK/repo/a.ts',
      'c:\\Users\\me\\main.py',
    ]);
    expect(findLinks('Models\\Product.cs and Controllers\\CatalogController.cs')).toEqual([
      'Models\\Product.cs',
      'Controllers\\CatalogController.cs',
    ]);
    // A `\t` after a folder that follows a backslash itself separates folders: `tailwind.css`, not `ailwind.css`.
    expect(findLinks('app\\styles\\tailwind.css')).toEqual(['app\\styles\\tailwind.css']);
    // In text with its escapes written out, the escape before the first folder is no folder.
    expect(findLinks('Error:\\napp\\components\\Header.tsx')).toEqual(['app\\components\\Header.tsx']);
    expect(findLinks('x\\nconsole.log and line1\\nsrc/a.ts')).toEqual(['src/a.ts']);
    // An escaped backslash separates nothing; a Markdown escape (`\\_`) is no folder separator.
    expect(findLinks('foo\\\\bar.ts')).toEqual(['bar.ts']);
    expect(findLinks('app\\routes\\($locale).account\\_.authorize.tsx')).toEqual(['_.authorize.tsx']);
  });

  it('takes a home path of one name (`~/x`) as a path', () => {
    expect(findLinks('edit ~/notes, ~/.bashrc and ~/a/b.ts')).toEqual(['~/notes', '~/.bashrc', '~/a/b.ts']);
    expect(findLinks('the ~ key, ~/ alone')).toEqual([]);
  });

  it('scopes named after a category force it; tasks give blockers and next actions', () => {
    const s = deterministicSnapshot({
      objective: 'x',
      entries: [e('the flag parser', 1, 'blockers'), e('not blocked anymore', 1, 'blockers')],
      tasks: [
        { id: 'T1', title: 'Wire the retry policy', status: 'in_progress' },
        { id: 'T2', title: 'Publish docs', status: 'blocked' },
        { id: 'T3', title: 'Write tests', status: 'done' },
      ],
    });
    expect(s.blockers.sort()).toEqual(['Publish docs', 'the flag parser']);
    expect(s.nextActions).toEqual(['Wire the retry policy']);
  });
});

describe('deterministicSnapshot: duplicates, ranking, caps', () => {
  it('collapses duplicates by comparable key, keeping the most recent wording and every source', () => {
    const t = deterministicSnapshotWithTrace({
      objective: 'fix',
      entries: [e('CI is red!', 1), e('ci is RED', 3), e('CI   is red.', 2)],
    });
    expect(t.snapshot.blockers).toEqual(['ci is RED']);
    expect(t.kept[0]!.sources.sort()).toEqual(['m1', 'm2', 'm3']);
    expect(t.consolidatedCount).toBe(2);
  });

  it('consolidates near duplicates (not all pairs) and records where they went', () => {
    const t = deterministicSnapshotWithTrace({
      objective: 'fix the integration tests',
      entries: [
        e('3 integration tests failing on main after the merge', 1),
        e('3 integration tests failing on main after merge', 2),
        e('integration tests failing on main after the merge again', 3),
        e('disk quota exceeded on the build runner, cannot upload artifacts', 2),
      ],
    });
    expect(t.snapshot.blockers).toHaveLength(2);
    const near = t.dropped.filter((d) => d.reason === 'near_duplicate');
    expect(near.length).toBe(2);
    expect(near.every((d) => t.snapshot.blockers.includes(d.into!))).toBe(true);
  });

  it('ranks by relevance to the objective, then recency', () => {
    const s = deterministicSnapshot({
      objective: 'Fix the websocket reconnect bug',
      entries: [
        e('Check the websocket reconnect backoff', 1),
        e('Update the changelog', 9),
        e('Run the linter', 5),
      ],
    });
    expect(s.nextActions).toEqual([
      'Check the websocket reconnect backoff',
      'Update the changelog',
      'Run the linter',
    ]);
  });

  it('caps 25 items per category and 260 characters per item (exported defaults)', () => {
    expect([MAX_CATEGORY_ITEMS, MAX_TEXT_LENGTH]).toEqual([25, 260]);
    const entries = Array.from({ length: 60 }, (_, i) =>
      e(`Run benchmark ${i} ${'x'.repeat(i)} ${'word'.repeat(80)}`, i),
    );
    const s = deterministicSnapshot({ objective: 'o', entries });
    expect(s.nextActions).toHaveLength(25);
    expect(Math.max(...s.nextActions.map((x) => x.length))).toBe(260);
    expect(s.nextActions[0]!.endsWith('…')).toBe(true);
  });

  it('is byte-identical across runs and input copies', () => {
    const input: SnapshotInput = {
      objective: 'Fix CI',
      entries: Array.from({ length: 200 }, (_, i) =>
        e(`Fix test ${i % 37} failing in lib/m${i % 11}.ts`, i % 13),
      ),
    };
    expect(JSON.stringify(deterministicSnapshot(input))).toBe(
      JSON.stringify(deterministicSnapshot(structuredClone(input))),
    );
  });
});
