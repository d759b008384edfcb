/**
 * `pruneTrajectory`: deterministic trajectory reduction by category, the no-model counterpart of
 * AgentDiet. Only tool outputs are rewritten; thoughts and actions stay verbatim. Error lines (by
 * {@link isErrorLine}), the lines the final patch touches and the last view of each changed file
 * are never removed. Every removal is counted under its category:
 *
 * - `expired`: a file view superseded by a later view or edit of that file, an earlier run of a
 *   command that runs again later, a directory listing once a file in it was opened;
 * - `redundant`: an output (nearly) identical to an earlier kept one, progress bars, install logs,
 *   tables of passing tests, repeated stack frames and repeated lines;
 * - `useless`: lines of a long output whose words no later thought or action mentions;
 * - `masked`: with `window` M, what remains of outputs older than the last M steps (Complexity Trap
 *   observation masking), replaced by a one-line placeholder that names the command to re-run.
 *
 * Linear in the input: one backward pass (prune-plan.ts) and one forward pass, maps only.
 */
import { clip, estimateTokens } from '../core/index.js';
import type { Step } from '../transcript/index.js';
import { isErrorLine } from './compact-rules.js';
import { lineContent, parsePatch, patchContentLines, patchProtection, pathMatcher } from './patch.js';
import {
  attribute,
  lineSets,
  PRUNE_CATEGORIES,
  type PruneCategory,
  pruneLines,
  wholeOutput,
  zero,
} from './prune-lines.js';

export { PRUNE_CATEGORIES, type PruneCategory };

import { type Expiry, planPrune } from './prune-plan.js';
import { commandOf, editedFile, viewOf } from './prune-rules.js';

/**
 * Options of {@link pruneTrajectory}.
 *
 * @example
 * ```ts
 * pruneTrajectory(steps, { submission: traj.outcome?.submission, window: 5, cacheFriendly: true });
 * ```
 */
export interface PruneOptions {
  /** The final patch (unified diff): its lines and the last view of its files are kept. */
  submission?: string;
  /** Mask what remains of outputs older than the last `window` steps. Default: no masking. */
  window?: number;
  /** The last steps left untouched. Default 2; in cache-friendly mode, `window` when set. */
  keepRecent?: number;
  /**
   * Decide each step once, when it leaves the recent steps, using only what the run knew then, so
   * between consecutive model calls the context prefix changes at one step at most.
   */
  cacheFriendly?: boolean;
  /** Outputs with fewer lines are never scanned for useless lines. Default 12. */
  minUselessLines?: number;
  /** Outputs shorter than this are never replaced by a pointer to an identical one. Default 80. */
  minRepeatChars?: number;
}

/** What one step lost: tokens by category and a short description of each removal. */
export interface PruneStepReport {
  index: number;
  tokensBefore: number;
  tokensAfter: number;
  saved: Record<PruneCategory, number>;
  lost: string[];
}

/**
 * Totals of a {@link pruneTrajectory} run; tokens are observation tokens (outputs and errors).
 *
 * @example
 * ```ts
 * const { diagnostics: d } = pruneTrajectory(steps);
 * console.log(d.savedPercent, d.saved.expired);
 * ```
 */
export interface PruneDiagnostics {
  observationTokensBefore: number;
  observationTokensAfter: number;
  savedPercent: number;
  saved: Record<PruneCategory, number>;
  steps: PruneStepReport[];
}

/** A step after pruning: `pruned` lists what its output lost. */
export type PrunedStep = Step & { pruned?: string[] };

/** Result of {@link pruneTrajectory}. */
export interface PruneResult {
  steps: PrunedStep[];
  diagnostics: PruneDiagnostics;
}

/**
 * The tokens a step's outputs (observation, and the error when it differs) put in the context.
 *
 * @example
 * ```ts
 * steps.reduce((sum, s) => sum + observationTokens(s), 0);
 * ```
 */
export function observationTokens(step: Step): number {
  const obs = step.observation ? estimateTokens(step.observation) : 0;
  return step.error && step.error !== step.observation ? obs + estimateTokens(step.error) : obs;
}

/**
 * Reduces a trajectory by category without a model. Pure, deterministic, linear.
 *
 * @example
 * ```ts
 * const { steps: pruned, diagnostics } = pruneTrajectory(parseTrajectory(text).steps, { window: 5 });
 * diagnostics.saved; // { expired: 5120, redundant: 830, useless: 2210, masked: 4410 }
 * ```
 */
export function pruneTrajectory(steps: readonly Step[], options: PruneOptions = {}): PruneResult {
  const n = steps.length;
  const cache = options.cacheFriendly === true;
  const keepRecent = Math.max(0, (cache ? options.window : undefined) ?? options.keepRecent ?? 2);
  const frozenFrom = Math.max(0, n - keepRecent);
  const horizon = cache ? keepRecent : Number.POSITIVE_INFINITY;
  const maskBefore = options.window === undefined ? 0 : Math.max(0, n - options.window);
  const minRepeat = options.minRepeatChars ?? 80;
  // The touched lines of the last view can only be known once the run is over; a cache-friendly run
  // decides each step once, so it protects the patch's own lines and keeps the final views whole.
  const protectedLines = cache
    ? patchContentLines(options.submission ?? '')
    : patchProtection(steps, options.submission, viewOf, editedFile).lines;
  const isPatchFile = pathMatcher(
    options.submission ? parsePatch(options.submission).map((f) => f.path) : [],
  );
  const plan = planPrune(
    steps,
    frozenFrom,
    horizon,
    (p) => isPatchFile(p) !== undefined,
    options.minUselessLines ?? 12,
  );
  const keeps = (line: string) => isErrorLine(line) || protectedLines.has(lineContent(line));
  const seen = new Map<string, number>();
  const linesOf = lineSets(steps, plan.rerunBy, horizon);
  const out: PrunedStep[] = [];
  const reports: PruneStepReport[] = [];
  const total = zero();
  let before = 0;
  let after = 0;
  for (let i = 0; i < n; i++) {
    const s = steps[i]!;
    const tokens = observationTokens(s);
    before += tokens;
    const obs = s.observation;
    const report: PruneStepReport = {
      index: s.index,
      tokensBefore: tokens,
      tokensAfter: tokens,
      saved: zero(),
      lost: [],
    };
    reports.push(report);
    let text: string | undefined;
    const removed = zero();
    if (obs && i < frozenFrom && !plan.finalView[i]) {
      const key = nearKey(obs);
      const expiry = plan.expired[i];
      const earlier = !expiry && obs.length >= minRepeat ? seen.get(key) : undefined;
      if (expiry) {
        const elsewhere = expiry.reason === 'rerun' ? linesOf(i) : undefined;
        text = wholeOutput(
          obs,
          keeps,
          removed,
          'expired',
          expiryNote(expiry, steps, s),
          report.lost,
          elsewhere,
        );
      } else if (earlier !== undefined) {
        const note = `redundant: same output as step ${steps[earlier]!.index}`;
        text = wholeOutput(obs, keeps, removed, 'redundant', note, report.lost, linesOf(earlier));
      } else {
        text = pruneLines(obs, keeps, removed, plan.unmentioned[i], report.lost);
        if (i < maskBefore) text = wholeOutput(text, keeps, removed, 'masked', maskNote(s, obs), report.lost);
      }
      if (!expiry && earlier === undefined && i >= maskBefore && !seen.has(key)) seen.set(key, i);
    } else if (obs && !seen.has(nearKey(obs))) seen.set(nearKey(obs), i);
    const step: PrunedStep = { ...s };
    if (text !== undefined && text !== obs) {
      const candidate: Step = { ...s, observation: text, ...(s.error === obs ? { error: text } : {}) };
      const tokensAfter = observationTokens(candidate);
      if (tokensAfter < tokens) {
        Object.assign(step, candidate);
        report.tokensAfter = tokensAfter;
        report.saved = attribute(tokens - tokensAfter, removed);
        for (const c of PRUNE_CATEGORIES) total[c] += report.saved[c];
        step.pruned = report.lost;
      } else report.lost.length = 0;
    } else report.lost.length = 0;
    after += report.tokensAfter;
    out.push(step);
  }
  const saved = before - after;
  return {
    steps: out,
    diagnostics: {
      observationTokensBefore: before,
      observationTokensAfter: after,
      savedPercent: before ? Math.round((saved / before) * 1000) / 10 : 0,
      saved: total,
      steps: reports,
    },
  };
}

/** Outputs that differ only in numbers, addresses or spacing compare equal. */
function nearKey(text: string): string {
  return text
    .replace(/0x[0-9a-f]+/gi, '0x')
    .replace(/\d+/g, '0')
    .replace(/\s+/g, ' ')
    .trim();
}

function shortCommand(step: Step): string {
  const path = viewOf(step) ?? editedFile(step);
  const cmd =
    step.tool && step.tool !== 'bash' && step.tool !== 'Bash'
      ? `${step.tool} ${path ?? ''}`
      : commandOf(step);
  return clip((cmd ?? step.tool ?? 'the action').split('\n', 1)[0]!.trim(), 80);
}

function expiryNote(e: Expiry, steps: readonly Step[], s: Step): string {
  const by = steps[e.by]!.index;
  const why =
    e.reason === 'view'
      ? `superseded by the view in step ${by}`
      : e.reason === 'edit'
        ? `the file was edited in step ${by}`
        : e.reason === 'rerun'
          ? `run again in step ${by}`
          : `a listed file was opened in step ${by}`;
  return `expired: output of \`${shortCommand(s)}\` (${why})`;
}

function maskNote(s: Step, obs: string): string {
  return `masked: ${obs.split('\n').length} lines of output of \`${shortCommand(s)}\`; re-run it to see them`;
}
