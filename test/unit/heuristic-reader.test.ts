/**
 * The reader (`readerModel` of `rearview/heuristic-model`): integer weights and score tables (the same
 * scores for the same input), scores in [0, 1] that never throw, per-category thresholds through
 * `heuristicReflect`'s `minScore`, linear time in the turn's length, its size under 150 KB gzipped
 * with `rearview/heuristic` alone still under 8 KB, and the strangers loader mapping every row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haveSharedData } from '../../eval/heuristic/data';
import { loadStrangers, locateRows, type StrangerLabel } from '../../eval/heuristic/strangers-data';
import { heuristicReflect, type TurnEvidence } from '../../lib/heuristic/index';
import {
  hashFeature,
  READER_MIN_SCORE,
  READER_RECALL_MIN_SCORE,
  readerBuckets,
  readerFeatures,
  readerModel,
  readerScores,
} from '../../lib/heuristic-model/index';
import { BIAS, MIN_SCORES, TABLES, WEIGHTS } from '../../lib/heuristic-model/reader-weights';
import { parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';
import { bundle, heuristicSizes } from '../../tools/shared/heuristic-size';
import { evidence } from '../heuristic/evidence';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

const readShared = (source: string) => readFileSync(join(sharedDataDir()!, source), 'utf8');

const KINDS = ['correction', 'preference', 'approval', 'friction'] as const;

describe('reader data', () => {
  it('holds integer weights, monotone tables in [0, 1] and one threshold per category', () => {
    expect(BIAS.every(Number.isInteger)).toBe(true);
    const entries = WEIGHTS.split(' ');
    expect(entries.length).toBeGreaterThan(1000);
    for (const e of entries.slice(0, 2000)) {
      const parts = e.split(':').map((p) => Number.parseInt(p, 36));
      expect(parts).toHaveLength(5);
      expect(parts.every(Number.isInteger)).toBe(true);
    }
    const tables = TABLES.split(';').map((t) => t.split(',').map((v) => Number.parseInt(v, 36)));
    expect(tables).toHaveLength(4);
    for (const t of tables) {
      expect(t).toHaveLength(321);
      for (let i = 1; i < t.length; i++) expect(t[i]!).toBeGreaterThanOrEqual(t[i - 1]!);
      expect(t[0]!).toBeGreaterThanOrEqual(0);
      expect(t[t.length - 1]!).toBeLessThanOrEqual(100);
    }
    expect(MIN_SCORES).toHaveLength(4);
    expect(Object.keys(READER_MIN_SCORE)).toEqual([...KINDS]);
  });

  it('scores a turn as the table at the clamped integer sum of its buckets', () => {
    const weights = new Map<number, number[]>();
    let b = 0;
    for (const e of WEIGHTS.split(' ')) {
      const [d, ...w] = e.split(':').map((p) => Number.parseInt(p, 36));
      b += d!;
      weights.set(b, w);
    }
    const tables = TABLES.split(';').map((t) => t.split(',').map((v) => Number.parseInt(v, 36) / 100));
    for (const text of [
      'No, that is still wrong.',
      'Add a dark mode toggle',
      '还是不行',
      'Perfect, thanks!',
    ]) {
      const e = evidence(text);
      const z = [...BIAS];
      for (const k of readerBuckets(e)) {
        const w = weights.get(k);
        if (w) for (let c = 0; c < 4; c++) z[c]! += w[c]!;
      }
      const s = readerScores(e);
      KINDS.forEach((k, c) => {
        expect(s[k]).toBe(tables[c]![Math.max(-160, Math.min(160, z[c]!)) + 160]);
      });
    }
  });

  it('gives the same scores for the same input (fixed inputs)', () => {
    const turns = [
      'No, that is still wrong.',
      'Always use pnpm in this repo.',
      'Perfect!',
      'WHY ISNT THIS WORKING??',
    ];
    const a = turns.map((t) => readerScores(evidence(t)));
    const b = turns.map((t) => readerScores(evidence(t)));
    expect(a).toEqual(b);
    // A correction after the agent claimed a fix ranks above the same words as a first turn.
    const claimed = readerScores(
      evidence('that is still broken', { reply: 'Fixed it: the handler now works.' }),
    );
    const first = readerScores(evidence('that is still broken', { first: true, reply: undefined }));
    expect(claimed.correction).toBeGreaterThan(first.correction);
  });
});

describe('readerFeatures', () => {
  it('reads open words, CJK character pairs, the reply and template text', () => {
    const f = readerFeatures(evidence('No, use the other parser', { reply: 'I have fixed the bug.' }));
    expect(f).toEqual(expect.arrayContaining(['u:parser', 'v:other_parser', 'r:claim']));
    expect(readerFeatures(evidence('还是不行'))).toEqual(expect.arrayContaining(['k:还是', 'script:cjk']));
    expect(readerFeatures(evidence('## User Input\n\n```text\nx\n```\nYou **MUST** consider'))).toContain(
      't:template',
    );
  });

  it("reads neither the correction model's vocabulary words nor a turn past 400 characters nor a reply before its last 150 (property)", () => {
    const names = readerFeatures(
      evidence('No, that is still not what I asked for.', { reply: 'I have fixed it.' }),
    );
    expect(names.filter((n) => n.startsWith('w:') || n.startsWith('b:') || n.includes('oov:'))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['u:still', 'f:no', 'r:claim']));
    // The last 150 characters of a reply: a claim, then words that neither claim nor show an error.
    const last = `I have fixed the parser. ${'The tests pass again on my side. '.repeat(4)}`.slice(0, 150);
    const words = fc.constantFrom(
      'error',
      'failed',
      'Traceback',
      'done',
      'is now',
      'Shall I?',
      'still',
      ' ',
      '\n',
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 500 }),
        fc.array(words, { maxLength: 30 }).map((w) => w.join(' ')),
        fc.array(words, { maxLength: 30 }).map((w) => w.join(' ')),
        (text, tail, before) => {
          const head = text.padEnd(400, ' ').slice(0, 400);
          expect(readerScores(evidence(head + tail, { reply: last }))).toEqual(
            readerScores(evidence(head, { reply: last })),
          );
          expect(readerScores(evidence(text, { reply: `${before}${last}` }))).toEqual(
            readerScores(evidence(text, { reply: last })),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hashes names to buckets with integer arithmetic', () => {
    expect(hashFeature('u:still')).toBe(hashFeature('u:still'));
    expect(hashFeature('')).toBe(0x811c9dc5 & ((1 << 20) - 1));
  });
});

describe('readerModel with heuristicReflect', () => {
  it('never throws and returns four scores in [0, 1] on any evidence (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 700 }),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        (text, first, undo, reply) => {
          const markers = { correction: undo ? 0.9 : 0, preference: 0, approval: 0, friction: 0 };
          const s = readerModel(evidence(text, { first, undo, reply }), markers);
          for (const k of KINDS) {
            expect(s[k]).toBeGreaterThanOrEqual(0);
            expect(s[k]).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });

  it('a correction the markers report and the reader half believes reaches the lower threshold, no further', () => {
    const markers = (correction: number) => ({ correction, preference: 0, approval: 0, friction: 0 });
    const recall = READER_RECALL_MIN_SCORE.correction;
    // Reader scores in [0.5, recall) are raised to `recall` when the markers report (their 0.75).
    // What heuristicReflect tells a scorer of the turn after a claimed change (the markers' signals set).
    const told = (text: string) => {
      let seen: TurnEvidence | undefined;
      heuristicReflect(
        [
          { role: 'user', content: 'Add a login page.' },
          { role: 'assistant', content: 'I added the login page and updated the config.' },
          { role: 'user', content: text },
        ],
        {
          scorer: (e, m) => {
            seen = e;
            return m;
          },
        },
      );
      return seen!;
    };
    const turns = ['You broke the build.', "That's wrong, the config lives in src/."].map(told);
    for (const turn of turns) {
      const own = readerScores(turn).correction;
      expect(own).toBeGreaterThanOrEqual(0.5);
      expect(own).toBeLessThan(recall);
      expect(readerModel(turn, markers(0.83)).correction).toBe(recall);
      expect(readerModel(turn, markers(0.75)).correction).toBe(recall);
      // Under the markers' threshold: the reader's own score.
      expect(readerModel(turn, markers(0.74)).correction).toBe(own);
      // Never above the lower threshold: the main one stays the reader's alone.
      expect(readerModel(turn, markers(0.83)).correction).toBeLessThan(READER_MIN_SCORE.correction);
      // The other categories are the reader's.
      expect({ ...readerModel(turn, markers(0.83)), correction: 0 }).toEqual({
        ...readerScores(turn),
        correction: 0,
      });
    }
    // Under the floor, the markers do not lift it.
    const doubt = told('Please stop adding comments everywhere.');
    expect(readerScores(doubt).correction).toBeLessThan(0.5);
    expect(readerModel(doubt, markers(0.83)).correction).toBe(readerScores(doubt).correction);
    // In a session: the CLI's default thresholds report it, the main ones do not.
    const messages = [
      { role: 'user', content: 'Add a login page.' },
      { role: 'assistant', content: 'I added the login page and updated the config.' },
      { role: 'user', content: 'You broke the build.' },
    ];
    expect(
      heuristicReflect(messages, { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE }),
    ).toHaveLength(1);
    expect(heuristicReflect(messages, { scorer: readerModel, minScore: READER_MIN_SCORE })).toHaveLength(0);
  });

  it('reports by per-category thresholds (minScore as a record)', () => {
    const messages = [
      { role: 'user', content: 'Add a REST endpoint for books' },
      { role: 'assistant', content: 'Done: I have fixed the endpoint, it should work now.' },
      { role: 'user', content: "No, that's still wrong, it still returns 500 and you didn't fix anything" },
    ];
    const all = heuristicReflect(messages, { scorer: readerModel, minScore: 0 });
    const kept = heuristicReflect(messages, { scorer: readerModel, minScore: READER_MIN_SCORE });
    for (const i of kept)
      expect(i.score!).toBeGreaterThanOrEqual(READER_MIN_SCORE[i.category as (typeof KINDS)[number]]);
    expect(kept.length).toBeLessThanOrEqual(all.length);
    // A category left out of the record keeps the default threshold.
    const partial = heuristicReflect(messages, { scorer: readerModel, minScore: { correction: 0 } });
    expect(partial.some((i) => i.category === 'correction')).toBe(true);
  });

  it('is linear in the turn length: time ratio per doubling ≤ 3 (one run, one step allowed)', () => {
    const unit = 'still wrong 还是不行 ```x``` \n    at f (a.js:1)\n "q" `c` ';
    const input = (n: number) => evidence(unit.repeat(n), { reply: 'Fixed. '.repeat(n) });
    const g = measureGrowth(readerScores, input, doublings(1000));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('reader size', () => {
  it('the heuristic-model entry stays under 150 KB gzipped; rearview/heuristic alone under 8 KB', async () => {
    const entry = new URL('../../lib/heuristic-model/index.ts', import.meta.url).pathname;
    const model = await bundle(`export * from ${JSON.stringify(entry)};`);
    const sizes = await heuristicSizes();
    console.log(
      `reader size: model entry ${model.gzipped} B gzipped; heuristic entry ${sizes.wholeEntry.gzipped} B`,
    );
    expect(model.gzipped).toBeLessThan(150 * 1024);
    expect(sizes.wholeEntry.gzipped).toBeLessThanOrEqual(8 * 1024);
  }, 120_000);
});

describe('strangers loader', () => {
  it.runIf(haveSharedData())(
    'maps every labelled row to a parsed message with the same text',
    () => {
      const { rows, unmapped } = loadStrangers();
      expect(unmapped).toEqual([]);
      expect(rows).toHaveLength(2647);
      // Each row is its own message: a text the file holds more often than it is labelled (an aider
      // prompt sent four times, three labelled) pairs a row with the message of its line.
      expect(new Set(rows.map((r) => `${r.source}#${r.message}`)).size).toBe(rows.length);
      const kangaroo = rows.find((r) => r.source === 'aider/0xRickx+Kangaroo_2.2.5.md' && r.line === 2221);
      expect(kangaroo && parseTranscript(readShared(kangaroo.source)).messages[kangaroo.message]?.id).toBe(
        'm2221',
      );
    },
    300_000,
  );

  it.runIf(haveSharedData())(
    'maps every row of the rest set to its own message, which no other set labels',
    async () => {
      const { restExamples } = await import('../../eval/heuristic/reader-data');
      const { indexOf, loadLabelledSets } = await import('../../eval/heuristic/data');
      const { readRows } = await import('../../eval/heuristic/rows');
      const { rows: rest, unmapped } = locateRows(
        readRows<StrangerLabel>('sets/rest/labels.jsonl'),
        sharedDataDir(),
      );
      expect(unmapped).toEqual([]);
      expect(rest).toHaveLength(118);
      expect(restExamples().examples.every((e) => e.evidence !== undefined)).toBe(true);
      const taken = new Set([
        ...loadStrangers().rows.map((r) => `${r.source}#${r.message}`),
        ...loadLabelledSets().map((r) => `${r.source}#${indexOf(r)}`),
      ]);
      expect(rest.filter((r) => taken.has(`${r.source}#${r.message}`))).toEqual([]);
      expect(new Set(rest.map((r) => `${r.source}#${r.message}`)).size).toBe(rest.length);
    },
    300_000,
  );
});

describe('reader training', () => {
  it.runIf(haveSharedData())(
    'is deterministic: the shipped data is exactly what the training script gives',
    async () => {
      const { encode, loadPool, shippedReader } = await import('../../eval/heuristic/reader-train');
      const { readFileSync } = await import('node:fs');
      const file = new URL('../../lib/heuristic-model/reader-weights.ts', import.meta.url);
      const { pool } = loadPool();
      const text = encode(shippedReader(pool));
      // The file is the script's output after the formatter: compare the data, not the layout.
      const data = (s: string) => (s.match(/'[^']*'|\[[^\]]*\]/g) ?? []).map((x) => x.replace(/\s+/g, ''));
      expect(data(text)).toEqual(data(readFileSync(file, 'utf8')));
    },
    900_000,
  );
});
