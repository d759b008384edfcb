/**
 * Whether a later call that worked did the failed call's job, or another one. A call on the same
 * target that ran another subcommand (`gt deacon start` → `gt deacon status`, `npm run test:e2e` →
 * `npm run lint`), another file or pattern (`sed -n … NumberGrid.tsx` → `sed -n … logger.ts`), another
 * commit message, or asked for `--help` worked, but it says nothing about why the failed one did not.
 *
 * Two blind readers judged the 112 fixes `groupFailures` credited over the shared data (7 December
 * 2026, eval/failures/fix-audit.ts): in 49 the later call did another job. These rules were written
 * from those labels (tuned, not a held-out figure); they ask for an unrelated value, so a value fixed
 * in place (a path made right, a quoted path, a narrower test id, a Windows switch) still counts.
 */

import { changeParts, type FixPart, isFlag, mainCommand } from './change.js';
import { commandLine, headWords } from './error-class.js';
import { versionless } from './runner.js';

/** Asking a program how to call it is not calling it. */
const HELP = /^(?:--help|-h|help|--version|-V|\/\?)$/;
/** A Windows switch (`/IM`, `/F`, `/c`): a flag of Windows' commands, not a value. */
const SWITCH = /^\/(?:[a-z?]{1,2}|[A-Z]{1,4})$/;
/** A value shorter than this is compared whole: `cmd` is no part of `npm.cmd`, `dev` no start of `devtools`. */
const MIN_PART = 4;
/** The current or parent folder as an argument: where the job runs, not which job. */
const HERE = /^\.{1,2}\/?$/;
const QUOTES = /^\\?["'`]|\\?["'`]$/g;
/** How much of a word is read back from its command: a pasted megabyte in quotes is compared by its start. */
const MAX_WORD = 512;

/**
 * The whole word a fix part shows (cut to 40 characters, or split inside a quoted string with spaces),
 * read again from the command it came from: up to the closing quote, or to the next space.
 */
function wholeWord(command: string, shown: string): string {
  const prefix = shown.endsWith('…') ? shown.slice(0, -1) : shown;
  const at = command.indexOf(prefix);
  if (at < 0 || prefix === '') return prefix;
  const quote = /^\\?(["'])/.exec(prefix);
  const limit = Math.min(command.length, at + MAX_WORD);
  if (quote) {
    const close = command.indexOf(quote[0], at + quote[0].length);
    if (close > at && close < limit) return command.slice(at, close + quote[0].length);
  }
  let end = at + prefix.length;
  while (end < limit && !/\s/.test(command[end]!)) end++;
  return command.slice(at, end);
}

const normal = (v: string) => v.replace(QUOTES, '').replace(/\\+/g, '/').toLowerCase();
const baseName = (v: string) => v.split('/').filter(Boolean).pop() ?? v;

/** Whether `part` is a word of `whole` (bounded by what is no letter or digit), long enough to mean it. */
function wordOf(part: string, whole: string): boolean {
  if (part.length < MIN_PART) return false;
  for (let at = whole.indexOf(part); at >= 0; at = whole.indexOf(part, at + 1)) {
    const before = at === 0 ? '' : whole[at - 1]!;
    const after = whole[at + part.length] ?? '';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

/** Whether `short` starts `long` and is long enough to mean it (`postgres`, `postgresql@16`). */
const startOf = (short: string, long: string) => short.length >= MIN_PART && long.startsWith(short);

/**
 * Whether two values of one argument name the same thing: equal, the same file name, one the start of
 * the other (`postgres`, `postgresql@16`), or one a word of the other (`ORIGINAL_VISION.md` in
 * `../BookMind/ORIGINAL_VISION.md`, `directory` in `"page directory"`).
 */
function related(a: string, b: string): boolean {
  const x = normal(a);
  const y = normal(b);
  if (x === '' || y === '' || x === y || HERE.test(x) || HERE.test(y)) return true;
  if (baseName(x) === baseName(y)) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return startOf(short, long) || wordOf(short, long);
}

const isSwitch = (w: string) => isFlag(w) || SWITCH.test(w);

/** A program's name less its version (`python3.11`, `pip3`); `headWords` has dropped `.cmd`/`.exe`. */
const programName = (command: string) => versionless(headWords(command).program).toLowerCase();

/** Whether two command lines run unrelated programs (`uvx` and `git`; not `python` and `python3`). */
function otherProgram(a: string, b: string): boolean {
  const x = programName(a);
  const y = programName(b);
  if (x === '' || y === '' || x === y) return false;
  return !(x.length < y.length ? startOf(x, y) : startOf(y, x));
}

/** The parts' verdict on the command lines `a` (failed) and `b` (worked): another job, or not. */
function partsSayOther(parts: readonly FixPart[], a: string, b: string): boolean {
  for (const p of parts) {
    if (p.kind === 'program' && otherProgram(a, b)) return true;
    if ((p.kind === 'add-flag' || p.kind === 'add-argument') && p.values.some((v) => HELP.test(v)))
      return true;
    if (p.kind !== 'change-argument') continue;
    const [from = '', to = ''] = p.values;
    if (HELP.test(to)) return true;
    if (isSwitch(from) || isSwitch(to)) continue;
    if (!related(wholeWord(a, from), wholeWord(b, to))) return true;
  }
  return false;
}

/**
 * @internal Whether the call that worked (`later`) did another job than the one that failed
 * (`failed`), read from what changed between them (`parts`, {@link changeParts}'s). A setup step run
 * first counts only when the command after it is the failed one's (`export PATH=… && which uv` after
 * a failed `uvx migrate-to-uv` is another job). Another program is another job unless it is the same
 * one under another name (`python3` for `python`, `.venv/bin/pytest` for `pytest`).
 *
 * @example
 * ```ts
 * const failed = { action: 'gt deacon start' };
 * const later = { action: 'gt deacon status' };
 * otherJob(failed, later, changeParts(failed, later)); // true
 * ```
 */
export function otherJob(
  failed: { action?: string },
  later: { action?: string },
  parts: readonly FixPart[],
): boolean {
  const a = commandLine(failed.action);
  const b = commandLine(later.action);
  if (a === undefined || b === undefined) return false;
  if (partsSayOther(parts, a, b)) return true;
  if (!parts.some((p) => p.kind === 'setup')) return false;
  // What runs after the setup steps, compared as the fix's own parts are.
  const mainA = mainCommand(a);
  const mainB = mainCommand(b);
  const rest = changeParts({ action: mainA }, { action: mainB });
  return partsSayOther(rest, mainA, mainB);
}
