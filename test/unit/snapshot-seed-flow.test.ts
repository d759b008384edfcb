/**
 * Every step, invariant and fallback of the seed's reflection flow, with a scripted model, through the
 * real @anthropic-ai/sdk against the local Messages API and through recorded fixtures.
 */
import { describe, expect, it } from 'vitest';
import { anthropicClient, fixtureClient, type LlmClient, requestKey } from '../../lib/llm/index';
import {
  computeRetirements,
  computeTrajectoryReduction,
  deterministicSnapshot,
  parseReflection,
  reflectedSnapshotPrompt,
} from '../../lib/snapshot/index';
import { useMockAnthropic } from '../llm/use-mock';
import { bigInput, e, GOOD_REPLY, scripted } from './snapshot-helpers';

/** A clock that advances 250 ms per reading. */
function clock() {
  let t = 1000;
  return () => {
    t += 250;
    return t;
  };
}

describe('computeTrajectoryReduction: the seed flow with a scripted model', () => {
  it('step 4: skips reflection below minSnapshotTokens, without calling the model', async () => {
    const llm = scripted(JSON.stringify(GOOD_REPLY));
    const r = await computeTrajectoryReduction({ objective: 'x', entries: [e('Run it')] }, { llm });
    expect(r.diagnostics.reflectionSkippedReason).toBe('below_threshold');
    expect(r.diagnostics.reflectionInvoked).toBe(false);
    expect(llm.calls).toBe(0);
    expect(r.snapshot).toEqual(deterministicSnapshot({ objective: 'x', entries: [e('Run it')] }));
  });

  it('without a client, returns the deterministic snapshot with reason no_llm', async () => {
    const r = await computeTrajectoryReduction(bigInput());
    expect(r.diagnostics.deterministicTokens).toBeGreaterThanOrEqual(400);
    expect(r.diagnostics).toMatchObject({
      reflectionUsed: false,
      reflectionSkippedReason: 'no_llm',
      path: 'deterministic',
    });
    expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
  });

  it('steps 5–10: prompt, call, parse, gate, validate, caps, retirements and diagnostics', async () => {
    const llm = scripted(`Here is the snapshot:\n\`\`\`json\n${JSON.stringify(GOOD_REPLY, null, 2)}\n\`\`\``);
    const r = await computeTrajectoryReduction(bigInput(), { llm, now: clock() });
    const d = r.diagnostics;
    expect(d).toMatchObject({
      path: 'reflected',
      reflectionUsed: true,
      reflectionInvoked: true,
      reflectionInputTokens: 1500,
      reflectionOutputTokens: 200,
      reflectionLatencyMs: 250,
      reflectionSkippedReason: null,
    });
    expect(d.savingsTokens).toBeGreaterThanOrEqual(100);
    expect(d.dropped).toEqual([
      { text: 'no error found in lib/llm/anthropic.ts', reason: 'resolved' },
      { text: 'the flaky websocket test is fixed', reason: 'resolved' },
    ]);
    expect(r.snapshot.blockers[0]).toBe(
      'CI red: 3 tests failing in test/retry.test.ts, backoff assertions fail',
    );
    expect(r.kept.find((k) => k.text.startsWith('CI red'))!.sources).toEqual(['m1', 'm2', 'm3']);
    // Retirements against the previous snapshot: the websocket blocker was resolved by m5.
    expect(r.retired).toEqual([
      {
        category: 'blockers',
        text: 'websocket test flaky',
        reason: 'resolved',
        iteration: 6,
        resolvedBy: ['m5'],
      },
      {
        category: 'blockers',
        text: 'CI is red on main since the retry refactor',
        reason: 'superseded',
        iteration: 6,
      },
      { category: 'nextActions', text: 'Write the release notes', reason: 'superseded', iteration: 6 },
    ]);
    expect(d.logLine).toMatch(
      /^\[TRAJECTORY\] reflection=used snapshot_tokens=\d+ .*latency_ms=250 retired=3$/,
    );
  });

  it('step 5 builds the seed prompt with ids, previous snapshot and tasks', () => {
    const p = reflectedSnapshotPrompt(bigInput());
    expect(p).toContain('## Current Objective\nFix the failing retry tests after the retry refactor');
    expect(p).toContain(
      '## Previous Snapshot (iteration 5)\n{"current_objective":"Fix the failing retry tests"',
    );
    expect(p).toContain(
      '"id":"m1","scope":"notes","key":"k","value":"CI is red on main since the retry refactor","sourceIteration":3',
    );
    expect(p).toContain('{"id":"task:T2","title":"Release 0.2","status":"blocked"}');
    expect(p).toContain('5. Do NOT invent information not present in the entries.');
    expect(p).toContain('"dropped": [{"value": "string", "reason": "string"}, ...]');
  });

  it('step 7: parse_error and invalid_schema fall back', async () => {
    for (const [reply, reason] of [
      ['I could not do it, sorry.', 'parse_error'],
      ['{"blockers": "CI is red"}', 'invalid_schema'],
      ['[1, 2]', 'invalid_schema'],
      ['{"blockers": [42]}', 'invalid_schema'],
    ] as const) {
      const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(reply) });
      expect(r.diagnostics.reflectionSkippedReason).toBe(reason);
      expect(r.diagnostics.reflectionInvoked).toBe(true);
      expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    }
  });

  it('step 8: insufficient savings falls back', async () => {
    const det = deterministicSnapshot(bigInput());
    const copy = {
      current_objective: det.currentObjective,
      open_hypotheses: det.openHypotheses,
      blockers: det.blockers,
      next_actions: det.nextActions.slice(0, -1),
      unresolved_questions: det.unresolvedQuestions,
      required_evidence_links: det.requiredEvidenceLinks,
    };
    const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(JSON.stringify(copy)) });
    expect(r.diagnostics.reflectionSkippedReason).toBe('insufficient_savings');
    expect(r.diagnostics.savingsTokens).toBeLessThan(100);
    expect(r.diagnostics.reflectedTokens).not.toBeNull();
  });

  it('step 9: rejects hallucinated items, unnamed consolidations and unknown sources', async () => {
    const cases: [unknown, string][] = [
      ['The database migration is stuck', 'not a substring'],
      ['CI failing: 3 test failures on main and test suite broken', 'consolidations must name their sources'],
      [{ text: 'CI red: 3 tests failing', sources: ['m1', 'm99'] }, 'unknown sources: m99'],
      [{ text: 'CI red: 3 tests failing because of the database', sources: ['m1', 'm2'] }, 'database'],
      [{ text: 'CI red, see lib/db/migrate.ts', sources: ['m1', 'm2'] }, 'link not in its sources'],
    ];
    for (const [item, why] of cases) {
      const reply = { ...GOOD_REPLY, blockers: [...GOOD_REPLY.blockers, item] };
      const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(JSON.stringify(reply)) });
      expect(r.diagnostics.reflectionSkippedReason).toBe('validation_failed');
      expect(r.diagnostics.rejectedItems).toHaveLength(1);
      expect(r.diagnostics.rejectedItems[0]!.why).toContain(why);
      expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    }
    const objective = { ...GOOD_REPLY, current_objective: 'Migrate the database to Postgres' };
    const r = await computeTrajectoryReduction(bigInput(), { llm: scripted(JSON.stringify(objective)) });
    expect(r.diagnostics.rejectedItems[0]!.category).toBe('current_objective');
  });

  it('step 9: enforces the caps after reflection', async () => {
    const reply = {
      ...GOOD_REPLY,
      next_actions: bigInput()
        .entries.slice(11)
        .map((x) => x.value),
      blockers: [],
    };
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: scripted(JSON.stringify(reply)),
      maxCategoryItems: 5,
      maxTextLength: 40,
      minSnapshotTokens: 0, // this test is about the caps, not the gates
      minSavingsTokens: Number.NEGATIVE_INFINITY,
    });
    expect(r.diagnostics.reflectionSkippedReason).toBe(null);
    expect(r.snapshot.nextActions).toHaveLength(5);
    expect(r.snapshot.nextActions.every((x) => x.length <= 40)).toBe(true);
    expect(r.diagnostics.cappedItems).toBeGreaterThanOrEqual(9 + 5);
  });

  it('api errors and thrown non-errors fall back and never reject', async () => {
    const boom: LlmClient = {
      complete: async () => {
        throw 'not even an Error';
      },
    };
    const r = await computeTrajectoryReduction(bigInput(), { llm: boom, now: clock() });
    expect(r.diagnostics).toMatchObject({ reflectionSkippedReason: 'api_error', reflectionLatencyMs: 250 });
    expect(r.diagnostics.reflectionInputTokens).toBeGreaterThan(500);
  });

  it('times out and honours an aborted signal', async () => {
    const never: LlmClient = { complete: () => new Promise(() => {}) };
    const t = await computeTrajectoryReduction(bigInput(), { llm: never, timeoutMs: 20 });
    expect(t.diagnostics.reflectionSkippedReason).toBe('timeout');
    const controller = new AbortController();
    controller.abort();
    const a = await computeTrajectoryReduction(bigInput(), {
      llm: scripted('{}'),
      signal: controller.signal,
    });
    expect(a.diagnostics.reflectionSkippedReason).toBe('aborted');
  });

  it('uses an exact counter for the gates when given', async () => {
    const r = await computeTrajectoryReduction(bigInput(), {
      llm: scripted(JSON.stringify(GOOD_REPLY)),
      countTokens: async () => 10,
    });
    expect(r.diagnostics).toMatchObject({
      deterministicTokens: 10,
      reflectionSkippedReason: 'below_threshold',
    });
  });

  it('parses camelCase replies and string dropped entries', () => {
    const p = parseReflection('{"nextActions": ["a"], "dropped": ["x"]}');
    expect(p.ok && p.value.lists.nextActions).toEqual([{ text: 'a', sources: null }]);
    expect(p.ok && p.value.dropped).toEqual([{ text: 'x', reason: '' }]);
  });

  it('retirements do not depend on the path (invariant 4)', () => {
    const input = bigInput();
    const current = deterministicSnapshot(input);
    expect(computeRetirements(input.previous!, current, input).map((x) => x.text)).toEqual([
      'websocket test flaky',
      'Write the release notes',
    ]);
    expect(computeRetirements(null, current, input)).toEqual([]);
  });
});

describe('computeTrajectoryReduction through the real SDK and fixtures', () => {
  const mock = useMockAnthropic();

  const client = () =>
    anthropicClient({ apiKey: 'sk-ant-test', baseURL: mock.url, maxRetries: 0, model: 'claude-haiku-4-5' });

  it('adopts a valid reply from the Messages API and reports its usage', async () => {
    mock.script([
      { kind: 'json', text: JSON.stringify(GOOD_REPLY), usage: { input_tokens: 2100, output_tokens: 310 } },
    ]);
    const r = await computeTrajectoryReduction(bigInput(), { llm: client() });
    expect(r.diagnostics).toMatchObject({
      reflectionUsed: true,
      reflectionInputTokens: 2100,
      reflectionOutputTokens: 310,
    });
    const body = mock.requests[0]!.body as {
      model: string;
      max_tokens: number;
      temperature: number;
      messages: { content: string }[];
    };
    expect(body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 2048, temperature: 0 });
    expect(body.messages[0]!.content).toBe(reflectedSnapshotPrompt(bigInput()));
  });

  it('falls back on a 500, a dropped connection and a malformed body', async () => {
    for (const step of [{ kind: 'status', status: 500 }, { kind: 'drop' }, { kind: 'malformed' }] as const) {
      mock.script([step]);
      const r = await computeTrajectoryReduction(bigInput(), { llm: client() });
      expect(r.diagnostics.reflectionSkippedReason).toBe('api_error');
      expect(r.diagnostics.reflectionError).toMatch(/^llm_/);
      expect(r.snapshot).toEqual(deterministicSnapshot(bigInput()));
    }
  });

  it('times out on a slow server', async () => {
    mock.script([{ kind: 'json', text: '{}', delayMs: 400 }]);
    const r = await computeTrajectoryReduction(bigInput(), { llm: client(), timeoutMs: 50 });
    expect(r.diagnostics.reflectionSkippedReason).toBe('timeout');
  });

  it('replays a recorded fixture exactly (request key of the real request)', async () => {
    const request = {
      messages: [{ role: 'user' as const, content: reflectedSnapshotPrompt(bigInput()) }],
      maxTokens: 2048,
      temperature: 0,
    };
    const key = await requestKey(request, 'claude-haiku-4-5');
    const llm = fixtureClient(
      [{ key, text: JSON.stringify(GOOD_REPLY), usage: { inputTokens: 2100, outputTokens: 310 } }],
      {
        model: 'claude-haiku-4-5',
      },
    );
    const r = await computeTrajectoryReduction(bigInput(), { llm });
    expect(r.diagnostics.reflectionUsed).toBe(true);
    const missing = await computeTrajectoryReduction({ ...bigInput(), objective: 'other' }, { llm });
    expect(missing.diagnostics.reflectionSkippedReason).toBe('api_error');
    expect(missing.diagnostics.reflectionError).toMatch(/^llm_fixture_missing/);
  });
});
