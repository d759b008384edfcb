/**
 * The playground's model-free core (playground/src/analyze.ts, url-state.ts) and its recorded answers:
 * every bundled sample parses with its declared format, and the offline fixtures still match the
 * requests the adapter produces (re-run playground/scripts/record-fixtures.ts when this fails).
 */
import { readFileSync } from 'node:fs';
import { fixtureClient } from 'rearview/llm';
import { computeTrajectoryReduction } from 'rearview/snapshot';
import { describe, expect, it } from 'vitest';
import { computeView, DEFAULT_SETTINGS, parseInput } from '../../playground/src/analyze';
import { RECORDED_MODEL } from '../../playground/src/fixtures-meta';
import { readUrlState, writeUrlState } from '../../playground/src/url-state';

const pub = (p: string) => readFileSync(new URL(`../../public/${p}`, import.meta.url), 'utf8');
const { samples } = JSON.parse(pub('samples/manifest.json')) as {
  samples: { id: string; file: string; format: string; licence: string; source: string }[];
};

describe('playground samples', () => {
  it.each(samples.map((s) => [s.id, s] as const))('%s parses with its declared format', (_id, s) => {
    const text = pub(`samples/${s.file}`);
    // Excerpts, not whole sessions.
    expect(text.length).toBeLessThan(60_000);
    expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[a-z]{2,}/i); // redacted before bundling
    const r = parseInput(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.format).toBe(s.format);
    expect(s.licence).toMatch(/MIT/);
    const view = computeView(r.value, DEFAULT_SETTINGS, text);
    expect(view.input.entries.length).toBeGreaterThan(0);
    expect(view.turns.length).toBeGreaterThan(0);
  });

  it('replays a recorded reflection for the console sample once the gate is under its snapshot', async () => {
    const r = parseInput(pub('samples/bookminder-day-002.md'));
    if (!r.ok) throw new Error(r.error.message);
    const llm = fixtureClient(pub('fixtures/reflections.jsonl'), { model: RECORDED_MODEL });
    // Its deterministic snapshot is under the default gate (400 tokens): no reflection, and why.
    const gated = await computeTrajectoryReduction(r.value.input, { llm });
    expect(gated.diagnostics.reflectionSkippedReason).toBe('below_threshold');
    expect(gated.diagnostics.deterministicTokens).toBeLessThan(400);
    const red = await computeTrajectoryReduction(r.value.input, { llm, minSnapshotTokens: 200 });
    expect(red.diagnostics.reflectionError).toBeNull();
    expect(red.diagnostics.reflectionUsed).toBe(true);
    expect(red.kept.some((k) => k.sources.length > 1)).toBe(true);
  });

  it('reports a located error for bad JSONL', () => {
    const r = parseInput('{"role":"user","content":"a"}\n{"role":"user","content": nope}\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.line).toBe(2);
    expect(r.error.format).toBe('jsonl');
  });
});

describe('playground URL state', () => {
  it('writes only changed thresholds and reads them back, clamped', () => {
    const search = writeUrlState({
      sample: 'console',
      settings: { ...DEFAULT_SETTINGS, maxCategoryItems: 5, theta: 200 },
    });
    expect(search).toBe('?sample=console&items=5&theta=200');
    const back = readUrlState(search);
    expect(back.sample).toBe('console');
    expect(back.settings.maxCategoryItems).toBe(5);
    expect(back.settings.theta).toBe(200);
    expect(readUrlState('?items=100000&near=abc').settings.maxCategoryItems).toBe(100);
    expect(readUrlState('?near=abc').settings.nearDuplicateThreshold).toBe(
      DEFAULT_SETTINGS.nearDuplicateThreshold,
    );
    expect(writeUrlState({ sample: null, settings: DEFAULT_SETTINGS })).toBe('');
  });
});
