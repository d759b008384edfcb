/**
 * Abort and time limits of the model steps: an abort settles endSession at once even when the client
 * ignores its signal, nothing is written after it (a late Curator reply included), later endSession
 * calls are not blocked, and runReflector / runCurator resolve with a timeout diagnostic when a client
 * never answers.
 */

import { memoryStore } from 'rearview/kv';
import type { LlmClient, LlmRequest, LlmResponse } from 'rearview/llm';
import {
  type CuratorDiagnostic,
  emptyPlaybook,
  type ReflectorDiagnostic,
  runCurator,
  runReflector,
  SECTION_NAMES,
} from 'rearview/playbook';
import { createRearview, reflectSession } from 'rearview/session';
import { playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';

const quiet = { broadcast: false as const, onWarning: () => {} };

const chat = () => [
  { role: 'user', content: 'How do I install the dependencies?' },
  { role: 'assistant', content: 'Run npm install.' },
  { role: 'user', content: 'No, use pnpm instead of npm.' },
];

const REFLECTION = JSON.stringify({ analysis: 'The user wants pnpm.', bullet_tags: [] });
const CURATION = JSON.stringify({
  operations: [{ type: 'ADD', section: 'PROJECT CONTEXT', text: 'The project commits pnpm-lock.yaml.' }],
});

const reply = (text: string): LlmResponse => ({
  text,
  usage: { inputTokens: 1, outputTokens: 1 },
  latencyMs: 1,
  model: 'fake',
});

/** Never answers and never looks at its signal. */
function deaf(): LlmClient & { calls: LlmRequest[] } {
  const calls: LlmRequest[] = [];
  return {
    calls,
    complete(req) {
      calls.push(req);
      return new Promise(() => {});
    },
  };
}

const names = async (store: ReturnType<typeof playbookStore>) => {
  const pb = await store.load('default');
  return SECTION_NAMES.flatMap((s) => pb.sections[s].map((k) => k.name));
};

/** Resolves with 'pending' when `promise` has not settled within `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

describe('endSession and abort', () => {
  it('settles at once after an abort when the client ignores its signal, and the next call is not blocked', async () => {
    const llm = deaf();
    const store = playbookStore(memoryStore(), quiet);
    const rv = createRearview({ store, llm, timeoutMs: 2_000 });
    const ac = new AbortController();
    const first = rv.endSession({ messages: chat(), signal: ac.signal });
    // Abort as soon as the Reflector is waiting (polled, not slept: a busy machine gets there later).
    while (llm.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(llm.calls).toHaveLength(1);
    ac.abort();
    // The client never answers; the deadline would end the step with llm_timeout, so an llm_aborted
    // step means the abort settled it — no elapsed time is compared.
    const s1 = await within(first, 5_000);
    expect(s1).not.toBe('pending');
    if (s1 === 'pending') return;
    expect(s1.aborted).toBe(true);
    expect(s1.errors.some((e) => e.code === 'llm_aborted' && e.stage === 'reflector')).toBe(true);
    // The heuristic key point was saved before the model step; nothing after it.
    expect(s1.added.map((a) => a.by)).toEqual(['heuristic']);

    // The next call runs: its own model call ends at the time limit instead of hanging.
    const s2 = await within(
      rv.endSession({ messages: [...chat(), { role: 'user', content: 'ok' }] }),
      10_000,
    );
    expect(s2).not.toBe('pending');
    if (s2 === 'pending') return;
    expect(s2.aborted).toBe(false);
    expect(s2.errors.some((e) => e.code === 'llm_timeout' && e.stage === 'reflector')).toBe(true);
    expect(llm.calls).toHaveLength(2);
  });

  it('writes nothing when the Curator reply arrives after the abort', async () => {
    let answerCurator: (r: LlmResponse) => void = () => {};
    let calls = 0;
    const llm: LlmClient = {
      complete() {
        calls++;
        if (calls === 1) return Promise.resolve(reply(REFLECTION));
        // The Curator answers late and never looks at its signal.
        return new Promise((resolve) => {
          answerCurator = resolve;
        });
      },
    };
    const store = playbookStore(memoryStore(), quiet);
    const rv = createRearview({ store, llm });
    const ac = new AbortController();
    const pending = rv.endSession({ messages: chat(), signal: ac.signal });
    while (calls < 2) await new Promise((r) => setTimeout(r, 5));
    const before = await store.open('default');
    ac.abort();
    answerCurator(reply(CURATION));
    const s = await pending;
    await new Promise((r) => setTimeout(r, 30));
    expect(s.aborted).toBe(true);
    expect(s.added.map((a) => a.by)).toEqual(['heuristic']);
    expect(await names(store)).toEqual(['mis-001']);
    expect((await store.open('default')).version).toBe(before.version);
  });

  it('stops between steps: an abort once the Reflector has answered skips the tags, merges and Curator', async () => {
    const ac = new AbortController();
    let calls = 0;
    const llm: LlmClient = {
      async complete() {
        calls++;
        // One malformed tag makes the Reflector report a partial reply: the abort fires in that report,
        // after the model call has settled and before the tags are applied.
        return reply(
          JSON.stringify({ analysis: 'fine', bullet_tags: [{ name: 'mis-001', tag: 'helpful' }, {}] }),
        );
      },
    };
    const store = playbookStore(memoryStore(), quiet);
    await createRearview({ store }).endSession({ messages: chat() });
    const before = await store.open('default');
    const out = await reflectSession(
      [
        { role: 'assistant', content: 'Following [mis-001]: pnpm install.' },
        { role: 'user', content: 'thanks' },
      ],
      store,
      { llm, signal: ac.signal, onDiagnostic: () => ac.abort() },
    );
    expect(out.reflection.keyPointTags).toHaveLength(1); // the reply was read…
    expect(calls).toBe(1); // …but the Curator never ran
    expect(out.aborted).toBe(true);
    expect(out.tags.applied).toBe(0);
    expect(out.applied).toEqual([]);
    const after = await store.open('default');
    expect(after.version).toBe(before.version);
    expect(after.playbook.sections['MISTAKES TO AVOID'][0]).toMatchObject({ helpful: 0 });
  });
});

describe('time limits of the model steps', () => {
  it('runReflector resolves empty with an llm_timeout diagnostic when the client never answers', async () => {
    const llm = deaf();
    const diagnostics: ReflectorDiagnostic[] = [];
    const out = await within(
      runReflector(chat(), emptyPlaybook(), [], {
        llm,
        timeoutMs: 50,
        onDiagnostic: (d) => diagnostics.push(d),
      }),
      2_000,
    );
    expect(out).toEqual({ analysis: '', keyPointTags: [] });
    expect(diagnostics).toMatchObject([{ stage: 'llm', code: 'llm_timeout' }]);
    expect(llm.calls[0]!.signal?.aborted).toBe(true); // the client is told to stop too
  });

  it('runCurator resolves without operations and with an llm_timeout diagnostic', async () => {
    const diagnostics: CuratorDiagnostic[] = [];
    const out = await within(
      runCurator({ analysis: 'Something to learn.', keyPointTags: [] }, emptyPlaybook(), {
        llm: deaf(),
        timeoutMs: 50,
        onDiagnostic: (d) => diagnostics.push(d),
      }),
      2_000,
    );
    expect(out).toEqual({ operations: [], rejected: [], reasoning: '', called: true });
    expect(diagnostics).toMatchObject([{ stage: 'llm', code: 'llm_timeout' }]);
  });

  it('runReflector settles on abort even when the client ignores the signal', async () => {
    const ac = new AbortController();
    const diagnostics: ReflectorDiagnostic[] = [];
    const pending = runReflector(chat(), emptyPlaybook(), [], {
      llm: deaf(),
      signal: ac.signal,
      timeoutMs: Number.POSITIVE_INFINITY,
      onDiagnostic: (d) => diagnostics.push(d),
    });
    setTimeout(() => ac.abort(), 20);
    expect(await within(pending, 1_000)).toEqual({ analysis: '', keyPointTags: [] });
    expect(diagnostics.map((d) => d.code)).toEqual(['llm_aborted']);
  });
});
