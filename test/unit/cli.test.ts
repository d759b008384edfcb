/**
 * The CLI (cli/*.ts built to dist/cli/rearview.js, Node only, on the built dist/lib) in-process through
 * the exported main() (fast): every shared data file, failure lessons in the report, and the thresholds
 * the Tune sliders, the playground URL and the CLI flags share. The spawned binary: cli-report.test.ts
 * and cli-binary.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as snapshotLib from 'rearview/snapshot';
import { PARAM_NAMES, PARAM_SPECS } from 'rearview/snapshot';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../playground/src/analyze';
import { SLIDER_GROUPS } from '../../playground/src/sliders';
import { readUrlState, writeUrlState } from '../../playground/src/url-state';
import { failureSession } from '../fixtures/failure-session';
import { inProcess, parseArgs, root, tmp, useBuiltCli } from './cli-helpers';

const DATA = join(root, '../shared/data');
const hasData = existsSync(DATA);

useBuiltCli();
function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => (statSync(join(dir, e)).isDirectory() ? walk(join(dir, e)) : [join(dir, e)]));
}

/**
 * Files of the shared data that are not transcripts or trajectories (licences, notes, a model's
 * summaries saved without the request, and aider/SOURCES.jsonl: one provenance record per history,
 * JSONL whose lines are not messages). The two summaries saved with their `<user>` request are chats.
 */
const NOT_A_TRANSCRIPT =
  /(?:LICENSE(?:\.md)?|SOURCES?\.(?:txt|jsonl)|README\.md|results_summary\.json|gemini-summary-day-00(?:6-007|8-009)\.md|day-001\.md)$/;

describe.skipIf(!hasData)('every shared data file (in-process)', () => {
  it('transcripts and trajectories exit 0 with insights and a snapshot; other files exit 1, located', async () => {
    const files = walk(DATA);
    expect(files.length).toBeGreaterThan(300);
    const failures: string[] = [];
    let ok = 0;
    for (const file of files) {
      const r = await inProcess(['reflect', file, '--json']);
      if (NOT_A_TRANSCRIPT.test(file)) {
        // Text is located by line; a JSON value of no known shape is named by its keys.
        const located = file.endsWith('.json')
          ? /^rearview: .+: \[auto\] The object has none of the keys of a known format .+\n$/
          : /^rearview: .+:\d+(?::\d+)?: \[\w+\] .+\n$/;
        if (r.code !== 1 || !located.test(r.stderr)) {
          failures.push(`${file}: expected a located input error, got ${r.code} ${r.stderr.slice(0, 200)}`);
        }
        continue;
      }
      if (r.code !== 0) {
        failures.push(`${file}: exit ${r.code}: ${r.stderr.slice(0, 300)}`);
        continue;
      }
      const out = JSON.parse(r.stdout);
      if (!Array.isArray(out.insights) || typeof out.snapshot?.currentObjective !== 'string' || !out.format) {
        failures.push(`${file}: incomplete output`);
      }
      ok++;
    }
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(300);
    console.log(`cli: ${ok} shared files read`);
    // Every shared file (300+) in one test: on a busy machine that is minutes, not the default 30 s.
  }, 600_000);

  it('prints a readable report, and the reduction report with --reduce', async () => {
    const traj = walk(join(DATA, 'mini-swe-agent')).find((f) => f.endsWith('.traj.json'))!;
    const r = await inProcess(['reflect', traj, '--reduce']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: mini-swe-agent trajectory · \d+ messages · \d+ steps/);
    expect(r.stdout).toContain('Insights (');
    expect(r.stdout).toContain('Snapshot (deterministic');
    expect(r.stdout).toMatch(/Reduction\n {2}reflection: skipped \(\w+\)/);
    expect(r.stdout).toMatch(/step compaction: \d+ → \d+ tokens/);
    const j = JSON.parse((await inProcess(['reflect', traj, '--reduce', '--json'])).stdout);
    expect(j.reduction.diagnostics.reflectionUsed).toBe(false);
    expect(j.reduction.compaction.tokensAfter).toBeLessThanOrEqual(j.reduction.compaction.tokensBefore);
    const console = join(DATA, 'claude-code-console/day-002.md');
    const c = JSON.parse((await inProcess(['reflect', console, '--json'])).stdout);
    expect(c.format).toBe('claude-code-console');
    expect(c.insights.some((i: { category: string }) => i.category === 'correction')).toBe(true);
  });
});

describe('failure lessons in the report', () => {
  it('says when a fix was a one-off, which proposes no key point', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rearview-cli-'));
    const file = join(dir, 'session.json');
    writeFileSync(file, JSON.stringify(failureSession()));
    try {
      const r = await inProcess(['reflect', file]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('change `test:e2e` to `test:e2e:ci`');
      expect(r.stdout).toContain('(a one-off fix: not proposed as a key point)');
      expect(r.stdout).toMatch(/Key points \(0\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('thresholds: the Tune sliders, the playground URL and the CLI flags take the same ranges', () => {
  const chat = JSON.stringify(
    Array.from({ length: 12 }, (_, i) => [
      { role: 'user', content: `Step ${i}: the build fails in lib/mod${i}.ts, please look at it.` },
      { role: 'assistant', content: `Next I will check lib/mod${i}.ts and run the tests again.` },
    ]).flat(),
  );

  it('every parameter, from its one spec (rearview/snapshot PARAM_SPECS)', async () => {
    const file = join(tmp, 'params-chat.json');
    writeFileSync(file, chat);
    const help = (await inProcess(['--help'])).stdout;
    const sliders = new Map(SLIDER_GROUPS.flatMap((g) => g.specs).map((s) => [s.name, s]));
    // Every parameter has its flag (AgentDiet's b and θ included).
    const cliParams: readonly string[] = PARAM_NAMES;
    for (const name of PARAM_NAMES) {
      const spec = PARAM_SPECS[name];
      const { min, max, step, query, flag } = spec;
      // The slider.
      expect(sliders.get(name), name).toMatchObject({ min, max, step });
      // The URL: clamped to the same range, written only when not the default.
      const url = (v: number) => readUrlState(`?${query}=${v}`).settings[name];
      expect(url(max + step), name).toBe(max);
      expect(url(min - step), name).toBe(min);
      expect(url(max), name).toBe(max);
      expect(readUrlState('').settings[name]).toBe(spec.default);
      expect(DEFAULT_SETTINGS[name]).toBe(spec.default);
      expect(writeUrlState({ sample: null, settings: { ...DEFAULT_SETTINGS, [name]: max } })).toBe(
        `?${query}=${max}`,
      );
      // The CLI: the same range, refused (exit 2) outside it.
      if (!cliParams.includes(name)) {
        expect((await inProcess(['reflect', file, `--${flag}`, String(max)])).stderr).toContain(
          `unknown option --${flag}`,
        );
        continue;
      }
      expect(help).toContain(`--${flag} <n>`);
      expect(help).toContain(`${min}–${max} ${spec.unit}, default ${spec.default}.`);
      for (const [ok, value] of [
        [`--${flag}=${min}`, min],
        [`--${flag}=${max}`, max],
      ] as const) {
        const r = await inProcess(['reflect', file, '--json', '--reduce', ok]);
        expect(r.code, `${ok}: ${r.stderr}`).toBe(0);
        // Accepted is not enough: the value must reach the parameter it names, in both spellings.
        expect(parseArgs(['reflect', file, ok], snapshotLib).params, ok).toEqual({ [name]: value });
        expect(parseArgs(['reflect', file, `--${flag}`, String(value)], snapshotLib).params).toEqual({
          [name]: value,
        });
      }
      const bad = [max + step, min - step, ...(spec.integer ? [min + 0.5] : [])];
      for (const v of bad) {
        const r = await inProcess(['reflect', file, `--${flag}`, String(v)]);
        expect(r.code, `--${flag} ${v}`).toBe(2);
        expect(r.stderr).toContain(
          `--${flag}: must be a ${spec.integer ? 'whole number' : 'number'} from ${min} to ${max}`,
        );
      }
    }
  });

  it('the flags change the output, and the defaults leave it as it was', async () => {
    const file = join(tmp, 'params-chat.json');
    writeFileSync(file, chat);
    const run = async (...flags: string[]) => {
      const r = await inProcess(['reflect', file, '--json', '--reduce', ...flags]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const plain = await run();
    const defaults = PARAM_NAMES.filter((n) => PARAM_SPECS[n].group !== 'diet' || n === 'a').flatMap((n) => [
      `--${PARAM_SPECS[n].flag}`,
      String(PARAM_SPECS[n].default),
    ]);
    expect(await run(...defaults)).toEqual(plain);
    const lists = (o: { snapshot: Record<string, unknown> }) =>
      Object.values(o.snapshot).filter(Array.isArray) as string[][];
    expect(Math.max(...lists(plain).map((l) => l.length))).toBeGreaterThan(1);
    const capped = await run('--max-category-items', '1', '--max-text-length', '20');
    for (const list of lists(capped)) {
      expect(list.length).toBeLessThanOrEqual(1);
      for (const item of list) expect(item.length).toBeLessThanOrEqual(20);
    }
  });
});
