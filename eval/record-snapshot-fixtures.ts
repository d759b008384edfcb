/**
 * Writes test/fixtures/snapshot/reflections.jsonl: the reflection replies `eval/snapshot.ts --reflection` replays.
 *
 * THE REPLIES ARE SCRIPTED, NOT A MODEL'S. There is no API key here, so a deterministic program plays
 * the reflector: it consolidates related entries more loosely than the deterministic path (naming the
 * merged entries, as the prompt asks), shortens items, keeps at most 12 per category, lists resolved
 * entries under `dropped` — and, on purpose, one reply adds a hallucinated blocker and one is
 * malformed, to exercise the fallbacks. Each reply is recorded under the real request key
 * (recordingClient → requestKey), so the replay is exact. Run: `npx tsx eval/record-snapshot-fixtures.ts`.
 */
import { writeFileSync } from 'node:fs';
import { estimateTokens } from '../lib/core/index.js';
import { fixturesToJsonl, type LlmClient, recordingClient } from '../lib/llm/index.js';
import {
  CATEGORIES,
  computeTrajectoryReduction,
  deterministicSnapshotWithTrace,
  REPLY_FIELDS,
  type SnapshotInput,
} from '../lib/snapshot/index.js';
import { buildInputs, FIXTURES, MODEL } from '../tools/shared/snapshot-inputs.js';

/** First clause of a text, cut at a word boundary: still a substring of its source. */
function shorten(text: string, max = 140): string {
  const clause = text.split(/(?<=[.;:])\s/)[0]!;
  if (clause.length <= max) return clause.replace(/[.;:]$/, '');
  return clause.slice(0, max).replace(/\s\S*$/, '');
}

function scriptedReply(input: SnapshotInput, variant: 'normal' | 'hallucinate' | 'malformed'): string {
  const trace = deterministicSnapshotWithTrace(input, { nearDuplicateThreshold: 0.3, maxCategoryItems: 12 });
  const reply: Record<string, unknown> = { current_objective: input.objective.split(/(?<=\.)\s/)[0] };
  for (const c of CATEGORIES) {
    reply[REPLY_FIELDS[c]] = trace.kept
      .filter((k) => k.category === c)
      .map((k) =>
        k.sources.length > 1 && c !== 'requiredEvidenceLinks'
          ? { text: shorten(k.text), sources: k.sources.filter((s) => s.startsWith('m')).slice(0, 6) }
          : c === 'requiredEvidenceLinks'
            ? k.text
            : shorten(k.text),
      )
      .map((item) => (typeof item === 'object' && item.sources.length === 0 ? item.text : item));
  }
  if (variant === 'hallucinate') {
    (reply.blockers as unknown[]).push('The CI pipeline times out on the Windows runner');
  }
  reply.dropped = trace.dropped
    .filter((d) => d.reason === 'resolved' || d.reason === 'uncategorized')
    .slice(0, 8)
    .map((d) => ({ value: shorten(d.text, 100), reason: d.reason === 'resolved' ? 'resolved' : 'stale' }));
  const json = JSON.stringify(reply, null, 2);
  if (variant === 'malformed')
    return `Here is the snapshot:\n\`\`\`json\n${json.slice(0, Math.floor(json.length * 0.6))}\n\`\`\``;
  return `\`\`\`json\n${json}\n\`\`\``;
}

const inputs = buildInputs();
const recorder = recordingClient(
  {
    async complete(request) {
      const prompt = request.messages[0]!.content;
      const i = inputs.findIndex((x) => prompt.includes(JSON.stringify(x.input.objective).slice(1, -1)));
      const variant = i === 6 ? 'hallucinate' : i === 5 ? 'malformed' : 'normal';
      const text = scriptedReply(inputs[i]!.input, variant);
      return {
        text,
        usage: { inputTokens: estimateTokens(prompt), outputTokens: estimateTokens(text) }, // estimates: no real model
        latencyMs: 0,
        model: MODEL,
      };
    },
  } satisfies LlmClient,
  { model: MODEL },
);
for (const { input } of inputs)
  await computeTrajectoryReduction(input, { llm: recorder, minSnapshotTokens: 0 });
writeFileSync(FIXTURES, fixturesToJsonl(recorder.fixtures()));
process.stderr.write(`recorded ${recorder.fixtures().length} scripted replies to ${FIXTURES}\n`);
