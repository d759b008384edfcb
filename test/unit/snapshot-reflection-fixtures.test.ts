/**
 * The scripted reflection replies `npm run eval:snapshot -- --reflection` replays
 * (test/fixtures/snapshot/reflections.jsonl) are keyed by the exact request, which holds the
 * deterministic snapshot. When the snapshot changes and the fixtures are not re-recorded
 * (`npx tsx eval/record-snapshot-fixtures.ts`), every replay misses and the report silently reads
 * "fallback rate 1 (api_error)": this test makes that a failure instead.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureClient } from '../../lib/llm/index';
import { computeTrajectoryReduction } from '../../lib/snapshot/index';
import { buildInputs, FIXTURES, MODEL } from '../../tools/shared/snapshot-inputs';

const inputs = buildInputs();

describe('recorded reflection fixtures', () => {
  it.runIf(inputs.length > 0)(
    "answer today's reflection requests (else re-record: npx tsx eval/record-snapshot-fixtures.ts)",
    async () => {
      const llm = fixtureClient(readFileSync(FIXTURES, 'utf8'), { model: MODEL });
      let t = 0;
      const reasons: string[] = [];
      for (const { name, input } of inputs) {
        const d = (await computeTrajectoryReduction(input, { llm, now: () => (t += 1) })).diagnostics;
        reasons.push(`${name}: ${d.reflectionUsed ? 'reflected' : d.reflectionSkippedReason}`);
      }
      // Two replies are scripted to fail (one malformed, one with a hallucinated blocker); none is missing.
      expect(reasons.filter((r) => r.endsWith('api_error'))).toEqual([]);
      expect(reasons.filter((r) => r.endsWith('reflected')).length).toBe(inputs.length - 2);
    },
    120_000,
  );
});
