/**
 * Reflexion memory (seed 003, 4.3.3 and the reflexion_memory_test list) in the reflection loop:
 * cross-episode learning, scripted and LLM-backed through the real SDK against the local Messages
 * API server.
 */
import { memoryStore } from 'rearview/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicClient } from '../../lib/llm/index';
import {
  type Candidate,
  llmCritiquer,
  llmGenerator,
  llmReviser,
  ReflexionMemory,
  runReflectionLoop,
} from '../../lib/loop/index';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { clock } from './reflexion-helpers';

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
