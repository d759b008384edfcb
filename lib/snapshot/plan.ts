/**
 * The agent's own plan: the to-do list a coding agent keeps with a tool (Claude Code's `TodoWrite`,
 * Codex's `update_plan`, Gemini CLI's `write_todos`, Cursor's `todo_write`, VS Code Copilot's
 * `manage_todo_list`; Cline passes its list as `task_progress` in the input of every call, Antigravity
 * writes it to a `task.md` artifact). Its open
 * steps are what the agent itself said was left to do, in its own words and with their status, which
 * no sentence of its prose states as plainly.
 *
 * A list is read from the call's input (JSON: `todos`, `plan`, `todoList` or `items`, each step's
 * text in `content`, `step`, `description`, `title` or `task`, its state in `status`), or from the
 * lines an export or a console shows for the call or its result: `☐ step` / `☒ step` (Claude Code's
 * console), `- [ ] step` / `- [x] step` / `- [-] step` / `- [⚡] step` (Markdown exports), or the Go
 * maps a SpecStory export prints for Copilot's list (`map[… status:not-started title:…]`).
 */
import { parseJsonObject } from '../core/index.js';
import type { Message } from '../transcript/index.js';

/**
 * One step of a plan.
 *
 * @example
 * ```ts
 * const step: PlanStep = { text: 'Write the test for --since', open: true };
 * ```
 */
export interface PlanStep {
  /** The step as the agent wrote it. */
  text: string;
  /** Still to do: pending or in progress (not completed, cancelled or skipped). */
  open: boolean;
}

/**
 * Tools that hold the agent's to-do list, by lower-cased name. Claude Code's `TodoRead` (the console's
 * `⏺ Read Todos`) writes nothing, but its output is the list as it stands.
 */
const PLAN_TOOLS: ReadonlySet<string> = new Set([
  'todowrite',
  'todoread',
  'update_plan',
  'write_todos',
  'todo_write',
  'manage_todo_list',
]);

/** The keys a list of steps is found under, and a step's text and state. */
const LIST_KEYS = ['todos', 'plan', 'todoList', 'items'] as const;
const TEXT_KEYS = ['content', 'step', 'description', 'title', 'task'] as const;
/** States that close a step (lower-cased); any other ("pending", "in_progress", "not-started") leaves it open. */
const CLOSED = new Set(['completed', 'complete', 'done', 'cancelled', 'canceled', 'skipped', 'finished']);

/**
 * A checklist line: an optional list marker, then a box (`[ ]`, `[x]`, `[-]`, `[/]`, `[⚡]`, `[~]`, `[>]`,
 * also in backticks as Antigravity writes them) or a box character (☐ ☒ ✓ ✔ □ ■), then the step.
 * Anchored, no nested quantifier: linear.
 */
const CHECK_LINE =
  /^[ \t]*(?:[-*+][ \t]+)?(?:`?\[([ xX\-~>/\u26a1])\]`?|([\u2610\u2612\u2713\u2714\u25a1\u25a0]))[ \t]+(\S.*)$/u;
/** Box characters and marks that say a step is closed. */
const CLOSED_MARKS = new Set(['x', 'X', '\u2612', '\u2713', '\u2714', '\u25a0']);

/** Longest content read for a plan (a list is short; a longer text is some other tool's output). */
const MAX_PLAN_CHARS = 20_000;
/** Most steps read from one list. */
const MAX_STEPS = 50;

/**
 * Whether a message belongs to a plan tool: its call or its result.
 *
 * @example
 * ```ts
 * isPlanMessage({ id: 'm1', role: 'assistant', toolName: 'TodoWrite', content: '{}', source: {} }); // true
 * ```
 */
export function isPlanMessage(m: Pick<Message, 'toolName'>): boolean {
  return typeof m.toolName === 'string' && PLAN_TOOLS.has(m.toolName.toLowerCase());
}

/**
 * The steps of a plan tool's call or result, or of the checklist another tool's call carries (Cline's
 * `task_progress`, Antigravity's task artifact), in order; `undefined` when the message holds no plan or
 * no step (a result that only says "Plan updated"). A list longer than 20,000 characters is some other
 * output and is not read; at most 50 steps of a list are.
 *
 * @example
 * ```ts
 * planSteps({ id: 'm1', role: 'assistant', toolName: 'update_plan', source: {},
 *   content: '{"plan":[{"step":"Add the flag","status":"completed"},{"step":"Write the test","status":"pending"}]}' });
 * // [{ text: 'Add the flag', open: false }, { text: 'Write the test', open: true }]
 * ```
 */
export function planSteps(m: Pick<Message, 'toolName' | 'content'>): PlanStep[] | undefined {
  if (typeof m.toolName !== 'string' || typeof m.content !== 'string' || m.content.length > MAX_PLAN_CHARS)
    return undefined;
  const text = m.content.trim();
  const own = isPlanMessage(m);
  // Another tool's call is read only when its input can carry a list (a native search first).
  if (!own && !text.includes(CARRIED) && !text.includes(TASK_ARTIFACT)) return undefined;
  const json = text.startsWith('{') ? parseJsonObject(text) : undefined;
  const steps = !own
    ? json && carriedSteps(json)
    : json
      ? jsonSteps(json)
      : text.includes(GO_MAP)
        ? goMapSteps(text)
        : checklistSteps(text);
  return steps && steps.length > 0 ? steps : undefined;
}

/** Where Cline carries its to-do list: a `task_progress` checklist in the input of any call. */
const CARRIED = '"task_progress"';
/** Where Antigravity keeps its task list: a file written as an artifact of type `task`. */
const TASK_ARTIFACT = '"ArtifactType"';

/** Whether a step's state closes it ("completed", "Cancelled", "not-started" → open). */
function closed(status: unknown): boolean {
  return typeof status === 'string' && CLOSED.has(status.toLowerCase());
}

/**
 * The checklist another tool's call carries in its input: Cline's `task_progress`, or the content of
 * Antigravity's task artifact (`ArtifactMetadata.ArtifactType` `task`, `CodeContent`).
 */
function carriedSteps(input: Record<string, unknown>): PlanStep[] | undefined {
  const meta = input.ArtifactMetadata as Record<string, unknown> | null | undefined;
  const list =
    typeof input.task_progress === 'string'
      ? input.task_progress
      : typeof meta === 'object' && meta !== null && meta.ArtifactType === 'task'
        ? input.CodeContent
        : undefined;
  return typeof list === 'string' ? checklistSteps(list) : undefined;
}

/** A plan tool's JSON input: its list under one of {@link LIST_KEYS}. */
function jsonSteps(record: Record<string, unknown>): PlanStep[] | undefined {
  const list = LIST_KEYS.map((k) => record[k]).find(Array.isArray) as unknown[] | undefined;
  if (!list) return undefined;
  const out: PlanStep[] = [];
  for (const item of list.slice(0, MAX_STEPS)) {
    if (item === null || typeof item !== 'object') continue;
    const step = item as Record<string, unknown>;
    const words = TEXT_KEYS.map((k) => step[k]).find((v) => typeof v === 'string' && v.trim() !== '');
    if (typeof words !== 'string') continue;
    out.push({ text: oneLine(words), open: !closed(step.status) && step.completed !== true });
  }
  return out;
}

function checklistSteps(text: string): PlanStep[] {
  const out: PlanStep[] = [];
  for (const line of text.split('\n')) {
    const m = CHECK_LINE.exec(line);
    if (!m) continue;
    const mark = m[1] ?? m[2] ?? ' ';
    out.push({ text: oneLine(m[3]!), open: !CLOSED_MARKS.has(mark) });
    if (out.length >= MAX_STEPS) break;
  }
  return out;
}

/** How a SpecStory export prints Copilot's list: Go maps, `map[description:… id:1 status:… title:…]`. */
const GO_MAP = 'map[';

/** The steps of Copilot's list as Go maps: each map's `status:` word and its `title:` (the last key). */
function goMapSteps(text: string): PlanStep[] {
  const out: PlanStep[] = [];
  for (const chunk of text.split(GO_MAP).slice(1, MAX_STEPS + 1)) {
    const st = chunk.indexOf('status:');
    const ti = chunk.indexOf('title:');
    if (st < 0 || ti < 0) continue;
    const status = /^\S*/.exec(chunk.slice(st + 7))![0];
    const rest = chunk.slice(ti + 6);
    const end = rest.indexOf(']');
    const title = oneLine(end < 0 ? rest : rest.slice(0, end));
    if (title !== '') out.push({ text: title, open: !closed(status) });
  }
  return out;
}

/** A step on one line, without the trailing padding a console adds. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
