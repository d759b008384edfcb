/**
 * rearview/snapshot's PARAM_SPECS, the one description of the tunable numbers the playground and the
 * CLI read: its defaults are what the library does when the option is left out, every default sits in
 * its range on its step grid, and clampParam / parseParam keep to the range.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { compactTrajectory, reduceTrajectory } from 'rearview/compress';
import type { LlmClient } from 'rearview/llm';
import {
  clampParam,
  computeTrajectoryReduction,
  deterministicSnapshotWithTrace,
  type MemoryEntry,
  PARAM_DEFAULTS,
  PARAM_NAMES,
  PARAM_SPECS,
  type ParamName,
  parseParam,
  pickParams,
  REPLY_FIELDS as SNAKE,
} from 'rearview/snapshot';
import type { Step } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';
import { SLIDER_GROUPS } from '../../playground/src/sliders';

const entries: MemoryEntry[] = Array.from({ length: 120 }, (_, i) => ({
  scope: 'notes',
  key: `k${i}`,
  value: `${['Blocked: the build fails on', 'Next: check', 'Maybe the cause is', 'Why does it break'][i % 4]} module ${i % 37} in lib/part${i % 11}.ts ${'with more detail '.repeat(i % 5)}`,
  sourceIteration: i,
}));
const input = { objective: 'Fix the build of module 3', entries };

const steps: Step[] = Array.from({ length: 7 }, (_, i) => ({
  index: i,
  action: `python run.py --case ${i}`,
  tool: 'bash',
  observation: Array.from({ length: 90 }, (_, l) => `log ${l}: processing item ${l * 7 + i} ok`).join('\n'),
  source: { index: i },
}));

/** A model that records every request and never answers usefully (the gates decide before it). */
function recorder(): LlmClient & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    prompts,
    async complete(request) {
      prompts.push(JSON.stringify(request.messages));
      return { text: '{}', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, model: 'm' };
    },
  };
}

describe('PARAM_SPECS', () => {
  it('defaults are what the library does when the option is left out', async () => {
    const caps = pickParams(PARAM_DEFAULTS, 'caps');
    expect(deterministicSnapshotWithTrace(input, caps)).toEqual(deterministicSnapshotWithTrace(input));
    // A non-default value changes the result, so the comparison above can tell.
    expect(deterministicSnapshotWithTrace(input, { ...caps, maxCategoryItems: 2 })).not.toEqual(
      deterministicSnapshotWithTrace(input),
    );

    const gates = { ...caps, ...pickParams(PARAM_DEFAULTS, 'gates') };
    const withDefaults = await computeTrajectoryReduction(input, { llm: recorder(), ...gates });
    const without = await computeTrajectoryReduction(input, { llm: recorder() });
    const strip = (d: Record<string, unknown>) => ({ ...d, reflectionLatencyMs: null, logLine: '' });
    expect(strip({ ...withDefaults.diagnostics })).toEqual(strip({ ...without.diagnostics }));

    expect(compactTrajectory(steps, { keepRecent: PARAM_DEFAULTS.a })).toEqual(compactTrajectory(steps));
    expect(compactTrajectory(steps, { keepRecent: PARAM_DEFAULTS.a + 2 })).not.toEqual(
      compactTrajectory(steps),
    );

    // AgentDiet: the same calls (targets, context, θ gate) with the spec's a, b, θ as with none.
    const explicit = recorder();
    const implicit = recorder();
    const diet = pickParams(PARAM_DEFAULTS, 'diet');
    const a = await reduceTrajectory(steps, { llm: explicit, ...diet });
    const b = await reduceTrajectory(steps, { llm: implicit });
    expect(explicit.prompts.length).toBeGreaterThan(0);
    expect(explicit.prompts).toEqual(implicit.prompts);
    expect(a.diagnostics).toEqual(b.diagnostics);
    const other = recorder();
    await reduceTrajectory(steps, { llm: other, ...diet, b: PARAM_DEFAULTS.b + 1 });
    expect(other.prompts).not.toEqual(implicit.prompts);
  });

  it('each default lies in its range, on its step grid, and names a distinct URL key and flag', () => {
    for (const name of PARAM_NAMES) {
      const s = PARAM_SPECS[name];
      expect(s.name).toBe(name);
      expect(s.min).toBeLessThan(s.max);
      expect(s.default).toBeGreaterThanOrEqual(s.min);
      expect(s.default).toBeLessThanOrEqual(s.max);
      const steps = (s.default - s.min) / s.step;
      expect(Math.abs(steps - Math.round(steps)), name).toBeLessThan(1e-9);
      if (s.integer) expect(Number.isInteger(s.default) && Number.isInteger(s.step)).toBe(true);
    }
    expect(new Set(PARAM_NAMES.map((n) => PARAM_SPECS[n].query)).size).toBe(PARAM_NAMES.length);
    expect(new Set(PARAM_NAMES.map((n) => PARAM_SPECS[n].flag)).size).toBe(PARAM_NAMES.length);
  });

  it('labels are words a person reads, never the identifier (the sliders and --help show them)', () => {
    for (const name of PARAM_NAMES) {
      const label = PARAM_SPECS[name].label;
      expect(label, name).not.toBe(name);
      expect(label, name).toMatch(/ /);
      expect(label, name).not.toMatch(/\b[a-z]+[A-Z]\w*/); // no camelCase identifier inside
    }
  });

  it('clampParam always lands in range (whole where the parameter is)', () => {
    const name = fc.constantFrom(...PARAM_NAMES);
    const value = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(name, value, (n: ParamName, v: number) => {
        const s = PARAM_SPECS[n];
        const out = clampParam(n, v);
        expect(out).toBeGreaterThanOrEqual(s.min);
        expect(out).toBeLessThanOrEqual(s.max);
        if (s.integer) expect(Number.isInteger(out)).toBe(true);
        if (!Number.isFinite(v)) expect(out).toBe(s.default);
        // `===`: a value in range comes back as itself, -0 as 0 (the fuzz counterexample below).
        else if (v >= s.min && v <= s.max && (!s.integer || Number.isInteger(v)))
          expect(out === v).toBe(true);
      }),
    );
  });

  it('fuzz counterexample (seed -1163703606): clampParam(-0) is +0, and a value in range is compared with ===', () => {
    for (const n of PARAM_NAMES) {
      const out = clampParam(n, -0);
      if (PARAM_SPECS[n].min <= 0) expect(Object.is(out, 0), n).toBe(true);
    }
  });

  it('parseParam accepts exactly the values in range and names the range otherwise', () => {
    expect(parseParam('maxTextLength', '300')).toBe(300);
    expect(parseParam('nearDuplicateThreshold', '0.35')).toBe(0.35);
    for (const [name, text] of [
      ['maxTextLength', '5'],
      ['maxTextLength', '300.5'],
      ['maxCategoryItems', ''],
      ['maxCategoryItems', 'ten'],
      ['a', '0'],
      ['nearDuplicateThreshold', '1.5'],
    ] as const) {
      expect(() => parseParam(name, text)).toThrow(
        expect.objectContaining({
          code: 'validation_failed',
          message: expect.stringContaining(`${name}: must be`),
        }),
      );
    }
    expect(() => parseParam('maxTextLength', '5')).toThrow('from 20 to 2000 (got "5")');
  });

  it('the README table says what the specs say', () => {
    const readme = readFileSync(new URL('../../lib/snapshot/README.md', import.meta.url), 'utf8');
    for (const name of PARAM_NAMES) {
      const s = PARAM_SPECS[name];
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
      expect(row, name).toBeDefined();
      const cells = row!.split('|').map((c) => c.trim());
      expect(cells[2], name).toBe(String(s.default));
      expect(cells[3], name).toMatch(new RegExp(`^${s.min}–${s.max}\\b`));
      expect(cells[4], name).toBe(`\`${s.query}\``);
      expect(cells[5], name).toContain(s.flag);
    }
  });

  it('SNAKE names the reply fields of a reflected snapshot', () => {
    expect(SNAKE.openHypotheses).toBe('open_hypotheses');
    expect(SNAKE.requiredEvidenceLinks).toBe('required_evidence_links');
  });
});

describe('the Tune panel', () => {
  it('has one slider per parameter, with the spec itself (no local ranges)', () => {
    const sliders = SLIDER_GROUPS.flatMap((g) => g.specs);
    expect(sliders.map((s) => s.name).sort()).toEqual([...PARAM_NAMES].sort());
    for (const s of sliders) expect(s).toBe(PARAM_SPECS[s.name]);
  });
});
