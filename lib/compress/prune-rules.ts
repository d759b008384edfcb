/**
 * The classifiers behind {@link pruneTrajectory}: what a step's action does (view, edit, listing,
 * command) and what kind of output line it printed. Pure, regex-only, no locale APIs: the reducer
 * must give byte-identical output in every runtime.
 */
import { isFileEditCall, patchedFiles, type Step } from '../transcript/index.js';
import { jsonField, viewedFile } from './compact.js';
import { viewLineNumber } from './patch.js';

/** The shell command a step ran (a Bash tool call's `command`, or the raw action), or undefined. */
export function commandOf(step: Step): string | undefined {
  if (!step.action) return undefined;
  return jsonField(step.action, 'command') ?? (step.action.charCodeAt(0) === 0x7b ? undefined : step.action);
}

const SWE_WINDOW = /^\[File: (\S+) \(\d+ lines total\)\]/;

/**
 * The file a step shows: {@link viewedFile}'s views, plus SWE-agent's file window — `open path`,
 * and every `edit`/`goto`/`scroll_*` whose output starts with `[File: path (N lines total)]`.
 *
 * @example
 * ```ts
 * viewOf({ index: 0, action: 'open src/a.py', observation: '[File: /r/src/a.py (9 lines total)]', source: { index: 0 } });
 * // '/r/src/a.py'
 * ```
 */
export function viewOf(step: Step): string | undefined {
  const viewed = viewedFile(step);
  if (viewed !== undefined) return viewed;
  const obs = step.observation;
  if (obs?.charCodeAt(0) !== 0x5b) return undefined;
  return SWE_WINDOW.exec(obs)?.[1];
}

const SED_HEAD = /^\s*(?:sed|perl)\s+-[a-zA-Z]*i/;
const SPACE = /\s/;
const FILE_NAME = /^[^\s'"|;&<>]+$/;

/**
 * `/^\s*(?:sed|perl)\s+-[a-zA-Z]*i[\s\S]*?\s([^\s'"|;&<>]+)\s*$/.exec(line)?.[1]` without its
 * backtracking: the file is the last word, after the last space, and that space must come after the
 * flags. The single regex read to the end of the line again for each `i` of a long run of flags.
 */
function sedInPlaceFile(line: string): string | undefined {
  const head = SED_HEAD.exec(line);
  if (!head) return undefined;
  let end = line.length;
  while (end > 0 && SPACE.test(line[end - 1]!)) end--;
  let space = end - 1;
  while (space >= head[0].length && !SPACE.test(line[space]!)) space--;
  if (space < head[0].length) return undefined;
  const name = line.slice(space + 1, end);
  return FILE_NAME.test(name) ? name : undefined;
}
const REDIRECT = /(?:^|\s)>>?\s*['"]?([^\s'"|;&<>]+)['"]?\s*(?:<<|$)/;
const EDITOR = /^\s*str_replace_editor\s+(?:str_replace|create|insert)\s+(\S+)/;

/**
 * The file a step changes (an Edit/Write call, a patch — Codex's `apply_patch`, also through its
 * shell — by the first file it updates or adds, `sed -i`, a `cat > file` heredoc, a
 * `str_replace_editor` edit), or undefined.
 *
 * @example
 * ```ts
 * editedFile({ index: 0, action: "sed -i 's/a/b/' m.py", source: { index: 0 } }); // 'm.py'
 * editedFile({ index: 1, tool: 'apply_patch', action: '*** Begin Patch\n*** Update File: a.js\n@@', source: { index: 1 } }); // 'a.js'
 * ```
 */
export function editedFile(step: Step): string | undefined {
  if (step.tool && isFileEditCall(step.tool, step.action ?? '')) {
    const file = jsonField(step.action, 'file_path') ?? jsonField(step.action, 'notebook_path');
    // SWE-agent's `edit` and `create` name their file in a command line, read below.
    if (file !== undefined) return file;
    const patched = patchedFiles(step.action ?? '', 1)[0];
    if (patched) return patched;
  }
  const cmd = commandOf(step);
  if (!cmd) return undefined;
  const firstLine = cmd.split('\n', 1)[0]!;
  const m = EDITOR.exec(firstLine);
  if (m) return m[1];
  const sed = sedInPlaceFile(firstLine);
  if (sed !== undefined) return sed;
  if (/^\s*cat\b/.test(firstLine)) return REDIRECT.exec(firstLine)?.[1];
  return undefined;
}

const LISTING = /^\s*(?:ls|find|tree|git\s+ls-files|dir)\b/;

/** True for a directory listing: `ls`, `find`, `tree`, `git ls-files`, a Glob/LS call. */
export function isListing(step: Step): boolean {
  if (step.tool === 'Glob' || step.tool === 'LS') return true;
  const cmd = commandOf(step);
  return cmd !== undefined && !cmd.includes('\n') && LISTING.test(cmd) && !/\|\s*xargs/.test(cmd);
}

/** The line range a view shows: from its numbered lines, else a `sed -n 'a,bp'`, else the whole file. */
export function viewRange(step: Step): [number, number] {
  const obs = step.observation ?? '';
  let first: number | undefined;
  let last: number | undefined;
  for (const line of obs.split('\n')) {
    const no = viewLineNumber(line);
    if (no === undefined) continue;
    first ??= no;
    last = no;
  }
  if (first !== undefined && last !== undefined && last >= first) {
    const offset = jsonField(step.action, 'offset');
    const partial = first > 1 || offset !== undefined || /sed\s+-n|head|tail|limit/.test(step.action ?? '');
    return partial ? [first, last] : [1, Number.MAX_SAFE_INTEGER];
  }
  const m = /sed\s+-n\s+['"]?(\d+),(\d+)p/.exec(step.action ?? '');
  if (m) return [Number(m[1]), Number(m[2])];
  if (/^\s*(?:head|tail)\b/.test(commandOf(step) ?? '')) return [0, -1];
  return [1, Number.MAX_SAFE_INTEGER];
}

// A rate's digits are read from the start of their run only (`(?<!\d)`): a run that has a match has one
// from its start, and `\d+` tried from each digit read a long run again from each (quadratic).
const PROGRESS =
  /(?:\d{1,3}(?:\.\d+)?%\s*\|)|[█▉▊▋▌▍▎▏━─#=]{8,}|\[\s*[=#>.-]{4,}\s*\]|\beta\s+\d|(?<!\d)\d+(?:\.\d+)?\s*[kMG]?i?B\/s\b|\r/;
const INSTALL =
  /^\s*(?:Collecting|Downloading|Requirement already satisfied|Installing collected packages|Successfully (?:installed|built|uninstalled)|Obtaining|Preparing metadata|Building wheels?|Created wheel|Stored in directory|Using cached|Attempting uninstall|Found existing installation|Uninstalling|Looking in indexes|Resolved \d+ packages|Prepared \d+ packages|Installed \d+ packages|Audited \d+ packages|added \d+ packages|up to date, audited|npm (?:WARN|notice)|Compiling \d+ files?|Generated \w+ app|==> \w+|Get:\d+|Hit:\d+|Fetched \d+|Reading package lists|Unpacking|Setting up|Selecting previously unselected)\b/;

/** True for a progress-bar or package-install log line: noise once the step is over. */
export function isNoiseLine(line: string): boolean {
  return INSTALL.test(line) || PROGRESS.test(line);
}

// `\s*(?:\[…\]\s*)?$`, the same lines as `\s*(?:\[…\])?\s*$`: two `\s*` in a row split a run of spaces
// every way before the end failed (quadratic in the run).
const PASSING =
  /(?:\sPASSED\b|\s\.\.\.\s+ok\s*$|^\s*ok \d+\b|^\s*[✓✔√]\s|^\s*PASS\s|^\s*\S+\.py\s+\.+\s*(?:\[\s*\d+%\]\s*)?$|^\s*\.{3,}\s*(?:\[\s*\d+%\]\s*)?$)/;

/** True for one row of a table of passing tests (pytest `PASSED`, `... ok`, `✓ name`, dot rows). */
export function isPassingTestLine(line: string): boolean {
  return PASSING.test(line);
}

const FRAME = /^\s*File "[^"]+", line \d+, in /;

/** True for the first line of a Python traceback frame. */
export function isFrameLine(line: string): boolean {
  return FRAME.test(line);
}

const STOP = new Set(
  (
    'this that with from have been were will would should could there their they them then than ' +
    'what when where which while into onto over under about after before because does done just ' +
    'like more most much need only other same some such sure also here each very make made file ' +
    'files line lines code test tests true false none null self return import def class else elif ' +
    'pass print const function value values data type name true output input error see let var ' +
    'check look first next now run running using used use want think issue need found seems'
  ).split(' '),
);
const WORD = /[A-Za-z_][A-Za-z0-9_]{3,}/g;

/**
 * The words of a text that can refer to something specific: identifiers of four or more characters,
 * lower-cased, without English and keyword filler. Used to tell whether a later step mentions an
 * output line.
 *
 * @example
 * ```ts
 * significantWords('def separability_matrix(model):'); // ['separability_matrix', 'model']
 * ```
 */
export function significantWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    if (!STOP.has(w)) out.push(w);
  }
  return out;
}
