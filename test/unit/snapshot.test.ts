/**
 * The active-context snapshot: the deterministic categorizer (negation, resolution, links,
 * duplicates, near duplicates, ranking, caps) and every step, invariant and fallback of the seed's
 * reflection flow — through the real @anthropic-ai/sdk against the local Messages API and through
 * recorded fixtures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLinks } from '../../lib/categorise/index';
import { anthropicClient, fixtureClient, type LlmClient, requestKey } from '../../lib/llm/index';
import {
  computeRetirements,
  computeTrajectoryReduction,
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  MAX_CATEGORY_ITEMS,
  MAX_TEXT_LENGTH,
  type MemoryEntry,
  parseReflection,
  reflectedSnapshotPrompt,
  type SnapshotInput,
} from '../../lib/snapshot/index';
import { useMockAnthropic } from '../llm/use-mock';
import { answer, deaf, within } from './hostile';

const e = (value: string, sourceIteration = 1, scope = 'notes', key = 'k'): MemoryEntry => ({
  scope,
  key,
  value,
  sourceIteration,
});

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

// ---------------------------------------------------------------------------------------------------
// The reflection flow.

/** A realistic iteration: enough entries for a deterministic snapshot well above 400 tokens. */
function bigInput(): SnapshotInput {
  const entries: MemoryEntry[] = [
    e('CI is red on main since the retry refactor', 3),
    e('3 tests failing in test/retry.test.ts after the refactor', 4),
    e('test suite broken: retry backoff assertions fail', 4),
    e('no error found in lib/llm/anthropic.ts', 4),
    e('the flaky websocket test is fixed', 5),
    e('maybe the jitter is not pinned to 0 in the failing tests', 5),
    e('perhaps retry-after is read in seconds instead of milliseconds', 5),
    e('Should the 529 status be retried like 503?', 5),
    e('Run the retry suite with the jitter pinned to 0', 6),
    e('Update the retry docs in lib/llm/README.md', 6),
    e('Check the retry-after header parsing in lib/llm/retry.ts', 6),
  ];
  const more = [
    'Investigate backoff assertion in test/retry.test.ts: expected 2000 ms, got 333 ms',
    'Compare the jitter formula with the AWS architecture blog post',
    'Bisect the commits between v0.1.3 and main to find the regression',
    'Add a unit test for retry-after-ms parsing with fractional values',
    'Log every attempt number and computed delay while debugging',
    'Ask the reviewer whether exponential growth should cap at 30 seconds',
    'Replace setTimeout with the injectable sleep in withRetries',
    'Document the retry classification table for 408, 409, 429 and 5xx statuses',
    'Verify the SDK retries stay disabled per request so attempts never multiply',
    'probably the mock server returns retry-after in seconds while the client expects milliseconds',
    'Measure how long the full retry suite takes on the 2-core runner',
    'Read the Anthropic SDK changelog for changes to timeout semantics',
    'Pin fast-check seeds for the property tests that generate status sequences',
    'Rename retryAfterMs to retryAfterHintMs for clarity in the public API',
    'Is the 60 second per-attempt timeout too generous for reflection calls?',
    'Try the browser project once the node suite passes, Chromium may order timers differently',
    'Suspect the abortable sleep leaks a listener when the signal fires during backoff',
    'Profile memory of the fixture replayer with ten thousand recorded completions',
    'What happens when the server sends both retry-after and retry-after-ms headers?',
    'Write a changelog entry describing the new backoff defaults and jitter',
  ];
  for (const m of more) entries.push(e(m, 6));
  return {
    objective: 'Fix the failing retry tests after the retry refactor',
    entries,
    tasks: [
      { id: 'T1', title: 'Pin jitter in retry tests', status: 'in_progress' },
      { id: 'T2', title: 'Release 0.2', status: 'blocked' },
    ],
    previous: {
      currentObjective: 'Fix the failing retry tests',
      openHypotheses: [],
      blockers: ['websocket test flaky', 'CI is red on main since the retry refactor'],
      nextActions: ['Write the release notes'],
      unresolvedQuestions: [],
      requiredEvidenceLinks: [],
    },
    iteration: 6,
  };
}

const GOOD_REPLY = {
  current_objective: 'Fix the failing retry tests after the retry refactor',
  open_hypotheses: ['maybe the jitter is not pinned to 0 in the failing tests'],
  blockers: [
    {
      text: 'CI red: 3 tests failing in test/retry.test.ts, backoff assertions fail',
      sources: ['m1', 'm2', 'm3'],
    },
    'Release 0.2',
  ],
  next_actions: ['Run the retry suite with the jitter pinned to 0', 'Pin jitter in retry tests'],
  unresolved_questions: ['Should the 529 status be retried like 503?'],
  required_evidence_links: ['test/retry.test.ts', 'lib/llm/retry.ts'],
  dropped: [
    { value: 'no error found in lib/llm/anthropic.ts', reason: 'resolved' },
    { value: 'the flaky websocket test is fixed', reason: 'resolved' },
  ],
};

/** A client that answers every request with `text` and counts calls. */
function scripted(
  text: string,
  usage = { inputTokens: 1500, outputTokens: 200 },
): LlmClient & { calls: number } {
  const c = {
    calls: 0,
    async complete() {
      c.calls++;
      return { text, usage, latencyMs: 5, model: 'scripted' };
    },
  };
  return c;
}

/** A clock that advances 250 ms per reading. */
function clock() {
  let t = 1000;
  return () => {
    t += 250;
    return t;
  };
}

describe('computeTrajectoryReduction: the seed flow with a scripted model', () => {
  it('step 4: skips reflection below minSnapshotTokens, without calling the model', async () => {
    const llm = scripted(JSON.stringify(GOOD_REPLY));
    const r = await computeTrajectoryReduction({ objective: 'x', entries: [e('Run it')] }, { llm });
    expect(r.diagnostics.reflectionSkippedReason).toBe('below_threshold');
    expect(r.diagnostics.reflectionInvoked).toBe(false);
    expect(llm.calls).toBe(0);
    expect(r.snapshot).toEqual(deterministicSnapshot({ objective: 'x', entries: [e('Run it')] }));
  });

  it('without a client, returns the deterministic snapshot with reason no_llm', async () => {
    const r = await computeTrajectoryReduction(bigInput());
    expect(r.diagnostics.deterministicTokens).toBeGreaterThanOrEqual(400);
    expect(r.diagnostics).toMatchObject({
      reflectionUsed: false,
      reflectionSkippedReason: 'no_llm',
      path: 'deterministic',
    });
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('steps 5–10: prompt, call, parse, gate, validate, caps, retirements and diagnostics', async () => {
    const llm = scripted(`Here is the snapshot:\n\`\`\`json\n${JSON.stringify(GOOD_REPLY, null, 2)}\n\`\`\``);
    const r = await computeTrajectoryReduction(bigInput(), { llm, now: clock() });
    const d = r.diagnostics;
    expect(d).toMatchObject({
      path: 'reflected',
      reflectionUsed: true,
      reflectionInvoked: true,
      reflectionInputTokens: 1500,
      reflectionOutputTokens: 200,
      reflectionLatencyMs: 250,
      reflectionSkippedReason: null,
    });
    expect(d.savingsTokens).toBeGreaterThanOrEqual(100);
    expect(d.dropped).toEqual([
      { text: 'no error found in lib/llm/anthropic.ts', reason: 'resolved' },
      { text: 'the flaky websocket test is fixed', reason: 'resolved' },
    ]);
    expect(r.snapshot.blockers[0]).toBe(
      'CI red: 3 tests failing in test/retry.test.ts, backoff assertions fail',
    );
    expect(r.kept.find((k) => k.text.startsWith('CI red'))!.sources).toEqual(['m1', 'm2', 'm3']);
    // Retirements against the previous snapshot: the websocket blocker was resolved by m5.
    expect(r.retired).toEqual([
      {
        category: 'blockers',
        text: 'websocket test flaky',
        reason: 'resolved',
        iteration: 6,
        resolvedBy: ['m5'],
      },
      {
        category: 'blockers',
        text: 'CI is red on main since the retry refactor',
        reason: 'superseded',
        iteration: 6,
      },
      { category: 'nextActions', text: 'Write the release notes', reason: 'superseded', iteration: 6 },
    ]);
    expect(d.logLine).toMatch(
      /^\[TRAJECTORY\] reflection=used snapshot_tokens=\d+ .*latency_ms=250 retired=3$/,
    );
  });

  it('step 5 builds the seed prompt with ids, previous snapshot and tasks', () => {
    const p = reflectedSnapshotPrompt(bigInput());
    expect(p).toContain('## Current Objective\nFix the failing retry tests after the retry refactor');
    expect(p).toContain(
      '## Previous Snapshot (iteration 5)\n{"current_objective":"Fix the failing retry tests"',
    );
    expect(p).toContain(
      '"id":"m1","scope":"notes","key":"k","value":"CI is red on main since the retry refactor","sourceIteration":3',
    );
    expect(p).toContain('{"id":"task:T2","title":"Release 0.2","status":"blocked"}');
    expect(p).toContain('5. Do NOT invent information not present in the entries.');
    expect(p).toContain('"dropped": [{"value": "string", "reason": "string"}, ...]');
  });

  it('step 7: parse_error and invalid_schema fall back', async () => {
    for (const [reply, reason] of [
      ['I could not do it, sorry.', 'parse_error'],
      ['{"blockers": "CI is red"}', 'invalid_schema'],
      ['[1, 2]', 'invalid_schema'],
      ['{"blockers": [42]}', 'invalid_schema'],
    ] as const) {
      const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(reply) });
      expect(r.diagnostics.reflectionSkippedReason).toBe(reason);
      expect(r.diagnostics.reflectionInvoked).toBe(true);
      expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    }
  });

  it('step 8: insufficient savings falls back', async () => {
    const det = deterministicSnapshot(bigInput());
    const copy = {
      current_objective: det.currentObjective,
      open_hypotheses: det.openHypotheses,
      blockers: det.blockers,
      next_actions: det.nextActions.slice(0, -1),
      unresolved_questions: det.unresolvedQuestions,
      required_evidence_links: det.requiredEvidenceLinks,
    };
    const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(JSON.stringify(copy)) });
    expect(r.diagnostics.reflectionSkippedReason).toBe('insufficient_savings');
    expect(r.diagnostics.savingsTokens).toBeLessThan(100);
    expect(r.diagnostics.reflectedTokens).not.toBeNull();
  });

  it('step 9: rejects hallucinated items, unnamed consolidations and unknown sources', async () => {
    const cases: [unknown, string][] = [
      ['The database migration is stuck', 'not a substring'],
      ['CI failing: 3 test failures on main and test suite broken', 'consolidations must name their sources'],
      [{ text: 'CI red: 3 tests failing', sources: ['m1', 'm99'] }, 'unknown sources: m99'],
      [{ text: 'CI red: 3 tests failing because of the database', sources: ['m1', 'm2'] }, 'database'],
      [{ text: 'CI red, see lib/db/migrate.ts', sources: ['m1', 'm2'] }, 'link not in its sources'],
    ];
    for (const [item, why] of cases) {
      const reply = { ...GOOD_REPLY, blockers: [...GOOD_REPLY.blockers, item] };
      const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(JSON.stringify(reply)) });
      expect(r.diagnostics.reflectionSkippedReason).toBe('validation_failed');
      expect(r.diagnostics.rejectedItems).toHaveLength(1);
      expect(r.diagnostics.rejectedItems[0]!.why).toContain(why);
      expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    }
    const objective = { ...GOOD_REPLY, current_objective: 'Migrate the database to Postgres' };
    const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(JSON.stringify(objective)) });
    expect(r.diagnostics.rejectedItems[0]!.category).toBe('current_objective');
  });

  it('step 9: enforces the caps after reflection', async () => {
    const reply = {
      ...GOOD_REPLY,
      next_actions: bigInput()
        .entries.slice(11)
        .map((x) => x.value),
      blockers: [],
    };
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: scripted(JSON.stringify(reply)),
      maxCategoryItems: 5,
      maxTextLength: 40,
      minSnapshotTokens: 0, // this test is about the caps, not the gates
      minSavingsTokens: Number.NEGATIVE_INFINITY,
    });
    expect(r.diagnostics.reflectionSkippedReason).toBe(null);
    expect(r.snapshot.nextActions).toHaveLength(5);
    expect(r.snapshot.nextActions.every((x) => x.length <= 40)).toBe(true);
    expect(r.diagnostics.cappedItems).toBeGreaterThanOrEqual(9 + 5);
  });

  it('api errors and thrown non-errors fall back and never reject', async () => {
    const boom: LlmClient = {
      complete: async () => {
        throw 'not even an Error';
      },
    };
    const r = await computeTrajectoryReduction(bigInput(), { llm: boom, now: clock() });
    expect(r.diagnostics).toMatchObject({ reflectionSkippedReason: 'api_error', reflectionLatencyMs: 250 });
    expect(r.diagnostics.reflectionInputTokens).toBeGreaterThan(500);
  });

  it('times out and honours an aborted signal', async () => {
    const never: LlmClient = { complete: () => new Promise(() => {}) };
    const t = await computeTrajectoryReduction(bigInput(), { llm: never, timeoutMs: 20 });
    expect(t.diagnostics.reflectionSkippedReason).toBe('timeout');
    const controller = new AbortController();
    controller.abort();
    const a = await computeTrajectoryReduction(bigInput(), {
      llm: scripted('{}'),
      signal: controller.signal,
    });
    expect(a.diagnostics.reflectionSkippedReason).toBe('aborted');
  });

  it('uses an exact counter for the gates when given', async () => {
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: scripted(JSON.stringify(GOOD_REPLY)),
      countTokens: async () => 10,
    });
    expect(r.diagnostics).toMatchObject({
      deterministicTokens: 10,
      reflectionSkippedReason: 'below_threshold',
    });
  });

  it('parses camelCase replies and string dropped entries', () => {
    const p = parseReflection('{"nextActions": ["a"], "dropped": ["x"]}');
    expect(p.ok && p.value.lists.nextActions).toEqual([{ text: 'a', sources: null }]);
    expect(p.ok && p.value.dropped).toEqual([{ text: 'x', reason: '' }]);
  });

  it('retirements do not depend on the path (invariant 4)', () => {
    const input = bigInput();
    const current = deterministicSnapshot(input);
    expect(computeRetirements(input.previous!, current, input).map((x) => x.text)).toEqual([
      'websocket test flaky',
      'Write the release notes',
    ]);
    expect(computeRetirements(null, current, input)).toEqual([]);
  });
});

describe('computeTrajectoryReduction through the real SDK and fixtures', () => {
  const mock = useMockAnthropic();

  const client = () =>
    anthropicClient({ apiKey: 'sk-ant-test', baseURL: mock.url, maxRetries: 0, model: 'claude-haiku-4-5' });

  it('adopts a valid reply from the Messages API and reports its usage', async () => {
    mock.script([
      { kind: 'json', text: JSON.stringify(GOOD_REPLY), usage: { input_tokens: 2100, output_tokens: 310 } },
    ]);
    const r = await computeTrajectoryReduction(bigInput(), { llm: client() });
    expect(r.diagnostics).toMatchObject({
      reflectionUsed: true,
      reflectionInputTokens: 2100,
      reflectionOutputTokens: 310,
    });
    const body = mock.requests[0]!.body as {
      model: string;
      max_tokens: number;
      temperature: number;
      messages: { content: string }[];
    };
    expect(body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 2048, temperature: 0 });
    expect(body.messages[0]!.content).toBe(reflectedSnapshotPrompt(bigInput()));
  });

  it('falls back on a 500, a dropped connection and a malformed body', async () => {
    for (const step of [{ kind: 'status', status: 500 }, { kind: 'drop' }, { kind: 'malformed' }] as const) {
      mock.script([step]);
      const r = await computeTrajectoryReduction(bigInput(), { llm: client() });
      expect(r.diagnostics.reflectionSkippedReason).toBe('api_error');
      expect(r.diagnostics.reflectionError).toMatch(/^llm_/);
      expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    }
  });

  it('times out on a slow server', async () => {
    mock.script([{ kind: 'json', text: '{}', delayMs: 400 }]);
    const r = await computeTrajectoryReduction(bigInput(), { llm: client(), timeoutMs: 50 });
    expect(r.diagnostics.reflectionSkippedReason).toBe('timeout');
  });

  it('replays a recorded fixture exactly (request key of the real request)', async () => {
    const request = {
      messages: [{ role: 'user' as const, content: reflectedSnapshotPrompt(bigInput()) }],
      maxTokens: 2048,
      temperature: 0,
    };
    const key = await requestKey(request, 'claude-haiku-4-5');
    const llm = fixtureClient(
      [{ key, text: JSON.stringify(GOOD_REPLY), usage: { inputTokens: 2100, outputTokens: 310 } }],
      {
        model: 'claude-haiku-4-5',
      },
    );
    const r = await computeTrajectoryReduction(bigInput(), { llm });
    expect(r.diagnostics.reflectionUsed).toBe(true);
    const missing = await computeTrajectoryReduction({ ...bigInput(), objective: 'other' }, { llm });
    expect(missing.diagnostics.reflectionSkippedReason).toBe('api_error');
    expect(missing.diagnostics.reflectionError).toMatch(/^llm_fixture_missing/);
  });
});

// ---------------------------------------------------------------------------------------------------
// Never rejects, never hangs: every failure falls back to the deterministic snapshot.

const SNAPSHOT_KEYS = [
  'currentObjective',
  'openHypotheses',
  'blockers',
  'nextActions',
  'unresolvedQuestions',
  'requiredEvidenceLinks',
];

describe('computeTrajectoryReduction: never rejects, never hangs', () => {
  it('regression: a countTokens that throws falls back to the deterministic snapshot (callback_error)', async () => {
    const llm = scripted(JSON.stringify(GOOD_REPLY));
    const r = await computeTrajectoryReduction(bigInput(), {
      llm,
      countTokens: () => {
        throw new Error('tokenizer offline');
      },
    });
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    expect(r.diagnostics).toMatchObject({
      path: 'deterministic',
      reflectionUsed: false,
      reflectionSkippedReason: 'callback_error',
      reflectionError: 'countTokens threw: tokenizer offline',
    });
    expect(llm.calls).toBe(0);
    // The figures the counter could not give are estimates, never NaN.
    expect(r.diagnostics.deterministicTokens).toBeGreaterThan(400);
    expect(r.diagnostics.logLine).toMatch(/^\[TRAJECTORY\] reflection=skipped reason=callback_error /);
  });

  it('regression: a countTokens that fails after the model call keeps the reply out', async () => {
    let n = 0;
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: scripted(JSON.stringify(GOOD_REPLY)),
      countTokens: async (t) => {
        if (++n > 1) throw new Error(`count ${n} failed`);
        return t.length;
      },
    });
    expect(r.diagnostics).toMatchObject({
      reflectionInvoked: true,
      reflectionUsed: false,
      reflectionSkippedReason: 'callback_error',
      reflectionError: 'countTokens threw: count 2 failed',
    });
    expect(r.diagnostics.deterministicTokens).toBe(JSON.stringify(r.snapshot).length);
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('regression: a now() that throws stops before the model is called', async () => {
    const llm = scripted(JSON.stringify(GOOD_REPLY));
    const r = await computeTrajectoryReduction(bigInput(), {
      llm,
      now: () => {
        throw new RangeError('clock gone');
      },
    });
    expect(llm.calls).toBe(0);
    expect(r.diagnostics).toMatchObject({
      reflectionSkippedReason: 'callback_error',
      reflectionError: 'now threw: clock gone',
    });
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('regression: a reply without usage is counted; a reply without text is an api_error', async () => {
    const noUsage: LlmClient = {
      complete: async () => ({ text: JSON.stringify(GOOD_REPLY) }) as never,
    };
    const used = await computeTrajectoryReduction(bigInput(), { llm: noUsage });
    expect(used.diagnostics.reflectionUsed).toBe(true);
    expect(used.diagnostics.reflectionInputTokens).toBeGreaterThan(500);
    expect(used.diagnostics.reflectionOutputTokens).toBeGreaterThan(50);
    for (const reply of [{ usage: { inputTokens: 1, outputTokens: 1 } }, null, 'text', { text: 42 }]) {
      for (const redact of [true, false]) {
        const r = await computeTrajectoryReduction(bigInput(), {
          llm: { complete: async () => reply as never },
          redact,
        });
        expect(r.diagnostics.reflectionSkippedReason).toBe('api_error');
        expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
      }
    }
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: { complete: async () => ({ usage: {} }) as never },
      redact: false,
    });
    expect(r.diagnostics.reflectionError).toMatch(
      /^llm_invalid_response: .*has no text: got object with text undefined/,
    );
  });

  it('regression: entries, tasks or previous of the wrong shape give invalid_input', async () => {
    const cases: [unknown, RegExp][] = [
      [{ objective: 'x', entries: 5 }, /^input\.entries must be an array, got number$/],
      [{ objective: 'x', entries: 'abc' }, /^input\.entries must be an array, got string$/],
      [{ objective: 'x', entries: [], tasks: {} }, /^input\.tasks must be an array, got object$/],
      [{ objective: 'x', entries: [], previous: 'p' }, /^input\.previous must be a snapshot or null/],
      [null, /^input must be an object, got null$/],
      [{ objective: 'x', entries: [null] }, /^TypeError: /],
      [{ objective: 'x', entries: [], tasks: [null] }, /^TypeError: /],
      [{ objective: 'x', entries: [], previous: { blockers: 7 } }, /TypeError/],
    ];
    for (const [input, error] of cases) {
      const r = await computeTrajectoryReduction(input as SnapshotInput, { llm: scripted('{}') });
      expect(r.diagnostics.reflectionSkippedReason, JSON.stringify(input)).toBe('invalid_input');
      expect(r.diagnostics.reflectionError, JSON.stringify(input)).toMatch(error);
      expect(Object.keys(r.snapshot)).toEqual(SNAPSHOT_KEYS);
    }
    // What could be read is kept: the objective of an input whose entries are not an array.
    const r = await computeTrajectoryReduction({ objective: 'Ship', entries: 5 } as never);
    expect(r.snapshot.currentObjective).toBe('Ship');
  });

  it('regression: input whose getters throw gives invalid_input', async () => {
    const input = {
      objective: 'x',
      get entries(): never {
        throw new Error('entries unavailable');
      },
    };
    const r = await computeTrajectoryReduction(input as never, { llm: scripted('{}') });
    expect(r.diagnostics.reflectionSkippedReason).toBe('invalid_input');
    expect(r.diagnostics.reflectionError).toBe('reading the input threw: entries unavailable');
  });

  it('regression: a revoked proxy as input or options resolves with invalid_input', async () => {
    const revoked = () => {
      const r = Proxy.revocable({}, {});
      r.revoke();
      return r.proxy;
    };
    const asInput = await computeTrajectoryReduction(revoked() as never, { llm: scripted('{}') });
    expect(asInput.diagnostics.reflectionSkippedReason).toBe('invalid_input');
    expect(asInput.snapshot.currentObjective).toBe('');
    const asOptions = await computeTrajectoryReduction(bigInput(), revoked() as never);
    expect(asOptions.diagnostics.reflectionSkippedReason).toBe('invalid_input');
    expect(asOptions.diagnostics.reflectionError).toMatch(/^TypeError: /);
    expect(asOptions.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('regression: an abort settles at once even when the client ignores its signal', async () => {
    const llm = deaf();
    const controller = new AbortController();
    const pending = computeTrajectoryReduction(bigInput(), { llm, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const r = await within(pending);
    expect(llm.calls).toBe(1);
    expect(r.diagnostics).toMatchObject({ reflectionSkippedReason: 'aborted', reflectionInvoked: true });
    expect(r.diagnostics.reflectionError).toMatch(/^llm_aborted: /);
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('times out a client that ignores its signal (llm_timeout through withDeadline)', async () => {
    const r = await within(computeTrajectoryReduction(bigInput(), { llm: deaf(), timeoutMs: 30 }));
    expect(r.diagnostics.reflectionSkippedReason).toBe('timeout');
    expect(r.diagnostics.reflectionError).toMatch(
      /^llm_timeout: The reflection call did not finish within 30 ms/,
    );
  });

  it('an abort that arrives while the reply is being counted keeps the reply out', async () => {
    const controller = new AbortController();
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: {
        complete: async () => {
          setTimeout(() => controller.abort(), 0);
          return {
            text: JSON.stringify(GOOD_REPLY),
            usage: { inputTokens: 0, outputTokens: 0 },
            latencyMs: 1,
            model: 'm',
          };
        },
      },
      countTokens: (t) => new Promise((resolve) => setTimeout(() => resolve(Math.ceil(t.length / 4)), 5)),
      signal: controller.signal,
    });
    expect(r.diagnostics).toMatchObject({ reflectionSkippedReason: 'aborted', reflectionUsed: false });
  });

  it('property: never rejects, whatever the input, options, callbacks and reply', async () => {
    const thrower = fc.anything().map((v) => () => {
      throw v;
    });
    const hostileReply = fc.oneof(
      fc.anything(),
      fc.record(
        { text: fc.oneof(fc.string(), fc.constant(JSON.stringify(GOOD_REPLY))) },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.constant(bigInput()),
          fc.record({ objective: fc.string(), entries: fc.anything() }),
        ),
        fc.record(
          {
            countTokens: fc.oneof(
              thrower,
              fc.anything(),
              fc.constant((t: string) => t.length),
            ),
            now: fc.oneof(thrower, fc.anything()),
            minSnapshotTokens: fc.oneof(fc.constant(0), fc.anything()),
            minSavingsTokens: fc.anything(),
            maxCategoryItems: fc.anything(),
            maxTextLength: fc.anything(),
            nearDuplicateThreshold: fc.anything(),
            signal: fc.anything(),
            reply: fc.oneof(
              hostileReply,
              fc.anything().map((v) => ({ reject: v })),
            ),
          },
          { requiredKeys: [] },
        ),
        async (input, { reply, ...options }) => {
          const r = await computeTrajectoryReduction(input as SnapshotInput, {
            ...(options as object),
            llm: { complete: async () => answer(reply) },
          });
          expect(Object.keys(r.snapshot)).toEqual(SNAPSHOT_KEYS);
          expect(typeof r.snapshot.currentObjective).toBe('string');
          expect(r.diagnostics.logLine).toMatch(/^\[TRAJECTORY\] reflection=(used|skipped)/);
          expect(Array.isArray(r.retired) && Array.isArray(r.kept)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: a countTokens that throws on a random call never makes it reject', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(12), fc.anything(), async (failAt, thrown) => {
        let n = 0;
        const r = await computeTrajectoryReduction(bigInput(), {
          llm: scripted(JSON.stringify(GOOD_REPLY), { inputTokens: 0, outputTokens: 0 }),
          countTokens: (t) => {
            if (n++ === failAt) throw thrown;
            return Math.ceil(t.length / 4);
          },
        });
        expect(r.diagnostics.reflectionSkippedReason).toBe(n > failAt ? 'callback_error' : null);
        if (n > failAt) expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
      }),
      { numRuns: 100 },
    );
  });
});
