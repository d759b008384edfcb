/**
 * rearview/session: observe is incremental and agrees with heuristicReflect on the whole history;
 * endSession turns corrections and preferences into deduplicated key points with provenance, tags cited
 * key points, runs the Reflector and Curator with a model, and never rejects; systemPrompt injects the
 * selection with the citation directive; on('change') sees this and other stores' changes.
 */
import fc from 'fast-check';
import { heuristicReflect, type MessageLike } from 'rearview/heuristic';
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import type { LlmClient } from 'rearview/llm';
import { PLAYBOOK_TEMPLATE, SECTION_NAMES } from 'rearview/playbook';
import { createRearview } from 'rearview/session';
import { type PlaybookChange, playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { scriptedLlm } from '../llm/scripted';
import { joinsFormASecret } from '../session-joins';

const quiet = { broadcast: false as const, onWarning: () => {} };
let n = 0;
const ids = () => `sess-${++n}`;
const DIRECTIVE = 'cite its ID in your reasoning';
/** A reply before a test's first turn: a turn no reply has answered yet corrects nothing. */
const REPLY: MessageLike = { role: 'assistant', content: 'Done.' };

const chat = (): MessageLike[] => [
  { role: 'user', content: 'How do I install the dependencies?' },
  { role: 'assistant', content: 'Run npm install.' },
  { role: 'user', content: 'No, use pnpm instead of npm.' },
  { role: 'assistant', content: 'Right: pnpm install.' },
  { role: 'user', content: 'I prefer short answers.' },
];

const TURNS = [
  'How do I run the tests?',
  'No, use vitest instead of jest.',
  'I prefer short answers.',
  "Shouldn't that be using a fixture?",
  'Thanks, that works great!',
  'Actually, please use tabs for indentation.',
  'I already told you, use pnpm not npm.',
  'ok',
  // aider's session header (as a system message): the turns after it wait for a reply of their own.
  'aider chat started at 2025-01-02 10:00:00',
  '',
];

describe('observe', () => {
  it('knows across chunks whether the agent has replied in the session (aider appends sessions)', () => {
    const all: MessageLike[] = [
      { role: 'user', content: 'Add a login page.' },
      { role: 'assistant', content: 'Added it.' },
      { role: 'system', content: 'aider chat started at 2025-01-02 10:00:00' },
      { role: 'user', content: 'Fix the signup bug.' },
      { role: 'user', content: "No, don't change the tests." },
      { role: 'assistant', content: 'Fixed.' },
      { role: 'user', content: "No, don't change the tests." },
    ];
    const whole = heuristicReflect(all);
    // Only the last turn follows a reply of its session.
    expect(whole.map((i) => [i.category, i.traceRefs[0]])).toEqual([['correction', 'message:m6']]);
    for (let cut = 1; cut < all.length; cut++) {
      const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
      const got = [...rv.observe(all.slice(0, cut)).insights, ...rv.observe(all).insights];
      expect(got, `cut at ${cut}`).toEqual(whole);
    }
  });

  it('is incremental: chunks give exactly heuristicReflect of the whole history', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            role: fc.constantFrom('user', 'assistant', 'tool', 'human', 'system'),
            content: fc.oneof(fc.constantFrom(...TURNS), fc.string()),
            withId: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        (raw, chunks, copy) => {
          const all: MessageLike[] = raw.map((r, i) => ({
            role: r.role,
            content: r.content,
            ...(r.withId ? { id: `x${i}` } : {}),
          }));
          // A secret that only exists across two messages is redacted from its second half on: its own tests.
          fc.pre(!joinsFormASecret(all));
          const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
          const grown: MessageLike[] = [];
          const got = [];
          let c = 0;
          while (grown.length < all.length) {
            const k = chunks[c++ % chunks.length]!;
            grown.push(...all.slice(grown.length, grown.length + k));
            // Either the same array mutated or a fresh copy with equal (not identical) messages.
            const passed = copy ? grown.map((m) => ({ ...m })) : grown;
            const r = rv.observe(passed);
            got.push(...r.insights);
          }
          expect(got).toEqual(heuristicReflect(all));
          expect(rv.insights()).toEqual(got);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('analyses only the new messages, and a different conversation from its start', () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const msgs = chat();
    expect(rv.observe(msgs.slice(0, 2)).analysed).toBe(2);
    expect(rv.observe(msgs.slice(0, 2)).analysed).toBe(0);
    const r = rv.observe(msgs.slice(0, 3));
    expect(r.analysed).toBe(1);
    expect(r.proposed).toEqual([
      {
        section: 'MISTAKES TO AVOID',
        text: 'Use pnpm instead of npm.',
        category: 'correction',
        traceRefs: ['message:m2', 'message:m0', 'message:m1'],
        // What the correction corrected, so the key point can say what to do instead.
        context: 'Run npm install.',
      },
    ]);
    expect(rv.observe([{ role: 'user', content: 'Something else entirely' }]).analysed).toBe(1);
    expect(rv.observe('nope' as unknown as MessageLike[]).analysed).toBe(0);
  });

  it('analyses only the new messages as the history grows to 10,000 messages', () => {
    // A count of work, not a clock: each call reads the one message it has not seen (the time per call
    // as the history grows is bench/session.bench.ts's observe/incremental-*).
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const msgs: MessageLike[] = [];
    const analysed: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      msgs.push(
        i % 2 === 0
          ? { role: 'user', content: TURNS[i % TURNS.length]! }
          : { role: 'assistant', content: `Answer ${i} with some words in it.` },
      );
      analysed.push(rv.observe(msgs).analysed);
    }
    expect(analysed.every((n) => n === 1)).toBe(true);
    expect(rv.insights().length).toBe(heuristicReflect(msgs).length);
  });
});

describe('per-category score floors', () => {
  it('passes a per-category minScore to the heuristics, as heuristicReflect applies it', () => {
    // A scorer that rates every turn the same in all four categories, so only the floors decide.
    const scorer = () => ({ correction: 0.6, preference: 0.6, approval: 0.6, friction: 0.6 });
    const floors = { correction: 0.5, preference: 0.9, approval: 0.9, friction: 0.9 };
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet, scorer, minScore: floors });
    rv.observe(chat());
    const kept = rv.insights().map((i) => i.category);
    expect(kept.length).toBeGreaterThan(0);
    expect(new Set(kept)).toEqual(new Set(['correction']));
    expect(rv.insights()).toEqual(heuristicReflect(chat(), { scorer, minScore: floors }));
  });
});

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
