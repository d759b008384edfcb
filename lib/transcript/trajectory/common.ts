/** Helpers shared by the trajectory readers: outcome rules, ids, first-word tool names. */
import { FNV_OFFSET, FNV_PRIME } from '../../core/index.js';
import { isRecord } from '../sink.js';
import type { Outcome, Step, TrajectoryFormat } from '../types.js';

/**
 * The outcome from an `info` object holding `exit_status` and `submission` (SWE-agent and
 * mini-swe-agent), or undefined when there is neither an info object nor a caller-supplied `resolved`.
 * `failed` is `!resolved` when `resolved` is known, else true unless the exit status equals
 * `expectedStatus` (case-insensitive) and the submission is a non-empty string.
 *
 * @example
 * ```ts
 * outcomeFrom({ exit_status: 'submitted', submission: 'diff …' }, 'submitted', undefined); // { status: 'submitted', submission: 'diff …', failed: false }
 * ```
 */
export function outcomeFrom(
  info: unknown,
  expectedStatus: string,
  resolved: boolean | undefined,
): Outcome | undefined {
  if (!isRecord(info)) return resolved === undefined ? undefined : { resolved, failed: !resolved };
  const status = typeof info.exit_status === 'string' ? info.exit_status : undefined;
  const submission = typeof info.submission === 'string' ? info.submission : undefined;
  const finished =
    status?.toLowerCase() === expectedStatus.toLowerCase() &&
    submission !== undefined &&
    submission.trim() !== '';
  const outcome: Outcome = { failed: resolved === undefined ? !finished : !resolved };
  if (status !== undefined) outcome.status = status;
  if (resolved !== undefined) outcome.resolved = resolved;
  if (submission !== undefined) outcome.submission = submission;
  return outcome;
}

/**
 * The first whitespace-delimited word of a command (`'edit 3:5\n…'` → `'edit'`), or undefined.
 *
 * @example
 * ```ts
 * firstWord('  find_file foo.py'); // 'find_file'
 * ```
 */
export function firstWord(command: string): string | undefined {
  let i = 0;
  while (i < command.length && isSpace(command.charCodeAt(i))) i++;
  let j = i;
  while (j < command.length && !isSpace(command.charCodeAt(j))) j++;
  return j > i ? command.slice(i, j) : undefined;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * A content-derived id, `format:xxxxxxxx` (FNV-1a over the steps' actions and observations), used when
 * neither the caller nor the input gives one. Linear, no concatenation.
 *
 * @example
 * ```ts
 * contentId('swe-agent', steps); // 'swe-agent:1a2b3c4d'
 * ```
 */
export function contentId(format: TrajectoryFormat, steps: readonly Step[]): string {
  let h = FNV_OFFSET;
  const mix = (s: string | undefined): void => {
    if (s === undefined) return;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, FNV_PRIME);
    }
    h ^= 0xff;
    h = Math.imul(h, FNV_PRIME);
  };
  for (const step of steps) {
    mix(step.action);
    mix(step.observation);
  }
  return `${format}:${(h >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * Text of a message `content` that is a string or an array of text blocks; undefined otherwise.
 *
 * @example
 * ```ts
 * contentText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // 'a\nb'
 * ```
 */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (isRecord(part) && typeof part.text === 'string') parts.push(part.text);
    else if (!isRecord(part)) return undefined;
  }
  return parts.length === 1 ? parts[0]! : parts.join('\n');
}
