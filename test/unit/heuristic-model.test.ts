/**
 * `rearview/heuristic-model`: the learned correction scorer. Its shipped data is what the training
 * script gives on the labelled sets (reproducible, not edited by hand), its table keeps the threshold
 * where the evaluation put it, it never throws on any evidence, and `heuristicReflect` keeps the marker
 * scores when a scorer misbehaves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haveSharedData, loadLabelledSets } from '../../eval/heuristic/data';
import { evidenceOf, LIMIT, logit, scoreTable, shippedModel } from '../../eval/heuristic/learned';
import { DEFAULT_MIN_SCORE, heuristicReflect, type TurnEvidence } from '../../lib/heuristic/index';
import { correctionModel, correctionScore, turnFeatures } from '../../lib/heuristic-model/index';
import { TABLE, WEIGHTS } from '../../lib/heuristic-model/weights';
import { evidence } from '../heuristic/evidence';
import { joinsFormASecret } from '../session-joins';

/** The shipped threshold logit, derived from the table: the first logit whose score reaches the default. */
const THRESHOLD = TABLE.findIndex((x) => x >= DEFAULT_MIN_SCORE) - LIMIT;

describe('heuristic-model data', () => {
  it.runIf(haveSharedData())(
    'is exactly what the training script gives on the labelled sets',
    () => {
      const model = shippedModel(loadLabelledSets());
      const names = [...model.weights].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      expect(WEIGHTS).toBe(names.map(([f, w]) => `${f}=${w}`).join(' '));
      expect(TABLE).toEqual(model.table);
      expect(THRESHOLD).toBe(model.threshold);
      expect(model.weights.size).toBeGreaterThan(100);
    },
    60_000,
  );

  it('places the threshold logit on DEFAULT_MIN_SCORE, monotone on both sides', () => {
    const t = 7;
    const table = scoreTable(t);
    expect(table).toHaveLength(2 * LIMIT + 1);
    for (let z = -LIMIT; z <= LIMIT; z++) {
      const s = table[z + LIMIT]!;
      expect(s >= DEFAULT_MIN_SCORE, `logit ${z}`).toBe(z >= t);
      if (z > -LIMIT) expect(s).toBeGreaterThanOrEqual(table[z + LIMIT - 1]!);
    }
    // The shipped table too: monotone, and crossing the default threshold exactly at its threshold logit.
    for (let i = 1; i < TABLE.length; i++) expect(TABLE[i]!).toBeGreaterThanOrEqual(TABLE[i - 1]!);
    expect(TABLE).toEqual(scoreTable(THRESHOLD));
    expect(THRESHOLD).toBeGreaterThan(-LIMIT);
  });

  it('scores a turn as the sum of its feature weights through the table', () => {
    const weights = new Map(
      WEIGHTS.split(' ').map((p) => [
        p.slice(0, p.lastIndexOf('=')),
        Number(p.slice(p.lastIndexOf('=') + 1)),
      ]),
    );
    for (const text of ['No, that is still wrong.', 'Add a dark mode toggle', '/undo']) {
      const e = evidence(text, { undo: text === '/undo' });
      const z = Math.max(-LIMIT, Math.min(LIMIT, logit(weights, turnFeatures(e))));
      expect(correctionScore(e)).toBe(TABLE[z + LIMIT]);
    }
    // Every labelled turn: the pairs' weights looked up by member give the sum over the named pairs.
    if (haveSharedData())
      for (const r of loadLabelledSets()) {
        const e = evidenceOf(r);
        if (!e) continue;
        const z = Math.max(-LIMIT, Math.min(LIMIT, logit(weights, turnFeatures(e))));
        expect(correctionScore(e), `#${r.n}`).toBe(TABLE[z + LIMIT]);
      }
  }, 60_000);
});

describe('correctionScore', () => {
  it('equals the table at the clamped sum over turnFeatures on any turn (property)', () => {
    const weights = new Map(
      WEIGHTS.split(' ').map((p) => [
        p.slice(0, p.lastIndexOf('=')),
        Number(p.slice(p.lastIndexOf('=') + 1)),
      ]),
    );
    // Words of the closed list, repeated (features count once), out-of-list words, pasted lines, marks.
    const piece = fc.constantFrom(
      'no',
      'not',
      'still',
      'wrong',
      'again',
      'please',
      'the',
      'it',
      'is',
      'works',
      'a',
      'better',
      'parser',
      'PostgreSQL',
      '?',
      '!',
      '.',
      ',',
      '\n    at f (x.js:1)\n',
      '\n```\ncode\n```\n',
      '`x`',
      '"q"',
      'NOPE',
      ' ',
      'está',
      'не',
    );
    const text = fc.array(piece, { maxLength: 40 }).map((ps) => ps.join(' '));
    const signals = fc.record({
      correction: fc.boolean(),
      challenge: fc.boolean(),
      preference: fc.boolean(),
      approval: fc.boolean(),
      friction: fc.boolean(),
    });
    fc.assert(
      fc.property(
        text,
        signals,
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.constantFrom('Done.', 'Shall I go on?', ''), { nil: undefined }),
        (t, s, first, repeat, reply) => {
          const e = { ...evidence(t, { first, repeat, reply }), signals: s };
          const z = Math.max(-LIMIT, Math.min(LIMIT, logit(weights, turnFeatures(e))));
          expect(correctionScore(e)).toBe(TABLE[z + LIMIT]);
        },
      ),
    );
  });
});

describe('turnFeatures', () => {
  it('reads only closed-vocabulary words: a project topic word is never a feature', () => {
    const f = turnFeatures(evidence('No, the PostgreSQL migration is still wrong'));
    expect(f).toContain('w:no');
    expect(f).toContain('w:still');
    expect(f).toContain('w:wrong');
    expect(f).toContain('b:still_wrong');
    expect(f.some((x) => x.includes('postgresql') || x.includes('migration'))).toBe(false);
  });

  it('keeps pasted output out of the words but notes its error shape', () => {
    const f = turnFeatures(
      evidence('why?\n    Traceback (most recent call last):\n    ValueError: no wrong again'),
    );
    expect(f).toContain('paste:error');
    expect(f).toContain('w:why');
    expect(f).not.toContain('w:wrong');
  });

  it('reads context: first turn, a reply that asked a question, markers, /undo', () => {
    expect(turnFeatures(evidence('no', { first: true, reply: undefined }))).toEqual(
      expect.arrayContaining(['ctx:first', 'ctx:noreply']),
    );
    expect(turnFeatures(evidence('no', { reply: 'Shall I go on?' }))).toContain('ctx:asked');
    expect(turnFeatures(evidence('/undo', { undo: true, interrupted: true }))).toEqual(
      expect.arrayContaining(['c:undo', 'c:interrupted']),
    );
  });

  it('reads only the first 600 characters, as the labelled turns it was trained on', () => {
    const head = `No, still wrong. ${'x'.repeat(583)}`;
    expect(head).toHaveLength(600);
    const long = `${head} why again?? ${'    Traceback: Error\n'.repeat(5000)}`;
    expect(turnFeatures(evidence(long))).toEqual(turnFeatures(evidence(head)));
  });

  it('review: prose starting with "at" or "#" stays prose; an indented stack frame is pasted', () => {
    expect(turnFeatures(evidence('at this point it is still wrong, why?'))).toContain('w:still');
    expect(turnFeatures(evidence('# still broken'))).toContain('w:still');
    const f = turnFeatures(evidence('still failing:\n    at run (app.js:3:9)\n  at main (app.js:9:1)'));
    expect(f).toContain('paste:short');
  });

  it('review: evidence without signals does not throw', () => {
    const bare = { text: 'No, still wrong.', first: false } as unknown as TurnEvidence;
    expect(() => turnFeatures(bare)).not.toThrow();
  });

  it('reads non-English words of the closed list', () => {
    expect(turnFeatures(evidence('Нет, снова ошибка'))).toEqual(
      expect.arrayContaining(['w:нет', 'w:снова', 'w:ошибка']),
    );
    expect(turnFeatures(evidence('Não, ainda não funciona'))).toEqual(
      expect.arrayContaining(['w:ainda', 'w:funciona']),
    );
  });
});

describe('correctionModel with heuristicReflect', () => {
  it('never throws and stays in [0, 1] on any evidence (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
        (text, first, undo, reply) => {
          const s = correctionScore(evidence(text, { first, undo, reply }));
          return s >= 0 && s <= 1;
        },
      ),
    );
  });

  it('scores every user turn (not only those with a marker) and keeps the other categories', () => {
    const messages = [
      { role: 'user', content: 'Add a retry to the upload client' },
      { role: 'assistant', content: 'Done: the upload client now retries.' },
      { role: 'user', content: 'Perfect, thanks!' },
    ];
    const all = heuristicReflect(messages, { scorer: correctionModel, minScore: 0 });
    const plain = heuristicReflect(messages, { minScore: 0 });
    // The first turn has no marker: only the scorer gives it a (low) correction score.
    expect(all.some((i) => i.traceRefs[0] === 'message:m0' && i.category === 'correction')).toBe(true);
    expect(plain.some((i) => i.traceRefs[0] === 'message:m0')).toBe(false);
    expect(all.find((i) => i.category === 'approval')).toEqual(plain.find((i) => i.category === 'approval'));
    const first = all.find((i) => i.traceRefs[0] === 'message:m0')!;
    expect(first.score).toBeLessThan(DEFAULT_MIN_SCORE);
  });

  it("keeps the markers' score for aider's bare /undo (a correction by definition, rare in training)", () => {
    const messages = [
      { role: 'user', content: 'Add retries to the upload client' },
      { role: 'assistant', content: 'Added retries.' },
      { role: 'user', content: '/undo' },
    ];
    const plain = heuristicReflect(messages).find((i) => i.traceRefs[0] === 'message:m2');
    const learned = heuristicReflect(messages, { scorer: correctionModel }).find(
      (i) => i.traceRefs[0] === 'message:m2',
    );
    expect(plain?.category).toBe('correction');
    expect(learned?.score).toBe(Math.max(plain!.score!, correctionScore(evidence('/undo', { undo: true }))));
    // Without the undo flag the same text is the model's alone.
    const s = { correction: 0.94, preference: 0, approval: 0, friction: 0 };
    expect(correctionModel(evidence('/undo'), s).correction).toBe(correctionScore(evidence('/undo')));
  });

  it('review: a scorer that writes to the scores it gets works on every turn (they are a copy)', () => {
    const messages = [
      { role: 'user', content: 'Add retries to the upload client' },
      { role: 'assistant', content: 'Added.' },
      { role: 'user', content: 'No, not like that.' },
    ];
    const writing = (_turn: TurnEvidence, s: { correction: number }) => {
      s.correction = 0.9;
      return s as never;
    };
    const found = heuristicReflect(messages, { scorer: writing });
    expect(found.filter((i) => i.category === 'correction').map((i) => [i.traceRefs[0], i.score])).toEqual([
      ['message:m0', 0.9],
      ['message:m2', 0.9],
    ]);
  });

  it('keeps the marker scores when a scorer throws or returns something that is not scores', () => {
    const messages = [
      { role: 'assistant', content: 'I used GraphQL.' },
      { role: 'user', content: 'No, not GraphQL. Use REST.' },
    ];
    const plain = heuristicReflect(messages, { minScore: 0 });
    expect(plain.length).toBeGreaterThan(0);
    const bad = [
      () => {
        throw new Error('boom');
      },
      () => null,
      () => ({ correction: 2, preference: 0, approval: 0, friction: 0 }),
      () => ({ correction: Number.NaN, preference: 0, approval: 0, friction: 0 }),
    ];
    for (const scorer of bad)
      expect(heuristicReflect(messages, { minScore: 0, scorer: scorer as never })).toEqual(plain);
  });
});

describe('correctionModel in a session', () => {
  it('observe, fed in chunks, agrees with heuristicReflect on the whole history (property)', async () => {
    const { createRearview } = await import('rearview/session');
    const { memoryStore } = await import('rearview/kv');
    const TURNS = ['No, that is wrong.', 'Perfect, thanks!', 'still failing??', '/undo', 'Add a test', 'ok?'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            role: fc.constantFrom('user', 'assistant', 'tool'),
            content: fc.oneof(fc.constantFrom(...TURNS), fc.string({ maxLength: 60 })),
          }),
          { maxLength: 30 },
        ),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 10 }),
        (all, chunks) => {
          // A secret that only exists across two messages is redacted from its second half on: its own tests.
          fc.pre(!joinsFormASecret(all));
          const rv = createRearview({
            store: memoryStore(),
            storeOptions: { broadcast: false, onWarning: () => {} },
            scorer: correctionModel,
            minScore: 0,
          });
          const got = [];
          let n = 0;
          let c = 0;
          while (n < all.length) {
            n = Math.min(all.length, n + chunks[c++ % chunks.length]!);
            got.push(...rv.observe(all.slice(0, n)).insights);
          }
          expect(got).toEqual(heuristicReflect(all, { scorer: correctionModel, minScore: 0 }));
        },
      ),
      { numRuns: 100 },
    );
  });
});
