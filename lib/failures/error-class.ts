/**
 * Error classes and call targets: what makes two failed tool calls "the same failure", and what a
 * call acts on. Pure string work, shared by the failure lessons of `failures.ts`.
 */
import { errorLine, parseJsonObject, tildeSpelling } from '../core/index.js';

const CLASS_CHARS = 120;
/**
 * The name after a kind of named thing (`branch spotter-gqc`, `module foo`): it differs per
 * occurrence. A verb, a conjunction or a noun of the sentence is no name: "command timed out",
 * "module named foo", "option must be set", "such a function or", "branch reference", "Host key",
 * "ES module scope", "package manager".
 */
const NAMED =
  /\b(branch|tag|remote|module|package|function|method|class|command|variable|attribute|table|column|field|option|host|named)\s+(?!(?:not|has|is|are|was|does|did|in|of|to|for|from|with|the|a|an|or|and|but|must|should|can|could|will|would|may|might|shall|references?|key|scope|manager|\w+(?:ed|ing))\b)(?!<)[\w.:/-]+/gi;
/** The first word of a sentence the line does not finish, after one it does. */
const SENTENCE_CUT = /(?<=[.!?])\s+[A-Z][a-z]{0,11}$/;
/**
 * Box-drawing characters before the message: Terraform frames each diagnostic (`╷`, `│ Error: …`, `╵`),
 * and the frame says nothing of the failure.
 */
const FRAME = /^[\u2500-\u257f\s]+/;
/** PowerShell names the command before its message (`git : The term 'git' is not recognized…`). */
const POWERSHELL_SOURCE = /^[\w.-]+ : (?=[A-Z])/;
/** pytest's marker before its explanation (`E       TypeError: …`): the runner's, not the error's. */
const PYTEST_MARK = /^E {3,}(?=\S)/;

/**
 * The error class of a failed call's output: the line that says what went wrong (`errorLine` of
 * rearview/core), with what differs between occurrences normalised away — quoted values become `"…"`, URLs
 * `<url>`, paths `<path>`, ids and hashes `<id>`, the name after `branch`, `module`, `function`…
 * `<name>`, numbers `N` — on one line of at most 120
 * characters. A bare exit status gives `exit code N`. `root`, the folder the run worked in, is read as
 * one path even when its name holds a space (`/Users/ana/My app`). Deterministic; never throws.
 *
 * @example
 * ```ts
 * errorClass('Exit code 128\nfatal: The current branch spotter-gqc has no upstream branch.');
 * // 'fatal: The current branch <name> has no upstream branch.'
 * errorClass('File content (28375 tokens) exceeds maximum allowed tokens (25000).');
 * // 'File content (N tokens) exceeds maximum allowed tokens (N).'
 * errorClass('npm error path /Users/ana/My app/package.json', '/Users/ana/My app');
 * // 'npm error path <path>'
 * ```
 */
export function errorClass(error: string, root?: string): string {
  if (typeof error !== 'string') return 'unknown error';
  const { line, exited } = errorLine(error);
  const normal = line === undefined ? '' : normalise(wholeRoot(line, root));
  return normal || (exited ? 'exit code N' : 'no output');
}

/**
 * What a POSIX path's names may hold for {@link PATH} to read it whole. Not the snapshot's
 * `PLAIN_SPELLING` (root.ts): that one is what `findLinks` reads, another scanner with its own set.
 */
const PLAIN_FOLDER = /^[\w@.+/-]*$/;
/** A POSIX name {@link PATH} reads as a path, standing in for the run's folder. */
const ROOT_STAND_IN = '/rearview/root';

/**
 * `line` with the run's folder (`CallRun.root`) written as a plain path when its name holds what
 * {@link PATH} stops at (white space, a letter outside ASCII: `/Users/ana/My app`), so the folder and
 * what is under it are masked as one path, not as a path and a stray word (`<path> app`). The folder
 * is read as recorded and, under a home folder (`/Users/<name>/`, `/home/<name>/`, `/root/`), in its `~`
 * spelling too (`~/My app/package.json`: shells and npm print it so); a Windows folder with spaces is
 * read whole by {@link WINDOWS_PATH} already.
 */
function wholeRoot(line: string, root: string | undefined): string {
  if (typeof root !== 'string' || root.length < 2 || root.length > 4096 || root.charCodeAt(0) !== 0x2f)
    return line;
  let to = root.length;
  while (to > 1 && root.charCodeAt(to - 1) === 0x2f) to--;
  const folder = root.slice(0, to);
  if (PLAIN_FOLDER.test(folder)) return line;
  let out = line.indexOf(folder) < 0 ? line : line.replaceAll(folder, ROOT_STAND_IN);
  // `~` alone (the home folder itself) is no folder of a run to mask.
  const tilde = tildeSpelling(folder);
  if (tilde && tilde.length > 2 && out.indexOf(tilde) >= 0) out = out.replaceAll(tilde, ROOT_STAND_IN);
  return out;
}

/**
 * A URL. Its `[\w+.-]*` runs to the end of the run of such characters wherever it starts, so only
 * the first start (`\b` before a letter) of a run is tried: the lookbehind (lazy, it reads back only
 * to the nearest start) skips the others, which would fail or match where the first did. Trying every
 * start of `a.a.a.…` took quadratic time.
 */
const URL = /\b(?=[a-z])(?<!\b[a-z][\w+.-]*?)[a-z][\w+.-]*:\/\/\S+/gi;
/**
 * A path (two slashes, a slash and a file name, or a file name by its extension); after a slash a
 * folder may be a route group or a dynamic segment (`/app/(auth)/[id]/page.tsx`), as `findLinks`
 * reads them (each opens with its own character, so the scan stays linear). The last two are
 * tried only at the first start of their run (`[\w.-]`, `[\w-]`), as `URL`: a later start of the run
 * reaches the same run end, so it fails where an earlier start failed or was swallowed by a match
 * ending with `.name` (which leaves no later `.name` in its run). A start right after a `.` may be a
 * match's extension, never tried: it does not skip the starts after it.
 */
const PATH =
  /(?:~|\.{1,2})?(?:\/(?:[\w.@+-]+|\([\w-]+\)(?=\/)|\[(?:\.\.\.)?[A-Za-z_]\w*(?:-\w{2,})*\][\w.@+-]*)){2,}\/?|\b(?=[\w.-])(?<!\b[\w.-]+?)[\w.-]+\/[\w./-]*\.\w+\b|\b(?=[\w-])(?<!(?<!\.)\b[\w-]+?)[\w-]+\.(?:py|ts|js|tsx|jsx|ex|exs|rb|go|rs|java|json|md|txt|yml|yaml|toml|lock|sh|c|h|cpp)\b/g;

/**
 * A Windows path: a drive, then folders (which may hold single spaces: `Program Files`) each ended
 * by a backslash, then a name. A scan starts only at a drive and stops at the next colon, so it reads
 * each character once.
 */
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[^\\\s"'<>|:*?]+(?: [^\\\s"'<>|:*?]+)*\\)*[^\\\s"'<>|:*?]*/g;

/**
 * A quoted value, closed by its own kind of quote: `"…"`, `'…'`, `` `…` ``, `“…”`, `‘…’`, and the GNU
 * tools' `` `…' ``. Closing on any quote read `` `"` can be escaped with `&quot;` `` as one value from
 * each quote to the next.
 */
const QUOTED =
  /"[^"\n]{0,200}"|'[^'\n]{0,200}'|`[^`'\n]{0,200}'|`[^`\n]{0,200}`|“[^”\n]{0,200}”|‘[^’\n]{0,200}’/g;

/** Two or more quoted values in a row, as {@link QUOTED} left them, separated by commas. */
const LISTED = /"…"(?:\s*,\s*"…")+/g;

/** The parts of an error line that differ between occurrences of the same failure, replaced. */
function normalise(line: string): string {
  const out = line
    .replace(FRAME, '')
    .replace(POWERSHELL_SOURCE, '')
    .replace(PYTEST_MARK, '')
    .replace(QUOTED, '"…"')
    // A list of quoted values is one value: `["…", "…", "…",` would fill the class with marks, and
    // lists of other lengths would make other classes of the same failure.
    .replace(LISTED, '"…"')
    .replace(WINDOWS_PATH, '<path>')
    .replace(URL, '<url>')
    .replace(PATH, '<path>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(
      /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b|\b(?=\w*\d\w*\d)(?=\w*[a-z])\w{8,}\b/gi,
      '<id>',
    )
    .replace(NAMED, '$1 <name>')
    .replace(/\b\d[\d,._]*\b/g, 'N')
    .replace(/\s+/g, ' ')
    .trim()
    // A console wraps long lines: "… disabled on this system. For" ends with the next sentence's
    // first word, which says nothing alone.
    .replace(SENTENCE_CUT, '');
  if (out.length <= CLASS_CHARS) return out;
  const cut = out.slice(0, CLASS_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > 60 ? cut.slice(0, space) : cut}…`;
}

/** Characters of a command read for its head (programs and their first argument sit well inside). */
const HEAD_WINDOW = 4096;

/** Shell wrappers that say nothing about what a command does. */
const WRAPPERS = new Set(['sudo', 'env', 'time', 'timeout', 'nohup', 'exec', 'command']);
/** Windows' shell and an opening quote before a script: `cmd /c "`, `cmd.exe /C '`. */
const CMD_OPENING = /^(?:cmd(?:\.exe)?\s+\/[ck]\s+)?["']?/i;
/** Wrapper options followed by a value: `timeout -s KILL`, `timeout -k 5`, `sudo -u app`, `env -u X`. */
const WRAPPER_VALUE = new Set(['-s', '-k', '-u', '-g']);

/**
 * What a shell command runs: its program and first plain argument (`git push`, `mix test`,
 * `python3 test.py`), past `cd … &&`, environment assignments and wrappers such as `sudo`.
 *
 * @example
 * ```ts
 * commandHead('cd app && FOO=1 git push --force 2>&1'); // 'git push'
 * ```
 */
export function commandHead(command: string): string {
  const { program, arg } = headWords(command);
  if (!program) return '';
  return arg ? `${program} ${arg}` : program;
}

/** A step that sets the stage: `cd`, `source`, `.`, `export`, `set`, or a bare assignment (`PATH=…`). */
const SETUP_STEP = /^(?:(?:cd|source|\.|export|set)\s|\w+=\S*$)/;

/**
 * @internal Whether one part of a command line (split on `&&`, `||`, `;`, `|`) only sets the stage
 * for the command after it: `cd app`, `source .venv/bin/activate`, `export A=1`, `PATH=…`.
 *
 * @example
 * ```ts
 * isSetupStep('cd web'); // true
 * isSetupStep('npm test'); // false
 * ```
 */
export function isSetupStep(part: string): boolean {
  return SETUP_STEP.test(part);
}

/**
 * @internal The words {@link commandHead} reads: the program as the OS names it (`npm`, also for
 * `npm.cmd`), the program as written (`npm.cmd`), and its first plain argument.
 *
 * @example
 * ```ts
 * headWords('cmd /c npm.cmd install'); // { program: 'npm', written: 'npm.cmd', arg: 'install' }
 * ```
 */
export function headWords(command: string): { program: string; written: string; arg?: string } {
  if (typeof command !== 'string') return { program: '', written: '' };
  // The head is in the line's first few words: reading at most HEAD_WINDOW characters keeps a
  // pasted megabyte-long line from costing more than a short one (splitting all of it into tokens
  // crossed an engine size step: linear, but ten times slower past 25 KB).
  const first = (command.trimStart().slice(0, HEAD_WINDOW).split('\n', 1)[0] ?? '').trimEnd();
  // `cd`, `source venv/bin/activate`, `export` and a bare `PATH=…` set the stage; the command is what follows.
  const parts = first
    .split(/&&|\|\||;|\|/)
    // The spaces around each separator dropped after the split (those at the line's end stay):
    // `\s*` around the separators of the split regex would start a scan to the end of a run of
    // spaces at every space of it (quadratic time).
    .map((p, i, all) => {
      const start = i > 0 ? p.trimStart() : p;
      // Windows' `cmd /c "set PATH=… && npm create …"`: the shell and the quote open the script.
      return (i < all.length - 1 ? start.trimEnd() : start).replace(CMD_OPENING, '');
    })
    .filter((p) => p && !isSetupStep(p));
  const tokens = (parts[0] ?? '').split(/\s+/).filter((t) => t && !/^\w+=/.test(t));
  for (;;) {
    // A wrapper before a Windows switch is Windows' own command (`timeout /t 3` waits, `time /t`).
    if (tokens.length && WRAPPERS.has(tokens[0]!) && /^\/[a-z?]+$/i.test(tokens[1] ?? '')) break;
    if (tokens.length && WRAPPERS.has(tokens[0]!)) {
      tokens.shift();
      // The wrapper's own options (`timeout -s KILL 30`, `sudo -u app`), some with a value.
      while (tokens.length > 1 && tokens[0]!.startsWith('-'))
        tokens.splice(0, WRAPPER_VALUE.has(tokens[0]!) ? 2 : 1);
    } else if (tokens.length && /^\d+[smh]?$/.test(tokens[0]!)) tokens.shift();
    // Windows' `cmd /c npm install` runs `npm install`.
    else if (tokens.length > 1 && /^cmd(?:\.exe)?$/i.test(tokens[0]!) && /^\/[ck]$/i.test(tokens[1]!))
      tokens.splice(0, 2);
    else break;
  }
  // A quoted program (`"$HOME/bin/yt-dlp" -o …`, PowerShell's `"npm run dev"`) is the program.
  const written = (tokens[0] ?? '').replace(/^["']+|["']+$/g, '').replace(/^.*[\\/]/, '');
  // Windows runs `npm` as `npm.cmd` (PowerShell refuses `npm.ps1`): one program, from any folder.
  const program = written.replace(/\.(?:cmd|exe|bat|ps1)$/i, '');
  // `…` is where a console cut the line (`DEV_MODE=1 OLLAMA_URL=… …`, `pyt…`): no program to read.
  if (!program || program.includes('\u2026')) return { program: '', written: '' };
  const arg = tokens.slice(1).find((t) => !t.startsWith('-'));
  return arg && /^[\w][\w./-]{0,39}$/.test(arg) && !/^\d/.test(arg)
    ? { program, written, arg }
    : { program, written };
}

/** Tools that run a shell command. */
const SHELL_TOOL = /^(?:bash|sh|zsh|shell|terminal|run_?command|execute_?command|exec)$/i;

/**
 * @internal The shell command a call runs: its JSON input's command (`commandOf`, '' when it names
 * none) for a shell tool, or its raw action; undefined for a call of another tool with a JSON input.
 *
 * @example
 * ```ts
 * shellCommand('shell', '{"command":["bash","-lc","npm test"]}'); // 'npm test'
 * shellCommand('Read', '{"file_path":"a.ts"}'); // undefined
 * ```
 */
export function shellCommand(tool: string, action: string | undefined): string | undefined {
  if (!isShellCall(tool, action)) return undefined;
  return commandLine(action) ?? '';
}

/**
 * @internal The command line of a call, whatever its tool: its JSON input's command (`commandOf`), or
 * the raw action; undefined for a JSON input that names no command or for no action.
 *
 * @example
 * ```ts
 * commandLine('{"command":["bash","-lc","npm test"]}'); // 'npm test'
 * commandLine('make -C src'); // 'make -C src'
 * commandLine('{"file_path":"a.ts"}'); // undefined
 * ```
 */
export function commandLine(action: string | undefined): string | undefined {
  if (typeof action !== 'string') return undefined;
  const input = inputObject(action);
  return input ? commandOf(input) : action;
}

/**
 * @internal Whether a call runs a shell command: a shell tool, or an action that is no JSON input
 * (a trajectory's raw command).
 *
 * @example
 * ```ts
 * isShellCall('bash', '{"command":"ls"}'); // true
 * isShellCall('Read', '{"file_path":"a.ts"}'); // false
 * ```
 */
export function isShellCall(tool: string, action: string | undefined): boolean {
  return SHELL_TOOL.test(tool) || (action !== undefined && !inputObject(action));
}

/** An object parsed from a call's JSON input, or undefined for a raw command. */
export function inputObject(action: string | undefined): Record<string, unknown> | undefined {
  return typeof action === 'string' && action.startsWith('{') ? parseJsonObject(action) : undefined;
}

/** The keys a call's JSON input names its shell command by, in the order they are read. */
export const COMMAND_KEYS: readonly string[] = ['command', 'cmd', 'CommandLine'];

/** A shell that runs its script from `-c`: `bash -lc "npm test"` runs `npm test`. */
const SHELL_ARGV0 = /^(?:\S*\/)?(?:ba|z|da|k)?sh$/;

/**
 * The shell command of a call's JSON input: `command`, `cmd` or `CommandLine` (Antigravity) as a
 * string, or `command` as an argv (Codex CLI's `["bash", "-lc", "npm test"]` is `npm test`; another
 * argv is its words joined).
 * Undefined when the input holds no command.
 *
 * @example
 * ```ts
 * commandOf({ command: ['bash', '-lc', 'npm test'], timeout_ms: 120000 }); // 'npm test'
 * commandOf({ cmd: 'git push' });                                           // 'git push'
 * commandOf({ file_path: 'a.ts' });                                          // undefined
 * ```
 */
export function commandOf(input: Record<string, unknown>): string | undefined {
  const key = COMMAND_KEYS.find((k) => input[k] !== undefined && input[k] !== null);
  const c = key === undefined ? undefined : input[key];
  if (typeof c === 'string') return unquoted(c);
  if (!Array.isArray(c) || c.length === 0 || !c.every((w) => typeof w === 'string')) return undefined;
  const argv = c as string[];
  if (argv.length === 3 && SHELL_ARGV0.test(argv[0]!) && /^-[a-z]*c$/.test(argv[1]!)) return argv[2];
  return argv.join(' ');
}

/**
 * A command line written as one quoted string (Antigravity's `CommandLine`: `"npm install"`, inner
 * quotes escaped) read back; any other command as it is.
 */
function unquoted(command: string): string {
  if (command.length < 2 || command[0] !== '"' || command[command.length - 1] !== '"') return command;
  try {
    const inner: unknown = JSON.parse(command);
    if (typeof inner === 'string') return inner;
  } catch {
    // Not one JSON string (`"a" && "b"`): the command as written.
  }
  return command;
}

const TARGET_KEYS = ['file_path', 'notebook_path', 'path', 'url'];

/**
 * What a call acts on: the file or URL of a JSON input, else the head of its command (`git push`).
 * Undefined when the call names neither.
 *
 * @example
 * ```ts
 * callTarget('{"file_path":"/a/b.ts","offset":10}'); // '/a/b.ts'
 * callTarget('git push --force');                    // 'git push'
 * ```
 */
export function callTarget(action: string | undefined): string | undefined {
  if (typeof action !== 'string' || !action.trim()) return undefined;
  const input = inputObject(action);
  if (!input) return commandHead(action) || undefined;
  for (const key of TARGET_KEYS) if (typeof input[key] === 'string') return input[key] as string;
  const command = commandOf(input);
  return command !== undefined ? commandHead(command) || undefined : undefined;
}
