/**
 * Reflexion memory (seed 003, 4.3.3 and the reflexion_memory_test list): store, retrieveSimilar,
 * formatForPrompt, clear, count, maxEntries, persistence through a KeyValueStore (memory and
 * IndexedDB), validation of what is loaded, and cross-episode learning through the loop — scripted
 * and LLM-backed through the real SDK against the local Messages API server.
 */
import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import type { KeyValueStore } from 'rearview/kv';
import { idbStore, memoryStore } from 'rearview/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/core/index';
import { anthropicClient } from '../../lib/llm/index';
import {
  type Candidate,
  formatLessons,
  jaccard,
  keywords,
  llmCritiquer,
  llmGenerator,
  llmReviser,
  normalizePrompt,
  promptHash,
  ReflexionMemory,
  runReflectionLoop,
} from '../../lib/loop/index';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';

function clock(start = 1_700_000_000_000) {
  let t = start;
  return () => t++;
}

const lesson = (prompt: string, n = 0) => ({
  prompt,
  mistake: `mistake ${n}`,
  correction: `correction ${n}`,
});

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

describe('persistence through a KeyValueStore', () => {
  it('a new memory over the same store sees earlier entries (open rebuilds the index)', async () => {
    const store = memoryStore();
    const first = await ReflexionMemory.open({ store, now: clock() });
    await first.store({
      prompt: 'Deploy the worker to production',
      mistake: 'Skipped tests',
      correction: 'Run npm test first',
    });
    const second = await ReflexionMemory.open({ store });
    expect(second.count()).toBe(1);
    expect(second.lastLoad).toEqual({ loaded: 1, skipped: [], evicted: 0 });
    expect((await second.retrieveSimilar('deploy the worker to production'))[0]!.correction).toBe(
      'Run npm test first',
    );
  });

  it('keeps namespaces apart', async () => {
    const store = memoryStore();
    await (await ReflexionMemory.open({ store, namespace: 'sql' })).store(lesson('count rows'));
    expect((await ReflexionMemory.open({ store, namespace: 'css' })).count()).toBe(0);
  });

  it('skips and reports invalid stored documents instead of crashing', async () => {
    const store = memoryStore();
    const memory = await ReflexionMemory.open({ store });
    await memory.store(lesson('good entry here'));
    await store.set('reflexion:default:entry:000000000099:bad', {
      v: 1,
      seq: 99,
      promptHash: 'nope',
      prompt: 'x',
    });
    await store.set('reflexion:default:entry:000000000100:junk', 'not an object');
    const reopened = await ReflexionMemory.open({ store });
    expect(reopened.count()).toBe(1);
    expect(reopened.lastLoad!.skipped.map((s) => s.key)).toEqual([
      'reflexion:default:entry:000000000099:bad',
      'reflexion:default:entry:000000000100:junk',
    ]);
    expect(reopened.lastLoad!.skipped[0]!.reason).toMatch(/promptHash/);
  });

  it('evicts past maxEntries on load', async () => {
    const store = memoryStore();
    await (await ReflexionMemory.open({ store })).storeMany([
      lesson('a1 task', 1),
      lesson('a2 task', 2),
      lesson('a3 task', 3),
    ]);
    const small = await ReflexionMemory.open({ store, maxEntries: 2 });
    expect(small.lastLoad).toMatchObject({ loaded: 2, evicted: 1 });
    expect(small.entries().map((e) => e.mistake)).toEqual(['mistake 2', 'mistake 3']);
    expect(await store.keys('reflexion:default:entry:')).toHaveLength(2);
  });

  it('two memories on one store never overwrite each other (shared sequence counter)', async () => {
    const store = memoryStore();
    const a = await ReflexionMemory.open({ store });
    const b = await ReflexionMemory.open({ store });
    await Promise.all([
      a.store(lesson('from a', 1)),
      b.store(lesson('from b', 2)),
      a.store(lesson('again a', 3)),
    ]);
    const merged = await ReflexionMemory.open({ store });
    expect(merged.count()).toBe(3);
  });

  it('a failed write leaves the memory unchanged', async () => {
    const base = memoryStore();
    const failing: KeyValueStore = { ...base, setMany: () => Promise.reject(new Error('quota')) };
    const memory = await ReflexionMemory.open({ store: failing });
    await expect(memory.store(lesson('lost task'))).rejects.toThrow('quota');
    expect(memory.count()).toBe(0);
    await expect(memory.store(lesson('lost task'))).rejects.toThrow('quota');
  });

  it('persists in IndexedDB across memory instances (fake-indexeddb)', async () => {
    const indexedDB = new IDBFactory();
    const one = await ReflexionMemory.open({
      store: idbStore('reflexion-test', 'kv', { indexedDB }),
      now: clock(),
    });
    await one.store({
      prompt: 'Format the date as ISO 8601',
      mistake: 'Used locale format',
      correction: 'toISOString()',
    });
    const two = await ReflexionMemory.open({ store: idbStore('reflexion-test', 'kv', { indexedDB }) });
    const [hit] = await two.retrieveSimilar('format the date as ISO 8601');
    expect(hit).toMatchObject({ correction: 'toISOString()', timestamp: 1_700_000_000_000 });
  });
});

describe('cross-episode learning through the loop', () => {
  /** A scripted task: the generator starts from a remembered correction when memory offers one. */
  const table: Record<string, { severity: number; score: number; issues: string[]; feedback?: string }> = {
    'SELECT country FROM users': {
      severity: 0.8,
      score: 0.2,
      issues: ['does not count'],
      feedback: 'Count the users.',
    },
    'SELECT country, COUNT(*) FROM users': {
      severity: 0.6,
      score: 0.4,
      issues: ['missing GROUP BY'],
      feedback: 'Group by country.',
    },
    'SELECT country, COUNT(*) FROM users GROUP BY country': { severity: 0, score: 1, issues: [] },
  };
  const next: Record<string, string> = {
    'SELECT country FROM users': 'SELECT country, COUNT(*) FROM users',
    'SELECT country, COUNT(*) FROM users': 'SELECT country, COUNT(*) FROM users GROUP BY country',
  };
  const components = {
    generator: (_p: string, ctx: { memory: readonly { correction: string }[] }) =>
      ctx.memory[0]?.correction ?? 'SELECT country FROM users',
    critiquer: (_p: string, c: Candidate) => table[c.content]!,
    reviser: (_p: string, c: Candidate) => next[c.content]!,
  };

  it('a second episode with a similar prompt starts from the remembered correction and converges faster', async () => {
    const memory = await ReflexionMemory.open({ store: memoryStore(), now: clock() });
    const first = await runReflectionLoop({
      prompt: 'Write SQL counting users per country',
      ...components,
      memory,
    });
    expect(first).toMatchObject({
      reason: 'low_severity',
      iterations: 3,
      memory: { retrieved: [], stored: 2 },
    });
    expect(memory.entries().map((e) => e.mistake)).toEqual(['Count the users.', 'Group by country.']);
    const second = await runReflectionLoop({
      prompt: 'write the SQL that counts users per country',
      ...components,
      memory,
    });
    expect(second).toMatchObject({ reason: 'low_severity', iterations: 1 });
    expect(second.memory.retrieved[0]).toMatchObject({ mistake: 'Group by country.', similarity: 1 });
    expect(second.iterations).toBeLessThan(first.iterations);
  });

  it('stores lessons only after convergence by default; "always" and "never" change that', async () => {
    const run = async (remember: 'converged' | 'always' | 'never', maxIterations: number) => {
      const memory = new ReflexionMemory();
      const r = await runReflectionLoop({
        prompt: 'count users per country',
        ...components,
        memory,
        remember,
        maxIterations,
      });
      return [r.reason, memory.count()];
    };
    expect(await run('converged', 2)).toEqual(['max_iterations', 0]);
    expect(await run('always', 2)).toEqual(['max_iterations', 1]);
    expect(await run('never', 3)).toEqual(['low_severity', 0]);
    expect(await run('converged', 3)).toEqual(['low_severity', 2]);
  });

  it('a failing memory never fails the run', async () => {
    const r = await runReflectionLoop({
      prompt: 'count users per country',
      ...components,
      memory: {
        retrieveSimilar: () => Promise.reject(new Error('db down')),
        store: () => Promise.reject(new Error('db down')),
      },
    });
    expect(r).toMatchObject({
      reason: 'low_severity',
      memory: { retrieved: [], stored: 0, error: 'db down' },
    });
  });

  it('custom lessons through toLesson', async () => {
    const memory = new ReflexionMemory();
    await runReflectionLoop({
      prompt: 'count users per country',
      ...components,
      memory,
      toLesson: (s) =>
        s.improvement > 0.3
          ? { mistake: s.critique.issues.join(', '), correction: s.revision.content }
          : undefined,
    });
    expect(memory.entries().map((e) => e.mistake)).toEqual(['missing GROUP BY']);
  });

  describe('with LLM components through the real SDK', () => {
    let mock: MockAnthropic;
    beforeAll(async () => {
      mock = await startMockAnthropic();
    });
    afterAll(() => mock.close());

    it('the lesson of episode 1 reaches the model in episode 2, which converges in one iteration', async () => {
      const llm = anthropicClient({
        apiKey: 'k',
        baseURL: mock.url,
        retry: { random: () => 0, sleep: async () => {} },
      });
      const loop = (prompt: string) =>
        runReflectionLoop({
          prompt,
          generator: llmGenerator({ llm }),
          critiquer: llmCritiquer({ llm }),
          reviser: llmReviser({ llm }),
          memory,
        });
      const memory = await ReflexionMemory.open({ store: memoryStore(), now: clock() });
      mock.script([
        { kind: 'json', text: 'const d = date.toLocaleString();' },
        {
          kind: 'json',
          text: '{"issues":["not ISO 8601"],"severity":0.7,"score":0.3,"feedback":"Use ISO 8601."}',
        },
        {
          kind: 'json',
          text: '{"content":"const d = date.toISOString();","changes":["Use toISOString() for ISO 8601"]}',
        },
        { kind: 'json', text: '{"issues":[],"severity":0,"score":1}' },
      ]);
      const first = await loop('Format a JS date as ISO 8601');
      expect(first).toMatchObject({ iterations: 2, converged: true, memory: { stored: 1 } });
      expect(memory.entries()[0]).toMatchObject({
        mistake: 'Use ISO 8601.',
        correction: 'Use toISOString() for ISO 8601',
      });

      mock.script([
        { kind: 'json', text: 'const d = date.toISOString();' },
        { kind: 'json', text: '{"issues":[],"severity":0.05,"score":0.95}' },
      ]);
      const second = await loop('format a JS Date as ISO 8601');
      expect(second).toMatchObject({ iterations: 1, reason: 'low_severity' });
      const generate = mock.requests[0]!.body as { messages: { content: string }[] };
      expect(generate.messages[0]!.content).toContain('Lessons from earlier attempts at similar tasks:');
      expect(generate.messages[0]!.content).toContain('Correction: Use toISOString() for ISO 8601');
    });
  });
});
