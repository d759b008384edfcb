/**
 * `learn` never rejects on arbitrary sources: every bad one is a typed entry in `skipped`, and the
 * outputs of any result are well-formed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  judgeRule,
  type LearnSource,
  learn,
  refineRules,
  toJson,
  toMarkdown,
  toUnifiedDiff,
} from '../../lib/learn/index';

/** Pieces of the formats learn reads, glued in random orders with random text. */
const pieces = [
  'User: ',
  'Assistant: ',
  '\n',
  '#### ',
  '# aider chat started at 2025-01-02 10:00:00\n',
  '> ',
  '⏺ ',
  '  ⎿ ',
  'No, use pnpm instead of npm.',
  "Don't do that.",
  '<private>',
  '</private>',
  '{"type":"user","message":{"role":"user","content":"No, never push to main."},"uuid":"u1","timestamp":"2025-01-01T00:00:00Z"}',
  '{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"pytest"}}]}}',
  '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"command not found: pytest"}]}}',
  '[{"role":"user","content":"hi"}]',
  '{',
  ']',
  'sk-ant-api03-',
  '\u0000',
  '\ud800',
];

const text = fc.oneof(
  fc.string(),
  fc
    .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 })), { maxLength: 30 })
    .map((a) => a.join('')),
);

const source: fc.Arbitrary<LearnSource> = fc.oneof(
  fc.record({ name: fc.string(), text }),
  fc.record({ name: fc.string(), bytes: fc.uint8Array({ maxLength: 200 }) }),
  fc.record({
    name: fc.string(),
    text,
    modified: fc.oneof(fc.string(), fc.integer(), fc.constant(Number.NaN)),
  }),
  fc.constant({ name: 'nothing' } as LearnSource),
  fc.constant(null as unknown as LearnSource),
);

describe('learn (property)', () => {
  it('never rejects on arbitrary text sources: bad ones are typed entries of skipped', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(source, { maxLength: 6 }),
        fc.integer({ min: 0, max: 3 }),
        fc.option(fc.string(), { nil: undefined }),
        async (sources, minSessions, against) => {
          const r = await learn(sources, { minSessions, ...(against === undefined ? {} : { against }) });
          expect(r.stats.files).toBe(sources.length);
          for (const s of r.skipped) {
            expect(s.code).toMatch(/^learn_source_/);
            expect(typeof s.reason).toBe('string');
          }
          expect(() => JSON.parse(toJson(r))).not.toThrow();
          const md = toMarkdown(r);
          const diff = toUnifiedDiff(r, against ?? '', 'AGENTS.md');
          expect(diff === '' || diff.startsWith('--- a/AGENTS.md\n')).toBe(true);
          expect(md === '' || md.startsWith('## Learned from sessions\n')).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refineRules never rejects on any reply: each rule keeps its text, is dropped, or takes a rewrite the judge accepts', async () => {
    const rules = (
      await learn(
        ['2025-01-01', '2025-02-01'].map((day, i) => ({
          name: `s${i}`,
          text: `{"type":"user","message":{"role":"user","content":"Run the tests."},"uuid":"u1","timestamp":"${day}T00:00:00Z"}\n{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Ran npm test."}]},"uuid":"a1","timestamp":"${day}T00:00:01Z"}\n{"type":"user","message":{"role":"user","content":"No, use pnpm instead of npm."},"uuid":"u2","timestamp":"${day}T00:00:02Z"}`,
        })),
      )
    ).rules;
    expect(rules.length).toBeGreaterThan(0);
    const edit = fc.record({
      id: fc.oneof(fc.constant('r1'), fc.string({ maxLength: 4 })),
      text: fc.oneof(fc.constant(null), text, fc.constantFrom('Use pnpm.', 'Do that.', 'Use `x( y.')),
    });
    const reply = fc.oneof(
      text,
      fc.array(edit, { maxLength: 4 }).map((a) => JSON.stringify(a)),
      fc.array(edit, { maxLength: 4 }).map((a) => `Here you go:\n\`\`\`json\n${JSON.stringify(a)}\n\`\`\``),
    );
    await fc.assert(
      fc.asyncProperty(reply, fc.boolean(), async (answer, fails) => {
        const { rules: out, cost } = await refineRules(rules, {
          llm: {
            complete: async () => {
              if (fails) throw new Error(answer);
              return { text: answer, usage: { inputTokens: 1, outputTokens: 1 } };
            },
          },
        });
        expect(out.length).toBeLessThanOrEqual(rules.length);
        for (const r of out) {
          const before = rules.find((x) => x.id === r.id)!;
          expect(r.text === before.text || judgeRule(r.text) === undefined).toBe(true);
        }
        if (fails) {
          expect(cost.skipped).toMatch(/^failed: /);
          expect(out).toEqual(rules);
        } else expect(out.length + (cost.dropped ?? 0)).toBe(rules.length);
      }),
      { numRuns: 300 },
    );
  });
});
