/**
 * Reflexion memory in real Chromium: entries written through IndexedDB survive the memory and its
 * store being dropped — a new ReflexionMemory over a new idbStore with the same database name (what a
 * page reload does; the real reload is proven in test/runtime/reflexion-reload.test.ts) — and an
 * LLM-backed loop in the page learns across episodes through the local Messages API server.
 */

import { idbStore } from 'rearview/kv';
import { anthropicClient } from 'rearview/llm';
import { llmCritiquer, llmGenerator, llmReviser, ReflexionMemory, runReflectionLoop } from 'rearview/loop';
import { describe, expect, inject, it } from 'vitest';
import type { MockStep } from '../llm/mock-anthropic';

const url = inject('mockAnthropicUrl');
const dbName = () => `reflexion-browser-${Math.random().toString(36).slice(2)}`;

async function script(steps: MockStep[]) {
  await fetch(`${url}/__script`, { method: 'POST', body: JSON.stringify(steps) });
}

describe('ReflexionMemory over IndexedDB in Chromium', () => {
  it('persists entries across a simulated reload (new memory, new store, same database)', async () => {
    const db = dbName();
    let memory: ReflexionMemory | undefined = await ReflexionMemory.open({
      store: idbStore(db),
      namespace: 'sql',
      now: () => 1,
    });
    await memory.store({
      prompt: 'Count users per country',
      mistake: 'Forgot GROUP BY',
      correction: 'GROUP BY country',
    });
    await memory.store({
      prompt: 'Translate a poem into French',
      mistake: 'Too literal',
      correction: 'Keep the rhyme',
    });
    memory = undefined;

    const reloaded = await ReflexionMemory.open({ store: idbStore(db), namespace: 'sql' });
    expect(reloaded.count()).toBe(2);
    expect(reloaded.lastLoad).toEqual({ loaded: 2, skipped: [], evicted: 0 });
    const [hit] = await reloaded.retrieveSimilar('count the users per country');
    expect(hit).toMatchObject({ correction: 'GROUP BY country', timestamp: 1, similarity: 1 });
    indexedDB.deleteDatabase(db);
  });

  it('skips a corrupt document written by another tab and keeps the rest', async () => {
    const db = dbName();
    const store = idbStore(db);
    await (await ReflexionMemory.open({ store })).store({
      prompt: 'Sort users by age',
      mistake: 'm',
      correction: 'c',
    });
    await store.set('reflexion:default:entry:000000000050:zz', { v: 1, seq: 'fifty' });
    const reopened = await ReflexionMemory.open({ store: idbStore(db) });
    expect(reopened.count()).toBe(1);
    expect(reopened.lastLoad!.skipped).toHaveLength(1);
    indexedDB.deleteDatabase(db);
  });

  it('clears its namespace in IndexedDB', async () => {
    const db = dbName();
    const memory = await ReflexionMemory.open({ store: idbStore(db) });
    await memory.store({ prompt: 'Parse the CSV header', mistake: 'm', correction: 'c' });
    await memory.clear();
    expect((await ReflexionMemory.open({ store: idbStore(db) })).count()).toBe(0);
    indexedDB.deleteDatabase(db);
  });

  it('an LLM-backed loop in the page learns across episodes through IndexedDB', async () => {
    const db = dbName();
    const llm = anthropicClient({ apiKey: 'k', baseURL: url, dangerouslyAllowBrowser: true });
    const episode = async (prompt: string) =>
      runReflectionLoop({
        prompt,
        generator: llmGenerator({ llm }),
        critiquer: llmCritiquer({ llm }),
        reviser: llmReviser({ llm }),
        memory: await ReflexionMemory.open({ store: idbStore(db) }),
      });
    await script([
      { kind: 'json', text: 'new Date().toLocaleString()' },
      { kind: 'json', text: '{"issues":["not ISO"],"severity":0.7,"score":0.3,"feedback":"Use ISO 8601."}' },
      { kind: 'json', text: '{"content":"new Date().toISOString()","changes":["Use toISOString()"]}' },
      { kind: 'json', text: '{"issues":[],"severity":0,"score":1}' },
    ]);
    const first = await episode('Format the current date as ISO 8601');
    expect(first).toMatchObject({ iterations: 2, converged: true, memory: { stored: 1 } });

    await script([
      { kind: 'json', text: 'new Date().toISOString()' },
      { kind: 'json', text: '{"issues":[],"severity":0,"score":1}' },
    ]);
    const second = await episode('format the current date as ISO 8601');
    expect(second).toMatchObject({ iterations: 1, reason: 'low_severity' });
    expect(second.memory.retrieved[0]).toMatchObject({ correction: 'Use toISOString()' });
    const [generate] = (await (await fetch(`${url}/__requests`)).json()) as {
      body: { messages: { content: string }[] };
    }[];
    expect(generate!.body.messages[0]!.content).toContain('Correction: Use toISOString()');
    indexedDB.deleteDatabase(db);
  });
});
