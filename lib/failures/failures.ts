/**
 * Failure lessons: failed tool calls grouped by tool and error class across runs, each class paired
 * with the later call that worked and what changed between them. `reflectFromTrajectories` turns the
 * classes into insights; `stepsFromMessages` reads the calls of a transcript.
 */
import { contentText, defaultRef } from '../core/index.js';
import type { MessageLike } from '../heuristic/index.js';
import { callTarget, commandHead, commandOf, errorClass, inputObject } from './error-class.js';

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
}

/** The later call that worked after a failure, and what changed. */
export interface FailureFix {
  /** 1-based step number of the call that worked, and its run. */
  step: number;
  run: string;
  ref: string;
  /** `changed`: other arguments; `other-tool`: another tool on the same target; `retry`: the same call. */
  kind: 'changed' | 'other-tool' | 'retry';
  /** What changed, e.g. "pass `offset`/`limit`" ('' for a retry). */
  change: string;
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

const SHELL_TOOL = /^(?:bash|sh|zsh|shell|terminal|run_?command|execute_?command|exec)$/i;
/**
 * Keys that describe a call, not what it does: a note to the reader, and the limits of an execution
 * (Codex CLI's `timeout_ms`, `max_output_tokens`, `yield_time_ms`): a retry that only changes them is
 * the same command.
 */
const IGNORED_KEYS = new Set(['description', 'timeout_ms', 'max_output_tokens', 'yield_time_ms']);
/** The person declined the call: feedback for the user-turn heuristics, not a tool failure. */
const USER_REJECTION =
  /^\s*(?:The user doesn['’]t want to (?:proceed|take this action)|\[Request interrupted by user)/;

interface Located extends CallStep {
  tool: string;
  run: string;
  step: number;
  ref: string;
  /** {@link targetOf}'s memo: most calls are never compared, so their input is never parsed. */
  target?: string | undefined;
  targetRead?: true;
}

/** What the call acted on ({@link callTarget}), read once and only when a failure asks for it. */
function targetOf(s: Located): string | undefined {
  if (!s.targetRead) {
    s.target = callTarget(s.action);
    s.targetRead = true;
  }
  return s.target;
}

function locate(run: CallRun): Located[] {
  const id = String(run.id);
  const out: Located[] = [];
  run.steps.forEach((s, position) => {
    if (s === null || typeof s !== 'object') return;
    const index = typeof s.index === 'number' ? s.index : position;
    const action = typeof s.action === 'string' ? s.action : undefined;
    out.push({
      ...(action !== undefined ? { action } : {}),
      ...(typeof s.error === 'string' ? { error: s.error } : {}),
      tool: typeof s.tool === 'string' && s.tool !== '' ? s.tool : '<unknown>',
      run: id,
      step: index + 1,
      ref: typeof s.ref === 'string' ? s.ref : `trajectory:${id}:event:${index}`,
    });
  });
  return out;
}

function isShell(s: Located): boolean {
  return SHELL_TOOL.test(s.tool) || (s.action !== undefined && !inputObject(s.action));
}

/** The program a shell call runs (`git`), or '' for other calls. */
function program(s: Located): string {
  if (!isShell(s)) return '';
  const input = inputObject(s.action);
  const command = input ? (commandOf(input) ?? '') : (s.action ?? '');
  return commandHead(command).split(' ')[0] ?? '';
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
  const classes = new Map<string, FailureClass & { subjects: Set<string> }>();
  if (!Array.isArray(runs)) return [];
  for (const run of runs) {
    if (run === null || typeof run !== 'object' || !Array.isArray(run.steps)) continue;
    const steps = locate(run);
    steps.forEach((s, i) => {
      if (s.error === undefined || USER_REJECTION.test(s.error)) return;
      const cls = errorClass(s.error);
      const prog = program(s);
      const key = `${s.tool}\u0000${cls}`;
      let c = classes.get(key);
      if (!c) {
        c = { tool: s.tool, errorClass: cls, subject: '', occurrences: [], runs: 0, subjects: new Set() };
        classes.set(key, c);
      }
      if (!c.occurrences.some((o) => o.run === s.run)) c.runs++;
      c.occurrences.push({ run: s.run, step: s.step, ref: s.ref });
      c.subjects.add(isShell(s) ? (targetOf(s) ?? prog) : '');
      if (!c.fix || c.fix.kind === 'retry') {
        const fix = findFix(steps, i);
        if (fix && (!c.fix || fix.kind !== 'retry')) c.fix = fix;
      }
      c.subject = c.subjects.size === 1 ? [...c.subjects][0]! : commonProgram(c.subjects);
    });
  }
  return [...classes.values()].map(({ subjects: _, ...c }) => c);
}

/** The program every subject runs (`git` for `git push` and `git add`), or ''. */
function commonProgram(subjects: ReadonlySet<string>): string {
  const programs = new Set([...subjects].map((s) => s.split(' ')[0] ?? ''));
  return programs.size === 1 ? [...programs][0]! : '';
}

/**
 * The first later successful call of the same tool on the failed call's target (or, without a target,
 * of the same tool); else the first later success of another tool on that target.
 */
function findFix(steps: readonly Located[], i: number): FailureFix | undefined {
  const failed = steps[i]!;
  const target = targetOf(failed);
  const later = steps.slice(i + 1).filter((s) => s.error === undefined);
  const onTarget = (s: Located) =>
    targetOf(s) === target ||
    // `make` then `make -C src`: the head gained an argument, the command is the same.
    (target !== undefined && isShell(failed) && isShell(s) && !!targetOf(s)?.startsWith(`${target} `));
  const sameTool = later.find((s) => s.tool === failed.tool && (target === undefined || onTarget(s)));
  const s = sameTool ?? (target !== undefined ? later.find(onTarget) : undefined);
  if (!s) return undefined;
  if (s.tool !== failed.tool) {
    return { step: s.step, run: s.run, ref: s.ref, kind: 'other-tool', change: `use \`${s.tool}\` instead` };
  }
  const change = describeChange(failed, s);
  return { step: s.step, run: s.run, ref: s.ref, kind: change ? 'changed' : 'retry', change };
}

const code = (items: readonly string[]) => items.map((k) => `\`${k}\``).join('/');

/** What differs between two calls of one tool: keys passed or dropped, flags added, arguments changed. */
function describeChange(a: Located, b: Located): string {
  const x = inputObject(a.action);
  const y = inputObject(b.action);
  if (!x || !y) return x || y ? 'pass other arguments' : commandChange(a.action ?? '', b.action ?? '');
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => !IGNORED_KEYS.has(k));
  const added = keys(y).filter((k) => !(k in x));
  const dropped = keys(x).filter((k) => !(k in y));
  const changed = keys(x).filter((k) => k in y && JSON.stringify(x[k]) !== JSON.stringify(y[k]));
  const parts: string[] = [];
  if (added.length) parts.push(`pass ${code(added)}`);
  if (dropped.length) parts.push(`drop ${code(dropped)}`);
  // A command (a string, or Codex's argv) is compared as a command line, not as a value.
  const cx = commandOf(x);
  const cy = commandOf(y);
  const commands = cx !== undefined && cy !== undefined;
  const other = changed.filter((k) => !commands || (k !== 'command' && k !== 'cmd'));
  if (other.length) parts.push(`change ${code(other)}`);
  if (commands && other.length < changed.length) {
    const c = commandChange(cx, cy);
    if (c) parts.push(c);
  }
  return parts.join(', ');
}

function words(command: string): string[] {
  return (command.trim().split('\n', 1)[0] ?? '').split(/\s+/).filter(Boolean);
}

const SETUP = /^(?:cd|source|\.|export|set)\s/;

const SPACE = /\s/;

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

/** The setup parts of a command line (`source venv/bin/activate`, `cd app`). */
function setups(command: string): string[] {
  return splitCommands(command.trim().split('\n', 1)[0] ?? '').filter((p) => SETUP.test(p));
}

/** A setup step added, flags added or dropped, another program, or the first argument that changed. */
function commandChange(a: string, b: string): string {
  const wa = words(a);
  const wb = words(b);
  if (wa.join(' ') === wb.join(' ')) return '';
  const before = setups(a);
  const setup = setups(b).find((p) => !before.includes(p));
  if (setup) return `first run \`${setup.length > 60 ? `${setup.slice(0, 59)}…` : setup}\``;
  const ha = commandHead(a);
  const hb = commandHead(b);
  if (ha.split(' ')[0] !== hb.split(' ')[0]) return `run \`${hb}\` instead of \`${ha}\``;
  const isFlag = (w: string) => /^--?[a-z]/i.test(w);
  const flags = (ws: string[]) => new Set(ws.filter(isFlag).map((w) => w.split('=')[0]!));
  const fa = flags(wa);
  const fb = flags(wb);
  const added = [...fb].filter((f) => !fa.has(f));
  const dropped = [...fa].filter((f) => !fb.has(f));
  const parts: string[] = [];
  if (added.length) parts.push(`add ${code(added.slice(0, 4))}`);
  if (dropped.length) parts.push(`drop ${code(dropped.slice(0, 4))}`);
  // Flags are the fix only when the call that worked still runs what failed: every other word of
  // the failed call, in order (`make` → `make -C src`). A call that dropped one ran something else
  // (`python -c "…"` → `python -m app`), and its flags say nothing about the failure.
  if (
    parts.length &&
    keepsInOrder(
      wa.filter((w) => !isFlag(w)),
      wb,
    )
  )
    return parts.join(', ');
  const from = wa.find((w) => !wb.includes(w));
  const to = wb.find((w) => !wa.includes(w));
  const clip = (w: string) => (w.length > 40 ? `${w.slice(0, 39)}…` : w);
  if (from && to) return `change \`${clip(from)}\` to \`${clip(to)}\``;
  if (to) return `add the argument \`${clip(to)}\``;
  return from ? `drop the argument \`${clip(from)}\`` : 'reorder the arguments';
}

/** Whether `all` holds every word of `words`, in the same order (others may come between). */
function keepsInOrder(words: readonly string[], all: readonly string[]): boolean {
  let j = 0;
  for (const w of all) if (j < words.length && w === words[j]) j++;
  return j === words.length;
}

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/** How a class is named in its lesson: the tool, and for shell calls what they ran. */
function subjectOf(c: FailureClass): string {
  const tool = `\`${c.tool}\``;
  if (!c.subject || c.subject === c.tool || c.subject.split(' ')[0] === c.tool) {
    return c.subject && c.subject !== c.tool ? `\`${c.subject}\`` : tool;
  }
  return `${tool} \`${c.subject}\``;
}

/**
 * The lesson of a failure class, one line: the failure and the fix that worked ("`Read` fails with
 * "…": pass `offset`/`limit` (worked at step 71)."), or, without a later success, what failed and how
 * often. Never invents a fix.
 *
 * @example
 * ```ts
 * failureLesson(groupFailures(runs)[0]);
 * // '`Bash` `git push` fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream` (worked at step 58).'
 * ```
 */
export function failureLesson(c: FailureClass): string {
  const n = c.occurrences.length;
  const subject = subjectOf(c);
  const where = c.runs > 1 ? ` in ${c.runs} runs` : '';
  const fix = c.fix;
  if (fix && fix.kind !== 'retry') {
    const at = c.runs > 1 ? `step ${fix.step} of ${fix.run}` : `step ${fix.step}`;
    return `${subject} fails with "${c.errorClass}"${n > 1 ? ` (${times(n)}${where})` : ''}: ${fix.change} (worked at ${at}).`;
  }
  if (fix) {
    return `${subject} failed with "${c.errorClass}" ${times(n)}${where}; the same call later succeeded unchanged (step ${fix.step}), so the cause lay elsewhere.`;
  }
  return `${subject} failed with "${c.errorClass}" ${times(n)}${where}; no later call succeeded.`;
}

/** Tool calls and results of a transcript (`toolName`, `toolUseId`, `isError` of `rearview/transcript`). */
export interface ToolMessageLike extends MessageLike {
  toolName?: string;
  toolUseId?: string;
  isError?: boolean;
}

/**
 * The tool calls of a transcript as a run: each assistant message with a `toolName` and its result
 * (matched by `toolUseId`, else the latest open call of that tool), the result's text as `error` when it
 * is marked `isError`, referenced as `message:{id of the result}`. Calls without a result are left out.
 *
 * @example
 * ```ts
 * const { messages } = parseTranscript(claudeCodeJsonl);
 * groupFailures([stepsFromMessages(messages)]);
 * ```
 */
export function stepsFromMessages(messages: readonly ToolMessageLike[], id = 'conversation'): CallRun {
  const calls: { tool: string; action: string; step?: CallStep }[] = [];
  // Open calls by id, and the latest open call per tool for results without an id.
  const byId = new Map<string, number>();
  const byTool = new Map<string, number[]>();
  if (Array.isArray(messages)) {
    messages.forEach((m, i) => {
      if (m === null || typeof m !== 'object' || typeof m.toolName !== 'string') return;
      const useId = typeof m.toolUseId === 'string' ? m.toolUseId : undefined;
      if (m.role === 'assistant') {
        calls.push({ tool: m.toolName, action: contentText(m.content) ?? '' });
        if (useId !== undefined) byId.set(useId, calls.length - 1);
        else {
          const open = byTool.get(m.toolName);
          if (open) open.push(calls.length - 1);
          else byTool.set(m.toolName, [calls.length - 1]);
        }
        return;
      }
      if (m.role !== 'tool') return;
      let index = useId !== undefined ? byId.get(useId) : undefined;
      if (index !== undefined) byId.delete(useId!);
      else index = byTool.get(m.toolName)?.pop();
      const call = index !== undefined ? calls[index] : undefined;
      if (!call || call.step) return;
      call.step = {
        index: index!,
        tool: call.tool,
        action: call.action,
        ref: defaultRef(m, i),
        ...(m.isError ? { error: contentText(m.content) ?? '' } : {}),
      };
    });
  }
  return { id, steps: calls.flatMap((c) => (c.step ? [c.step] : [])) };
}
