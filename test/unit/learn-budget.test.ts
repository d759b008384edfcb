/**
 * `learn` within limits: the token budget; abort; bad sources skipped and reported; sources as bytes,
 * streams and async iterables with progress; a given model asked once, its cost shown and its rewrites
 * judged.
 */
import { describe, expect, it } from 'vitest';
import { type LearnSource, learn } from '../../lib/learn/index';
import { session, three } from './learn-helpers';

describe('learn: budget, abort, bad sources, progress', () => {
  const many = (): LearnSource[] => {
    const rules = [
      'use pnpm instead of npm',
      'always run the linter before committing',
      'always keep functions under fifty lines',
    ];
    const out: LearnSource[] = [];
    for (const [i, r] of rules.entries()) {
      for (let s = 0; s < 3 - i + 1; s++)
        out.push({ name: `${i}-${s}.jsonl`, text: session(`2025-01-0${s + 1}`, `No, ${r}.`) });
    }
    return out;
  };

  it('fits the token budget, keeping the best ranked rules', async () => {
    const all = await learn(many());
    expect(all.rules).toHaveLength(3);
    const tight = await learn(many(), { budget: all.stats.tokens - 5 });
    expect(tight.rules.length).toBeLessThan(3);
    expect(tight.stats.tokens).toBeLessThanOrEqual(all.stats.tokens - 5);
    expect(tight.rules[0]!.text).toBe(all.rules[0]!.text);
    expect([...tight.rules, ...tight.overBudget].map((x) => x.text).sort()).toEqual(
      all.rules.map((x) => x.text).sort(),
    );
  });

  it('stops when the signal fires and returns what was read', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const r = await learn(many(), {
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p.files);
        if (p.files === 2) controller.abort();
      },
    });
    expect(r.aborted).toBe(true);
    expect(r.stats.files).toBe(2);
    expect(seen.slice(0, 2)).toEqual([1, 2]);
  });

  it('reports bad sources with typed codes and locations, and learns from the others', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('{"type":');
      throw new Error('disk went away');
    }
    const r = await learn(
      [
        ...three(),
        { name: 'empty.md', text: '   ' },
        { name: 'LICENSE', text: 'Permission is hereby granted, free of charge, to any person' },
        { name: 'broken.jsonl', stream: failing() },
        { name: 'nothing' } as LearnSource,
        { name: 'huge.jsonl', text: 'x'.repeat(2000) },
      ],
      { maxSourceBytes: 1000 },
    );
    expect(r.rules.map((x) => x.sessions)).toEqual([3]);
    expect(r.skipped.map((s) => [s.name, s.code])).toEqual([
      ['empty.md', 'learn_source_invalid'],
      ['LICENSE', 'learn_source_unrecognised'],
      ['broken.jsonl', 'learn_source_unreadable'],
      ['nothing', 'learn_source_invalid'],
      ['huge.jsonl', 'learn_source_too_large'],
    ]);
    for (const s of r.skipped) expect(s.reason.length).toBeGreaterThan(0);
  });

  it('reads bytes, ReadableStreams and async iterables of sources, and reports progress', async () => {
    const [a, b, c] = three().map((s) => s.text!);
    async function* sources(): AsyncGenerator<LearnSource> {
      yield { name: 'a', bytes: new TextEncoder().encode(a) };
      yield { name: 'b', stream: new Blob([b!]).stream() };
      yield { name: 'c', text: c! };
    }
    const progress: { files: number; sessions: number; rules: number }[] = [];
    const r = await learn(sources(), { onProgress: (p) => progress.push(p) });
    expect(r.rules[0]!.sessions).toBe(3);
    expect(r.stats.bytes).toBe(new TextEncoder().encode(a! + b! + c!).length);
    expect(progress.at(-1)).toMatchObject({ files: 3, sessions: 3, rules: 1 });
  });

  it('asks a given model once, after showing the estimated cost, and reports the actual cost', async () => {
    const calls: string[] = [];
    const r = await learn(three(), {
      llm: {
        async complete(req) {
          calls.push(req.messages[0]!.content);
          return {
            text: '[{"id":"r1","text":"Use pnpm, never npm."}]',
            usage: { inputTokens: 120, outputTokens: 20 },
          };
        },
      },
      confirmLlm: (cost) => cost.estimatedInputTokens > 0,
    });
    expect(calls).toHaveLength(1);
    expect(r.llm).toMatchObject({ inputTokens: 120, outputTokens: 20 });
    expect(r.llm!.estimatedInputTokens).toBeGreaterThan(0);
    expect(r.rules[0]!.text).toBe('Use pnpm, never npm.');
    const declined = await learn(three(), {
      llm: { complete: () => Promise.reject(new Error('called')) },
      confirmLlm: () => false,
    });
    expect(declined.llm?.skipped).toBe('declined');
  });

  it("judges the model's rewrites as it judges every rule: a refused one keeps the rule's own text", async () => {
    const reply = (text: string) => ({
      llm: { complete: async () => ({ text, usage: { inputTokens: 1, outputTokens: 1 } }) },
    });
    const own = (await learn(three())).rules[0]!.text;
    const garbled = await learn(three(), reply('[{"id":"r1","text":"Use `pnpm( never."}]'));
    expect(garbled.rules[0]!.text).toBe(own);
    expect(garbled.llm).toMatchObject({ rewritten: 0, dropped: 0, refused: 1 });
    const vague = await learn(three(), reply('[{"id":"r1","text":"Don\'t do that again."}]'));
    expect(vague.rules[0]!.text).toBe(own);
    expect(vague.llm?.refused).toBe(1);
    const dropped = await learn(three(), reply('[{"id":"r1","text":null}]'));
    expect(dropped.rules).toHaveLength(0);
    expect(dropped.llm).toMatchObject({ rewritten: 0, dropped: 1, refused: 0 });
    expect(dropped.filtered['model: not a standing rule']).toBe(1);
    // Not JSON at all: nothing changes, nothing throws.
    const prose = await learn(three(), reply('Sure! Here are the rules you asked for.'));
    expect(prose.rules[0]!.text).toBe(own);
    expect(prose.llm).toMatchObject({ rewritten: 0, dropped: 0, refused: 0 });
  });
});
