/**
 * `learn` with a learned scorer for people's turns (`scorer`, `minScore`): the scorer decides which
 * turns become rules, it only ever sees redacted text, one that throws leaves the markers' answer, and
 * bad options are refused before any source is read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/core/index';
import {
  DEFAULT_MARKERS,
  heuristicReflect,
  loadLanguageMarkers,
  type TurnEvidence,
  type TurnScorer,
} from '../../lib/heuristic/index';
import { correctionModel, READER_MIN_SCORE, readerModel } from '../../lib/heuristic-model/index';
import { type LearnOptions, type LearnSource, learn } from '../../lib/learn/index';
import { CHINESE_SESSION } from '../fixtures/chinese-session';
import { replySession } from './learn-session';

const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz01234567-AbCdEf';

const sessions = (turn: string): LearnSource[] =>
  ['2025-01-01', '2025-02-01', '2025-03-01'].map((d, i) => ({
    name: `${i}.jsonl`,
    text: replySession(d, turn),
  }));

const PNPM = 'No, use pnpm instead of npm.';
const texts = (r: Awaited<ReturnType<typeof learn>>) => r.rules.map((x) => x.text);

describe('learn with a learned scorer', () => {
  it('proposes what the scorer keeps, and nothing the scorer drops', async () => {
    expect(texts(await learn(sessions(PNPM)))).toEqual(['Use pnpm instead of npm.']);
    const silent: TurnScorer = (_e, s) => ({ ...s, correction: 0, preference: 0 });
    expect(texts(await learn(sessions(PNPM), { scorer: silent }))).toEqual([]);
    // A per-category threshold above 1 reports nothing of that category.
    expect(texts(await learn(sessions(PNPM), { minScore: { correction: 1.01 } }))).toEqual([]);
  });

  it('lets the scorer find what the markers miss', async () => {
    // No marker reads this as a correction or a preference; a scorer that does makes it a rule.
    const turn = 'Use pnpm instead of npm in this repository.';
    expect(texts(await learn(sessions(turn)))).toEqual([]);
    const sure: TurnScorer = (e, s) => (e.text.includes('pnpm') ? { ...s, correction: 0.95 } : s);
    expect(texts(await learn(sessions(turn), { scorer: sure }))).toEqual([turn]);
  });

  it('gives the scorer redacted turns only', async () => {
    const seen: TurnEvidence[] = [];
    const spy: TurnScorer = (e, s) => {
      seen.push(e);
      return s;
    };
    await learn(sessions(`${PNPM} My key is ${KEY}.`), { scorer: spy });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (const e of seen) expect(JSON.stringify(e)).not.toContain(KEY.slice(0, 24));
  });

  it("keeps the markers' answer when the scorer throws", async () => {
    const broken: TurnScorer = () => {
      throw new Error('model failed');
    };
    expect(texts(await learn(sessions(PNPM), { scorer: broken }))).toEqual(
      texts(await learn(sessions(PNPM))),
    );
  });

  it('proposes a rule exactly where the shipped scorers find a correction', async () => {
    const messages = (turn: string) => [
      { role: 'user', content: 'Install the dependencies.' },
      { role: 'assistant', content: 'Running npm install now.' },
      { role: 'user', content: turn },
    ];
    const turns = [
      PNPM,
      "No, that's wrong. Always install with pnpm in this repository.",
      'Always install with pnpm in this repository.',
    ];
    const found: boolean[] = [];
    for (const options of [
      { scorer: readerModel, minScore: READER_MIN_SCORE },
      { scorer: correctionModel },
    ] as const) {
      for (const turn of turns) {
        const flagged = heuristicReflect(messages(turn), options).some(
          (i) => i.traceRefs[0] === 'message:m2',
        );
        const r = await learn(sessions(turn), options);
        expect(r.skipped).toEqual([]);
        expect(r.rules.length > 0, turn).toBe(flagged);
        found.push(flagged);
      }
    }
    // Both answers occur, so the check above is not one-sided.
    expect(new Set(found)).toEqual(new Set([true, false]));
  });

  it('never rejects whatever a scorer returns or throws, and keeps the markers where its answer is no scores', async () => {
    const sources = sessions(PNPM);
    const markers = texts(await learn(sources));
    const scores = fc.record({
      correction: fc.double({ min: 0, max: 1, noNaN: true }),
      preference: fc.double({ min: 0, max: 1, noNaN: true }),
      approval: fc.double({ min: 0, max: 1, noNaN: true }),
      friction: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.anything(), scores, fc.constant('throw')),
        fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 2, noNaN: true })),
        async (answer, minScore) => {
          const scorer: TurnScorer = () => {
            if (answer === 'throw') throw new Error('model failed');
            return answer as never;
          };
          const r = await learn(sources, { scorer, ...(minScore === undefined ? {} : { minScore }) });
          expect(r.skipped).toEqual([]);
          for (const rule of r.rules) {
            expect(typeof rule.text).toBe('string');
            expect(rule.sessions).toBeGreaterThanOrEqual(1);
          }
          // Not scores (four numbers in [0, 1] by category): the markers' answer stands.
          const KINDS = ['correction', 'preference', 'approval', 'friction'] as const;
          const valid =
            typeof answer === 'object' &&
            answer !== null &&
            KINDS.every((k) => {
              const v = (answer as Record<string, unknown>)[k];
              return typeof v === 'number' && v >= 0 && v <= 1;
            });
          if (!valid && minScore === undefined) expect(texts(r)).toEqual(markers);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('tells which sessions read as one of the eight languages the default markers miss, whatever the markers', async () => {
    const chinese = { name: 'zh.json', text: JSON.stringify(CHINESE_SESSION) };
    const expected = { sessions: 1, of: 4, turns: 3, languages: { zh: 3 }, names: 'Chinese' };
    expect((await learn([...sessions(PNPM), chinese])).otherLanguages).toEqual(expected);
    const markers = await loadLanguageMarkers();
    const r = await learn([chinese, ...sessions(PNPM)], { markers, minSessions: 1 });
    expect(r.otherLanguages).toEqual(expected);
    // The language markers read the Chinese correction, but key points are written from English
    // sentences only: the Chinese session gives no rule.
    expect(r.rules.map((x) => x.text)).toEqual(['Use pnpm instead of npm.']);
    expect((await learn(sessions(PNPM))).otherLanguages).toBeUndefined();
  });

  it("reads people's turns with the markers it is given, as heuristicReflect does", async () => {
    // Portuguese for "That's wrong.": only the language markers read the turn as a correction.
    const turn = 'Está errado. Use pnpm instead of npm.';
    expect(texts(await learn(sessions(turn)))).toEqual([]);
    const languages = await loadLanguageMarkers();
    expect(texts(await learn(sessions(turn), { markers: languages }))).toEqual(['Use pnpm instead of npm.']);
    // A MarkerSet (not compiled) works the same; the scorer then reads the markers' scores.
    const own = { ...DEFAULT_MARKERS, correction: [...DEFAULT_MARKERS.correction, 'está errado'] };
    expect(texts(await learn(sessions(turn), { markers: own }))).toEqual(['Use pnpm instead of npm.']);
    const silent: TurnScorer = (_e, s) => ({ ...s, correction: 0, preference: 0 });
    expect(texts(await learn(sessions(turn), { markers: languages, scorer: silent }))).toEqual([]);
  });

  it('refuses a scorer, threshold or markers of the wrong kind before reading any source', async () => {
    let read = 0;
    function* counted() {
      for (const s of sessions(PNPM)) {
        read++;
        yield s;
      }
    }
    for (const [options, path] of [
      [{ scorer: 'reader' }, 'scorer'],
      [{ minScore: -0.1 }, 'minScore'],
      [{ minScore: Number.NaN }, 'minScore'],
      [{ minScore: { correction: '0.8' } }, 'minScore'],
      [{ minScore: null }, 'minScore'],
      [{ minScore: [0.5] }, 'minScore'],
      [{ markers: 'es' }, 'markers'],
      [{ markers: { correction: ['no'] } }, 'markers'],
      [{ markers: { ...DEFAULT_MARKERS, friction: 'again' } }, 'markers'],
      [{ markers: [] }, 'markers'],
    ] as const) {
      const err = await learn(counted(), options as unknown as LearnOptions).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).code).toBe('learn_invalid_option');
      expect(JSON.stringify((err as ValidationError).issues)).toContain(path);
    }
    expect(read).toBe(0);
  });
});
