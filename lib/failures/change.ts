/**
 * What changed between a failed call and the later call that worked, as parts a program can read
 * ({@link FixPart}) and the words a person reads ({@link fixText}, derived from the parts, so the two
 * never disagree).
 */
import { clip } from '../core/index.js';
import { COMMAND_KEYS, commandLine, commandOf, headWords, inputObject, isSetupStep } from './error-class.js';
import { throughRunner } from './runner.js';

/**
 * One part of a fix. `values` are as shown: code spans, long ones cut with "…".
 * - `pass` / `drop` / `change`: keys of the call's input passed, dropped, or given another value;
 * - `setup`: a setup step run first (`cd app`, `source .venv/bin/activate`);
 * - `drop-setup`: a setup step the failed call ran first and the call that worked did not (`cd tmp`:
 *   the step itself failed, or led somewhere else);
 * - `program`: another program on the command line (`values`: the new head, then the old one), or
 *   the same one under another name (`npm.cmd` for `npm`);
 * - `wrapper`: the same command run through a shell or a package runner (`values`: `cmd /c`, `npx`);
 * - `add-flag` / `drop-flag`: flags of the same command;
 * - `change-argument` (`values`: from, to) / `add-argument` / `drop-argument`: a word of the command
 *   that is no flag, i.e. a value that worked for that task;
 * - `reorder`: the same words in another order;
 * - `other-input`: one call had a structured input, the other not;
 * - `other-tool`: another tool on the same target (`values`: its name);
 * - `read-first`: a failed edit that worked once the file was read between the two calls (`values`:
 *   the reading tool): Claude Code refuses to edit a file the agent has not read.
 */
export interface FixPart {
  kind:
    | 'pass'
    | 'drop'
    | 'change'
    | 'setup'
    | 'drop-setup'
    | 'program'
    | 'wrapper'
    | 'add-flag'
    | 'drop-flag'
    | 'change-argument'
    | 'add-argument'
    | 'drop-argument'
    | 'reorder'
    | 'other-input'
    | 'other-tool'
    | 'read-first';
  values: string[];
}

/** A call as the change description needs it: its input (JSON or a command line). */
export interface ChangedCall {
  action?: string;
}

/**
 * Keys that describe a call, not what it does: a note to the reader (Antigravity's `toolAction`,
 * `toolSummary`, `Description`), the limits of an execution (Codex CLI's `timeout_ms`,
 * `max_output_tokens`, `yield_time_ms`; Antigravity's `WaitMsBeforeAsync`), and Cline's bookkeeping
 * (`task_progress`, the to-do list it passes with every call; `requires_approval`, whether it asks the
 * person first): a retry that only changes them is the same command.
 */
const IGNORED_KEYS = new Set([
  'description',
  'Description',
  'toolAction',
  'toolSummary',
  'timeout_ms',
  'max_output_tokens',
  'yield_time_ms',
  'WaitMsBeforeAsync',
  'task_progress',
  'requires_approval',
]);

const code = (items: readonly string[]) => items.map((k) => `\`${k}\``).join('/');

/**
 * The words of a fix, e.g. "pass `offset`/`limit`" or "first run `cd app`" ('' for no part).
 *
 * @example
 * ```ts
 * fixText([{ kind: 'add-flag', values: ['--force'] }]); // 'add `--force`'
 * ```
 */
export function fixText(parts: readonly FixPart[]): string {
  return parts.map(partText).join(', ');
}

function partText(p: FixPart): string {
  const v = p.values;
  switch (p.kind) {
    case 'pass':
      return `pass ${code(v)}`;
    case 'drop':
    case 'drop-flag':
      return `drop ${code(v)}`;
    case 'change':
      return `change ${code(v)}`;
    case 'add-flag':
      return `add ${code(v)}`;
    case 'setup':
      return `first run \`${v[0]}\``;
    case 'drop-setup':
      return `drop the step \`${v[0]}\``;
    case 'program':
      return `run \`${v[0]}\` instead of \`${v[1]}\``;
    case 'wrapper':
      return `run it through \`${v[0]}\``;
    case 'change-argument':
      return `change \`${v[0]}\` to \`${v[1]}\``;
    case 'add-argument':
      return `add the argument \`${v[0]}\``;
    case 'drop-argument':
      return `drop the argument \`${v[0]}\``;
    case 'reorder':
      return 'reorder the arguments';
    case 'other-input':
      return 'pass other arguments';
    case 'other-tool':
      return `use \`${v[0]}\` instead`;
    case 'read-first':
      return `first read the file with \`${v[0]}\``;
  }
}

/**
 * What differs between two calls of one tool: keys passed or dropped, flags added, arguments changed.
 *
 * @example
 * ```ts
 * changeParts({ action: '{"path":"a"}' }, { action: '{"path":"a","limit":10}' });
 * // [{ kind: 'pass', values: ['limit'] }]
 * ```
 */
export function changeParts(a: ChangedCall, b: ChangedCall): FixPart[] {
  const x = inputObject(a.action);
  const y = inputObject(b.action);
  if (!x || !y)
    return x || y ? [{ kind: 'other-input', values: [] }] : commandChange(a.action ?? '', b.action ?? '');
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => !IGNORED_KEYS.has(k));
  const added = keys(y).filter((k) => !(k in x));
  const dropped = keys(x).filter((k) => !(k in y));
  const changed = keys(x).filter((k) => k in y && JSON.stringify(x[k]) !== JSON.stringify(y[k]));
  const parts: FixPart[] = [];
  if (added.length) parts.push({ kind: 'pass', values: added });
  if (dropped.length) parts.push({ kind: 'drop', values: dropped });
  // A command (a string, or Codex's argv) is compared as a command line, not as a value.
  const cx = commandOf(x);
  const cy = commandOf(y);
  const commands = cx !== undefined && cy !== undefined;
  const other = changed.filter((k) => !commands || !COMMAND_KEYS.includes(k));
  if (other.length) parts.push({ kind: 'change', values: other });
  if (commands && other.length < changed.length) parts.push(...commandChange(cx, cy));
  return parts;
}

/** @internal A word that is a flag (`-v`, `--out=x`). */
export const isFlag = (w: string) => /^--?[a-z]/i.test(w);

function words(command: string): string[] {
  return (command.trim().split('\n', 1)[0] ?? '').split(/\s+/).filter(Boolean);
}

/** A command run through Windows' shell: `cmd /c npm install`. */
const WRAPPED_BY = /^(cmd(?:\.exe)?\s+\/[ck])\s+/i;

const SPACE = /\s/;
/** How much of a setup step and of an argument a fix part shows (UTF-16 units, `…` included). */
const STEP_CHARS = 60;
const ARGUMENT_CHARS = 40;

/**
 * A word of one command (`mainCommand` has split off what `|`, `&&`, `||` and `;` chain) that redirects
 * it, runs it in the background or groups it (`>`, `2>&1`, `<`, `&`, `(`): no argument.
 */
const OPERATOR = /^(?:&|[0-9]?>>?(?:&[0-9])?|<|\(|\))$/;

/**
 * What splitting `line` on `\s*(?:&&|;)\s*` gives, in one pass: each separator is the next `&&` or
 * `;` with the spaces on both sides, found once (the regex tried `\s*` from every space of a long run
 * that led to no separator, quadratic in the run).
 */
function splitCommands(line: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    const op = c === ';' ? 1 : c === '&' && line[i + 1] === '&' ? 2 : 0;
    if (op === 0) continue;
    let start = i;
    while (start > from && SPACE.test(line[start - 1]!)) start--;
    let end = i + op;
    while (end < line.length && SPACE.test(line[end]!)) end++;
    out.push(line.slice(from, start));
    from = end;
    i = end - 1;
  }
  out.push(line.slice(from));
  return out;
}

/**
 * @internal The command a line runs, as `commandHead` reads it: the first part of its first line (split on
 * `&&`, `||`, `;` and `|`) that is no setup step. Flags are compared there only: an `ls -la` chained
 * after an `rsync` says nothing about why the `rsync` failed.
 */
export function mainCommand(command: string): string {
  const line = command.trim().split('\n', 1)[0] ?? '';
  for (const part of line.split(/&&|\|\||;|\|/)) {
    const p = part.trim();
    if (p && !isSetupStep(p)) return p;
  }
  return line;
}

/** The setup parts of a command line (`source venv/bin/activate`, `cd app`). */
function setups(command: string): string[] {
  return splitCommands(command.trim().split('\n', 1)[0] ?? '').filter(isSetupStep);
}

/**
 * A setup step added, flags added or dropped, another program, a setup step dropped from the same
 * command, or the first argument of the command that failed that changed.
 */
function commandChange(a: string, b: string): FixPart[] {
  const wa = words(a);
  const wb = words(b);
  if (wa.join(' ') === wb.join(' ')) return [];
  const before = setups(a);
  const after = setups(b);
  const setup = after.find((p) => !before.includes(p));
  if (setup) return [{ kind: 'setup', values: [clip(setup, STEP_CHARS)] }];
  const mainA = mainCommand(a);
  const mainB = mainCommand(b);
  // The same command run through `cmd /c` (PowerShell refused the program, cmd.exe did not).
  const shell = WRAPPED_BY.exec(mainB);
  if (shell && !WRAPPED_BY.test(mainA) && mainB.slice(shell[0].length) === mainA)
    return [{ kind: 'wrapper', values: [shell[1]!.replace(/\s+/g, ' ')] }];
  const ha = headWords(a);
  const hb = headWords(b);
  // The same program run through a package runner (`vercel` was not installed; `npx vercel` was).
  const runner = throughRunner(mainB);
  if (runner && !throughRunner(mainA) && ha.program && headWords(runner.command).program === ha.program)
    return [{ kind: 'wrapper', values: [runner.runner] }, ...commandChange(mainA, runner.command)];
  // A command whose program cannot be read (only setup steps, a quoted path with spaces): which
  // program ran instead is not known.
  if (!ha.program || !hb.program) return [{ kind: 'other-input', values: [] }];
  if (ha.program !== hb.program || ha.written !== hb.written) {
    // The same first argument under another program name is that name alone (`python3` for `python`).
    const show = (h: typeof ha) => (h.arg && ha.arg !== hb.arg ? `${h.written} ${h.arg}` : h.written);
    return [{ kind: 'program', values: [show(hb), show(ha)] }];
  }
  const flags = (ws: string[]) => new Set(ws.filter(isFlag).map((w) => w.split('=')[0]!));
  const ma = words(mainA);
  const mb = words(mainB);
  const fa = flags(ma);
  const fb = flags(mb);
  const added = [...fb].filter((f) => !fa.has(f));
  const dropped = [...fa].filter((f) => !fb.has(f));
  const parts: FixPart[] = [];
  if (added.length) parts.push({ kind: 'add-flag', values: added.slice(0, 4) });
  if (dropped.length) parts.push({ kind: 'drop-flag', values: dropped.slice(0, 4) });
  // Flags are the fix only when the call that worked still runs what failed: every other word of
  // the failed command, in order (`make` → `make -C src`). A call that dropped one ran something else
  // (`python -c "…"` → `python -m app`), and its flags say nothing about the failure.
  if (
    parts.length &&
    keepsInOrder(
      ma.filter((w) => !isFlag(w)),
      mb,
    )
  )
    return parts;
  // Arguments are compared within the command that failed, as flags are: a command chained after it
  // (`… && pre-commit --version`, `… | grep x`) is not what changed. The same command without a step
  // the failed call ran first (`cd test-env && uv pip list`, then `uv pip list`) dropped that step;
  // with only something chained to it, it is the same call. A redirection is no argument (OPERATOR).
  if (ma.join(' ') === mb.join(' ')) {
    const dropped = before.find((p) => !after.includes(p));
    return dropped ? [{ kind: 'drop-setup', values: [clip(dropped, STEP_CHARS)] }] : [];
  }
  const from = ma.find((w) => !OPERATOR.test(w) && !mb.includes(w));
  const to = mb.find((w) => !OPERATOR.test(w) && !ma.includes(w));
  const cut = (w: string) => clip(w, ARGUMENT_CHARS);
  if (from && to) return [{ kind: 'change-argument', values: [cut(from), cut(to)] }];
  if (to) return [{ kind: 'add-argument', values: [cut(to)] }];
  return from ? [{ kind: 'drop-argument', values: [cut(from)] }] : [{ kind: 'reorder', values: [] }];
}

/**
 * The flags of a call's command (`--out`, `-v`; `--x=1` as `--x`), or undefined for a call with no
 * command.
 *
 * @example
 * ```ts
 * commandFlags({ action: 'terraform plan -out=p.tfplan -lock' }); // Set { '-out', '-lock' }
 * ```
 */
export function commandFlags(call: ChangedCall): Set<string> | undefined {
  const command = commandLine(call.action);
  if (command === undefined) return undefined;
  return new Set(
    words(mainCommand(command))
      .filter(isFlag)
      .map((w) => w.split('=')[0]!),
  );
}

/**
 * `parts` without the flags a failed call of the same failure also had: a flag added that another
 * failed call already passed, or dropped that another failed call also lacked, is not what made the
 * call work ("add `-chdir`/`-out`" when `-out` was on the failing calls too is "add `-chdir`").
 * `failed` holds the flags of each failed call that has a command.
 *
 * @example
 * ```ts
 * credited([{ kind: 'add-flag', values: ['-chdir', '-out'] }], [new Set(['-out'])]);
 * // [{ kind: 'add-flag', values: ['-chdir'] }]
 * ```
 */
export function credited(parts: readonly FixPart[], failed: readonly ReadonlySet<string>[]): FixPart[] {
  const out: FixPart[] = [];
  for (const p of parts) {
    const keep =
      p.kind === 'add-flag'
        ? p.values.filter((f) => !failed.some((s) => s.has(f)))
        : p.kind === 'drop-flag'
          ? p.values.filter((f) => failed.every((s) => s.has(f)))
          : p.values;
    if (keep.length || !p.values.length) out.push(keep === p.values ? p : { ...p, values: keep });
  }
  return out;
}

/** Whether `all` holds every word of `words`, in the same order (others may come between). */
function keepsInOrder(words: readonly string[], all: readonly string[]): boolean {
  let j = 0;
  for (const w of all) if (j < words.length && w === words[j]) j++;
  return j === words.length;
}
