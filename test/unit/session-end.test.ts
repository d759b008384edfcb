/**
 * rearview/session: endSession turns corrections and preferences into deduplicated key points with
 * provenance, tags cited key points, runs the Reflector and Curator with a model, and never rejects;
 * systemPrompt injects the selection with the citation directive; on('change') sees this and other
 * stores' changes.
 */
import type { MessageLike } from 'rearview/heuristic';
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import type { LlmClient } from 'rearview/llm';
import { PLAYBOOK_TEMPLATE, SECTION_NAMES } from 'rearview/playbook';
import { createRearview } from 'rearview/session';
import { type PlaybookChange, playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { scriptedLlm } from '../llm/scripted';
import { chat, quiet } from './session-helpers';

let n = 0;
const ids = () => `sess-${++n}`;
const DIRECTIVE = 'cite its ID in your reasoning';
/** A reply before a test's first turn: a turn no reply has answered yet corrects nothing. */
const REPLY: MessageLike = { role: 'assistant', content: 'Done.' };

describe('endSession without a model', () => {
  it('adds corrections and preferences as key points with provenance, then injects them', async () => {
    const store = playbookStore(memoryStore(), { ...quiet, now: () => '2025-01-01T00:00:00.000Z' });
    let k = 0;
    // The committed detector scores a preference below its default minScore: lowered so it counts.
    const rv = createRearview({ store, sessionId: () => (k++ ? `sess-${k}` : 'sess-a'), minScore: 0.5 });
    rv.observe(chat());
    expect(rv.sessionId).toBe('sess-a');
    const summary = await rv.endSession();
    expect(summary).toMatchObject({
      sessionId: 'sess-a',
      messages: 5,
      llm: false,
      changed: true,
      aborted: false,
      errors: [],
      version: 1,
      added: [
        { name: 'mis-001', section: 'MISTAKES TO AVOID', text: 'Use pnpm instead of npm.', by: 'heuristic' },
        {
          name: 'pref-001',
          section: 'USER PREFERENCES',
          // The user's instruction as an imperative, not the turn quoted: a key point is an instruction.
          text: 'Prefer short answers.',
          by: 'heuristic',
        },
      ],
    });
    expect(summary.insights.map((i) => i.category)).toEqual(['correction', 'preference']);
    const pb = await rv.playbook();
    expect(pb.sections['MISTAKES TO AVOID'][0]).toMatchObject({
      name: 'mis-001',
      helpful: 0,
      harmful: 0,
      source: { session: 'sess-a', traceRefs: ['message:m2', 'message:m0', 'message:m1'] },
    });
    const prompt = await rv.systemPrompt({ query: 'install the packages', tokenBudget: 400 });
    expect(prompt).toContain('- [mis-001] Use pnpm instead of npm.');
    expect(prompt).toContain(DIRECTIVE);
    expect(prompt.startsWith(PLAYBOOK_TEMPLATE.slice(0, 40))).toBe(true);
    // A tiny budget keeps the template and drops key points.
    expect(await rv.systemPrompt({ tokenBudget: 10 })).not.toContain('[mis-001]');
    expect((await rv.select({ query: 'pnpm' })).selected[0]!.name).toBe('mis-001');
    // A new session id after the end.
    expect(rv.sessionId).not.toBe('sess-a');
  });

  it('deduplicates against the playbook and within the session', async () => {
    const store = playbookStore(memoryStore(), quiet);
    const a = createRearview({ store, sessionId: ids });
    a.observe(chat());
    await a.endSession();
    const b = createRearview({ store, sessionId: ids });
    const s = await b.endSession({
      messages: [
        REPLY,
        { role: 'user', content: 'no, USE pnpm instead of npm!!' },
        { role: 'user', content: 'No, use pnpm instead of npm please.' },
        { role: 'user', content: 'Please use pnpm instead of npm, please' },
        { role: 'user', content: 'No, use ruff instead of flake8.' },
      ],
    });
    expect(s.duplicates.map((d) => d.of)).toEqual(['mis-001', 'mis-001']);
    expect(s.added.map((a) => a.text)).toEqual(['Use ruff instead of flake8.']);
    expect((await store.load('default')).sections['MISTAKES TO AVOID']).toHaveLength(2);
  });

  it('tags cited key points: harmful when corrected, helpful when approved', async () => {
    const store = playbookStore(memoryStore(), quiet);
    const rv = createRearview({ store, minScore: 0.5 });
    await rv.endSession({ messages: chat() });
    const s = await rv.endSession({
      messages: [
        { role: 'user', content: 'Install deps' },
        { role: 'assistant', content: 'Following [mis-001], run pnpm install.' },
        { role: 'user', content: 'Great, thanks!' },
        { role: 'assistant', content: 'As in [pref-001]: done. Also [mis-001].' },
        { role: 'user', content: "No, that's wrong. Use pnpm add." },
        { role: 'assistant', content: 'Citing [pat-999] which does not exist.' },
        { role: 'user', content: 'That is wrong.' },
      ],
    });
    expect(s.tags).toEqual({ applied: 3, skipped: 0, by: 'heuristic' });
    const pb = await rv.playbook();
    expect(pb.sections['MISTAKES TO AVOID'][0]).toMatchObject({ name: 'mis-001', helpful: 1, harmful: 1 });
    expect(pb.sections['USER PREFERENCES'][0]).toMatchObject({ name: 'pref-001', helpful: 0, harmful: 1 });
  });

  it('redacts key point texts by default', async () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const s = await rv.endSession({
      messages: [REPLY, { role: 'user', content: 'No, use jane.doe@example.com instead of the team alias.' }],
    });
    expect(s.added[0]!.text).toBe('Use [email-1] instead of the team alias.');
    const raw = createRearview({ store: memoryStore(), storeOptions: quiet, redact: false });
    const r = await raw.endSession({
      messages: [REPLY, { role: 'user', content: 'No, use jane.doe@example.com instead of the team alias.' }],
    });
    expect(r.added[0]!.text).toContain('jane.doe@example.com');
  });

  it('enforces budgets.playbookTokens and budgets.heuristicKeyPoints', async () => {
    const store = playbookStore(memoryStore(), quiet);
    const many = (k: number) => [
      REPLY,
      ...Array.from({ length: k }, (_, i) => ({
        role: 'user',
        content: `No, use tool${i} alpha${i} instead of legacy${i} beta${i}.`,
      })),
    ];
    const rv = createRearview({ store, budgets: { heuristicKeyPoints: 3, playbookTokens: 200 } });
    const s1 = await rv.endSession({ messages: many(5) });
    expect(s1.added).toHaveLength(3);
    const s2 = await rv.endSession({
      messages: [REPLY, ...many(12).slice(6)],
    });
    expect(s2.evicted.length).toBeGreaterThan(0);
    const pb = await rv.playbook();
    const names = SECTION_NAMES.flatMap((sec) => pb.sections[sec].map((k) => k.name));
    // What this session added survives; older key points went first.
    for (const a of s2.added) expect(names).toContain(a.name);
  });

  it('an empty session changes nothing', async () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const s = await rv.endSession();
    expect(s).toMatchObject({ messages: 0, added: [], applied: [], changed: false, version: 0, errors: [] });
  });
});

describe('endSession with a model', () => {
  it('runs the Reflector and the Curator after the heuristics', async () => {
    const store = playbookStore(memoryStore(), quiet);
    const rv = createRearview({ store, sessionId: () => 'sess-llm' });
    await rv.endSession({ messages: chat() });
    const llm = scriptedLlm([
      JSON.stringify({
        analysis: 'The user wants pnpm; mis-001 was followed.',
        bullet_tags: [{ name: 'mis-001', tag: 'helpful', rationale: 'followed' }],
      }),
      JSON.stringify({
        reasoning: 'New lesson about lockfiles.',
        operations: [
          { type: 'ADD', section: 'PROJECT CONTEXT', text: 'The project commits pnpm-lock.yaml.' },
        ],
      }),
    ]);
    const withModel = createRearview({ store, llm, sessionId: () => 'sess-llm' });
    const s = await withModel.endSession({
      messages: [
        { role: 'user', content: 'Add lodash' },
        { role: 'assistant', content: 'Following [mis-001]: pnpm add lodash.' },
        { role: 'user', content: 'Great, thanks!' },
      ],
    });
    expect(s.errors).toEqual([]);
    expect(s.llm).toBe(true);
    expect(s.tags).toEqual({ applied: 1, skipped: 0, by: 'reflector' });
    expect(s.added).toEqual([
      {
        name: 'ctx-001',
        section: 'PROJECT CONTEXT',
        text: 'The project commits pnpm-lock.yaml.',
        by: 'curator',
      },
    ]);
    expect(llm.requests).toHaveLength(2);
    const pb = await store.load('default');
    // One helpful tag from the reflector: the heuristic approval is not counted twice.
    expect(pb.sections['MISTAKES TO AVOID'][0]).toMatchObject({ helpful: 1, harmful: 0 });
    expect(pb.sections['PROJECT CONTEXT'][0]!.source).toEqual({ session: 'sess-llm' });
  });

  it('never rejects: a failing model keeps the heuristic key points and reports the error', async () => {
    const llm = scriptedLlm([Object.assign(new Error('overloaded'), { code: 'llm_overloaded' })]);
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet, llm, minScore: 0.5 });
    const s = await rv.endSession({ messages: chat() });
    expect(s.added.map((a) => a.name)).toEqual(['mis-001', 'pref-001']);
    expect(s.errors.some((e) => e.code === 'llm_overloaded' && e.stage === 'reflector')).toBe(true);
    expect(s.changed).toBe(true);
  });

  it('never rejects: a broken store is reported', async () => {
    const broken = new Proxy(memoryStore(), {
      get(target, prop) {
        const v = Reflect.get(target, prop);
        return typeof v === 'function'
          ? () => Promise.reject(Object.assign(new Error('disk on fire'), { code: 'store_failed' }))
          : v;
      },
    }) as KeyValueStore;
    const errors: string[] = [];
    const rv = createRearview({ store: broken, storeOptions: quiet, onError: (e) => errors.push(e.stage) });
    const s = await rv.endSession({ messages: chat() });
    expect(s.errors).toEqual([{ stage: 'store', message: 'disk on fire', code: 'store_failed' }]);
    expect(s.changed).toBe(false);
    const prompt = await rv.systemPrompt({ query: 'x' });
    expect(prompt).toContain(DIRECTIVE);
    expect(errors).toEqual(['prompt']);
  });

  it('an abort before the start does nothing and keeps the session; during the model call it degrades', async () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet, sessionId: ids, minScore: 0.5 });
    rv.observe(chat());
    const id = rv.sessionId;
    const ac = new AbortController();
    ac.abort();
    const s = await rv.endSession({ signal: ac.signal });
    expect(s).toMatchObject({ aborted: true, changed: false, sessionId: id });
    expect(rv.sessionId).toBe(id);
    expect(rv.proposed()).toHaveLength(2);

    const slow: LlmClient = {
      complete: (req) =>
        new Promise((_, reject) => {
          req.signal?.addEventListener('abort', () =>
            reject(Object.assign(new Error('aborted'), { code: 'llm_aborted' })),
          );
        }),
    };
    const rv2 = createRearview({ store: memoryStore(), storeOptions: quiet, llm: slow, minScore: 0.5 });
    const ac2 = new AbortController();
    const pending = rv2.endSession({ messages: chat(), signal: ac2.signal });
    setTimeout(() => ac2.abort(), 20);
    const s2 = await pending;
    expect(s2.aborted).toBe(true);
    expect(s2.added.map((a) => a.name)).toEqual(['mis-001', 'pref-001']);
  });
});

describe('on(change)', () => {
  it('fires for this object and for another store on the same data', async () => {
    const kv = memoryStore();
    const channel = `rearview-test-${Math.random()}`;
    const a = createRearview({ store: kv, storeOptions: { broadcast: channel, onWarning: () => {} } });
    const b = createRearview({ store: kv, storeOptions: { broadcast: channel, onWarning: () => {} } });
    const seenA: PlaybookChange[] = [];
    const seenB: PlaybookChange[] = [];
    const offA = a.on('change', (c) => seenA.push(c));
    b.on('change', (c) => seenB.push(c));
    await a.endSession({ messages: chat() });
    await new Promise((r) => setTimeout(r, 50));
    expect(seenA.map((c) => c.origin)).toEqual(['local']);
    expect(seenB.map((c) => c.origin)).toEqual(['remote']);
    offA();
    await a.endSession({ messages: [REPLY, { role: 'user', content: 'No, use bun instead of node.' }] });
    await new Promise((r) => setTimeout(r, 50));
    expect(seenA).toHaveLength(1);
    expect(seenB).toHaveLength(2);
    expect(() => a.on('nope' as 'change', () => {})).toThrow(TypeError);
    a.close();
    b.close();
  });

  it('needs a store', () => {
    expect(() => createRearview({} as never)).toThrow(/store is required/);
  });
});
