/**
 * Linear time of the link and snapshot scanners (findLinks, deterministicSnapshot, inferRoot,
 * entriesFromMessages, objectiveFromText, judgeKeyPoint, isPointer, bareLink, samePlaces), proven by
 * growth ratios on adversarial inputs (test/unit/linear-time.ts).
 */
import { describe } from 'vitest';
import { findLinks } from '../../lib/categorise/index';
import { isPointer } from '../../lib/categorise/pointer';
import { judgeKeyPoint } from '../../lib/playbook/index';
import { bareLink } from '../../lib/snapshot/bare-link';
import {
  deterministicSnapshot,
  entriesFromMessages,
  inferRoot,
  objectiveFromText,
} from '../../lib/snapshot/index';
import { samePlaces } from '../../lib/snapshot/same-place';
import { fill } from './linear-time';
import { DOTTED, linear, prepared } from './linear-time-helpers';

/** `i` in letters only (`a`, `b`, …, `ba`): names a word-list link can hold. */
const letters = (i: number): string => {
  let out = '';
  do {
    out = String.fromCharCode(0x61 + (i % 26)) + out;
    i = Math.floor(i / 26);
  } while (i > 0);
  return out;
};

describe('links and snapshots', () => {
  linear('findLinks', findLinks, [
    ...DOTTED,
    // Dates and file pairs are checked after a match: each link is read a bounded number of times.
    ['dates', (n) => fill(n, '1/')],
    ['one long date-like run', (n) => fill(n, '1111/', ' ', 'x')],
    ['file pairs', (n) => fill(n, 'a.md/b.md ')],
    ['a URL glued to CJK prose', (n) => fill(n, '推', 'https://x.dev/a')],
    // Each escape's run of backslashes is read back once, and the Windows check once per text.
    ['escaped names', (n) => fill(n, '\\\\\\na.ts')],
    ['a long run of backslashes before a name', (n) => fill(n, '\\', '', 'na.ts')],
    ['home paths', (n) => fill(n, ' ~/a')],
    // A diff side is told by the characters right before it: the header lines read once.
    ['diff headers', (n) => fill(n, '--- a/x.py\n+++ b/x.py\ndiff --git a/x b/x\n')],
    ['diff lines', (n) => fill(n, '\n+a/b.ts\n-c/d')],
    ['folders after backslashes', (n) => fill(n, '\\a/b')],
    // A Windows path is read back over its folders once: each link reads back no further than the last.
    ['a Windows path of many folders', (n) => fill(n, 'a\\', '', 'b.ts')],
    ['Windows links one after another', (n) => fill(n, 'a\\b.ts\\')],
    ['drives and folders', (n) => fill(n, 'C:\\a\\', '', 'b.ts')],
    ['escapes between folders', (n) => fill(n, 'a\\na\\t.ts ')],
    // Route groups and dynamic segments (`app/(auth)/[id]/page.tsx`): each opens with its own character.
    ['route groups', (n) => fill(n, '/(g)', 'a')],
    ['dynamic segments', (n) => fill(n, '/[id]', 'a')],
    ['catch-all segments', (n) => fill(n, '/[...a]', 'a')],
    ['unclosed groups and segments', (n) => fill(n, '/(a/[a-b', 'a')],
    // Remix's `$param` and `($optional)` inside names, and dashes glued before a path.
    ['dollar segments', (n) => fill(n, '/a.$b', 'x')],
    ['plus segments', (n) => fill(n, '/+a', 'x')],
    ['aliases', (n) => fill(n, '$a/', ' ')],
    ['groups glued to names', (n) => fill(n, '/($a)b', 'x')],
    ['groups without a name after them', (n) => fill(n, '/($a)', 'x')],
    ['dashes before a path', (n) => fill(n, '-', '', 'a/b.ts')],
  ]);
  linear(
    'deterministicSnapshot (one long entry)',
    (value) =>
      deterministicSnapshot({
        objective: 'x',
        entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
      }),
    [
      ...DOTTED.slice(0, 4),
      ['a long word', (n) => fill(n, 'a')],
      ['words', (n) => fill(n, 'fix the build ')],
      // "we will …" again and again, and a colon that closes no plan: each "we will" was read to the
      // colon (1.7 s at 160 KB).
      ['plans without their colon', (n) => fill(n, 'we will w ', '', ': we:')],
      // Words joined by slashes, each a different link looked for in the text (word-list.ts).
      [
        'different word lists',
        (n) => Array.from({ length: n / 12 }, (_, i) => `${letters(i)}/bb/cc `).join(''),
      ],
      [
        'word lists in code spans',
        (n) => Array.from({ length: n / 14 }, (_, i) => `\`${letters(i)}/bb/cc\` `).join(''),
      ],
    ],
  );
  // The folder a session's paths show (infer-root.ts): deep paths, each file named both ways, and one
  // path of many folders spelled again and again with its pieces.
  linear('inferRoot', (text) => inferRoot(text.split(' ')), [
    [
      'files named both ways',
      (n) => Array.from({ length: n / 40 }, (_, i) => `/Users/ana/shop/src/f${i}.ts src/f${i}.ts`).join(' '),
    ],
    // Distinct paths (a repeated one would be read once: the scanner keeps a set).
    [
      'paths of many folders, and their pieces',
      (n) =>
        Array.from(
          { length: n / 430 },
          (_, i) => `/${'a/'.repeat(200)}b${i}.ts a/b${i}.ts a/a/b${i}.ts`,
        ).join(' '),
    ],
    [
      'deep distinct paths',
      (n) => Array.from({ length: n / 60 }, (_, i) => `/${'d/'.repeat(25)}${i}.ts`).join(' '),
    ],
  ]);
  // A session folder whose name holds a space, spelled again and again (root.ts `linksThroughRoot`).
  linear(
    'deterministicSnapshot (a folder with a space)',
    (value) =>
      deterministicSnapshot({
        objective: 'x',
        entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }],
        root: '/Users/ana/My app',
      }),
    [
      ['the folder and a file', (n) => fill(n, '/Users/ana/My app/a.ts ')],
      ['the folder cut short', (n) => fill(n, '/Users/ana/My ap')],
      ['the home spelling', (n) => fill(n, '~/My app/')],
    ],
  );
  // A command template's `## User Input` block, read for the objective: openers without a closing
  // fence, and fences without an opener.
  linear(
    'entriesFromMessages (a command template)',
    (content) => entriesFromMessages([{ id: 'c', role: 'user', content, source: {}, synthetic: 'command' }]),
    [
      ['## User Input openers', (n) => fill(n, '## User Input ```text\n a ')],
      ['openers, then text without a fence', (n) => fill(n, 'a `` b ', '## User Input\n```\n')],
      ['whitespace after the heading', (n) => fill(n, ' \n', '## User Input')],
    ],
  );
  // A failed call's output, read for the line that says what went wrong: exit notices and blank lines.
  linear(
    'entriesFromMessages (a failed call)',
    (content) => entriesFromMessages([{ id: 'r', role: 'tool', content, source: {}, isError: true }]),
    [
      ['exit notices', (n) => fill(n, 'Exit code 1\n')],
      ['spaces before a notice', (n) => fill(n, ' ', '', 'Output:')],
      ['blank lines after a notice', (n) => fill(n, ' \n', 'The command failed with exit code: 1\n')],
    ],
  );
  // A model's error answered later: the error test reads one word run after `litellm.`.
  linear(
    'entriesFromMessages (a model error, then an answer)',
    (content) =>
      entriesFromMessages([
        { id: 'r', role: 'tool', content, source: {}, isError: true },
        { id: 'a', role: 'assistant', content: content.length > 0 ? 'Done.' : '', source: {} },
      ]),
    [
      ['a long word after litellm.', (n) => fill(n, 'e', 'litellm.')],
      ['litellm. repeated', (n) => fill(n, 'litellm.')],
      ['API Error repeated', (n) => fill(n, 'API Error ')],
    ],
  );
  // The same test on a message after leading space (a run of spaces before a near miss).
  linear(
    'entriesFromMessages (a message that may be a model error)',
    (content) =>
      entriesFromMessages([
        { id: 'a', role: 'assistant', content, source: {} },
        { id: 'b', role: 'assistant', content: 'Done.', source: {} },
      ]),
    [
      ['spaces before a near miss', (n) => fill(n, ' ', '', 'API Erro')],
      ['spaces and line breaks before litellm.', (n) => fill(n, ' \n', '', 'litellm.')],
    ],
  );
  linear('objectiveFromText', objectiveFromText, [
    ['an unclosed <pr_description> and spaces', (n) => fill(n, ' ', '<pr_description>')],
    ['spaces inside <pr_description>', (n) => fill(n, ' \n', '<pr_description>', 'x</pr_description>')],
    ['ISSUE: and single line breaks', (n) => fill(n, 'a\n ', 'ISSUE: ')],
    ['Task Description: and white space', (n) => fill(n, ' \n\t', 'x\nTask Description:')],
    // HTML comments: openers that no `-->` closes, and closed ones back to back.
    ['unclosed <!-- openers', (n) => fill(n, '<!-- ', '<pr_description>Fix it ')],
    ['closed comments', (n) => fill(n, '<!-- a -->', '<pr_description>Fix it ')],
  ]);
  // The judge's patterns are anchored; a long run of words they could start on is read once.
  linear('judgeKeyPoint', judgeKeyPoint, [
    ['be very very …', (n) => fill(n, 'very ', 'Be ', 'x')],
    ['do not do not …', (n) => fill(n, 'do not ', '', 'skip x')],
    ['spaces after be', (n) => fill(n, ' ', 'Be', 'careful')],
    ['words then focused', (n) => fill(n, 'ab-', 'Be ', ' focused x')],
  ]);
  // One token a step: word pairs, tags and CJK runs are each read once.
  linear('isPointer', isPointer, [
    ['word pairs', (n) => fill(n, 'a/b ')],
    ['one long word pair', (n) => fill(n, 'a', '', '/b')],
    ['CJK runs with slashes', (n) => fill(n, '展开/折叠')],
    ['unclosed tags', (n) => fill(n, '</a')],
    ['trailing spaces', (n) => fill(n, ' ', 'src/lib')],
  ]);
  // A pointer's words are counted once, and no further than two.
  linear('bareLink', (t) => bareLink(t, findLinks(t)), [
    ['words before a link', (n) => fill(n, 'a ', '', 'src/a.ts')],
    ['dress before a link', (n) => fill(n, '*`: ', '', 'src/a.ts')],
    ['dress after a link', (n) => fill(n, '`*', 'See src/a.ts')],
    // A Markdown link that is its own label: each `[` is read at most 500 characters on.
    ['brackets before a self-link', (n) => fill(n, '[a', '[http://x.dev](http://x.dev) ')],
  ]);
  // The evidence links of one snapshot, one a line: at most 8 suffixes indexed a path.
  linear(
    'samePlaces (a link a line)',
    prepared((text) => text.split('\n'), samePlaces),
    [
      [
        'distinct deep paths',
        (n) => Array.from({ length: n / 40 }, (_, i) => `a/b/c/d/e/f/g/h/i/f${i}.ts\n`).join(''),
      ],
      [
        'one name in many folders',
        (n) => Array.from({ length: n / 20 }, (_, i) => `d${i}/index.ts\nindex.ts\n`).join(''),
      ],
      [
        'suffix chains',
        (n) => Array.from({ length: n / 30 }, (_, i) => `x/y/z${i % 50}/a.ts\nz${i % 50}/a.ts\n`).join(''),
      ],
      [
        'long paths',
        (n) => Array.from({ length: n / 1000 }, (_, i) => `${'ab/'.repeat(330)}${i}\n`).join(''),
      ],
      [
        'home spellings',
        (n) => Array.from({ length: n / 30 }, (_, i) => `/Users/u/p${i}/\n~/p${i}\n`).join(''),
      ],
      ['one link of ./ pairs', (n) => `${fill(n, './')}a\n`],
      ['one link of slashes', (n) => `a${fill(n, '/')}\n`],
    ],
  );
  // Scan, classify, links and near-duplicate search over many entries (one a line).
  linear(
    'deterministicSnapshot (an entry a line)',
    prepared(
      (text) =>
        text.split('\n').map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i })),
      (entries) => deterministicSnapshot({ objective: 'x', entries }),
    ),
    [
      ['the same note', (n) => fill(n, 'The build fails on lib/a.ts\n')],
      ['near duplicates', (n) => fill(n, 'The build fails on lib/a.ts again and again x\n')],
      [
        'numbered notes',
        (n) => Array.from({ length: n / 40 }, (_, i) => `Step ${i} fails on file${i}.ts now\n`).join(''),
      ],
      ['one word a note', (n) => fill(n, 'a\n')],
      ['tasks and checks', (n) => fill(n, 'TODO: check if x.ts has the guard - it does\n')],
    ],
  );
});
