/**
 * The judge of a failure lesson: is the fix that worked a standing rule (a setup step, a flag, another
 * tool), or only what worked once for that task? `learn` leaves refused lessons out; `failureInsight`
 * tags them, and the playbook policy proposes no key point for them. Pure and linear.
 */
import { namesPath } from '../core/index.js';
import type { FixPart } from './change.js';

/** A test run's report, not a misused tool: a failing test is fixed in the code, not in the call. */
const TEST_REPORT = /\bFAILED\b|test session starts|\d+ (?:passed|failed)\b|AssertionError|::/;
/**
 * The agent's runner could not read the call itself (Antigravity's "There was a problem parsing the
 * tool call", mini-swe-agent's "provide EXACTLY ONE action", Cursor's "Model provided invalid
 * arguments"): the next call was written well, and what else it changed is no rule.
 */
const MALFORMED_CALL =
  /\binvalid tool call\b|problem parsing the tool call|\bEXACTLY ONE action\b|provided invalid arguments to\b/i;

/**
 * Why a failure class and its fix are no rule, or undefined when they are one. `fix` is the
 * structured fix `groupFailures` found (`FailureFix`, judged by its parts), or its words alone (judged
 * by its parts once read back from them; words that are not `fixText`'s are a one-off). The reasons:
 * - `failure: unreadable error`: the error class is not a readable message (a row of dots from a
 *   pre-commit hook, a bare word such as "Error", longer than a line);
 * - `failure: a test report`: a failing test, whose fix is in the code, not in the call;
 * - `failure: a malformed call`: the agent's runner could not read the call itself (its JSON, its
 *   format): the next call was well-formed, and what else it changed is no rule;
 * - `failure: a one-off argument`: the fix gave a key or an argument another value, added or dropped
 *   an argument that is no flag (what worked once, for that task), reordered the arguments, passed an
 *   input of another shape, names one machine's path, changed directory, or only asked for `--help`
 *   / `--version`;
 * - `failure: a permission prompt`: the fix asked the agent's runner for more rights
 *   (`with_escalated_permissions`, `sandbox_permissions`): the runner's policy, which asks anyway;
 * - `failure: a check turned off`: the fix switched off a check the person or the project set up
 *   (commit signing, git hooks, TLS verification, pip's guard of the system Python, the runner's
 *   permission prompts): the call then worked, but that is the person's decision, never a lesson;
 * - `failure: a missing file written`: the call failed on a file that did not exist and a writing tool
 *   worked (`Read` → `Write`): creating the file was the task, not a better way to read it.
 *
 * @example
 * ```ts
 * judgeFailure('(eval):N: command not found: pytest', 'first run `source .venv/bin/activate`'); // undefined
 * judgeFailure('No such option: -p', { parts: [{ kind: 'change-argument', values: ['5', '10'] }] });
 * // 'failure: a one-off argument'
 * judgeFailure('Error', 'change `5` to `10`'); // 'failure: unreadable error'
 * ```
 */
export function judgeFailure(
  errorClass: string,
  fix: string | { parts: readonly FixPart[] },
): string | undefined {
  const why = judgeError(errorClass);
  if (why) return why;
  const parts =
    typeof fix === 'string'
      ? partsOfText(fix.trim())
      : fix && Array.isArray(fix.parts)
        ? fix.parts
        : undefined;
  if (!parts) return 'failure: a one-off argument';
  if (
    MISSING_FILE.test(errorClass) &&
    parts.some((p) => p.kind === 'other-tool' && WRITES.test(p.values[0] ?? ''))
  )
    return 'failure: a missing file written';
  return judgeParts(parts);
}

/** An error saying the file or folder the call named is not there. */
const MISSING_FILE = /does not exist|no such file or directory|\bENOENT\b/i;
/** A tool that writes or creates files (`Write`, `write_to_file`, `create_file`, `NewFile`). */
const WRITES = /write|create|new_?file/i;

/**
 * Why a failure's error class makes no rule, whatever the fix: unreadable, or a test report (see
 * {@link judgeFailure}); undefined when it is a readable error message.
 */
function judgeError(errorClass: string): string | undefined {
  const cls = typeof errorClass === 'string' ? errorClass.replace(/\s+/g, ' ').trim() : '';
  if (
    !cls ||
    cls.length > 90 ||
    /\.{5,}/.test(cls) ||
    !/\p{L}{3}/u.test(cls) ||
    cls.split(' ').length < 2 ||
    // errorClass's names for an output with no error line, a runner's exit-code notice with no
    // message ("Command exited with code 1", "The command failed with exit code: 1"), and npm's
    // banner of the script it ran.
    /^(?:no output|exit code N|unknown error)$/.test(cls) ||
    /^(?:the )?command <name> with (?:exit )?code:? N\.?$/i.test(cls) ||
    /^> \S+@/.test(cls)
  ) {
    return 'failure: unreadable error';
  }
  if (MALFORMED_CALL.test(cls)) return 'failure: a malformed call';
  return TEST_REPORT.test(cls) ? 'failure: a test report' : undefined;
}

const PERMISSION_KEYS = new Set(['with_escalated_permissions', 'sandbox_permissions']);
/**
 * A flag or setup step that switches a check off: git's `--no-gpg-sign` / `--no-verify` (signing,
 * hooks) and `commit.gpgsign` / `http.sslVerify` set false, `--insecure` and `--no-check-certificate`
 * (curl, wget), `GIT_SSL_NO_VERIFY`, `NODE_TLS_REJECT_UNAUTHORIZED=0`, pip's `--trusted-host` and
 * `--break-system-packages`, Claude Code's `--dangerously-skip-permissions`. Long forms only: a short
 * flag (`-k`, `-n`) means other things to other programs.
 */
const CHECK_OFF =
  /^--(?:no-gpg-sign|no-verify|insecure|no-check-certificate|trusted-host|break-system-packages|dangerously-skip-permissions)(?:=|$)|\bNODE_TLS_REJECT_UNAUTHORIZED=['"]?0|\bGIT_SSL_NO_VERIFY\b|\b(?:commit\.gpgsign|http\.sslVerify)[= ]+false\b/i;
const ONE_OFF_PARTS = new Set<FixPart['kind']>([
  'change',
  'change-argument',
  'add-argument',
  'drop-argument',
  'reorder',
  'other-input',
]);
// Asking for help or a version succeeds whatever was wrong: it is no fix.
const HELP_FLAGS = new Set(['--help', '-h', '--version', '-V']);

function judgeParts(parts: readonly FixPart[]): string | undefined {
  if (parts.length === 0) return 'failure: a one-off argument';
  if (parts.some((p) => p.values.some((v) => PERMISSION_KEYS.has(v)))) return 'failure: a permission prompt';
  if (parts.some((p) => p.values.some((v) => CHECK_OFF.test(v)))) return 'failure: a check turned off';
  for (const p of parts) {
    if (ONE_OFF_PARTS.has(p.kind) || p.values.some((v) => namesPath(v))) return 'failure: a one-off argument';
    if ((p.kind === 'setup' || p.kind === 'drop-setup') && /^cd\b/.test(p.values[0] ?? ''))
      return 'failure: a one-off argument';
    if (p.values.some((v) => HELP_FLAGS.has(v))) return 'failure: a one-off argument';
  }
  return undefined;
}

/**
 * One part of `fixText`'s words, in the order `partText` writes them: a change of one value to another,
 * an argument added or dropped, a reorder, another input, a setup step, another program, another tool,
 * keys or flags passed, dropped, changed or added (code spans joined by `/`), a shell wrapped around, a
 * setup step dropped, the file read first.
 */
const PART_WORDS =
  /(?:^|, )(?:change `([^`]*)` to `([^`]*)`|(add|drop) the argument `([^`]*)`|reorder the arguments|pass other arguments|first run `([^`]*)`|run `([^`]*)` instead of `([^`]*)`|use `([^`]*)` instead|(pass|drop|change|add) ((?:`[^`]*`)(?:\/`[^`]*`)*)|run it through `([^`]*)`|drop the step `([^`]*)`|first read the file with `([^`]*)`)/gy;

/**
 * The parts `fixText` made `change` from, or undefined when the words are not its (then nothing can
 * be said of the fix). One sticky pass; linear.
 */
function partsOfText(change: string): FixPart[] | undefined {
  const parts: FixPart[] = [];
  PART_WORDS.lastIndex = 0;
  let end = 0;
  for (let m = PART_WORDS.exec(change); m; m = PART_WORDS.exec(change)) {
    end = PART_WORDS.lastIndex;
    const [all] = m;
    if (m[1] !== undefined) parts.push({ kind: 'change-argument', values: [m[1], m[2]!] });
    else if (m[3] !== undefined)
      parts.push({ kind: m[3] === 'add' ? 'add-argument' : 'drop-argument', values: [m[4]!] });
    else if (all.endsWith('reorder the arguments')) parts.push({ kind: 'reorder', values: [] });
    else if (all.endsWith('pass other arguments')) parts.push({ kind: 'other-input', values: [] });
    else if (m[5] !== undefined) parts.push({ kind: 'setup', values: [m[5]] });
    else if (m[6] !== undefined) parts.push({ kind: 'program', values: [m[6], m[7]!] });
    else if (m[8] !== undefined) parts.push({ kind: 'other-tool', values: [m[8]] });
    else if (m[11] !== undefined) parts.push({ kind: 'wrapper', values: [m[11]] });
    else if (m[12] !== undefined) parts.push({ kind: 'drop-setup', values: [m[12]] });
    else if (m[13] !== undefined) parts.push({ kind: 'read-first', values: [m[13]] });
    else {
      const values = m[10]!.slice(1, -1).split('`/`');
      // "drop" is a key or a flag: the two are judged alike.
      const kind = m[9] === 'add' ? 'add-flag' : (m[9] as 'pass' | 'drop' | 'change');
      parts.push({ kind, values });
    }
  }
  return end === change.length && parts.length > 0 ? parts : undefined;
}
