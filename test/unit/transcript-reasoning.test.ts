/**
 * A reasoning model's thoughts written at the start of its reply as text (`<think>…</think>` from
 * DeepSeek or Qwen through an OpenAI-compatible server, `<thinking>…</thinking>`) are not the reply:
 * passed over and counted as `thinking`, in every format read through the message converter.
 */
import { describe, expect, it } from 'vitest';
import { leadingReasoningEnd, reasoningClose } from '../../lib/transcript/formats/reasoning';
import { parseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

describe('leading reasoning in an assistant reply', () => {
  it('passes over <think>…</think> in OpenAI messages; a reply of thoughts alone is no message', () => {
    const t = parseTranscript(
      JSON.stringify([
        { role: 'user', content: 'Why does the login form reset?' },
        {
          role: 'assistant',
          content: '<think>\nThe user asks about the form.\n</think>\n\nThe key changes on every render.',
        },
        {
          role: 'assistant',
          content: '<think>only thoughts</think>',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
        },
      ]),
    );
    expect(t.messages.map((m) => [m.role, m.toolName ?? '', m.content])).toEqual([
      ['user', '', 'Why does the login form reset?'],
      ['assistant', '', 'The key changes on every render.'],
      ['assistant', 'read', '{}'],
    ]);
    expect(t.ignoredKinds?.thinking).toBe(2);
  });

  it("passes over <thinking>…</thinking> in a text block; keeps one never closed, a tag later in the reply, and a person's", () => {
    const t = parseTranscript(
      JSON.stringify([
        { role: 'user', content: [{ type: 'text', text: '<thinking>a person may type this</thinking> hi' }] },
        {
          role: 'assistant',
          content: [{ type: 'text', text: '<thinking>\nPlan the reply.\n</thinking>\nHere is the plan.' }],
        },
        { role: 'assistant', content: '<think>cut off mid-thought' },
        { role: 'assistant', content: 'Models write <think>…</think> tags.' },
      ]),
    );
    expect(t.messages.map((m) => m.content)).toEqual([
      '<thinking>a person may type this</thinking> hi',
      'Here is the plan.',
      '<think>cut off mid-thought',
      'Models write <think>…</think> tags.',
    ]);
  });

  it('knows each reasoning tag and its close, in one table for every reader', () => {
    expect(reasoningClose('  <think>')).toBe('</think>');
    expect(reasoningClose('<thinking>plan')).toBe('</thinking>');
    expect(reasoningClose('<thinking-content-7bbeb8e1>')).toBe('</thinking-content-');
    expect(reasoningClose('<thinking-content-zz>')).toBeUndefined();
    expect(reasoningClose('<thinker>')).toBeUndefined();
    expect(reasoningClose('The <think> tag')).toBeUndefined();
    expect(leadingReasoningEnd('<think>plan</think>\n\nHello')).toBe(21);
    expect(leadingReasoningEnd('<thinking-content-ab>x</thinking-content-ab> Hi')).toBe(45);
    // A close never written, or one cut before its ">", ends nothing.
    expect(leadingReasoningEnd('<think>cut off')).toBe(-1);
    expect(leadingReasoningEnd('<thinking-content-ab>x</thinking-content-ab')).toBe(-1);
  });

  it('stays linear on an opening tag that never closes', () => {
    const make = (n: number) =>
      JSON.stringify([
        { role: 'assistant', content: `<think>${'a </thin '.repeat(Math.ceil(n / 9)).slice(0, n)}` },
      ]);
    const g = measureGrowth(
      (text) => parseTranscript(text, { format: 'openai' }),
      make,
      doublings(50_000, 4),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});
