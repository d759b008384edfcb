/**
 * `npm run eval:reduction` (`npx tsx eval/reduction.ts`): the deterministic reducer on the real
 * trajectories of ../shared/data/mini-swe-agent and ../shared/data/claude-code-jsonl. Per data set:
 * input tokens saved — in the final context and summed over every model call of the run (the
 * AgentDiet measure, each call seeing the run so far compacted) — and what was kept: every distinct
 * error line, every traceback line, and every line the final patch (info.submission) touches that the
 * trajectory showed before submitting. Prints JSON to stdout and a summary to stderr.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { estimateTokens } from '../lib/core/index.js';
import { compactTrajectory, isErrorLine, renderStep } from '../lib/snapshot/index.js';
import { parseTrajectory, type Step } from '../lib/transcript/index.js';

const DATA = resolve(import.meta.dirname, '../../shared/data');
const SETS = [
  { name: 'mini-swe-agent', filter: (f: string) => f.endsWith('.traj.json') },
  { name: 'claude-code-jsonl', filter: (f: string) => f.endsWith('.jsonl') },
];

function linesOf(steps: readonly Step[], from = 0, to = steps.length): Set<string> {
  const set = new Set<string>();
  for (let i = from; i < to; i++) {
    const s = steps[i]!;
    let text = renderStep(s);
    // What Write/Edit calls put in a file sits JSON-escaped in the action: read it decoded too.
    if (s.action?.startsWith('{')) {
      try {
        const a = JSON.parse(s.action) as Record<string, unknown>;
        for (const k of ['content', 'new_string', 'old_string'])
          if (typeof a[k] === 'string') text += `\n${a[k]}`;
      } catch {}
    }
    for (const line of text.split('\n')) {
      set.add(line.trim());
      set.add(stripNumber(line));
    }
  }
  return set;
}

function errorLines(steps: readonly Step[]): Set<string> {
  const out = new Set<string>();
  for (const s of steps) {
    for (const text of [s.observation, s.error]) {
      if (!text) continue;
      // Compared without a view's line-number prefix: the same code line may sit elsewhere later.
      for (const line of text.split('\n')) if (line.trim() && isErrorLine(line)) out.add(stripNumber(line));
    }
  }
  return out;
}

function tracebackLines(steps: readonly Step[]): Set<string> {
  const out = new Set<string>();
  for (const s of steps) {
    const lines = (s.observation ?? '').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('Traceback (most recent call last)')) continue;
      let j = i;
      out.add(lines[j++]!.trim());
      while (j < lines.length && /^\s/.test(lines[j]!)) out.add(lines[j++]!.trim());
      if (j < lines.length && lines[j]!.trim()) out.add(lines[j]!.trim());
    }
  }
  out.delete('');
  return out;
}

/** Lines the patch removes or adds (content only, at least 8 characters). */
function patchLines(diff: string): Set<string> {
  const out = new Set<string>();
  for (const line of diff.split('\n')) {
    if (
      (line.startsWith('-') && !line.startsWith('---')) ||
      (line.startsWith('+') && !line.startsWith('+++'))
    ) {
      const c = line.slice(1).trim();
      if (c.length >= 8) out.add(c);
    }
  }
  return out;
}

function survival(wanted: Iterable<string>, kept: Set<string>, keptText: () => string) {
  let total = 0;
  let survived = 0;
  const lost: string[] = [];
  let text: string | undefined;
  for (const line of wanted) {
    total++;
    if (kept.has(line)) {
      survived++;
      continue;
    }
    text ??= keptText();
    if (text.includes(line)) survived++;
    else if (lost.length < 5) lost.push(line.slice(0, 120));
  }
  return { total, survived, lost };
}

// COMPACT_OPTIONS='{"maxLines":30}' tries other compactTrajectory options (default: the defaults).
const OPTIONS = JSON.parse(process.env.COMPACT_OPTIONS ?? '{}');
const report: Record<string, unknown> = {};
const started = performance.now();
for (const set of SETS) {
  const dir = join(DATA, set.name);
  if (!existsSync(dir)) {
    process.stderr.write(`eval:reduction: ${dir} is absent, skipping ${set.name}\n`);
    continue;
  }
  const files = readdirSync(dir).filter(set.filter).sort();
  const rows = [];
  const agg = {
    tokensBefore: 0,
    tokensAfter: 0,
    cumulativeBefore: 0,
    cumulativeAfter: 0,
    errorLines: 0,
    errorLinesKept: 0,
    tracebackLines: 0,
    tracebackLinesKept: 0,
    patchLinesShown: 0,
    patchLinesKept: 0,
  };
  for (const file of files) {
    const traj = parseTrajectory(readFileSync(join(dir, file), 'utf8'), { lenient: true });
    const steps = traj.steps;
    const { steps: compacted, diagnostics } = compactTrajectory(steps, OPTIONS);
    // AgentDiet's measure: every call of the run re-reads the context so far. Call s sees steps 0..s,
    // compacted with what was known at s (the reducer is run on the prefix).
    let cumulativeBefore = 0;
    let cumulativeAfter = 0;
    const stepTokens = steps.map((s) => estimateTokens(renderStep(s)));
    let running = 0;
    for (let s = 0; s < steps.length; s++) {
      running += stepTokens[s]!;
      cumulativeBefore += running;
      cumulativeAfter +=
        s === steps.length - 1
          ? diagnostics.tokensAfter
          : compactTrajectory(steps.slice(0, s + 1), OPTIONS).diagnostics.tokensAfter;
    }
    const keptAll = linesOf(compacted);
    const keptText = () => compacted.map(renderStep).join('\n');
    const errors = survival(errorLines(steps), keptAll, keptText);
    const tracebacks = survival(tracebackLines(steps), keptAll, keptText);
    // Patch lines the run showed before its final (submission) step must survive in those steps.
    const last = steps.length - 1;
    const shownBefore = linesOf(steps, 0, last);
    const shownText = steps.slice(0, last).map(renderStep).join('\n');
    const submission = traj.outcome?.submission ?? '';
    const wantedPatch = [...patchLines(submission)].filter(
      (l) => shownBefore.has(l) || shownText.includes(l),
    );
    const patch = survival(wantedPatch, linesOf(compacted, 0, last), () =>
      compacted.slice(0, last).map(renderStep).join('\n'),
    );
    const row = {
      file,
      steps: steps.length,
      tokensBefore: diagnostics.tokensBefore,
      tokensAfter: diagnostics.tokensAfter,
      savedPercent: diagnostics.savedPercent,
      cumulativeSavedPercent: pct(cumulativeBefore - cumulativeAfter, cumulativeBefore),
      errorLines: `${errors.survived}/${errors.total}`,
      tracebackLines: `${tracebacks.survived}/${tracebacks.total}`,
      patchLines: submission ? `${patch.survived}/${patch.total}` : 'n/a (no submission)',
      ...(errors.lost.length || patch.lost.length || tracebacks.lost.length
        ? { lost: { errors: errors.lost, tracebacks: tracebacks.lost, patch: patch.lost } }
        : {}),
    };
    rows.push(row);
    agg.tokensBefore += diagnostics.tokensBefore;
    agg.tokensAfter += diagnostics.tokensAfter;
    agg.cumulativeBefore += cumulativeBefore;
    agg.cumulativeAfter += cumulativeAfter;
    agg.errorLines += errors.total;
    agg.errorLinesKept += errors.survived;
    agg.tracebackLines += tracebacks.total;
    agg.tracebackLinesKept += tracebacks.survived;
    agg.patchLinesShown += patch.total;
    agg.patchLinesKept += patch.survived;
  }
  const perFile = rows.map((r) => r.savedPercent).sort((a, b) => a - b);
  report[set.name] = {
    trajectories: rows.length,
    finalContext: {
      tokensBefore: agg.tokensBefore,
      tokensAfter: agg.tokensAfter,
      savedPercent: pct(agg.tokensBefore - agg.tokensAfter, agg.tokensBefore),
      medianPerTrajectory: perFile[Math.floor(perFile.length / 2)] ?? 0,
    },
    cumulativeInput: {
      tokensBefore: agg.cumulativeBefore,
      tokensAfter: agg.cumulativeAfter,
      savedPercent: pct(agg.cumulativeBefore - agg.cumulativeAfter, agg.cumulativeBefore),
    },
    kept: {
      errorLines: `${agg.errorLinesKept}/${agg.errorLines}`,
      tracebackLines: `${agg.tracebackLinesKept}/${agg.tracebackLines}`,
      patchLinesShownBeforeSubmit:
        set.name === 'mini-swe-agent' ? `${agg.patchLinesKept}/${agg.patchLinesShown}` : 'n/a',
    },
    rows,
  };
  const r = report[set.name] as {
    finalContext: { savedPercent: number };
    cumulativeInput: { savedPercent: number };
    kept: Record<string, string>;
  };
  process.stderr.write(
    `${set.name}: ${rows.length} trajectories, final context −${r.finalContext.savedPercent}%, cumulative input −${r.cumulativeInput.savedPercent}% ` +
      `(AgentDiet with an LLM: 39.9–59.7%); kept errors ${r.kept.errorLines}, tracebacks ${r.kept.tracebackLines}, patch lines ${r.kept.patchLinesShownBeforeSubmit}\n`,
  );
}
report.elapsedMs = Math.round(performance.now() - started);
report.options =
  'compactTrajectory defaults: maxLines 40, head 15, tail 10, maxLineLength 1000, keepRecent 2';
console.log(JSON.stringify(report, null, 2));

function stripNumber(line: string): string {
  return line.replace(/^\s*\d+(?:→|\t|:)/, '').trim();
}

function pct(part: number, whole: number): number {
  return whole ? Math.round((part / whole) * 1000) / 10 : 0;
}
