/**
 * Every LLM-calling function in rearview redacts by default, whatever client it is given, and can
 * be told not to. A capturing client records exactly what would have left the device.
 */
import { describe, expect, it } from 'vitest';
import { reduceTrajectory } from '../../lib/compress/index';
import type { LlmClient, LlmRequest } from '../../lib/llm/index';
import { llmCritiquer, llmGenerator, llmReviser } from '../../lib/loop/index';
import { emptyPlaybook, runCurator, runReflector } from '../../lib/playbook/index';
import { computeTrajectoryReduction } from '../../lib/snapshot/index';

const EMAIL = 'jane.doe@example.com';
const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

function capturing(reply: string) {
  const sent: LlmRequest[] = [];
  const llm: LlmClient = {
    async complete(request) {
      sent.push(request);
      return { text: reply, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, model: 'capture' };
    },
  };
  return { llm, sent, text: () => JSON.stringify(sent) };
}

const entries = Array.from({ length: 40 }, (_, i) => ({
  scope: 'notes',
  key: `k${i}`,
  value: `Blocked: the deploy to staging fails for ${EMAIL} with key ${KEY} (attempt ${i})`,
  sourceIteration: i,
}));

describe('LLM-calling functions redact by default', () => {
  it('computeTrajectoryReduction', async () => {
    const { llm, sent, text } = capturing('not json');
    await computeTrajectoryReduction(
      { objective: `Fix deploy for ${EMAIL}`, entries, tasks: [] },
      { llm, minSnapshotTokens: 0 },
    );
    expect(sent).toHaveLength(1);
    expect(text()).not.toContain(EMAIL);
    expect(text()).not.toContain(KEY);
    expect(text()).toContain('[email-1]');
  });

  it('computeTrajectoryReduction with redact: false sends the text as given', async () => {
    const { llm, text } = capturing('not json');
    await computeTrajectoryReduction(
      { objective: 'Fix deploy', entries, tasks: [] },
      { llm, minSnapshotTokens: 0, redact: false },
    );
    expect(text()).toContain(EMAIL);
  });

  it('reduceTrajectory', async () => {
    const { llm, sent, text } = capturing('... (short takeaway)');
    const observation = `${`log line for ${EMAIL} token ${KEY}\n`.repeat(200)}`;
    const steps = Array.from({ length: 5 }, (_, index) => ({
      index,
      action: `cat log${index}.txt`,
      observation,
      source: {},
    }));
    await reduceTrajectory(steps, { llm, theta: 10 });
    expect(sent.length).toBeGreaterThan(0);
    expect(text()).not.toContain(EMAIL);
    expect(text()).not.toContain(KEY);
  });

  it('the reflection loop components', async () => {
    const gen = capturing('A draft');
    await llmGenerator({ llm: gen.llm }).generate(`Write to ${EMAIL}`);
    expect(gen.text()).not.toContain(EMAIL);

    const crit = capturing('{"issues": [], "severity": 0, "score": 1, "feedback": "ok"}');
    await llmCritiquer({ llm: crit.llm }).critique(`Write to ${EMAIL}`, {
      content: `Dear ${EMAIL}`,
      score: 0,
      metadata: {},
    } as never);
    expect(crit.text()).not.toContain(EMAIL);

    const rev = capturing('{"content": "Dear [email-1], fixed", "changes": "fixed"}');
    const revised = await llmReviser({ llm: rev.llm }).revise(
      `Write to ${EMAIL}`,
      { content: `Dear ${EMAIL}`, score: 0, metadata: {} } as never,
      { issues: ['typo'], severity: 0.5, feedback: 'fix' } as never,
    );
    expect(rev.text()).not.toContain(EMAIL);
    // Placeholders in the reply are restored, so the candidate keeps the real value.
    expect(revised.content).toContain(EMAIL);
  });

  it('the Reflector and the Curator: prompts and what they return', async () => {
    const refl = capturing(JSON.stringify({ analysis: `Deploy with ${KEY}.`, bullet_tags: [] }));
    const reflection = await runReflector([{ role: 'user', content: `Mail ${EMAIL}` }], emptyPlaybook(), [], {
      llm: refl.llm,
    });
    expect(refl.text()).not.toContain(EMAIL);
    expect(reflection.analysis).toBe('Deploy with [anthropic-key-1].');

    const cur = capturing(
      JSON.stringify({ operations: [{ type: 'ADD', section: 'OTHERS', text: `Mail ${EMAIL} the ${KEY}` }] }),
    );
    const out = await runCurator({ analysis: `Ask ${EMAIL}.`, keyPointTags: [] }, emptyPlaybook(), {
      llm: cur.llm,
    });
    expect(cur.text()).not.toContain(EMAIL);
    expect(out.operations).toMatchObject([{ type: 'ADD', text: 'Mail [email-1] the [anthropic-key-1]' }]);
    const raw = await runCurator({ analysis: `Ask ${EMAIL}.`, keyPointTags: [] }, emptyPlaybook(), {
      llm: cur.llm,
      redact: false,
    });
    expect(JSON.stringify(raw.operations)).toContain(KEY);
  });
});
