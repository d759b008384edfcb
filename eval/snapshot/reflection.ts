/**
 * `npm run eval:snapshot -- --reflection` (`npx tsx eval/snapshot/reflection.ts`): the deterministic and the reflected snapshot
 * on the same inputs (built from real mini-swe-agent trajectories, tools/shared/snapshot-inputs.ts), per the
 * seed's evaluation plan: net snapshot token delta, consolidation rate, fallback rate and reasons,
 * and the items each path kept or dropped. Offline: the reflection replies are replayed from
 * test/fixtures/snapshot/reflections.jsonl — SCRIPTED replies (eval/record-snapshot-fixtures.ts), not
 * a real model's, so the reflected figures show the pipeline and its gates, not Haiku's quality.
 */
import { readFileSync } from 'node:fs';
import { comparableKey } from '../../lib/categorise/index.js';
import { fixtureClient } from '../../lib/llm/index.js';
import {
  type ActiveContextSnapshot,
  CATEGORIES,
  computeTrajectoryReduction,
  deterministicSnapshotWithTrace,
} from '../../lib/snapshot/index.js';
import { buildInputs, FIXTURES, MODEL } from '../../tools/shared/snapshot-inputs.js';

const inputs = buildInputs();
if (inputs.length === 0) {
  process.stderr.write('eval:snapshot: ../shared/data/mini-swe-agent is absent, nothing to evaluate\n');
  process.exit(0);
}
const llm = fixtureClient(readFileSync(FIXTURES, 'utf8'), { model: MODEL });
let t = 0;
const now = () => (t += 1); // latency is not measured offline: a fixed clock keeps the output stable

const items = (s: ActiveContextSnapshot) => CATEGORIES.flatMap((c) => s[c].map((text) => `${c}: ${text}`));
const rows = [];
let fallbacks = 0;
const reasons: Record<string, number> = {};
let deltaSum = 0;
let deltaN = 0;
for (const { name, input } of inputs) {
  const trace = deterministicSnapshotWithTrace(input);
  const r = await computeTrajectoryReduction(input, { llm, now });
  const d = r.diagnostics;
  if (!d.reflectionUsed) {
    fallbacks++;
    reasons[d.reflectionSkippedReason!] = (reasons[d.reflectionSkippedReason!] ?? 0) + 1;
  }
  // What the reflection returned, adopted or not, for the comparison of kept items.
  const detItems = items(trace.snapshot);
  const refItems = d.reflectionUsed ? items(r.snapshot) : [];
  const refKeys = new Set(refItems.map(comparableKey));
  const detKeys = new Set(detItems.map(comparableKey));
  const reflectedSourceCount = r.kept.reduce((n, k) => n + Math.max(1, k.sources.length), 0);
  if (d.reflectionUsed && d.savingsTokens !== null) {
    deltaSum += d.savingsTokens;
    deltaN++;
  }
  rows.push({
    input: name,
    entries: input.entries.length,
    path: d.path,
    skippedReason: d.reflectionSkippedReason,
    error: d.reflectionError,
    deterministicTokens: d.deterministicTokens,
    reflectedTokens: d.reflectedTokens,
    tokenDelta: d.savingsTokens,
    reflectionInputTokens: d.reflectionInputTokens,
    reflectionOutputTokens: d.reflectionOutputTokens,
    consolidation: {
      deterministic: rate(trace.consolidatedCount, trace.candidateCount),
      reflected: d.reflectionUsed ? rate(reflectedSourceCount - r.kept.length, reflectedSourceCount) : null,
    },
    itemCounts: { deterministic: detItems.length, reflected: d.reflectionUsed ? refItems.length : null },
    keptOnlyByDeterministic: d.reflectionUsed
      ? detItems.filter((x) => !refKeys.has(comparableKey(x))).slice(0, 8)
      : [],
    keptOnlyByReflection: refItems.filter((x) => !detKeys.has(comparableKey(x))).slice(0, 8),
    droppedByReflection: d.dropped.slice(0, 6),
    droppedByDeterministic: countBy(trace.dropped.map((x) => x.reason)),
    rejectedItems: d.rejectedItems,
    retired: r.retired.length,
    logLine: d.logLine,
  });
}
const report = {
  note: 'Reflected replies are scripted (eval/record-snapshot-fixtures.ts) and replayed offline; they are not a real model.',
  inputs: rows.length,
  fallbackRate: rate(fallbacks, rows.length),
  fallbackReasons: reasons,
  meanTokenDeltaWhenReflected: deltaN ? Math.round(deltaSum / deltaN) : null,
  rows,
};
console.log(JSON.stringify(report, null, 2));
process.stderr.write(
  `eval:snapshot: ${rows.length} inputs, fallback rate ${report.fallbackRate} (${JSON.stringify(reasons)}), ` +
    `mean token delta when reflected ${report.meanTokenDeltaWhenReflected} (deterministic − reflected); ` +
    `consolidation det ${rows.map((r) => r.consolidation.deterministic).join('/')}\n`,
);

function rate(part: number, whole: number): number {
  return whole ? Math.round((part / whole) * 1000) / 1000 : 0;
}

function countBy(xs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
