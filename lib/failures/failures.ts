/**
 * Failure lessons: failed tool calls grouped by tool and error class across runs, each class paired
 * with the later call that worked and what changed between them. `reflectFromTrajectories` turns the
 * classes into insights; `stepsFromMessages` (steps.ts) reads the calls of a transcript.
 */

import { declinedCall } from '../core/index.js';
import { isFileEditCall } from '../transcript/index.js';
import { changeParts, commandFlags, credited, type FixPart, fixText } from './change.js';
import { errorClass } from './error-class.js';
import {
  editsFiles,
  isShell,
  type Located,
  locate,
  program,
  runnerTargetOf,
  targetOf,
  unreadCommand,
} from './located.js';
import { versionless } from './runner.js';
import { otherJob } from './same-job.js';

/** One tool call and what came back, as a trajectory step or a transcript's call and result. */
export interface CallStep {
  /** 0-based position of the call in its run. */
  index?: number;
  tool?: string;
  /** The command, or the tool input as JSON. */
  action?: string;
  /** Set when the call failed: the error text. */
  error?: string;
  /** Trace reference of the step; default `trajectory:{run}:event:{index}`. */
  ref?: string;
}

/** A run of calls: a trajectory, or the calls of a transcript. */
export interface CallRun {
  id: string;
  steps: readonly CallStep[];
  /**
   * The folder the run worked in, as the transcript records it (`TranscriptMeta.cwd` of
   * rearview/transcript): an error that spells it is classed with the folder read as one path, even
   * when its name holds a space.
   */
  root?: string;
}

/** The later call that worked after a failure, and what changed. */
export interface FailureFix {
  /** 1-based step number of the call that worked, and its run. */
  step: number;
  /**
   * 1-based step number of the failed call, in the same run, that this fix answers (the class may
   * have failed earlier too). Set by {@link groupFailures}.
   */
  failedStep?: number;
  run: string;
  ref: string;
  /**
   * `changed`: other arguments; `other-tool`: another tool on the same target; `retry`: the same call;
   * `unseen`: a later call of the tool worked, but the failed call's input is not in the transcript
   * while the later one's is (a Cursor export shows a failed edit's notice, not its call), so what
   * changed is unknown; `other-job`: later calls on the target worked, but each did another job
   * (another subcommand, file or message, or `--help`), so what would have fixed it is unknown.
   */
  kind: 'changed' | 'other-tool' | 'retry' | 'unseen' | 'other-job';
  /** What changed, e.g. "pass `offset`/`limit`" ('' for a retry): {@link fixText} of `parts`. */
  change: string;
  /** The same change as parts a program can judge ([] for a retry). */
  parts: FixPart[];
  /**
   * For a changed call or another tool: how many file edits worked between the failed call and this
   * one, when any did. An edit may be what made the call work: blind readers found such a credited
   * change was the cause in 7 of 33 fixes, against 51 of 60 with no edit between
   * (eval/failures/fix-audit.ts).
   */
  edits?: number;
}

/** Failed calls of one tool with one error class. */
export interface FailureClass {
  tool: string;
  /** {@link errorClass} of the error text. */
  errorClass: string;
  /** What the failed calls acted on, when they share it (`git push`); else the program, or ''. */
  subject: string;
  occurrences: { run: string; step: number; ref: string }[];
  /** Distinct runs the class occurred in. */
  runs: number;
  /** The first real fix found after an occurrence (another argument or tool), else a retry. */
  fix?: FailureFix;
}

/**
 * @internal Whether a fix says what changed: another argument or another tool. A retry (the same call),
 * an `unseen` input and `other-job` name no change; a class keeps looking past them, and they are no
 * `fix_found`.
 *
 * @example
 * ```ts
 * namesChange({ step: 4, run: 'r', ref: 'a', kind: 'retry', change: '', parts: [] }); // false
 * ```
 */
export function namesChange(fix: FailureFix | undefined): boolean {
  return fix !== undefined && (fix.kind === 'changed' || fix.kind === 'other-tool');
}

/**
 * Groups the failed calls of `runs` by tool and {@link errorClass}, in order of first occurrence
 * (calls the user declined are not failures), and pairs each class with the first later call on the same
 * target (or, without a target, of the same tool) that succeeded. Deterministic; never throws.
 *
 * @example
 * ```ts
 * const [c] = groupFailures([{ id: 'r', steps: [
 *   { tool: 'Read', action: '{"file_path":"a.ts"}', error: 'File content (30000 tokens) exceeds maximum allowed tokens (25000)' },
 *   { tool: 'Read', action: '{"file_path":"a.ts","offset":1,"limit":500}' },
 * ] }]);
 * c.fix; // { step: 2, kind: 'changed', change: 'pass `offset`/`limit`', … }
 * ```
 */
export function groupFailures(runs: readonly CallRun[]): FailureClass[] {
  const classes = new Map<string, FailureClass & { subjects: Set<string>; flags: Set<string>[] }>();
  if (!Array.isArray(runs)) return [];
  for (const run of runs) {
    if (run === null || typeof run !== 'object' || !Array.isArray(run.steps)) continue;
    const steps = locate(run);
    steps.forEach((s, i) => {
      if (s.error === undefined || declinedCall(s.error)) return;
      const cls = errorClass(s.error, run.root);
      const prog = program(s);
      const key = `${s.tool}\u0000${cls}`;
      let c = classes.get(key);
      if (!c) {
        c = {
          tool: s.tool,
          errorClass: cls,
          subject: '',
          occurrences: [],
          runs: 0,
          subjects: new Set(),
          flags: [],
        };
        classes.set(key, c);
      }
      if (!c.occurrences.some((o) => o.run === s.run)) c.runs++;
      c.occurrences.push({ run: s.run, step: s.step, ref: s.ref });
      // A command's head is what the class is about (`git push`); an edit's file is one-off.
      c.subjects.add(isShell(s) && !editsFiles(s) ? (targetOf(s) ?? prog) : '');
      const flags = isShell(s) ? commandFlags(s) : undefined;
      if (flags) c.flags.push(flags);
      if (!namesChange(c.fix)) {
        const fix = findFix(steps, i);
        if (fix && (!c.fix || namesChange(fix))) c.fix = { ...fix, failedStep: s.step };
      }
      c.subject = c.subjects.size === 1 ? [...c.subjects][0]! : commonProgram(c.subjects);
    });
  }
  return [...classes.values()].map(({ subjects: _, flags, ...c }) =>
    c.fix ? { ...c, fix: creditedFix(c.fix, flags) } : c,
  );
}

/**
 * The fix with only the flags no other failed call of the class also had (`credited` of change.ts).
 * When nothing is left, the call that worked differed from the failed ones in nothing they did not
 * also try: a retry.
 */
function creditedFix(fix: FailureFix, failed: readonly Set<string>[]): FailureFix {
  if (fix.kind !== 'changed' || failed.length < 2) return fix;
  const parts = credited(fix.parts, failed);
  if (parts.length === fix.parts.length && parts.every((p, i) => p === fix.parts[i])) return fix;
  const change = fixText(parts);
  return { ...fix, kind: change ? 'changed' : 'retry', change, parts };
}

/** The program every subject runs (`git` for `git push` and `git add`), or ''. */
function commonProgram(subjects: ReadonlySet<string>): string {
  const programs = new Set([...subjects].map((s) => s.split(' ')[0] ?? ''));
  return programs.size === 1 ? [...programs][0]! : '';
}

/** How many later calls of the same job are compared with a failed one before giving up (bounds the work per failure). */
const SAME_JOB_TRIES = 8;

/**
 * The first later successful call of the same tool on the failed call's target (or, without a target,
 * of the same tool) that did the failed call's job ({@link otherJob}); when each of the first
 * SAME_JOB_TRIES such calls did another job, an `other-job` fix at the first. Without any, the first
 * later success of another tool on that target.
 */
function findFix(steps: readonly Located[], i: number): FailureFix | undefined {
  const failed = steps[i]!;
  const target = targetOf(failed);
  // A command whose program cannot be read (the console cut it, `export A=… B=…` fills its first
  // line): only the same command again can be its fix, a retry.
  if (target === undefined && unreadCommand(failed)) {
    for (let k = i + 1; k < steps.length; k++) {
      const s = steps[k]!;
      if (s.error === undefined && s.tool === failed.tool && s.action === failed.action)
        return { step: s.step, run: s.run, ref: s.ref, kind: 'retry', change: '', parts: [] };
    }
    return undefined;
  }
  const onTarget = (s: Located) =>
    targetOf(s) === target ||
    // `make` then `make -C src`: the head gained an argument, the command is the same.
    (target !== undefined && isShell(failed) && isShell(s) && !!targetOf(s)?.startsWith(`${target} `)) ||
    // `vercel deploy` then `npx vercel deploy`: the same command, through a package runner; `python
    // app.py` then `python3 app.py`: the same command under the program's versioned name.
    (target !== undefined &&
      isShell(failed) &&
      isShell(s) &&
      (runnerTargetOf(s) === target || versionless(targetOf(s) ?? '') === versionless(target)));
  let first: Located | undefined;
  let tries = 0;
  for (let k = i + 1; k < steps.length && tries < SAME_JOB_TRIES; k++) {
    const s = steps[k]!;
    if (s.error !== undefined || s.tool !== failed.tool || (target !== undefined && !onTarget(s))) continue;
    first ??= s;
    tries++;
    // The failed call's input is not recorded while the later one's is: saying what changed (or that
    // nothing did) would be a guess. Two calls with no input at all are the same call.
    if ((failed.action ?? '').trim() === '' && (s.action ?? '').trim() !== '')
      return { step: s.step, run: s.run, ref: s.ref, kind: 'unseen', change: '', parts: [] };
    const parts = changeParts(failed, s);
    if (otherJob(failed, s, parts)) continue;
    const change = fixText(parts);
    return withBetween(
      { step: s.step, run: s.run, ref: s.ref, kind: change ? 'changed' : 'retry', change, parts },
      steps,
      i,
      k,
    );
  }
  if (first)
    return { step: first.step, run: first.run, ref: first.ref, kind: 'other-job', change: '', parts: [] };
  if (target === undefined) return undefined;
  // A tool of the other kind (an edit for a failed read, a read for a failed edit) does another job:
  // the failure is made good (a missing file written), but that call is no fix to learn.
  let otherKind: Located | undefined;
  for (let k = i + 1; k < steps.length; k++) {
    const s = steps[k]!;
    if (s.error !== undefined || !onTarget(s)) continue;
    if (editsFiles(s) !== editsFiles(failed)) {
      otherKind ??= s;
      continue;
    }
    const parts: FixPart[] = [{ kind: 'other-tool', values: [s.tool] }];
    return withBetween(
      { step: s.step, run: s.run, ref: s.ref, kind: 'other-tool', change: fixText(parts), parts },
      steps,
      i,
      k,
    );
  }
  if (otherKind)
    return {
      step: otherKind.step,
      run: otherKind.run,
      ref: otherKind.ref,
      kind: 'other-job',
      change: '',
      parts: [],
    };
  return undefined;
}

/**
 * An edit refused until the file is read (again): Claude Code's "File has not been read yet. Read it
 * first before writing to it.", "File has been modified since read, … Read it again before attempting
 * to write it.", its console's "File must be read first".
 */
const READ_FIRST =
  /has not been read yet|must be read first|modified since (?:it was )?read|read it (?:first|again)/i;

/**
 * The fix with what happened between steps `i` and `k` of the run: the number of file edits that
 * worked, when any did; and, for an edit refused until the file is read ({@link READ_FIRST}), the file read between
 * them first among its parts (`read-first`). Only then: when an edit missed its text ("String to
 * replace not found"), blind readers put the later edit's success down to its corrected text, not to
 * the read before it (eval/failures/sets/fix-audit-fresh).
 */
function withBetween(fix: FailureFix, steps: readonly Located[], i: number, k: number): FailureFix {
  const failed = steps[i]!;
  const target = editsFiles(failed) && READ_FIRST.test(failed.error ?? '') ? targetOf(failed) : undefined;
  let edits = 0;
  let reader: string | undefined;
  for (let j = i + 1; j < k; j++) {
    const s = steps[j]!;
    if (s.error !== undefined) continue;
    if (isFileEditCall(s.tool, s.action ?? '')) edits++;
    else if (reader === undefined && target !== undefined && targetOf(s) === target) reader = s.tool;
  }
  const read = reader === undefined ? fix : readFirst(fix, reader);
  return edits && read.kind !== 'retry' ? { ...read, edits } : read;
}

/**
 * `fix` with the file read by `reader` first among its parts: a retry becomes a change, and another
 * tool is no part of it (readers found `Update` after a refused `Write` worked for the read alone).
 */
function readFirst(fix: FailureFix, reader: string): FailureFix {
  const read: FixPart = { kind: 'read-first', values: [reader] };
  const parts = fix.kind === 'changed' ? [read, ...fix.parts] : [read];
  return { ...fix, kind: fix.kind === 'retry' ? 'changed' : fix.kind, change: fixText(parts), parts };
}

/**
 * The failed calls of `run` that a later call made good, by their `ref`: those for which
 * {@link groupFailures} finds a fix (a later success of the same tool on the same target, or of another
 * tool on that target; of the same tool when the call names no target). The others still stood when
 * the run ended. One backward pass: linear in the run, whatever the number of failures.
 *
 * @example
 * ```ts
 * fixedFailures({ id: 'r', steps: [
 *   { tool: 'Bash', action: 'npm test', error: 'Error: 2 tests failed', ref: 'a' },
 *   { tool: 'Bash', action: 'npm test' },
 * ] }); // Set { 'a' }
 * ```
 */
export function fixedFailures(run: CallRun): Set<string> {
  const out = new Set<string>();
  if (run === null || typeof run !== 'object' || !Array.isArray(run.steps)) return out;
  const steps = locate(run);
  // Calls before the first failure can fix nothing: their inputs are never parsed.
  const first = steps.findIndex((s) => s.error !== undefined);
  if (first < 0) return out;
  // What later successes acted on: tools, the exact calls, targets, and the shorter heads of shell
  // targets (`make -C src` after a failed `make` is the same command, as findFix reads it).
  const tools = new Set<string>();
  /** The inputs of later successes, by tool (a cut command is made good only by itself again). */
  const calls = new Map<string, Set<string | undefined>>();
  const targets = new Set<string>();
  const shellHeads = new Set<string>();
  // Other spellings of what later shell successes ran: through a package runner (`npx vercel deploy`
  // → `vercel deploy`), and without the program's version (`python3 app.py` → `python app.py`).
  const runnerTargets = new Set<string>();
  const versionTargets = new Set<string>();
  for (let i = steps.length - 1; i >= first; i--) {
    const s = steps[i]!;
    if (s.error === undefined) {
      tools.add(s.tool);
      const inputs = calls.get(s.tool);
      if (inputs) inputs.add(s.action);
      else calls.set(s.tool, new Set([s.action]));
      const target = targetOf(s);
      if (target === undefined) continue;
      targets.add(target);
      if (!isShell(s)) continue;
      const through = runnerTargetOf(s);
      if (through !== undefined) runnerTargets.add(through);
      versionTargets.add(versionless(target));
      for (let at = target.indexOf(' '); at > 0; at = target.indexOf(' ', at + 1))
        shellHeads.add(target.slice(0, at));
      continue;
    }
    if (declinedCall(s.error)) continue;
    const target = targetOf(s);
    // A command whose program cannot be read is made good only by the same command again.
    const fixed =
      target === undefined
        ? unreadCommand(s)
          ? calls.get(s.tool)?.has(s.action) === true
          : tools.has(s.tool)
        : targets.has(target) ||
          (isShell(s) &&
            (shellHeads.has(target) || runnerTargets.has(target) || versionTargets.has(versionless(target))));
    if (fixed) out.add(s.ref);
  }
  return out;
}
