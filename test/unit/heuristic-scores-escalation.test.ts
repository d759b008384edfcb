/**
 * `llmReflect`'s escalation (rearview/llm-reflect) through the real SDK against the local Messages API
 * server: only the uncertain turns are sent, redacted, and the verdicts decide them.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ESCALATION_BAND, heuristicReflect, type MessageLike } from '../../lib/heuristic/index';
import { anthropicClient } from '../../lib/llm/index';
import { llmReflect } from '../../lib/llm-reflect/index';
import { useMockAnthropic } from '../llm/use-mock';
import { reply, user } from './heuristic-scores-helpers';

describe('llmReflect escalation (real SDK, local Messages API server)', () => {
  const mock = useMockAnthropic();
  const conversation: MessageLike[] = [
    { id: 'u0', role: 'user', content: 'Add a footer to the page, mail jane@corp.io for the copy' },
    { id: 'a0', role: 'assistant', content: 'Added a footer.' },
    { id: 't0', role: 'tool', content: 'Edit(footer.tsx)…\nInterrupted by user' },
    { id: 'u1', role: 'user', content: 'Use the other layout file, jane@corp.io knows which.' },
    { id: 'a1', role: 'assistant', content: 'Moved it.' },
    { id: 'u2', role: 'user', content: 'No, that is wrong.' },
    { id: 'u3', role: 'user', content: 'What is a cafe latte?' },
  ];

  it('sends only the uncertain turns, redacted, in one batch, and keeps the sure ones locally', async () => {
    mock.script([{ kind: 'json', text: '{"verdicts": [{"ref": "t1", "categories": ["correction"]}]}' }]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    const insights = await llmReflect(conversation, { llm, escalate: true });
    expect(mock.requests).toHaveLength(1);
    const prompt = (mock.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    expect(prompt).toContain('[t1]');
    expect(prompt).not.toContain('[t2]');
    expect(prompt).toContain('Use the other layout file');
    // The message just before the uncertain turn is shown as what it answers.
    expect(prompt).toContain(
      '(the assistant had said: Edit(footer.tsx)…\nInterrupted by user)\nuser: Use the other',
    );
    expect(prompt).not.toContain('No, that is wrong');
    expect(prompt).not.toContain('cafe latte');
    expect(prompt).not.toContain('jane@corp.io');
    expect(insights.map((i) => [i.category, i.traceRefs[0], i.tags.includes('escalated')])).toEqual([
      ['correction', 'message:u1', true],
      ['correction', 'message:u2', false],
    ]);
  });

  it('shows a block-array reply as context too (its text blocks)', async () => {
    mock.script([{ kind: 'json', text: '{"verdicts": []}' }]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    await llmReflect(
      [
        { id: 'a0', role: 'assistant', content: [{ type: 'text', text: 'Renamed the helper.' }] },
        { id: 't0', role: 'tool', content: [{ type: 'text', text: 'Interrupted by user' }] },
        { id: 'u1', role: 'user', content: 'Use the other layout file.' },
      ],
      { llm, escalate: true },
    );
    expect(mock.requests).toHaveLength(1);
    const prompt = (mock.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    expect(prompt).toContain(
      '(the assistant had said: Interrupted by user)\nuser: Use the other layout file.',
    );
  });

  it('with the learned scorer, the band reads its scores: exactly the turns it is unsure of are sent', async () => {
    const { correctionModel } = await import('rearview/heuristic-model');
    const conversation: MessageLike[] = [
      { id: 'u0', role: 'user', content: 'Add a footer to the page, mail jane@corp.io for the copy' },
      { id: 'a0', role: 'assistant', content: 'Added a footer.' },
      { id: 'u1', role: 'user', content: 'why is the footer gone? ask jane@corp.io' },
      { id: 'a1', role: 'assistant', content: 'Restored it.' },
      { id: 'u2', role: 'user', content: 'No, that is wrong.' },
      { id: 'a2', role: 'assistant', content: 'Fixed.' },
      { id: 'u3', role: 'user', content: 'are you sure?' },
      { id: 'a3', role: 'assistant', content: 'Yes.' },
      // In the default band under the stop-27 weights (0.37): the turn that is sent, email and all.
      { id: 'u4', role: 'user', content: 'the footer is still missing, jane@corp.io says so' },
    ];
    const scored = heuristicReflect(conversation, { scorer: correctionModel, minScore: 0 });
    const [lo, hi] = DEFAULT_ESCALATION_BAND;
    const unsure = scored
      .filter((i) => (i.score ?? 0) >= lo && (i.score ?? 0) < hi)
      .map((i) => i.traceRefs[0]);
    const sure = scored.filter((i) => (i.score ?? 0) >= hi).map((i) => `${i.category} ${i.traceRefs[0]}`);
    expect(unsure.length).toBeGreaterThan(0);
    const refs = [...new Set(unsure)];
    mock.script([
      {
        kind: 'json',
        text: JSON.stringify({ verdicts: refs.map((_, k) => ({ ref: `t${k + 1}`, categories: [] })) }),
      },
    ]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    const insights = await llmReflect(conversation, { llm, escalate: true, scorer: correctionModel });
    expect(mock.requests).toHaveLength(1);
    const prompt = (mock.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    for (let k = 1; k <= refs.length; k++) expect(prompt).toContain(`[t${k}]`);
    expect(prompt).not.toContain(`[t${refs.length + 1}]`);
    expect(prompt).not.toContain('jane@corp.io');
    // Every turn the model dropped is gone; what the scorer was sure of stays, decided locally.
    expect(insights.map((i) => `${i.category} ${i.traceRefs[0]}`).sort()).toEqual([...sure].sort());
  });

  it('no uncertain turn, no call; a verdict of nothing drops the turn', async () => {
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    const sure = await llmReflect([reply(), user('No, that is wrong.')], { llm, escalate: true });
    expect(mock.requests).toHaveLength(0);
    expect(sure.map((i) => i.category)).toEqual(['correction']);
    mock.script([{ kind: 'json', text: '{"verdicts": [{"ref": "t1", "categories": []}]}' }]);
    const dropped = await llmReflect(conversation, { llm, escalate: { batchSize: 1 } });
    expect(mock.requests).toHaveLength(1);
    expect(dropped.map((i) => i.traceRefs[0])).toEqual(['message:u2']);
    // The verdict decides the category: friction, not the correction the heuristics half-saw.
    mock.script([{ kind: 'json', text: '{"verdicts": [{"ref": "t1", "categories": ["friction"]}]}' }]);
    const friction = await llmReflect(conversation, { llm, escalate: true });
    expect(friction.map((i) => [i.category, i.traceRefs[0]])).toEqual([
      ['friction', 'message:u1'],
      ['correction', 'message:u2'],
    ]);
  });
});
