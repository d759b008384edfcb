/**
 * Reflexion memory (seed 003, 4.3.3 and the reflexion_memory_test list): store, retrieveSimilar,
 * formatForPrompt, clear, count and maxEntries.
 */
import fc from 'fast-check';
import { memoryStore } from 'rearview/kv';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/core/index';
import {
  formatLessons,
  jaccard,
  keywords,
  normalizePrompt,
  promptHash,
  ReflexionMemory,
} from '../../lib/loop/index';
import { clock, lesson } from './reflexion-helpers';

describe('store', () => {
  it('saves an entry with the seed fields: promptHash, prompt, mistake, correction, timestamp', async () => {
    const memory = new ReflexionMemory({ now: () => 42 });
    const entry = await memory.store({
      prompt: 'Sort users by age',
      mistake: 'sorted descending',
      correction: 'sort ascending',
    });
    expect(entry).toEqual({
      promptHash: await sha256Hex('sort users by age'),
      prompt: 'Sort users by age',
      mistake: 'sorted descending',
      correction: 'sort ascending',
      timestamp: 42,
    });
    expect(memory.entries()).toEqual([entry]);
  });

  it('counts entries', async () => {
    const memory = new ReflexionMemory();
    expect(memory.count()).toBe(0);
    await memory.store(lesson('one task'));
    await memory.store(lesson('another task'));
    expect(memory.count()).toBe(2);
  });

  it('hashes the normalized prompt', async () => {
    expect(normalizePrompt('  Sort   USERS\n')).toBe('sort users');
    expect(await promptHash('Sort users')).toBe(await promptHash('  sort \n USERS '));
    expect(await promptHash('Sort users')).not.toBe(await promptHash('Sort user'));
  });

  it('keeps an explicit timestamp', async () => {
    const memory = new ReflexionMemory({ now: () => 1 });
    expect((await memory.store({ ...lesson('x task'), timestamp: 99 })).timestamp).toBe(99);
  });

  it('rejects invalid input', async () => {
    const memory = new ReflexionMemory();
    await expect(memory.store({ prompt: 'p', mistake: 3 } as never)).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect(memory.count()).toBe(0);
  });

  it('replaces an entry with the same prompt and mistake instead of duplicating it', async () => {
    const memory = new ReflexionMemory({ now: clock() });
    await memory.store({ prompt: 'Count users', mistake: 'No GROUP BY', correction: 'old fix' });
    await memory.store({ prompt: 'count  users', mistake: 'no group by', correction: 'new fix' });
    expect(memory.count()).toBe(1);
    expect(memory.entries()[0]!.correction).toBe('new fix');
  });

  it('stores many entries at once', async () => {
    const memory = new ReflexionMemory();
    const out = await memory.storeMany([lesson('alpha task', 1), lesson('beta task', 2)]);
    expect(out.map((e) => e.mistake)).toEqual(['mistake 1', 'mistake 2']);
    expect(memory.count()).toBe(2);
  });
});

describe('retrieveSimilar', () => {
  it('finds entries with similar prompts', async () => {
    const memory = new ReflexionMemory();
    await memory.store(lesson('Write a SQL query counting users per country', 1));
    const found = await memory.retrieveSimilar('write the SQL query that counts users per country');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ mistake: 'mistake 1', similarity: 1 });
  });

  it('excludes dissimilar entries', async () => {
    const memory = new ReflexionMemory();
    await memory.store(lesson('Write a SQL query counting users per country'));
    await memory.store(lesson('Translate this poem into French'));
    expect(await memory.retrieveSimilar('Bake a chocolate cake')).toEqual([]);
    expect((await memory.retrieveSimilar('translate the poem into french')).map((e) => e.prompt)).toEqual([
      'Translate this poem into French',
    ]);
  });

  it('ranks by similarity, newest first on ties', async () => {
    const memory = new ReflexionMemory({ similarityThreshold: 0.3, now: clock() });
    await memory.store(lesson('parse csv file header', 1));
    await memory.store(lesson('parse csv file header rows quickly', 2));
    await memory.store(lesson('parse csv file header', 3));
    const found = await memory.retrieveSimilar('parse csv file header');
    expect(found.map((e) => [e.mistake, e.similarity])).toEqual([
      ['mistake 3', 1],
      ['mistake 1', 1],
      ['mistake 2', 4 / 6],
    ]);
  });

  it('honours limit and a per-call threshold', async () => {
    const memory = new ReflexionMemory();
    for (let i = 0; i < 8; i++) await memory.store(lesson(`resize image png ${i}`, i));
    expect(await memory.retrieveSimilar('resize image png', { limit: 3 })).toHaveLength(3);
    expect(await memory.retrieveSimilar('resize png')).toHaveLength(0);
    expect(await memory.retrieveSimilar('resize png', { threshold: 0.5, limit: 100 })).toHaveLength(8);
  });

  it('returns nothing for an empty memory or a query without keywords', async () => {
    const memory = new ReflexionMemory();
    expect(await memory.retrieveSimilar('anything at all')).toEqual([]);
    await memory.store(lesson('the task'));
    expect(await memory.retrieveSimilar('the of and')).toEqual([]);
    expect(await memory.retrieveSimilar('')).toEqual([]);
  });

  it('reports Jaccard similarity of the keyword sets', async () => {
    const memory = new ReflexionMemory({ similarityThreshold: 0 });
    await memory.store(lesson('alpha beta gamma delta'));
    const [hit] = await memory.retrieveSimilar('alpha beta epsilon');
    expect(hit!.similarity).toBe(jaccard(keywords('alpha beta gamma delta'), keywords('alpha beta epsilon')));
    expect(hit!.similarity).toBe(2 / 5);
  });

  it('keywords: lowercase, stopwords, plural and possessive s, CJK characters', () => {
    expect(keywords('How do I sort the Users by age?')).toEqual(['sort', 'user', 'age']);
    expect(keywords("the user's tests pass; class status analysis")).toEqual([
      'user',
      'test',
      'pass',
      'class',
      'status',
      'analysis',
    ]);
    expect(keywords('排序 users')).toEqual(['排', '序', 'user']);
    expect(keywords('a b 7 x')).toEqual(['7']);
    expect(keywords('counting counted string need')).toEqual(['count', 'string', 'need']);
    expect(jaccard([], [])).toBe(0);
  });

  it('adds caller-supplied embedding similarity (paraphrases without shared words)', async () => {
    const topics: Record<string, number[]> = { car: [1, 0], automobile: [1, 0], cake: [0, 1] };
    const embed = (text: string) => topics[keywords(text).find((w) => w in topics) ?? ''] ?? [0, 0];
    const memory = new ReflexionMemory({ embedding: { embed, threshold: 0.9 } });
    await memory.store(lesson('fix my car engine'));
    await memory.store(lesson('bake a cake'));
    const found = await memory.retrieveSimilar('repair an automobile');
    expect(found.map((e) => [e.prompt, e.similarity])).toEqual([['fix my car engine', 1]]);
  });

  it('prefix-filtered index retrieval equals a linear scan (property)', async () => {
    const vocab = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta', 'zeta', 'lambda'];
    const prompt = fc
      .array(fc.constantFrom(...vocab), { minLength: 0, maxLength: 6 })
      .map((w) => w.join(' '));
    await fc.assert(
      fc.asyncProperty(
        fc.array(prompt, { maxLength: 25 }),
        prompt,
        fc.constantFrom(0, 0.2, 0.34, 0.5, 0.7, 1),
        async (prompts, query, threshold) => {
          const memory = new ReflexionMemory({ similarityThreshold: threshold });
          await memory.storeMany(prompts.map((p, i) => lesson(p, i)));
          const got = await memory.retrieveSimilar(query, { limit: 1000 });
          const q = keywords(query);
          const expected = memory
            .entries()
            .map((e, i) => ({ i, e, sim: jaccard(q, keywords(e.prompt)) }))
            .filter((x) => x.sim > 0 && x.sim >= threshold)
            .sort((a, b) => b.sim - a.sim || b.i - a.i)
            .map((x) => [x.e.mistake, x.sim]);
          expect(got.map((e) => [e.mistake, e.similarity])).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('formatForPrompt', () => {
  it('formats entries as few-shot lessons for an LLM', async () => {
    const memory = new ReflexionMemory();
    await memory.store({
      prompt: 'Count users per country',
      mistake: 'Forgot GROUP BY',
      correction: 'Added GROUP BY country',
    });
    const text = memory.formatForPrompt(await memory.retrieveSimilar('count users per country'));
    expect(text).toBe(
      'Lessons from earlier attempts at similar tasks:\n\n' +
        '1. Task: Count users per country\n   Mistake: Forgot GROUP BY\n   Correction: Added GROUP BY country',
    );
  });

  it('is empty for no entries', () => {
    expect(new ReflexionMemory().formatForPrompt([])).toBe('');
  });

  it('numbers several lessons, cuts long fields and indents multi-line ones', () => {
    const text = formatLessons(
      [
        { prompt: 'a\nb', mistake: 'x'.repeat(50), correction: 'line 1\nline 2' },
        { prompt: 'c', mistake: 'm', correction: 'c' },
      ],
      { maxChars: 20 },
    );
    expect(text).toContain(
      `1. Task: a b\n   Mistake: ${'x'.repeat(19)}…\n   Correction: line 1\n               line 2`,
    );
    expect(text).toContain('\n\n2. Task: c');
  });
});

describe('clear', () => {
  it('empties the memory', async () => {
    const memory = new ReflexionMemory();
    await memory.store(lesson('some task'));
    await memory.clear();
    expect(memory.count()).toBe(0);
    expect(await memory.retrieveSimilar('some task')).toEqual([]);
  });

  it('removes the namespace from the store and leaves other namespaces alone', async () => {
    const store = memoryStore();
    const a = await ReflexionMemory.open({ store, namespace: 'a' });
    const b = await ReflexionMemory.open({ store, namespace: 'b' });
    await a.store(lesson('task one'));
    await b.store(lesson('task two'));
    await a.clear();
    expect(await store.keys('reflexion:a:')).toEqual([]);
    expect((await ReflexionMemory.open({ store, namespace: 'b' })).count()).toBe(1);
  });
});

describe('maxEntries', () => {
  it('is enforced: the oldest entries are evicted', async () => {
    const memory = new ReflexionMemory({ maxEntries: 3 });
    for (let i = 0; i < 5; i++) await memory.store(lesson(`task number ${i}`, i));
    expect(memory.count()).toBe(3);
    expect(memory.entries().map((e) => e.mistake)).toEqual(['mistake 2', 'mistake 3', 'mistake 4']);
  });

  it('evicted entries are no longer retrievable', async () => {
    const memory = new ReflexionMemory({ maxEntries: 2 });
    await memory.store(lesson('unique zebra question', 0));
    await memory.store(lesson('other topic', 1));
    await memory.store(lesson('third topic', 2));
    expect(await memory.retrieveSimilar('unique zebra question')).toEqual([]);
  });

  it('evicted entries are deleted from the store', async () => {
    const store = memoryStore();
    const memory = await ReflexionMemory.open({ store, maxEntries: 2 });
    await memory.storeMany([lesson('t one', 1), lesson('t two', 2), lesson('t three', 3)]);
    expect(await store.keys('reflexion:default:entry:')).toHaveLength(2);
  });

  it('rejects invalid options', () => {
    expect(() => new ReflexionMemory({ maxEntries: 0 })).toThrow(
      expect.objectContaining({ code: 'config_invalid' }),
    );
    expect(() => new ReflexionMemory({ similarityThreshold: 1.5, namespace: 'a:b' })).toThrow(
      /similarityThreshold.*namespace/,
    );
  });
});
