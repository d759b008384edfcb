/**
 * The Curator half of ACE on a real-looking playbook (test/fixtures/playbook/realistic.json): runCurator
 * through the real SDK against the local Messages API, applyDelta's refusals, and the one-call
 * reflectSession on a PlaybookStore.
 */
import { memoryStore } from 'rearview/kv';
import { anthropicClient, type LlmClient } from 'rearview/llm';
import {
  applyDelta,
  type CuratorDiagnostic,
  enforceBudget,
  normalizeCuratorOperations,
  runCurator,
} from 'rearview/playbook';
import { reflectSession } from 'rearview/session';
import { playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { useMockAnthropic } from '../llm/use-mock';
import { find, fixture, names } from './curator-helpers';

const mock = useMockAnthropic();
const llm = (): LlmClient =>
  anthropicClient({ apiKey: 'k', baseURL: mock.url, retry: { random: () => 0, sleep: async () => {} } });

const reflection = {
  analysis: 'Running migrations on staging broke it; type hints helped.',
  keyPointTags: [{ name: 'pat-001', tag: 'helpful', rationale: 'used' }],
};

describe('runCurator', () => {
  it('asks for delta operations, validates, sanitizes and stamps provenance', async () => {
    mock.script([
      {
        kind: 'json',
        text: JSON.stringify({
          reasoning: 'new mistake; sharpen pat-001; pat-005 and pat-008 say the same',
          operations: [
            {
              type: 'ADD',
              section: 'mis',
              text: 'Back up the staging DB\u200b before\nmigrating.',
              name: 'mis-002',
            },
            { type: 'update', name: '[pat-001]', text: 'Add type hints before refactoring.' },
            {
              type: 'MERGE',
              names: ['pat-005', 'pat-008'],
              into: 'pat-005',
              text: 'Prefer small pure functions.',
            },
            { type: 'UPDATE', text: 'no target here' },
            { type: 'REMOVE' },
            { type: 'RENAME', name: 'pat-001' },
          ],
        }),
      },
    ]);
    const diagnostics: CuratorDiagnostic[] = [];
    const out = await runCurator(reflection, fixture(), {
      llm: llm(),
      source: { session: 'sess-42', traceRefs: ['trace-7'] },
      onDiagnostic: (d) => diagnostics.push(d),
    });
    const source = { session: 'sess-42', traceRefs: ['trace-7'] };
    expect(out.called).toBe(true);
    expect(out.reasoning).toContain('pat-005 and pat-008');
    expect(out.operations).toEqual([
      { type: 'ADD', section: 'MISTAKES TO AVOID', text: 'Back up the staging DB before migrating.', source },
      { type: 'UPDATE', name: 'pat-001', text: 'Add type hints before refactoring.', source },
      {
        type: 'MERGE',
        names: ['pat-005', 'pat-008'],
        into: 'pat-005',
        text: 'Prefer small pure functions.',
        source,
      },
    ]);
    expect(out.rejected.map((r) => r.reason)).toEqual([
      'UPDATE without a target name',
      'REMOVE without a target name',
      'unknown operation type "RENAME"',
    ]);
    expect(diagnostics[0]).toMatchObject({ stage: 'shape', code: 'reply_partial' });
    const prompt = (mock.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    expect(prompt).toContain('- [pat-001] (helpful=7, harmful=0) Add type hints');
    expect(prompt).toContain('Running migrations on staging broke it');
    expect(prompt).toContain('- pat-001: helpful — used');

    const applied = applyDelta(fixture(), out.operations, { now: () => '2026-01-01T00:00:00.000Z' });
    expect(applied.rejected).toEqual([]);
    const added = applied.playbook.sections['MISTAKES TO AVOID'].at(-1)!;
    expect(added).toMatchObject({ name: 'mis-006', helpful: 0, harmful: 0, source });
    expect(find(applied.playbook, 'pat-005')).toMatchObject({
      helpful: 5,
      harmful: 0,
      text: 'Prefer small pure functions.',
    });
    expect(find(applied.playbook, 'pat-008')).toBeUndefined();
  });

  it('skips the call on an empty reflection and never rejects on failures', async () => {
    expect(await runCurator({ analysis: '', keyPointTags: [] }, fixture(), { llm: llm() })).toMatchObject({
      called: false,
      operations: [],
    });
    expect(mock.requests).toHaveLength(0);
    mock.script([{ kind: 'status', status: 503 }]);
    const d: CuratorDiagnostic[] = [];
    const out = await runCurator(reflection, fixture(), { llm: llm(), onDiagnostic: (x) => d.push(x) });
    expect(out.operations).toEqual([]);
    expect(mock.requests).toHaveLength(4);
    expect(d[0]).toMatchObject({ stage: 'llm', code: 'llm_server' });
    mock.script([{ kind: 'json', text: 'no idea' }]);
    expect((await runCurator(reflection, fixture(), { llm: llm() })).operations).toEqual([]);
  });

  it('caps the number of operations', () => {
    const ops = Array.from({ length: 5 }, (_, i) => ({ type: 'REMOVE', name: `pat-00${i + 1}` }));
    const out = normalizeCuratorOperations(ops, { maxOperations: 3 });
    expect(out.operations).toHaveLength(3);
    expect(out.rejected.map((r) => r.reason)).toEqual([
      'over the limit of 3 operations',
      'over the limit of 3 operations',
    ]);
  });
});

describe('applyDelta: deterministic, targets never redirected', () => {
  it('rejects missing targets with a reason and allocates ids without reuse', () => {
    const pb = fixture();
    const { playbook, applied, rejected, highWater } = applyDelta(
      pb,
      [
        { type: 'UPDATE', name: 'pat-099', text: 'x' },
        { type: 'REMOVE', name: 'pat-008' },
        { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'new one' },
        { type: 'MERGE', names: ['pat-001', 'pat-404'], text: 'merged' },
        { type: 'UPDATE', name: 'pat-008', text: 'gone already' },
      ],
      { now: () => 't' },
    );
    expect(rejected.map((r) => r.reason)).toEqual([
      'key point pat-099 not found',
      'key points not found: pat-404',
      'key point pat-008 not found',
    ]);
    expect(applied.map((a) => a.type)).toEqual(['REMOVE', 'ADD']);
    expect(names(playbook)).toContain('pat-009'); // pat-008 removed, never reused
    expect(names(playbook)).not.toContain('pat-008');
    expect(highWater.pat).toBe(9);
    expect(find(playbook, 'pat-001')).toEqual(find(pb, 'pat-001'));
  });
});

describe('reflectSession', () => {
  it('cites, reflects, tags, dedups, curates, enforces the budget and saves each step through the store', async () => {
    const store = playbookStore(memoryStore(), { broadcast: false, onWarning: () => {} });
    await store.save('team', fixture());
    mock.script([
      {
        kind: 'json',
        text: JSON.stringify({
          analysis: 'Type hints helped; the assistant ran migrations against staging.',
          bullet_tags: [
            { name: 'pat-001', tag: 'helpful', rationale: 'cited and applied' },
            { name: 'mis-002', tag: 'harmful', rationale: 'ignored' },
            { name: 'pat-999', tag: 'helpful', rationale: 'phantom' },
          ],
        }),
      },
      {
        kind: 'json',
        text: JSON.stringify({
          reasoning: 'record the lesson',
          operations: [
            {
              type: 'ADD',
              section: 'MISTAKES TO AVOID',
              text: 'Confirm the target database before running migrations.',
            },
            { type: 'UPDATE', name: 'pat-404', text: 'redirect me?' },
          ],
        }),
      },
    ]);
    const messages = [
      { role: 'user', content: 'migrate the db, my email is jane@corp.io' },
      { role: 'assistant', content: 'Per [pat-001] I typed it first; running migrations now.' },
    ];
    const out = await reflectSession(messages, store, {
      llm: llm(),
      id: 'team',
      source: { session: 'sess-9', traceRefs: ['tr-1'] },
      budget: { maxTokens: 450 },
    });
    expect(out.citedIds).toEqual(['pat-001']);
    expect(out.tags.applied).toBe(2);
    expect(out.tags.skipped.map((s) => s.reason)).toEqual(['unknown key point "pat-999"']);
    expect(out.merged.map((g) => g.into)).toEqual(['pat-005', 'mis-003']);
    expect(out.curator.operations).toHaveLength(2);
    expect(out.rejected).toEqual([
      {
        op: {
          type: 'UPDATE',
          name: 'pat-404',
          text: 'redirect me?',
          source: { session: 'sess-9', traceRefs: ['tr-1'] },
        },
        reason: 'key point pat-404 not found',
      },
    ]);
    const added = out.applied.find((a) => a.type === 'ADD') as { name: string };
    expect(added.name).toBe('mis-006');
    expect(out.evicted.length).toBeGreaterThan(0);
    expect(out.evicted.map((e) => e.name)).not.toContain('mis-006'); // just added: protected
    const saved = await store.load('team');
    expect(saved).toEqual(out.playbook);
    expect(find(saved, 'pat-001')).toMatchObject({ helpful: 8 });
    expect(find(saved, 'mis-006')).toMatchObject({ source: { session: 'sess-9', traceRefs: ['tr-1'] } });
    expect(enforceBudget(saved, { maxTokens: 450 }).evicted).toEqual([]);
    // The Reflector prompt was redacted; every step is a logged version.
    expect(JSON.stringify(mock.requests[0]!.body)).not.toContain('jane@corp.io');
    const history = await store.history('team');
    expect(history.filter((h) => h.type === 'version').length).toBeGreaterThanOrEqual(4);
    store.close();
  });

  it('a failing model degrades to no change', async () => {
    const store = playbookStore(memoryStore(), { broadcast: false, onWarning: () => {} });
    await store.save('x', fixture());
    mock.script([{ kind: 'status', status: 400 }]);
    const out = await reflectSession([{ role: 'assistant', content: 'hi' }], store, {
      llm: llm(),
      id: 'x',
      dedup: false,
    });
    expect(out.reflection).toEqual({ analysis: '', keyPointTags: [] });
    expect(out.curator.called).toBe(false);
    expect(out.applied).toEqual([]);
    expect(await store.load('x')).toEqual(fixture());
    store.close();
  });
});
