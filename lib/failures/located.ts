/**
 * @internal The calls of a run as the failure search reads them: each with its run, 1-based step and
 * trace ref, and memos of what it acted on, read only when a failure asks for it.
 */

import { isFileEditTool } from '../transcript/index.js';
import { callTarget, headWords, isShellCall, shellCommand } from './error-class.js';
import { searchFoundNothing } from './no-match.js';
import { runnerTarget } from './runner.js';

/** A call of a run (the fields of `CallStep`, failures.ts; structural, so this file imports none of it). */
interface Step {
  index?: number;
  tool?: string;
  action?: string;
  error?: string;
  ref?: string;
}

export interface Located extends Step {
  tool: string;
  run: string;
  step: number;
  ref: string;
  /** {@link targetOf}'s memo: most calls are never compared, so their input is never parsed. */
  target?: string | undefined;
  targetRead?: true;
  /** {@link runnerTargetOf}'s memo. */
  runner?: string | undefined;
  runnerRead?: true;
}

/** What the call acted on ({@link callTarget}), read once and only when a failure asks for it. */
export function targetOf(s: Located): string | undefined {
  if (!s.targetRead) {
    s.target = callTarget(s.action);
    s.targetRead = true;
  }
  return s.target;
}

/**
 * What a shell call run through a package runner acts on (`npx vercel deploy` → `vercel deploy`,
 * {@link runnerTarget}), read once: such a call does the job of the same command without the runner.
 */
export function runnerTargetOf(s: Located): string | undefined {
  if (!s.runnerRead) {
    const command = shellCommand(s.tool, s.action);
    s.runner = command ? runnerTarget(command) : undefined;
    s.runnerRead = true;
  }
  return s.runner;
}

export function locate(run: { id: string; steps: readonly (Step | null)[] }): Located[] {
  const id = String(run.id);
  const out: Located[] = [];
  run.steps.forEach((s, position) => {
    if (s === null || typeof s !== 'object') return;
    const index = typeof s.index === 'number' ? s.index : position;
    const action = typeof s.action === 'string' ? s.action : undefined;
    const located: Located = {
      ...(action !== undefined ? { action } : {}),
      tool: typeof s.tool === 'string' && s.tool !== '' ? s.tool : '<unknown>',
      run: id,
      step: index + 1,
      ref: typeof s.ref === 'string' ? s.ref : `trajectory:${id}:event:${index}`,
    };
    // A search that matched nothing exits with status 1: an answer, not a failure.
    if (typeof s.error === 'string' && !searchFoundNothing(s)) located.error = s.error;
    out.push(located);
  });
  return out;
}

export function isShell(s: Located): boolean {
  return isShellCall(s.tool, s.action);
}

/**
 * Whether the call's tool edits files. Another tool does a failed call's job only if both edit or
 * neither does: a `Read` of the file after a failed `Update` ("File has not been read yet") is the
 * step before the edit, and a `Write` after a failed `Read` creates the file the read did not find.
 */
export function editsFiles(s: Located): boolean {
  return isFileEditTool(s.tool);
}

/** A call with a raw command (or a shell tool's) whose program {@link callTarget} cannot read. */
export function unreadCommand(s: Located): boolean {
  return isShell(s) && (s.action ?? '').trim() !== '';
}

/** The program a shell call runs (`git`), or '' for other calls. */
export function program(s: Located): string {
  const command = shellCommand(s.tool, s.action);
  return command === undefined ? '' : headWords(command).program;
}
