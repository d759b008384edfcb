/**
 * The line of a failed tool call's output that says what went wrong: one reading, shared by the
 * failure lessons (which normalise it into an error class) and the snapshot (which shows it as an
 * observation), so the two never disagree about what a failure was.
 *
 * The regular expressions are the rules; each is linear (no nested quantifier over a shared
 * character class), since outputs are untrusted and can be megabytes.
 */

/**
 * Words that say something went wrong. `\w(?:Error|Exception)\b` catches `TypeError` where
 * `\berror\b` cannot; a test runner's `E   ` and `FAIL` lines open with their marker. A word joined by
 * a hyphen is part of a name (aider's `--tool-error-color:#FF2222` config listing), not a failure.
 */
const ERROR_WORDS =
  /(?<![\w-])(?:error|\d+ errors|fatal|fail(?:s|ed|ures?)?|exception|denied|not found|no such|cannot|can['’]t|could not|unable|invalid|refused|timed out|timeout(?:error|expired)|does(?: not|n['’]t) exist|not allowed|unknown|(?:not |un)recognized|missing|rejected|exceed(?:s|ed)?|too (?:large|long|many)|traceback|usage:|panic(?:ked)?|segmentation fault|abort(?:ed)?)\b(?!-)|\w(?:Error|Exception)\b|^E {3}|^FAIL\b/i;
/**
 * A warning, which a failed run prints beside its errors: ESLint's `12:5  warning  …`, `warning:` of
 * compilers, npm's and pnpm's `WARN`, `[warn]`, `⚠`, aider's `Repo-map can't include …`. Read only
 * when no error line is found.
 */
const WARNING =
  /^(?:\d+:\d+\s+warn(?:ing)?\b|warn(?:ing)?\b|npm warn\b|\[warn(?:ing)?\]|⚠|repo-map can['’]t include\b)/i;
/**
 * A runner's bare exit notice with no message of its own: "Exit code 1", "Process exited with code 1"
 * (Codex), "Command exited with code 1" (mini-swe-agent), "The command failed with exit code: 1"
 * (Antigravity). The message, if any, is in the other lines.
 */
const EXIT =
  /^(?:exit(?: code|ed with)?:?|process exited with code|(?:the )?command (?:failed|exited) with (?:exit )?code:?)\s*-?\d+\.?$/i;
/**
 * The header Codex CLI's `exec_command` puts before a command's output (`Chunk ID: 5c9bc4`,
 * `Wall time: 0.05 seconds`, `Original token count: 26`, `Output:`), and aider's `Tokens: 1.1k sent,
 * 555 received.` before its own errors, and Cline's `[execute_command for 'npm test'] Result:` (the
 * command it names may hold any word): the runner's, not the error.
 */
const ENVELOPE =
  /^(?:chunk id: \w+|wall time: [\d.]+ seconds?|original token count: \d+|output:|tokens: [\d.,]+k? sent, [\d.,]+k? received\..*|\[\w+(?: for .*)?\] result:)$/i;
/**
 * A test runner's section heading, once its rules are dropped (pytest's `==== FAILURES ====`, `ERRORS`,
 * `short test summary info`): the failures are in the lines under it.
 */
const HEADING = /^(?:failures|errors|short test summary info|warnings summary|test session starts)$/i;
/**
 * Vitest's header over what a test logged (`stdout | tests/a.test.ts > suite > test name`, also
 * `stderr |`): the lines under it, to the next blank line, are the test's console output. Test names
 * and logs hold error words ("should fall back if a download fails", "Cache missing, fetching…") that
 * say nothing of why the run failed.
 */
const CAPTURE = /^(?:stdout|stderr) \| \S+ > /;
/**
 * pytest's explanation of a failure (`E       TypeError: unsupported operand…`, `E   assert 1 == 2`):
 * it comes under the source lines pytest quotes, which hold error words of their own
 * (`except Exception:`, `raise ValueError(…)`), and after its banner ("collected 0 items / 1 error").
 * An `E` line of a diff or a log (`E   --dict:762/1123--`) names no exception and is not preferred.
 */
const PYTEST_E = /^E {3,}(?:.*(?:\w(?:Error|Exception|Failure)\b|\bassert\b)|\w+(?:\.\w+)*:)/;
/** Tags (`<tool_use_error>`) and rules (`=====`, `-----`) around a line: decoration, not words. */
const TAG = /<\/?[a-z_]+>/gi;
/** Terminal colour codes (`ESC[31m`), with or without their escape character. */
const ANSI = /\u001b?\[[0-9;]*m/g;
/** Rules, vitest's `⎯⎯⎯ Failed Tests 1 ⎯⎯⎯` among them. */
const RULE = /[=*#~_\u23af-]{3,}/g;
/**
 * Codex CLI's report of a call its sandbox stopped: a Rust debug print (`exec_command failed:
 * CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { …, stderr:
 * StreamOutput { text: \"fatal: …\" …`). What the command printed is in its `stderr` or
 * `aggregated_output`, or in `SandboxDenied`'s `message`.
 */
const CODEX_FAILED = /^\s*[\w.]+ failed: \w+ \{ message: /;
const STREAMS = ['stderr: StreamOutput { text: ', 'aggregated_output: StreamOutput { text: '];
const CODEX_MESSAGE = /^\s*[\w.]+ failed: SandboxDenied \{ message: "((?:[^"\\]|\\.)*)"/;
/**
 * Gemini CLI's report of an MCP tool's error: `MCP tool 'push_files' reported tool error for function
 * call: {…the call, with its arguments…} with response: [{…"text":"failed to get branch reference: …
 * 409 Git Repository is empty."…}]`. The error is the text of the response's parts.
 */
const MCP_FAILED = /^\s*MCP tool '[^'\n]{0,200}' reported tool error for function call: /;
const MCP_RESPONSE = ' with response: ';
const JSON_TEXT = /"text":"((?:[^"\\]|\\.)*)"/g;
/** Nodes of a parsed response read for its texts: a response is a few parts, not a document. */
const MCP_NODES = 1000;

/**
 * What a runner shows as the output of a call the person declined or stopped: Claude Code's JSONL
 * notices, its console's `No (tell Claude what to do differently)`, `Interrupted by user`, the later
 * `Interrupted · What should Claude do instead?` and `User rejected update to a.py` (`write to …`,
 * `Claude's plan:`, `tool use`), Codex CLI's `exec command rejected by user` and,
 * in its debug print, `exec_command failed: CreateProcess { message: "Rejected(\"rejected by user\")" }`,
 * and Cline's `The user denied this operation.` under its `[tool for 'x'] Result:` header (one line,
 * read from the start only).
 */
const DECLINED =
  /^\s*(?:\[[^\n]*\] Result:\s*)?(?:The user denied this operation|The user doesn['’]t want to (?:proceed|take this action)|\[Request interrupted by user|No \(tell Claude what to do differently\)|Interrupted (?:by user|· What should Claude do instead\?)|User rejected (?:update to|write to|edit to|Claude's plan|tool use)|(?:exec command|patch) rejected by user|[\w.]+ failed: \w+ \{ message: "Rejected\(\\?"rejected by user|Cancelled$)/;

/**
 * Whether a call's output says the person declined the call: feedback for the user-turn heuristics,
 * neither a tool failure nor the call that worked, and no problem for the snapshot to show.
 *
 * @example
 * ```ts
 * declinedCall('No (tell Claude what to do differently)'); // true
 * declinedCall('Exit code 1'); // false
 * ```
 */
export function declinedCall(output: string): boolean {
  return typeof output === 'string' && DECLINED.test(output);
}

/** Lines read to find the error line: enough for a stack banner, bounded on huge outputs. */
const SCAN_LINES = 400;
const SCAN_CHARS = 20_000;

/** What a failed call's output says went wrong (see {@link errorLine}). */
export interface ErrorLine {
  /** The line, without tags, rules or surrounding space; `undefined` when the output holds none. */
  line: string | undefined;
  /** Whether the output held a bare exit notice ("Exit code 1"). */
  exited: boolean;
}

/** A Windows path's start: a drive letter, a colon and a backslash (`errorClass` reads the whole path). */
const WINDOWS_DRIVE = /\b[A-Za-z]:\\/;

/** A line without its tags and rules, trimmed. */
const clean = (line: string): string => line.replace(ANSI, '').replace(TAG, ' ').replace(RULE, ' ').trim();

/**
 * A string escaped once or more (`\"`, `\\n`, `\\\"`) read back. Each run of backslashes is read
 * from its first one only (the lookbehind): trying each of its backslashes would be quadratic.
 */
const unescaped = (s: string): string =>
  s
    .replace(/(?<!\\)\\+n/g, '\n')
    .replace(/(?<!\\)\\+(["'])/g, '$1')
    .replace(/\\\\/g, '\\');

/** `s` without the quote (and the backslashes escaping it) at each end. */
function unquote(s: string): string {
  let from = 0;
  while (from < s.length && s.charCodeAt(from) === 92) from++;
  if (s.charCodeAt(from) === 34) from++;
  let to = s.length;
  if (to > from && s.charCodeAt(to - 1) === 34) {
    to--;
    while (to > from && s.charCodeAt(to - 1) === 92) to--;
  }
  return s.slice(from, to);
}

/** The command's own output inside Codex's sandbox report, or the text itself. */
function unwrapCodex(text: string): string {
  if (!CODEX_FAILED.test(text)) return text;
  for (const key of STREAMS) {
    const at = text.indexOf(key);
    const end = at < 0 ? -1 : text.indexOf(', truncated_after_lines', at);
    if (end < 0) continue;
    const inner = unescaped(unquote(text.slice(at + key.length, end)));
    if (inner.trim()) return inner;
  }
  const message = CODEX_MESSAGE.exec(text)?.[1];
  return message ? unescaped(message) : text;
}

/** The `text` strings of a parsed JSON value, depth first, at most {@link MCP_NODES} nodes read. */
function textsOf(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  for (let n = 0; stack.length > 0 && n < MCP_NODES; n++) {
    const v = stack.pop();
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string') out.push(o.text);
      for (const k of Object.keys(o).reverse()) if (k !== 'text') stack.push(o[k]);
    }
  }
  return out;
}

/** The texts of the response inside Gemini CLI's MCP error report, or the text itself. */
function unwrapMcp(text: string): string {
  if (!MCP_FAILED.test(text)) return text;
  // The call's arguments (file contents) come first and may hold anything: the response is last.
  const at = text.lastIndexOf(MCP_RESPONSE);
  if (at < 0) return text;
  const rest = text.slice(at + MCP_RESPONSE.length);
  const texts: string[] = [];
  try {
    texts.push(...textsOf(JSON.parse(rest)));
  } catch {
    for (const m of rest.matchAll(JSON_TEXT)) {
      try {
        texts.push(JSON.parse(`"${m[1]}"`) as string);
      } catch {
        texts.push(m[1]!);
      }
    }
  }
  const joined = texts.join('\n').trim();
  return joined ? joined : text;
}

/**
 * The line of a failed tool call's output that says what went wrong: the first of its first 400 lines
 * that is pytest's explanation of an exception (`E   TypeError: …`), else the first that holds an
 * error word and is no warning, else a test runner's verdict among its last lines,
 * else its first warning with an error word, else the first line after a runner's exit notice, else
 * its first line; a Python traceback gives its last exception line. Runners' bare exit notices and
 * envelopes (`Exit code 1`, Codex's `Chunk ID` header) are never the line, nor is what a test logged
 * under vitest's `stdout |` / `stderr |` header (to the next blank line), a console's `Error: `
 * prefix is dropped, text quoted twice has its `\n` read as line breaks, Codex's sandbox report is
 * read for the command's own output, and Gemini CLI's MCP error report for the tool's response.
 * Linear in the output's length; never throws.
 *
 * @example
 * ```ts
 * errorLine('Exit code 1\n  12:5  warning  x is unused\n  20:1  error  Parsing error: Unexpected token');
 * // { line: '20:1  error  Parsing error: Unexpected token', exited: true }
 * ```
 */
export function errorLine(output: string): ErrorLine {
  if (typeof output !== 'string') return { line: undefined, exited: false };
  const unwrapped = unwrapMcp(unwrapCodex(output));
  // Text quoted twice has `\n` for its line breaks, but on a line with a Windows path that is the
  // path's (`C:\Program Files\nodejs\npm.ps1`). Only an output with such a path is read line by line.
  const text = (
    WINDOWS_DRIVE.test(unwrapped)
      ? unwrapped.replace(/^.*$/gm, (line) => (WINDOWS_DRIVE.test(line) ? line : line.replace(/\\n/g, '\n')))
      : unwrapped.replace(/\\n/g, '\n')
  ).replace(/^\s*Error:\s+(?=\S)/, '');
  const lines: string[] = [];
  let exited = false;
  // The first line after an exit notice: what the command printed, below a runner's preface
  // (Antigravity: "Created At: …" or "The USER performed the following action:", then the notice).
  let printed = -1;
  // Inside a JS test runner's captured console block: what a test logged, not why the run failed.
  let captured = false;
  for (const raw of text.slice(0, SCAN_CHARS).split('\n', SCAN_LINES)) {
    const line = clean(raw);
    if (!line) {
      captured = false;
      continue;
    }
    if (captured) continue;
    if (CAPTURE.test(line)) {
      captured = true;
      continue;
    }
    if (EXIT.test(line)) {
      exited = true;
      printed = lines.length;
    } else if (!ENVELOPE.test(line)) lines.push(line);
  }
  const isError = (l: string) => ERROR_WORDS.test(l) && !WARNING.test(l) && !HEADING.test(l);
  // Test runners print their banner first and their verdict last ("N failed, N passed").
  const verdict = () =>
    text
      .slice(-4000)
      .split('\n')
      .slice(-15)
      .map(clean)
      .find((l) => isError(l) && !EXIT.test(l));
  let line =
    // Only a line opening with `E` can be one: most failed outputs have none, read at one comparison a line.
    lines.find((l) => l.charCodeAt(0) === 0x45 && PYTEST_E.test(l)) ??
    lines.find(isError) ??
    verdict() ??
    lines.find((l) => ERROR_WORDS.test(l)) ??
    (printed >= 0 ? lines[printed] : undefined) ??
    lines[0];
  // A Python traceback says what went wrong on its last exception line, not its banner.
  if (line?.startsWith('Traceback (most recent call last)')) {
    const tail = text.slice(-SCAN_CHARS).split('\n').reverse();
    line = tail.find((l) => /^[\w.]*(?:Error|Exception|Exit|Interrupt)\b/.test(l.trim()))?.trim() ?? line;
  }
  return { line, exited };
}
