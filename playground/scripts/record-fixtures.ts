/**
 * Writes public/fixtures/reflections.jsonl and public/fixtures/index.json: the answers the playground's
 * offline mode replays for the bundled samples.
 *
 * THE ANSWERS ARE SCRIPTED, NOT A MODEL'S. There is no API key here, so a deterministic program plays
 * the model (as eval/record-snapshot-fixtures.ts does): for the active-context snapshot it consolidates
 * related entries more loosely than the deterministic path (naming the merged entries, as the prompt
 * asks), shortens items to their first clause and keeps at most 8 per category; for AgentDiet step
 * compression it keeps error lines and lines naming files or numbers and summarises the rest. Each
 * answer is recorded under the real request key (recordingClient → requestKey) of the request the
 * playground sends (same adapter, same redaction), so the replay is exact. The UI says so.
 *
 *   npx tsx --tsconfig tsconfig.test.json playground/scripts/record-fixtures.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findLinks } from 'rearview/categorise';
import { isErrorLine, reduceTrajectory } from 'rearview/compress';
import { estimateTokens } from 'rearview/core';
import { fixturesToJsonl, type LlmClient, type LlmRequest, recordingClient } from 'rearview/llm';
import {
  CATEGORIES,
  computeTrajectoryReduction,
  deterministicSnapshotWithTrace,
  PARAM_DEFAULTS,
  pickParams,
  REPLY_FIELDS as SNAKE,
  type SnapshotInput,
} from 'rearview/snapshot';
import { parseInput } from '../src/analyze';
import { RECORDED_MODEL, RECORDED_THETAS } from '../src/fixtures-meta';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLES = join(ROOT, 'public/samples');
const OUT = join(ROOT, 'public/fixtures');

function shorten(text: string, max = 120): string {
  const clause = text.split(/(?<=[.;:!?])\s/)[0]!;
  if (clause.length <= max) return clause.replace(/[.;:]$/, '');
  return clause.slice(0, max).replace(/\s\S*$/, '');
}

const COMMON = new Set([
  'should',
  'would',
  'could',
  'there',
  'their',
  'about',
  'these',
  'those',
  'which',
  'where',
  'while',
  'after',
  'before',
  'first',
  'using',
  'update',
  'files',
  'because',
]);

/** Words of six letters or more that are not common: what a model would group related items by. */
function distinctive(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9_]+/)
      .filter((w) => w.length >= 6 && !COMMON.has(w)),
  );
}

function scriptedSnapshot(input: SnapshotInput): string {
  const trace = deterministicSnapshotWithTrace(input, { nearDuplicateThreshold: 0.3, maxCategoryItems: 8 });
  const reply: Record<string, unknown> = { current_objective: shorten(input.objective, 160) };
  for (const c of CATEGORIES) {
    const kept = trace.kept.filter((k) => k.category === c);
    if (c === 'requiredEvidenceLinks') {
      reply[SNAKE[c]] = kept.map((k) => k.text);
      continue;
    }
    // Like a model would: items that share a distinctive word are merged into the first one.
    const groups: { text: string; sources: string[]; words: Set<string> }[] = [];
    for (const k of kept) {
      const words = distinctive(k.text);
      const sources = k.sources.filter((s) => s.startsWith('m'));
      const into = groups.find((g) => g.sources.length < 6 && [...words].some((w) => g.words.has(w)));
      if (into) {
        into.sources.push(...sources);
        for (const w of words) into.words.add(w);
      } else groups.push({ text: k.text, sources: [...sources], words });
    }
    reply[SNAKE[c]] = groups.map((g) =>
      g.sources.length > 1
        ? { text: shorten(g.text), sources: [...new Set(g.sources)].slice(0, 6) }
        : shorten(g.text),
    );
  }
  reply.dropped = trace.dropped
    .filter((d) => d.reason === 'resolved' || d.reason === 'uncategorized' || d.reason === 'over_cap')
    .slice(0, 8)
    .map((d) => ({
      value: shorten(d.text, 100),
      reason: d.reason === 'resolved' ? 'resolved' : d.reason === 'over_cap' ? 'superseded' : 'stale',
    }));
  return `\`\`\`json\n${JSON.stringify(reply, null, 2)}\n\`\`\``;
}

function scriptedCompression(prompt: string): string {
  const m = /<target label="[^"]*">[\s\S]*?<output>\n([\s\S]*?)\n<\/output>\n<\/target>/.exec(prompt);
  const lines = (m?.[1] ?? '').split('\n');
  const out: string[] = [];
  let skipped = 0;
  const flush = () => {
    if (skipped) out.push(`…(${skipped} line${skipped === 1 ? '' : 's'} of output without paths or errors)`);
    skipped = 0;
  };
  let kept = 0;
  for (const line of lines) {
    const keep = isErrorLine(line) || ((findLinks(line).length > 0 || /\b\d+:\d+\b/.test(line)) && kept < 12);
    if (keep) {
      flush();
      out.push(line);
      kept++;
    } else skipped++;
  }
  flush();
  return `<compressed>\n${out.join('\n')}\n</compressed>`;
}

function scripted(request: LlmRequest): string {
  const prompt = request.messages[0]!.content;
  return prompt.includes('<target label=') ? scriptedCompression(prompt) : '';
}

const inputs = new Map<string, SnapshotInput>();
const recorder = recordingClient(
  {
    async complete(request) {
      const prompt = request.messages[0]!.content;
      let text = scripted(request);
      if (!text) {
        const input = [...inputs.values()].at(-1)!;
        text = scriptedSnapshot(input);
      }
      return {
        text,
        usage: {
          inputTokens: estimateTokens(`${request.system ?? ''}${prompt}`),
          outputTokens: estimateTokens(text),
        },
        latencyMs: 0,
        model: RECORDED_MODEL,
      };
    },
  } satisfies LlmClient,
  { model: RECORDED_MODEL },
);

const manifest = JSON.parse(readFileSync(join(SAMPLES, 'manifest.json'), 'utf8')) as {
  samples: { id: string; file: string }[];
};
const index: Record<string, { snapshot: string; reduction: number }> = {};
for (const s of manifest.samples) {
  const text = readFileSync(join(SAMPLES, s.file), 'utf8');
  const parsed = parseInput(text);
  if (!parsed.ok) throw new Error(`${s.file}: ${parsed.error.message}`);
  inputs.set(s.id, parsed.value.input);
  const before = new Set(recorder.fixtures().map((f) => f.key));
  const r = await computeTrajectoryReduction(parsed.value.input, {
    llm: recorder,
    minSnapshotTokens: 0,
    minSavingsTokens: 0,
  });
  const key = recorder.fixtures().find((f) => !before.has(f.key))?.key ?? '';
  let reduction = 0;
  const steps = parsed.value.trajectory?.steps;
  if (steps?.length) {
    for (const theta of RECORDED_THETAS) {
      const red = await reduceTrajectory(steps, {
        llm: recorder,
        ...pickParams(PARAM_DEFAULTS, 'diet'),
        theta,
      });
      reduction += red.diagnostics.calls;
    }
  }
  index[s.id] = { snapshot: key, reduction };
  process.stderr.write(
    `${s.id}: snapshot ${r.diagnostics.deterministicTokens} → ${r.diagnostics.reflectedTokens} tokens (${r.diagnostics.path}${r.diagnostics.reflectionSkippedReason ? `, ${r.diagnostics.reflectionSkippedReason}: ${r.diagnostics.reflectionError}` : ''}); ${reduction} compression calls\n`,
  );
}
writeFileSync(join(OUT, 'reflections.jsonl'), fixturesToJsonl(recorder.fixtures()));
writeFileSync(
  join(OUT, 'index.json'),
  `${JSON.stringify({ model: RECORDED_MODEL, samples: index }, null, 2)}\n`,
);
process.stderr.write(`recorded ${recorder.fixtures().length} scripted answers\n`);
