/**
 * The model half of rearview/heuristic (rearview/llm-reflect): parseReflectionResponse on prose-wrapped,
 * malformed and arbitrary replies (property tests), and llmReflect through the real SDK against the local
 * Messages API and through fixtures.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heuristicReflect, type ReflectionInsight } from '../../lib/heuristic/index';
import { anthropicClient, fixtureClient, type LlmRequest, requestKey } from '../../lib/llm/index';
import {
  insightPrompt,
  llmReflect,
  mergeInsights,
  parseReflectionResponse,
} from '../../lib/llm-reflect/index';
import { useMockAnthropic } from '../llm/use-mock';
import { conv } from './heuristic-helpers';

describe('parseReflectionResponse', () => {
  it('reads prose-wrapped JSON, bare arrays, and skips malformed items instead of failing them all', () => {
    const reply = `Here is what I found:
{"insights": [
  {"fact": "ok", "recommendation": "do", "category": "Anti-Pattern", "confidence": "HIGH", "tags": ["a", 3], "trace_refs": ["message:m1"]},
  {"fact": "", "recommendation": "x"},
  {"fact": "no rec"},
  {"fact": "bad cat", "recommendation": "x", "category": "weather"},
  "string item",
  {"fact": "defaults", "recommendation": "x"},
  {"fact": "plural", "recommendation": "x", "category": "preferences", "confidence": "sure"}
]}
Hope it helps.`;
    expect(parseReflectionResponse(reply)).toEqual([
      {
        fact: 'ok',
        recommendation: 'do',
        category: 'anti_pattern',
        confidence: 'high',
        tags: ['a'],
        traceRefs: ['message:m1'],
      },
      {
        fact: 'defaults',
        recommendation: 'x',
        category: 'correction',
        confidence: 'medium',
        tags: [],
        traceRefs: [],
      },
      {
        fact: 'plural',
        recommendation: 'x',
        category: 'preference',
        confidence: 'medium',
        tags: [],
        traceRefs: [],
      },
    ]);
    expect(parseReflectionResponse('[{"fact":"a","recommendation":"b","category":"gotcha"}]')).toHaveLength(
      1,
    );
    expect(
      parseReflectionResponse('Example: {"x": 1}. Answer: {"insights": [{"fact":"a","recommendation":"b"}]}'),
    ).toHaveLength(1);
    expect(parseReflectionResponse('no json')).toEqual([]);
    expect(parseReflectionResponse('{"insights": "nope"}')).toEqual([]);
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.anything().map((v) => JSON.stringify(v) ?? ''),
        ),
        (text) => {
          expect(Array.isArray(parseReflectionResponse(text))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.anything(), (v) => {
        expect(
          Array.isArray(
            parseReflectionResponse(`\`\`\`json\n${JSON.stringify({ insights: [v, v] })}\n\`\`\``),
          ),
        ).toBe(true);
        expect(Array.isArray(parseReflectionResponse(v as never))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the model half', () => {
  const mock = useMockAnthropic();

  const messages = conv([
    ['user', 'Add a REST endpoint'],
    ['assistant', "I'll add a GraphQL mutation"],
    ['user', 'No, not GraphQL. I said REST endpoint.'],
  ]);
  const reply = `Sure!\n\`\`\`json\n${JSON.stringify({
    insights: [
      {
        fact: 'The user wanted REST, not GraphQL',
        recommendation: 'Confirm the API style before writing code',
        category: 'correction',
        confidence: 'high',
        tags: ['api'],
        trace_refs: ['message:t2'],
      },
      {
        fact: 'Asks for endpoints tersely',
        recommendation: 'Ask one clarifying question',
        category: 'gotcha',
      },
    ],
  })}\n\`\`\``;

  it('insightPrompt lists every turn with its reference', () => {
    const prompt = insightPrompt(messages);
    expect(prompt).toContain('[message:t2] user: No, not GraphQL. I said REST endpoint.');
    expect(prompt).toContain('[message:t1] assistant: ');
    expect(prompt).toContain('"trace_refs"');
    expect(insightPrompt([{ role: 'user', content: 'x'.repeat(5000) }], { maxMessageBytes: 10 })).toContain(
      'xxxxxxxxxx […]',
    );
  });

  it('llmReflect through anthropicClient (real SDK, local server) merges without duplicates', async () => {
    mock.script([{ kind: 'json', text: reply }]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    const insights = await llmReflect(messages, { llm });
    expect(mock.requests).toHaveLength(1);
    const body = mock.requests[0]!.body as { messages: { content: string }[]; temperature: number };
    expect(body.temperature).toBe(0);
    expect(body.messages[0]!.content).toContain('No, not GraphQL');
    // The model's correction and the heuristic one are about the same turn: one insight, refs merged.
    expect(insights.map((i) => i.category)).toEqual(['correction', 'gotcha']);
    expect(insights[0]!.fact).toBe('The user wanted REST, not GraphQL');
    expect(insights[0]!.traceRefs).toEqual(['message:t2', 'message:t0', 'message:t1']);
  });

  it('llmReflect through fixtureClient, and an unreadable reply leaves the heuristic insights', async () => {
    const request: LlmRequest = {
      messages: [{ role: 'user', content: insightPrompt(messages) }],
      maxTokens: 2048,
      temperature: 0,
    };
    const key = await requestKey(request);
    const replayed = await llmReflect(messages, { llm: fixtureClient([{ key, text: reply }]) });
    expect(replayed.map((i) => i.category)).toEqual(['correction', 'gotcha']);
    const garbage = await llmReflect(messages, {
      llm: fixtureClient([{ key, text: 'I cannot help with that.' }]),
    });
    expect(garbage).toEqual(heuristicReflect(messages));
  });

  it('a failed call rejects with the client error', async () => {
    await expect(llmReflect(messages, { llm: fixtureClient([]) })).rejects.toMatchObject({
      code: 'llm_fixture_missing',
    });
  });

  it('mergeInsights dedupes by fact and by first reference within a category', () => {
    const a: ReflectionInsight = {
      fact: 'Use REST!',
      recommendation: 'r',
      category: 'correction',
      confidence: 'high',
      tags: [],
      traceRefs: [],
    };
    const b = { ...a, fact: 'use rest', traceRefs: ['message:x'] };
    const c = { ...a, category: 'preference' as const };
    expect(mergeInsights([a], [b, c])).toEqual([{ ...a, traceRefs: ['message:x'] }, c]);
    expect(a.traceRefs).toEqual([]);
  });
});
