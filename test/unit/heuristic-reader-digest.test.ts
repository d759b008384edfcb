/**
 * The reader's scores, pinned: `readerScores` and `readerModel` on every human turn of the project's
 * transcript fixtures, of a few shared-data folders and of generated turns (pasted lines, fences,
 * inline code, decomposed accents, CJK, numbers, long tokens, command templates, replies that claim,
 * fail or ask) must give the scores recorded in `test/fixtures/reader-digest.json`, byte for byte, and
 * the same set of hashed buckets. Any change to how the reader extracts or hashes its features that
 * moves one score fails here. After retraining the reader (new weights move scores on purpose) record
 * the digests again: `READER_DIGEST_WRITE=1 npx vitest run test/unit/heuristic-reader-digest.test.ts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heuristicReflect, type MessageLike, type TurnEvidence } from '../../lib/heuristic/index';
import { wordsOf } from '../../lib/heuristic-model/features';
import { readerBuckets, readerModel, readerScores } from '../../lib/heuristic-model/index';
import { readerHashes } from '../../lib/heuristic-model/reader-hash';
import { parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';
import { evidence } from '../heuristic/evidence';

const ROOT = join(import.meta.dirname, '../..');
const RECORD = join(ROOT, 'test/fixtures/reader-digest.json');
const WRITE = process.env.READER_DIGEST_WRITE === '1';

interface Digest {
  turns: number;
  scores: string;
  buckets: string;
}

/** The evidence `heuristicReflect` gives its scorer for every human turn of `messages`. */
function turnsOf(messages: readonly MessageLike[]): TurnEvidence[] {
  const out: TurnEvidence[] = [];
  heuristicReflect(messages, {
    scorer: (turn, scores) => {
      out.push(turn);
      return scores;
    },
  });
  return out;
}

function digest(turns: readonly TurnEvidence[]): Digest {
  const scores = createHash('sha256');
  const buckets = createHash('sha256');
  for (const t of turns) {
    // Markers' scores as `heuristicReflect` would pass them: only the undo path reads them.
    const markers = { correction: 0.5, preference: 0, approval: 0, friction: 0 };
    scores.update(`${JSON.stringify([readerScores(t), readerModel(t, markers)])}\n`);
    buckets.update(`${[...readerBuckets(t)].sort((a, b) => a - b).join(',')}\n`);
  }
  return { turns: turns.length, scores: scores.digest('hex'), buckets: buckets.digest('hex') };
}

/** A small deterministic generator (LCG): the same turns on every run. */
function generated(count: number): TurnEvidence[] {
  const pieces = [
    'no',
    'No,',
    'still',
    'wrong',
    'that is not what I asked',
    "don't",
    'it’s',
    'PLEASE',
    'WHY??',
    '?!',
    'thanks!',
    'perfect',
    'always use pnpm',
    '42',
    '1234567',
    'a1b2c3d4e5f6a7b8c9d0e1f2',
    '/src/lib/some/very/long/path/name.ts',
    '`inline code`',
    '"quoted span"',
    '\n```\nconst x = 1;\n```\n',
    '\n    indented pasted line TypeError: x',
    '\n\tat run (app.js:3:9)',
    '\n> quoted reply',
    '\n$ npm test',
    '\nTraceback (most recent call last):',
    '\n{"a": 1}',
    'cafe\u0301',
    'não',
    'ещё не работает',
    '还是不行',
    '日本語のテキストです',
    '한국어 문장',
    '## User Input',
    '$ARGUMENTS',
    '\n---\nname: x',
    'x_y',
    '\n',
    '   ',
    'Émile',
    'İstanbul',
    '😀',
  ];
  const replies = [
    undefined,
    'Done.',
    'I have fixed the bug.',
    'Error: failed to build',
    'Shall I go on?',
    'It should now work. ok?',
  ];
  let s = 12345;
  const next = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const out: TurnEvidence[] = [];
  for (let k = 0; k < count; k++) {
    const parts: string[] = [];
    const n = 1 + next(40);
    for (let i = 0; i < n; i++) parts.push(pieces[next(pieces.length)]!);
    const text = parts.join(next(3) === 0 ? '' : ' ');
    out.push(
      evidence(text, {
        first: next(4) === 0,
        reply: replies[next(replies.length)],
        undo: next(20) === 0,
        interrupted: next(10) === 0,
        repeat: next(10) === 0,
        signals: {
          correction: next(5) === 0,
          challenge: next(10) === 0,
          preference: next(8) === 0,
          approval: next(8) === 0,
          friction: next(8) === 0,
        },
      }),
    );
  }
  // Long turns: the reader reads the first 600 characters only.
  out.push(evidence('still broken '.repeat(200)), evidence(`${'x'.repeat(599)}\u0301 no`), evidence(''));
  return out;
}

function fixtureTurns(): TurnEvidence[] {
  const dir = join(ROOT, 'test/fixtures/transcripts');
  const turns: TurnEvidence[] = [];
  for (const f of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, f), 'utf8');
    const format = f.startsWith('console') ? ({ format: 'claude-code-console' } as const) : {};
    turns.push(...turnsOf(parseTranscript(text, { lenient: true, ...format }).messages as MessageLike[]));
  }
  return turns.concat(generated(3000));
}

/** The shared folders read: many authors, languages (zh, ja, ko, ru, es, pt, cs) and formats. */
const SHARED: readonly (readonly [string, string])[] = [
  ['claude-code-console', '.md'],
  ['sharegpt/conversations', '.json'],
  ['aider', '.md'],
  ['specstory', '.md'],
  ['claude-code-jsonl-more', '.jsonl'],
  ['codex', '.jsonl'],
];

function sharedTurns(dir: string): TurnEvidence[] {
  const turns: TurnEvidence[] = [];
  for (const [sub, ext] of SHARED)
    for (const f of readdirSync(join(dir, sub))
      .filter((x) => x.endsWith(ext))
      .sort()) {
      const format = sub === 'claude-code-console' ? ({ format: 'claude-code-console' } as const) : {};
      const text = readFileSync(join(dir, sub, f), 'utf8');
      // A file no parser reads (a few event logs of other shapes) adds no turn, the same on every run.
      const parsed = safeParseTranscript(text, { lenient: true, ...format });
      if (parsed.ok) turns.push(...turnsOf(parsed.value.messages as MessageLike[]));
    }
  return turns;
}

const recorded = (): Record<string, Digest> =>
  existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, 'utf8')) : {};

function check(key: string, got: Digest): void {
  if (WRITE) {
    writeFileSync(RECORD, `${JSON.stringify({ ...recorded(), [key]: got }, null, 2)}\n`);
    return;
  }
  expect(got.turns).toBeGreaterThan(100);
  expect(got).toEqual(recorded()[key]);
}

describe('reader scores (pinned)', () => {
  it('are the recorded ones on the fixtures and generated turns', () => {
    check('fixtures', digest(fixtureTurns()));
  });

  const shared = sharedDataDir();
  const have = !!shared && SHARED.every(([sub]) => existsSync(join(shared, sub)));
  it.skipIf(!have)(
    'are the recorded ones on every human turn of the shared folders',
    () => {
      check('shared', digest(sharedTurns(shared!)));
    },
    120_000,
  );
});

describe("the reader's hashed path", () => {
  const pieces = fc.constantFrom(
    'no',
    'Still',
    '"q"',
    '`c`',
    "it's",
    '\n',
    '    ',
    '\t',
    '```',
    '> ',
    '$ ',
    '?',
    '!',
    'e\u0301',
    '还是',
    'ещё',
    '42',
    'x'.repeat(25),
    ' ',
    'TypeError',
    '\ud83d\ude00',
    '\ud800',
  );
  const text = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 80 }),
    fc.array(pieces, { maxLength: 40 }).map((p) => p.join('')),
  );
  const turn = fc.record({
    text,
    reply: fc.option(fc.oneof(text, fc.constantFrom('Fixed it.', 'Error: x', 'Go on?')), { nil: undefined }),
    first: fc.boolean(),
    undo: fc.boolean(),
    acknowledged: fc.boolean(),
    correction: fc.boolean(),
  });

  it('hashes the same buckets as readerFeatures names, on any turn (property)', () => {
    fc.assert(
      fc.property(turn, (t) => {
        const e = evidence(t.text, {
          reply: t.reply,
          first: t.first,
          undo: t.undo,
          acknowledged: t.acknowledged,
        });
        e.signals.correction = t.correction;
        const fast = [...new Set(readerHashes(e))].sort((a, b) => a - b);
        expect(fast).toEqual([...readerBuckets(e)].sort((a, b) => a - b));
      }),
      { numRuns: 2000 },
    );
  });

  it('splits words as /[\\p{L}\\p{N}_]+/gu does (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), text), (s) => {
        expect(wordsOf(s, 1000)).toEqual(s.match(/[\p{L}\p{N}_]+/gu) ?? []);
        expect(wordsOf(s, 2)).toEqual((s.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 2));
      }),
      { numRuns: 3000 },
    );
  });
});
