/**
 * The snapshot's accelerators agree with the plain helpers they stand in for: the one-pass word scan
 * with `words`, its key hash with `comparableKey`, the flag classifier with `classify`, and the
 * deterministic snapshot is the same whether entries repeat, differ in case or need squashing.
 */
import { describe, expect, it } from 'vitest';
import {
  classify,
  classifyFlags,
  MAX_DIGIT_KEYWORD,
  RESOLVED_CODE,
  wordFlags,
} from '../../lib/categorise/classify';
import { findLinks, findLinksFrom } from '../../lib/categorise/links';
import { isExtension, isProductName, isWide, WIDE_RANGES } from '../../lib/categorise/pointer';
import { scanWords } from '../../lib/categorise/scan';
import { comparableKey, contentTerms, squash, words } from '../../lib/categorise/text';
import { keyHash, Vocabulary } from '../../lib/categorise/vocab';
import { folderBefore, windowsStart } from '../../lib/categorise/windows-paths';
import { CATEGORIES, deterministicSnapshotWithTrace } from '../../lib/snapshot/deterministic';

const TEXTS = [
  'CI is red: 3 retry tests failing',
  "The build isn't GREEN, it's still failing",
  'no error found in lib/a.ts',
  'Maybe the cache IS stale?',
  'I think the parser could be wrong',
  'not sure why the queue stalls',
  'Need to rerun the suite',
  'tests no longer fail',
  'errors: none',
  "can't reproduce; won't fix",
  'TODO: bump the version',
  'the flaky test is fixed',
  'Should 529 be retried like 503?',
  'Added 19 new regression tests, 0 failures',
  'Tests passed (with 2 expected failures, which is normal)',
  '/usr/bin/python3',
  'See `lib/retry.ts:42` for the `not_found` branch',
  "The endpoint isn't configured for test env.",
  'It might be caused by the `KeyError` in the loader',
  'Now the session close protocol:',
  'Build fails, but the parser still crashes',
  "Since the hook won't let me commit, I have two options:",
  '',
  'x',
];

describe('snapshot word scan', () => {
  it('gives the words, key hash and classification of the plain helpers', () => {
    const vocab = new Vocabulary();
    for (const t of TEXTS) {
      const ids = scanWords(t, vocab);
      expect(ids).not.toBeNull();
      expect(ids!.map((id) => vocab.words[id])).toEqual(words(t));
      if (ids!.length > 0) expect(vocab.keyHash).toBe(keyHash(comparableKey(t)));
      const c = classify(words(t), t);
      const code = classifyFlags(ids!, vocab.flags, t);
      expect(code >= 0 && code < CATEGORIES.length ? CATEGORIES[code] : undefined).toBe(c.category);
      // The snapshot passes the scan's `linkish` promise: it must not change the answer.
      expect(classifyFlags(ids!, vocab.flags, t, vocab.linkish)).toBe(code);
      expect(code === RESOLVED_CODE).toBe(c.resolved);
    }
  });

  it('leaves text that needs squashing or is not ASCII to the general path', () => {
    const vocab = new Vocabulary();
    for (const t of [' lead', 'trail ', 'two  spaces', 'tab\there', 'café', 'Zürich 🚀']) {
      expect(scanWords(t, vocab)).toBeNull();
      expect(scanWords(squash(t), vocab) === null).toBe(/[^\x00-\x7f]/.test(t));
    }
  });

  it('collapses repeats, case and spacing variants exactly as comparable keys do', () => {
    const values = [
      'CI is red',
      'ci is RED!',
      '  CI  is red ',
      'CI is red',
      "isn't it",
      'isn t it',
      'Zürich is red',
      'zürich IS red',
    ];
    const entries = values.map((value, i) => ({
      scope: 'blockers',
      key: `k${i}`,
      value,
      sourceIteration: i,
    }));
    const t = deterministicSnapshotWithTrace({ objective: 'red', entries });
    expect(t.snapshot.blockers).toEqual(['zürich IS red', 'CI is red', 'isn t it']);
    expect(t.dropped.filter((d) => d.reason === 'duplicate')).toHaveLength(5);
  });
});

/** A small deterministic generator of texts mixing words, keywords, numbers, links and punctuation. */
function fuzzTexts(count: number, seed: number): string[] {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  const pieces = [
    'CI',
    'is',
    'red',
    "isn't",
    "can't",
    "it's",
    "o'clock",
    "x'",
    "'y",
    'Fixed',
    'no',
    'longer',
    'errors',
    'none',
    '0',
    '404',
    '500',
    '12345',
    '4040',
    'TODO',
    'next',
    'need',
    'to',
    'I',
    'think',
    'could',
    'be',
    'not',
    'sure',
    'lib/a.ts',
    'lib/x/y.ts:12',
    './x/y',
    '../up/file.py',
    '~/cfg/a.toml',
    '~/x',
    '\\nsrc/a.ts',
    '\\\\tmain.py',
    'C:\\temp\\notes.txt',
    // Windows paths, escapes among folders, drives after a colon or an IDE's `@`.
    'app\\',
    'tests\\',
    '\\tmain.ts',
    'C:',
    '@c:\\x\\',
    '.\\',
    '\\_a.md',
    '/etc/hosts',
    'and/or',
    'setup.py:12:3',
    'README.md',
    'https://x.dev/a?b=1',
    'http://h.io/(p)',
    'a.b.c',
    'v1.2',
    'e.g.',
    'foo.json,',
    'x/',
    'x/y/',
    '(lib/p.ts)',
    '`src/m.rs`',
    '`',
    '`not_found`',
    'still',
    'but',
    'let',
    'me',
    'expected',
    'KeyError',
    'has',
    'been',
    'added',
    "doesn't",
    'work',
    'maybe',
    'Now',
    'should',
    'fix',
    'the issue is',
    '"q/r.go"',
    '=k/v.cs',
    'mod.TS',
    '.eslintrc.json',
    '`.env.yml`',
    'Node.js',
    'vue.js:3',
    'http://www.w3.org/2000/svg',
    'main..HEAD',
    'a/.../b.ts',
    'doc/x...y',
    'https://x.dev/q=${a',
    'app/(auth)/a.tsx',
    '(g)/',
    '[id]/',
    '[id].ts',
    '[...all]',
    '[...x]/b.ts',
    '[0-9]',
    '[a-z]/',
    '[p-id]',
    '(',
    '[',
    ']',
    ')',
    'a.cs-x',
    'b.tsx',
    'c.c:3',
    '.',
    ',',
    ':',
    '?',
    '!',
    "'",
    '/',
    '//',
    '-',
    '_',
    '@',
    '~',
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(rnd() * 10);
    let t = '';
    for (let j = 0; j < n; j++) {
      t += pieces[Math.floor(rnd() * pieces.length)]!;
      if (j < n - 1) t += rnd() < 0.8 ? ' ' : '';
    }
    out.push(t);
  }
  return out;
}

/**
 * `findLinks` as first written: an exec loop over the whole text with the same regex (a URL ends at a
 * backslash). A Windows path is read back from each match with the library's own rules
 * (lib/categorise/windows-paths.ts, tested on their own in snapshot.test.ts): what this compares is the
 * scan, which skips stretches no link starts in, against reading every match.
 */
const LINK_REFERENCE =
  /\bhttps?:\/\/[^\s<>"'`)\]}\\\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]+|(?:^|(?<=[\s(`'"=:\\])|(?<=(?:^|\n)[+-]))(?:(?:~|\.{1,2})?\/?(?:\$(?=[a-z]))?[\w@.-]+|~)(?:\/(?:[\w@.$+-]+|\(\$?[\w-]+\)(?:(?=\/)|[\w@.$+-]+)|\[(?:\.\.\.)?[A-Za-z_]\w*(?:-\w{2,})*\][\w@.-]*))+\/?(?::\d+(?::\d+)?)?|\b[\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|md|json|jsonl|yaml|yml|toml|ini|cfg|txt|sh|css|scss|html|sql|lock|log|xml|csv)(?::\d+(?::\d+)?)?\b/g;
function findLinksReference(text: string): string[] {
  const out: string[] = [];
  const windows = /\b[A-Za-z]:\\(?!\\)/.test(text);
  // Where the last match ended: a Windows path is read back no further.
  let floor = 0;
  for (const m of text.matchAll(LINK_REFERENCE)) {
    const floorHere = floor;
    if (m[0] !== '') floor = m.index + m[0].length;
    // The tail of a glob (`*.d.ts`).
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    if (before.endsWith('*') || before === '*.') continue;
    let link = m[0];
    // A dot file's dot, before a name the file-name branch matched after it (`.prettierrc.yaml`).
    if (/(?:^|[\s`'"([=:])\.$/.test(text.slice(Math.max(0, m.index - 2), m.index))) link = `.${link}`;
    link = link.replace(/[.,;:!?]+$/, '');
    // The letter of an escape (`\\nsrc/a.ts`), unless the text writes Windows paths as they are (and
    // the path is written with backslashes) or a folder chain (`app\\styles\\tailwind.css`) holds it.
    const backslashes = /\\*$/.exec(text.slice(0, m.index))![0].length;
    const escaped =
      backslashes % 2 === 1 &&
      /^[ntr][\w-]/.test(m[0]) &&
      (m[0].includes('/') || !folderBefore(text, m.index - 1, floorHere));
    const slashed = escaped && m[0].includes('/');
    if (escaped && (!windows || slashed)) link = link.slice(1);
    if ((!escaped || (windows && !slashed)) && /[\\:]$/.test(text.slice(0, m.index)))
      link = text.slice(windowsStart(text, m.index, windows, floorHere), m.index) + link;
    // A diff's side (`--- a/x`, `+++ b/x`, `diff --git a/x b/x`) names the file without `a/` or `b/`.
    const head = text.slice(0, m.index);
    if (
      /^[ab]\/./.test(link) &&
      (/(?:^|\n)(?:--- |\+\+\+ )$/.test(head) ||
        (link.startsWith('a/') && /(?:^|\n)diff --git $/.test(head)) ||
        (link.startsWith('b/') && /(?:^|\n)diff --git a\/\S+ $/.test(head)))
    )
      link = link.slice(2);
    if (link === 'console.log' || /^(?:[0-9/]+|[ymd/]+)$/i.test(link)) continue;
    // A library's name, an XML namespace, a Git range or an ellipsis glued to a name.
    if (
      isProductName(link) ||
      (link.startsWith('http') && link.includes('${')) ||
      /^https?:\/\/(?:www\.w3\.org\/(?:(?:19|20)\d\d|XML)\/|schemas\.(?:android|microsoft|xmlsoap|openxmlformats)\.(?:com|org)\/)/.test(
        link,
      )
    )
      continue;
    if (
      !link.startsWith('http') &&
      link.split('/').some((part) => part.replace(/^\[\.\.\./, '[').includes('..') && !/^\.+$/.test(part))
    )
      continue;
    // A dash glued to the path (a diff's removed line): no file's name starts with one.
    if (!link.startsWith('http')) link = link.replace(/^-+/, '');
    if (link === '') continue;
    // An IDE chat's mention of a file (`@docs/a.md`; not an alias's `@/x.ts`).
    const last = /\.(\w+)(?::\d+)*$/.exec(link.slice(link.lastIndexOf('/') + 1));
    if (/^@[^/]/.test(link) && !link.startsWith('http') && last && isExtension(last[1]!.toLowerCase()))
      link = link.slice(1);
    const [a, b, ...more] = link.split('/');
    const file = (x: string | undefined) =>
      x !== undefined &&
      /\.(\w+)$/.test(x) &&
      isExtension(/\.(\w+)$/.exec(x)![1]!.toLowerCase()) &&
      !x.startsWith('.');
    if (more.length === 0 && a !== '' && file(a) && file(b)) {
      out.push(a!, b!);
      continue;
    }
    if (link.startsWith('http')) {
      out.push(link);
      continue;
    }
    const slashes = link.split('/').length - 1;
    const pathLike =
      slashes === 0 ||
      /^(?:\/|\.\/|\.\.\/|~\/)/.test(link) ||
      slashes >= 2 ||
      /\.[A-Za-z][\w]*(?::\d+)*$/.test(link.slice(link.lastIndexOf('/') + 1));
    if (!pathLike) continue;
    if (link.endsWith('/') && slashes === 1) link = link.slice(0, -1);
    if (link.length > 1) out.push(link);
  }
  return out;
}

describe('snapshot scan accelerators on generated text', () => {
  const texts = [
    ...fuzzTexts(3000, 7),
    ...TEXTS,
    "isn't  it",
    "a'b'c d",
    'x.Py',
    'K\u212a',
    'tab\tlib/a.ts',
    "rg -g '*.d.ts'",
    'src/**/*.test.ts',
    'x*.y.ts',
    'see @docs/PRD.md:12 and @mui/material/x and @/lib/a.ts, @a.md/b.md',
  ];

  it('scans words, key hashes, flags and link starts as the plain helpers do', () => {
    const vocab = new Vocabulary();
    for (const t of texts) {
      const ids = scanWords(t, vocab);
      if (ids === null) {
        expect(/[^\x20-\x7e]|^ | $| {2}/.test(t)).toBe(true);
        continue;
      }
      expect(ids.map((id) => vocab.words[id])).toEqual(words(t));
      expect(vocab.keyHash).toBe(keyHash(comparableKey(t)));
      for (const id of ids) expect(vocab.flags[id]).toBe(wordFlags(vocab.words[id]!));
      const c = classify(words(t), t);
      const code = classifyFlags(ids, vocab.flags, t);
      expect(code >= 0 && code < CATEGORIES.length ? CATEGORIES[code] : undefined).toBe(c.category);
      expect(classifyFlags(ids, vocab.flags, t, vocab.linkish)).toBe(code);
      expect(code === RESOLVED_CODE).toBe(c.resolved);
      expect(vocab.termsOfWords(ids).map((x) => vocab.terms[x])).toEqual(contentTerms(words(t)));
      const links = findLinks(t);
      expect(vocab.linkish ? findLinksFrom(t, vocab.linkFrom) : []).toEqual(links);
    }
  });

  it('reads the same characters as wide where isPointer splits words and where findLinks ends a URL', () => {
    const wide = new RegExp(`[${WIDE_RANGES}]`);
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isWide(c) !== wide.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
    expect(findLinks('https://x.dev/a链接')).toEqual(['https://x.dev/a']);
  });

  it('finds the links of an exec loop over the whole text', () => {
    for (const t of texts) expect(findLinks(t)).toEqual(findLinksReference(t));
  });

  it('gives flags to no number longer than the longest numeric keyword', () => {
    expect(MAX_DIGIT_KEYWORD).toBe(3);
    expect(wordFlags('404')).not.toBe(0);
    expect(wordFlags('0')).not.toBe(0);
    expect(wordFlags('4040')).toBe(0);
  });
});
