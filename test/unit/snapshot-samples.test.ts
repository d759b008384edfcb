/**
 * The categoriser on the playground's bundled samples (eval/snapshot/samples.ts, SAMPLES.md): the entries
 * a blind judgement found the old categoriser got wrong and the current one gets right still change that way,
 * and land where the playground's deterministic column shows them (e2e/snapshot-samples.spec.ts reads
 * the same entries in the browser). Also: samples.ts parses like the playground, and the snapshot of
 * every bundled sample is deterministic.
 */
import { deterministicSnapshot, type SnapshotCategory, snapshotJson } from 'rearview/snapshot';
import { describe, expect, it } from 'vitest';
import {
  compareSamples,
  loadManifest,
  parseSample,
  readSample,
  type SampleComparison,
} from '../../eval/snapshot/samples';
import type { Label } from '../../eval/snapshot/score';
import { computeView, DEFAULT_SETTINGS, type Parsed, parseInput } from '../../playground/src/analyze';

/** Wins of the blind judgement (SAMPLES.md): old category → today's, by sample. */
const FIXED: { sample: string; text: string; old: Label; now: Label; listed?: Label }[] = [
  // A diagnosis of the bug being worked on is a blocker.
  {
    sample: 'swe-agent',
    text: 'The issue is indeed caused by a missing colon at the end of the function definition line for `division`.',
    old: 'irrelevant',
    now: 'blockers',
  },
  // Plans ("Let's…"), also after a done clause, are next actions.
  { sample: 'swe-agent', text: "Let's fix this by editing the file.", old: 'irrelevant', now: 'nextActions' },
  {
    sample: 'swe-agent',
    text: "Now that the fix is verified, let's submit our changes.",
    old: 'irrelevant',
    now: 'nextActions',
  },
  // A plan that mentions "the error" is not a blocker; the call right after it carries it out.
  {
    sample: 'claude-jsonl',
    text: 'Let me check the project structure and try running the server to see the error.',
    old: 'blockers',
    now: 'nextActions',
    listed: 'irrelevant',
  },
  { sample: 'anthropic', text: 'The bug is in csv.ts.', old: 'irrelevant', now: 'blockers' },
  // A plan, but the tool call right after it carries it out: the snapshot lists it nowhere.
  {
    sample: 'anthropic',
    text: 'I will look at the job log first.',
    old: 'irrelevant',
    now: 'nextActions',
    listed: 'irrelevant',
  },
  { sample: 'openai', text: 'That is wrong, I said skip the header.', old: 'irrelevant', now: 'blockers' },
  // Optional advice is not a plan.
  {
    sample: 'sharegpt',
    text: 'You can adjust this delay to suit your needs.',
    old: 'nextActions',
    now: 'irrelevant',
  },
];

const CATS: SnapshotCategory[] = [
  'openHypotheses',
  'blockers',
  'nextActions',
  'unresolvedQuestions',
  'requiredEvidenceLinks',
];

const manifest = loadManifest();

function parsed(id: string): { text: string; p: Parsed } {
  const s = manifest.find((m) => m.id === id);
  if (!s) throw new Error(`no sample ${id}`);
  const text = readSample(s);
  const r = parseInput(text);
  if (!r.ok) throw new Error(r.error.message);
  return { text, p: r.value };
}

const playgroundParse = (text: string) => {
  const r = parseInput(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.input;
};

describe('the categoriser on the bundled samples', () => {
  it("samples.ts builds the playground's entries for every sample", () => {
    for (const s of manifest) {
      const text = readSample(s);
      expect(parseSample(text).entries, s.id).toEqual(playgroundParse(text).entries);
    }
  });

  const results: SampleComparison[] = compareSamples(playgroundParse);

  it('every sample is compared, and some entries change category', () => {
    expect(results.map((r) => r.sample)).toEqual(manifest.map((s) => s.id));
    expect(results.reduce((n, r) => n + r.changes.length, 0)).toBeGreaterThan(0);
  });

  it.each(FIXED.map((f) => [f.sample, f.text.slice(0, 50), f] as const))(
    '%s: “%s…” moves as judged',
    (sample, _t, f) => {
      const r = results.find((x) => x.sample === sample)!;
      const c = r.changes.find((x) => x.text === f.text);
      expect(c, 'entry still changes category').toBeDefined();
      expect({ old: c!.old, now: c!.now }).toEqual({ old: f.old, now: f.now });

      // Where the playground's deterministic column (default settings) shows it.
      const { text, p } = parsed(sample);
      const snap = computeView(p, DEFAULT_SETTINGS, text).snapshot.trace.snapshot;
      for (const cat of CATS) expect(snap[cat].includes(f.text), cat).toBe(cat === (f.listed ?? f.now));
    },
  );

  it('plain: the failing test ("expected 200, got 500") stays a blocker (the one loss of the blind judgement, fixed)', () => {
    const failing = 'The test in test/invoices.test.ts is failing: expected 200, got 500.';
    const r = results.find((x) => x.sample === 'plain')!;
    expect(r.changes.find((x) => x.text === failing)).toBeUndefined();
    const { text, p } = parsed('plain');
    const snap = computeView(p, DEFAULT_SETTINGS, text).snapshot.trace.snapshot;
    for (const cat of CATS) expect(snap[cat].includes(failing), cat).toBe(cat === 'blockers');
  });

  it.each(manifest.map((s) => [s.id] as const))('%s: the deterministic snapshot is deterministic', (id) => {
    const a = parsed(id);
    const b = parsed(id);
    const va = computeView(a.p, DEFAULT_SETTINGS, a.text).snapshot;
    const vb = computeView(b.p, DEFAULT_SETTINGS, b.text).snapshot;
    expect(JSON.stringify(vb.trace)).toBe(JSON.stringify(va.trace));
    expect(JSON.stringify(vb.retired)).toBe(JSON.stringify(va.retired));
    // The traced and untraced builds agree, and a copy of the input gives the same bytes.
    const copy = structuredClone(a.p.input);
    expect(snapshotJson(deterministicSnapshot(copy))).toBe(snapshotJson(va.trace.snapshot));
    expect(compareSamples(playgroundParse).find((r) => r.sample === id)).toEqual(
      results.find((r) => r.sample === id),
    );
  });
});
