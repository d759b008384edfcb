/**
 * `loadRearview`: createRearview with the learned reader at its lower thresholds, imported on first
 * use. It reads what `createRearview({ scorer: readerModel, minScore: READER_RECALL_MIN_SCORE })`
 * reads (a correction the markers miss included); a scorer or threshold of the caller's wins; bad
 * options reject with createRearview's error; a failed import falls back to the markers and says so.
 */
import { readFileSync } from 'node:fs';
import { correctionModel, READER_RECALL_MIN_SCORE, readerModel } from 'rearview/heuristic-model';
import { memoryStore } from 'rearview/kv';
import { createRearview, loadRearview, type SessionError } from 'rearview/session';
import { parseTranscript } from 'rearview/transcript';
import { afterEach, describe, expect, it, vi } from 'vitest';

const plain = parseTranscript(
  readFileSync(new URL('../../public/samples/plain-chat.txt', import.meta.url), 'utf8'),
).messages;
/** The plain sample's repeated instruction: the reader reads it as a correction, the markers do not. */
const READER_ONLY = 'As I mentioned, run the migrations';
const store = () => memoryStore();
const facts = (rv: { observe: (m: typeof plain) => { insights: { category: string; fact: string }[] } }) =>
  rv.observe(plain).insights.map((i) => `${i.category}: ${i.fact}`);
const readerOnly = (f: string) => f.startsWith('correction:') && f.includes(READER_ONLY);

describe('loadRearview', () => {
  afterEach(() => {
    vi.doUnmock('../../lib/heuristic-model/index.js');
    vi.resetModules();
  });

  it('reads people’s turns with the reader at its lower thresholds', async () => {
    const loaded = facts(await loadRearview({ store: store() }));
    const byHand = facts(
      createRearview({ store: store(), scorer: readerModel, minScore: READER_RECALL_MIN_SCORE }),
    );
    expect(loaded).toEqual(byHand);
    expect(loaded.some(readerOnly)).toBe(true);
    // The markers alone read it as friction, not as a correction: the default made a difference here.
    expect(facts(createRearview({ store: store() })).some(readerOnly)).toBe(false);
  });

  it('uses a scorer or a threshold the caller gives', async () => {
    expect(facts(await loadRearview({ store: store(), scorer: correctionModel }))).toEqual(
      facts(createRearview({ store: store(), scorer: correctionModel })),
    );
    const strict = { correction: 0.99, preference: 0.99, approval: 0.99, friction: 0.99 };
    const few = facts(await loadRearview({ store: store(), minScore: strict }));
    expect(few).toEqual(facts(createRearview({ store: store(), scorer: readerModel, minScore: strict })));
    expect(few.length).toBeLessThan(facts(await loadRearview({ store: store() })).length);
  });

  it('rejects options without a store with createRearview’s TypeError, before any import', async () => {
    await expect(loadRearview(undefined as never)).rejects.toThrow(TypeError);
    await expect(loadRearview({} as never)).rejects.toThrow(/options\.store is required/);
    // The reader's module is never evaluated for them (a counting stand-in, in a fresh module graph).
    vi.resetModules();
    let imported = 0;
    vi.doMock('../../lib/heuristic-model/index.js', () => {
      imported++;
      return { readerModel, READER_RECALL_MIN_SCORE };
    });
    const { loadRearview: load } = await import('../../lib/session/load.js');
    await expect(load({} as never)).rejects.toThrow(TypeError);
    expect(imported).toBe(0);
    await load({ store: store() });
    expect(imported).toBe(1);
  });

  it('falls back to the markers when the reader cannot be imported, and tells onError', async () => {
    vi.resetModules();
    // A lost chunk: the import itself rejects.
    vi.doMock('../../lib/heuristic-model/index.js', () => {
      throw new Error('chunk lost: reader-model.js 404');
    });
    const { loadRearview: load } = await import('../../lib/session/load.js');
    const { createRearview: create } = await import('../../lib/session/session.js');
    const seen: SessionError[] = [];
    const rv = await load({ store: store(), onError: (e) => seen.push(e) });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ stage: 'scorer' });
    expect(seen[0]!.message.length).toBeGreaterThan(0);
    expect(facts(rv)).toEqual(facts(create({ store: store() })));
    // A listener that throws costs nothing.
    const again = await load({
      store: store(),
      onError: () => {
        throw new Error('listener');
      },
    });
    expect(facts(again)).toEqual(facts(create({ store: store() })));
  });
});
