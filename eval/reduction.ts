/**
 * `npm run eval:reduction` (`npx tsx eval/reduction.ts`): every reduction policy on every shared
 * trajectory (../shared/data/swe-agent, mini-swe-agent, claude-code-jsonl with its subagents).
 *
 * Per policy and group: observation tokens saved in the last model call's context and summed over
 * every call of the run (call t reads steps 0..t-1 reduced as they would be then — AgentDiet's
 * measure), tokens saved by category, the share of each call's context a prompt cache still hits,
 * and what was kept: distinct error lines, patch-touched lines, final-file-state lines.
 *
 * The final patch (a run's submission) is passed to the reducer at every call, as an offline reducer
 * would have it; a live agent has none, which the Claude Code sessions (no submission: the files an
 * Edit/Write changed stand for the patch) show.
 *
 * Tuned vs held-out: rules and thresholds were chosen looking only at swe-agent and the first 8
 * mini-swe-agent runs (alphabetical); the other 9 mini-swe-agent runs and every Claude Code session
 * are held out. Prints a table to stderr and JSON to stdout. `REDUCTION_FILES=<substring>` limits files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { observationTokens, prefixRetention } from '../lib/compress/index.js';
import { parseTrajectory, type Step } from '../lib/transcript/index.js';
import { errorLines, outputLines, patchTargets, survival } from './reduction/metrics.js';
import { CATEGORIES, compactToday, headTail, type Policy, plainMask, prune } from './reduction/policies.js';

const DATA = resolve(import.meta.dirname, '../../shared/data');
const WINDOW = 5;
const POLICIES: Policy[] = [
  headTail(),
  plainMask(3),
  plainMask(5),
  plainMask(10),
  compactToday,
  prune('prune (rules only)', {}),
  prune(`prune + window M=${WINDOW}`, { window: WINDOW }),
  prune(`prune cache-friendly M=${WINDOW}`, { window: WINDOW, cacheFriendly: true }),
];

interface Run {
  source: string;
  file: string;
  group: 'tuned' | 'held-out';
  steps: Step[];
  submission?: string;
}

function runs(): Run[] {
  const out: Run[] = [];
  const add = (source: string, dir: string, filter: RegExp, tuned: (i: number) => boolean) => {
    if (!existsSync(dir)) {
      process.stderr.write(`eval:reduction: ${dir} is absent, skipping\n`);
      return;
    }
    const only = process.env.REDUCTION_FILES;
    readdirSync(dir)
      .filter((f) => filter.test(f))
      .sort()
      .forEach((file, i) => {
        if (only && !file.includes(only)) return;
        const traj = parseTrajectory(readFileSync(join(dir, file), 'utf8'), { lenient: true });
        const submission = traj.outcome?.submission || undefined;
        out.push({ source, file, group: tuned(i) ? 'tuned' : 'held-out', steps: traj.steps, submission });
      });
  };
  add('swe-agent', join(DATA, 'swe-agent'), /\.traj$/, () => true);
  add('mini-swe-agent', join(DATA, 'mini-swe-agent'), /\.traj\.json$/, (i) => i < 8);
  const cc = join(DATA, 'claude-code-jsonl');
  add('claude-code', cc, /\.jsonl$/, () => false);
  if (existsSync(cc))
    for (const d of readdirSync(cc).sort())
      if (existsSync(join(cc, d, 'subagents')))
        add('claude-code', join(cc, d, 'subagents'), /\.jsonl$/, () => false);
  return out;
}

function editedFiles(steps: readonly Step[]): string[] {
  const out = new Set<string>();
  for (const s of steps) {
    if (s.tool !== 'Edit' && s.tool !== 'Write' && s.tool !== 'MultiEdit') continue;
    try {
      const path = (JSON.parse(s.action ?? '') as { file_path?: unknown }).file_path;
      if (typeof path === 'string') out.add(path);
    } catch {}
  }
  return [...out];
}

type Agg = Record<string, number>;
const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

const started = performance.now();
const all = runs();
const table: Record<string, Record<string, Agg>> = {};
const rows: unknown[] = [];
for (const run of all) {
  // The last step's output is read by no model call: the last call's context is steps 0..n-2.
  const prefix = run.steps.slice(0, Math.max(0, run.steps.length - 1));
  const wantErrors = errorLines(prefix);
  const targets = patchTargets(prefix, run.submission, run.submission ? [] : editedFiles(prefix));
  const groupKey = `${run.source} (${run.group})`;
  for (const policy of POLICIES) {
    const result = policy.run(prefix, run.submission);
    const kept = outputLines(result.steps);
    const errors = survival(wantErrors, kept);
    const touched = survival(targets.touched, kept);
    const finalState = survival(targets.finalState, kept);
    const cache = prefixRetention(run.steps, (p) => policy.run(p, run.submission).steps);
    const before = prefix.reduce((a, s) => a + observationTokens(s), 0);
    const after = result.steps.reduce((a, s) => a + observationTokens(s), 0);
    table[groupKey] ??= {};
    table[groupKey][policy.name] ??= {};
    const agg = table[groupKey][policy.name]!;
    const add = (k: string, v: number) => {
      agg[k] = (agg[k] ?? 0) + v;
    };
    add('runs', 1);
    add('before', before);
    add('after', after);
    add('cumBefore', cache.observationTokensBefore);
    add('cumAfter', cache.observationTokensAfter);
    add('retained', cache.retainedTokens);
    add('context', cache.contextTokens);
    add('errors', errors.total);
    add('errorsKept', errors.kept);
    add('touched', touched.total);
    add('touchedKept', touched.kept);
    add('finalState', finalState.total);
    add('finalStateKept', finalState.kept);
    for (const c of CATEGORIES) add(c, result.saved?.[c] ?? 0);
    rows.push({
      source: run.source,
      file: run.file,
      group: run.group,
      policy: policy.name,
      savedPercent: pct(before - after, before),
      cumulativeSavedPercent: cache.observationSavedPercent,
      cacheRetainedPercent: cache.retainedPercent,
      errors: `${errors.kept}/${errors.total}`,
      patchTouched: `${touched.kept}/${touched.total}`,
      finalState: `${finalState.kept}/${finalState.total}`,
      ...(result.saved ? { savedByCategory: result.saved } : {}),
      ...(errors.lost.length || touched.lost.length
        ? { lost: { errors: errors.lost, patch: touched.lost } }
        : {}),
    });
  }
}

const summary: Record<string, Record<string, unknown>> = {};
for (const [group, policies] of Object.entries(table)) {
  process.stderr.write(`\n${group}: ${Object.values(policies)[0]?.runs ?? 0} runs\n`);
  process.stderr.write(
    `${'policy'.padEnd(32)} ${'saved'.padStart(6)} ${'cumul'.padStart(6)} ${'cache'.padStart(6)}  ${'expired'.padStart(7)} ${'redund'.padStart(7)} ${'useless'.padStart(7)} ${'masked'.padStart(7)}  errors     touched    final-state\n`,
  );
  for (const [name, a] of Object.entries(policies)) {
    const s = {
      observationTokensBefore: a.before,
      observationTokensAfter: a.after,
      savedPercent: pct(a.before! - a.after!, a.before!),
      cumulativeSavedPercent: pct(a.cumBefore! - a.cumAfter!, a.cumBefore!),
      cacheRetainedPercent: pct(a.retained!, a.context!),
      savedByCategory: Object.fromEntries(CATEGORIES.map((c) => [c, a[c]])),
      errorLines: `${a.errorsKept}/${a.errors}`,
      patchTouchedLines: `${a.touchedKept}/${a.touched}`,
      finalStateLines: `${a.finalStateKept}/${a.finalState}`,
    };
    summary[group] ??= {};
    summary[group][name] = s;
    const cat = CATEGORIES.map((c) => String(a[c] ?? 0).padStart(7)).join(' ');
    process.stderr.write(
      `${name.padEnd(32)} ${`${s.savedPercent}%`.padStart(6)} ${`${s.cumulativeSavedPercent}%`.padStart(6)} ${`${s.cacheRetainedPercent}%`.padStart(6)}  ${cat}  ${s.errorLines.padEnd(10)} ${s.patchTouchedLines.padEnd(10)} ${s.finalStateLines}\n`,
    );
  }
}
process.stderr.write(
  '\nsaved: observation tokens of the last call; cumul: summed over every call; cache: share of each call a prefix cache still hits; categories in tokens (last call)\n',
);
console.log(
  JSON.stringify(
    { elapsedMs: Math.round(performance.now() - started), window: WINDOW, summary, rows },
    null,
    2,
  ),
);
