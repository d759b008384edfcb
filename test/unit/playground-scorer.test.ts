/**
 * The playground's learned correction scorer switch: it round-trips through the URL, the
 * analysis with it on gives the library's `lessons(…, { scorer: correctionModel })`, a correction only
 * the model finds shows with its score, and the worker path (worker.ts, driven here through its
 * message handler) imports the scorer itself and sends the same insights.
 */
import { readFileSync } from 'node:fs';
import { correctionModel } from 'rearview/heuristic-model';
import { lessons } from 'rearview/session';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  computeView,
  DEFAULT_SETTINGS,
  lessonsInputOf,
  loadScorer,
  type Parsed,
  parseInput,
  type Settings,
} from '../../playground/src/analyze';
import { putLists } from '../../playground/src/lists';
import { readUrlState, writeUrlState } from '../../playground/src/url-state';
import type { FromWorker, ToWorker } from '../../playground/src/worker-protocol';

const plain = readFileSync(new URL('../../public/samples/plain-chat.txt', import.meta.url), 'utf8');
/** The plain sample's repeated instruction: no insight for the markers, a correction for the model. */
const MODEL_ONLY = 'User correction: As I mentioned, run the migrations';
const learned: Settings = { ...DEFAULT_SETTINGS, learnedScorer: true };

function parsed(text: string): Parsed {
  const r = parseInput(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('learned scorer in the URL', () => {
  it('is off by default and leaves a default URL clean', () => {
    expect(DEFAULT_SETTINGS.learnedScorer).toBe(false);
    expect(readUrlState('').settings.learnedScorer).toBe(false);
    expect(writeUrlState({ sample: null, settings: DEFAULT_SETTINGS })).toBe('');
  });

  it('round-trips with the sample and the thresholds', () => {
    const search = writeUrlState({ sample: 'plain', settings: { ...learned, theta: 200 } });
    expect(search).toBe('?sample=plain&theta=200&scorer=learned');
    const back = readUrlState(search);
    expect(back.sample).toBe('plain');
    expect(back.settings).toEqual({ ...learned, theta: 200 });
    expect(writeUrlState(back)).toBe(search);
    // Switched off again: the key goes away.
    expect(writeUrlState({ sample: 'plain', settings: { ...back.settings, learnedScorer: false } })).toBe(
      '?sample=plain&theta=200',
    );
  });

  it('reads only `scorer=learned` as on', () => {
    for (const q of ['?scorer=', '?scorer=markers', '?scorer=LEARNED', '?learned=1'])
      expect(readUrlState(q).settings.learnedScorer, q).toBe(false);
  });
});

describe('analysis with the learned scorer', () => {
  it('loads the model once and gives correctionModel', async () => {
    const a = loadScorer();
    expect(loadScorer()).toBe(a);
    expect(await a).toBe(correctionModel);
  });

  it("gives the library's lessons with the scorer, and marks the view", async () => {
    const scorer = await loadScorer();
    const p = parsed(plain);
    const on = computeView(p, learned, plain, scorer);
    expect(on.learned).toBe(true);
    expect(on.insights).toEqual(lessons(lessonsInputOf(p), { scorer: correctionModel }).insights);
    const off = computeView(p, DEFAULT_SETTINGS, plain, scorer);
    expect(off.learned).toBeUndefined();
    expect(off.insights).toEqual(lessons(lessonsInputOf(p)).insights);
    // The switch without a loaded scorer (still loading) is the markers' result.
    expect(computeView(p, learned, plain).insights).toEqual(off.insights);
  });

  it('finds a correction the markers miss, with its score', async () => {
    const scorer = await loadScorer();
    const p = parsed(plain);
    const off = computeView(p, DEFAULT_SETTINGS, plain).insights;
    const on = computeView(p, learned, plain, scorer).insights;
    expect(off.some((i) => i.fact.startsWith(MODEL_ONLY))).toBe(false);
    const found = on.find((i) => i.fact.startsWith(MODEL_ONLY));
    expect(found?.category).toBe('correction');
    expect(found?.score).toBeGreaterThanOrEqual(0.75);
    expect(found?.confidence).toBe('high');
  });
});

describe('the worker path with the learned scorer', () => {
  const sent: FromWorker[] = [];
  vi.stubGlobal('self', { postMessage: (m: FromWorker) => sent.push(m) });
  afterAll(() => vi.unstubAllGlobals());

  /** Sends messages to worker.ts and waits until it answers the last one with `type`. */
  async function ask(msgs: ToWorker[], type: FromWorker['type']): Promise<FromWorker[]> {
    await import('../../playground/src/worker');
    const handler = (self as unknown as { onmessage: (e: { data: ToWorker }) => void }).onmessage;
    sent.length = 0;
    for (const data of msgs) handler({ data });
    await vi.waitFor(() => expect(sent.some((m) => m.type === type)).toBe(true));
    return whole(sent);
  }
  /** The answers as the page sees them (worker-client.ts): long lists, sent in pieces, put back. */
  function whole(out: FromWorker[]): FromWorker[] {
    const byPath = new Map<string, unknown[]>();
    const answers: FromWorker[] = [];
    for (const m of out) {
      if (m.type === 'items') byPath.set(m.path, [...(byPath.get(m.path) ?? []), ...m.items]);
      else {
        if (m.type === 'view' || m.type === 'update') putLists(m.type === 'view' ? m.view : m, byPath);
        answers.push(m);
      }
    }
    return answers;
  }
  const insightsOfAnswer = (out: FromWorker[]) => {
    const m = out.find((o) => o.type === 'view' || o.type === 'update')!;
    return m.type === 'view'
      ? { insights: m.view.insights, learned: m.view.learned }
      : m.type === 'update'
        ? { insights: m.insights, learned: m.learned }
        : null;
  };

  it('analyses with the scorer when the switch is on, in message order', async () => {
    const p = parsed(plain);
    const out = await ask(
      [
        { type: 'text', id: 1, text: plain },
        { type: 'analyze', id: 1, settings: learned },
      ],
      'view',
    );
    expect(out.map((m) => m.type).slice(0, 3)).toEqual(['progress', 'meta', 'progress']);
    expect(insightsOfAnswer(out)).toEqual({
      insights: lessons(lessonsInputOf(p), { scorer: correctionModel }).insights,
      learned: true,
    });
  });

  it('recomputes only the insights when the switch changes', async () => {
    const p = parsed(plain);
    const off = await ask([{ type: 'settings', id: 1, settings: DEFAULT_SETTINGS }], 'update');
    expect(off).toHaveLength(1);
    expect(off[0]).toEqual({
      type: 'update',
      id: 1,
      insights: lessons(lessonsInputOf(p)).insights,
      // The key points come with the insights, from the same lessons() run.
      keyPoints: lessons(lessonsInputOf(p)).proposed,
      learned: false,
    });
    const on = await ask([{ type: 'settings', id: 2, settings: learned }], 'update');
    const scored = insightsOfAnswer(on);
    expect(scored?.learned).toBe(true);
    expect(scored?.insights?.some((i) => i.fact.startsWith(MODEL_ONLY))).toBe(true);
    expect(on[0]).not.toHaveProperty('snapshot');
  });
});
