/**
 * Seed 001 Reflector invariants (INV-REFL-002, INV-REFL-003) as property tests: runReflector never
 * rejects whatever the model returns or throws, and applying its tags never decreases a counter.
 */
import fc from 'fast-check';
import type { LlmClient } from 'rearview/llm';
import { applyKeyPointTags, emptyPlaybook, type Playbook, runReflector } from 'rearview/playbook';
import { describe, expect, it } from 'vitest';

describe('INV-REFL-002 and INV-REFL-003 under arbitrary model output (property tests)', () => {
  /** A client that answers with whatever fast-check generates, or throws it. */
  const scripted = (reply: { throws: boolean; value: unknown }): LlmClient => ({
    async complete() {
      if (reply.throws) throw reply.value;
      return {
        text: reply.value as string,
        usage: { inputTokens: 0, outputTokens: 0 },
        latencyMs: 0,
        model: 'x',
      };
    },
  });
  const tagLike = fc.record(
    {
      name: fc.oneof(fc.constantFrom('pat-001', 'mis-001', 'oth-001', 'pat-999', '__proto__'), fc.string()),
      tag: fc.oneof(fc.constantFrom('helpful', 'harmful', 'neutral', 'HELPFUL', 'bad'), fc.anything()),
      rationale: fc.anything(),
    },
    { requiredKeys: [] },
  );
  const replyText = fc.oneof(
    fc.string(),
    fc.json(),
    fc
      .record(
        { analysis: fc.anything(), bullet_tags: fc.oneof(fc.array(tagLike), fc.anything()) },
        { requiredKeys: [] },
      )
      .map((o) => {
        try {
          return `Sure:\n\`\`\`json\n${JSON.stringify(o)}\n\`\`\``;
        } catch {
          return '{}';
        }
      }),
  );

  function seeded(): Playbook {
    const pb = emptyPlaybook();
    pb.sections['PATTERNS & APPROACHES'].push({ name: 'pat-001', text: 'use types', helpful: 3, harmful: 1 });
    pb.sections['MISTAKES TO AVOID'].push({
      name: 'mis-001',
      text: 'no broad excepts',
      helpful: 0,
      harmful: 2,
    });
    pb.sections.OTHERS.push({ name: 'oth-001', text: 'legacy tip', helpful: 0, harmful: 0 });
    return pb;
  }

  it('runReflector never rejects and always returns the seed shape; applying its tags never decreases a counter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          replyText.map((value) => ({ throws: false, value })),
          fc.anything().map((value) => ({ throws: true, value })),
          fc.anything().map((value) => ({ throws: false, value })),
        ),
        fc.anything(),
        async (reply, cited) => {
          const pb = seeded();
          const out = await runReflector([{ role: 'assistant', content: 'x' }], pb, cited as string[], {
            llm: scripted(reply),
            onDiagnostic: () => {
              throw new Error('sink failure');
            },
          });
          expect(typeof out.analysis).toBe('string');
          expect(Array.isArray(out.keyPointTags)).toBe(true);
          for (const t of out.keyPointTags) {
            expect(typeof t.name).toBe('string');
            expect(typeof t.tag).toBe('string');
          }
          const before = JSON.parse(JSON.stringify(pb)) as Playbook;
          const returned = applyKeyPointTags(pb, out.keyPointTags, { onWarning: () => {} });
          expect(returned).toBe(pb);
          for (const s of Object.keys(pb.sections) as (keyof Playbook['sections'])[]) {
            pb.sections[s].forEach((kp, i) => {
              const b = before.sections[s][i]!;
              expect(kp.helpful - b.helpful).toBeGreaterThanOrEqual(0);
              expect(kp.harmful - b.harmful).toBeGreaterThanOrEqual(0);
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a client that throws a value which cannot be printed is reported, not rethrown (found by fast-check)', async () => {
    for (const thrown of [
      { toString: 0 },
      Object.create(null),
      { code: 'llm_rate_limit', message: 'slow down' },
    ]) {
      const seen: { code: string; message: string }[] = [];
      const out = await runReflector([{ role: 'assistant', content: 'x' }], seeded(), [], {
        llm: scripted({ throws: true, value: thrown }),
        onDiagnostic: (d) => seen.push(d),
      });
      expect(out.keyPointTags).toEqual([]);
      expect(seen.length).toBe(1);
      expect(seen[0]!.message).toMatch(/^Reflector call failed: /);
    }
  });

  it('runReflector never rejects on malformed inputs (messages, playbook, options)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), async (msgs, pb) => {
        const out = await runReflector(msgs as never, pb as never, [], {
          llm: scripted({ throws: false, value: '{"analysis":"a","bullet_tags":[]}' }),
        });
        expect(out).toHaveProperty('analysis');
        expect(out).toHaveProperty('keyPointTags');
      }),
      { numRuns: 200 },
    );
    expect(await runReflector([], emptyPlaybook(), [], undefined as never)).toEqual({
      analysis: '',
      keyPointTags: [],
    });
  });
});
