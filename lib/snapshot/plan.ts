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

/** Tools that hold the agent's to-do list, by lower-cased name. */
const PLAN_TOOLS: ReadonlySet<string> = new Set([
  'todowrite',
  'update_plan',
  'write_todos',
  'todo_write',
  'manage_todo_list',
]);

/** The keys a list of steps is found under, and a step's text and state. */
const LIST_KEYS = ['todos', 'plan', 'todoList', 'items'] as const;
const TEXT_KEYS = ['content', 'step', 'description', 'title', 'task'] as const;
/** States that close a step. */
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
 * The steps of a plan tool's call or result, or of the `task_progress` checklist another call carries
 * (Cline), in order; `undefined` when the message holds no plan or no step (a result that only says
 * "Plan updated").
 *
 * @example
 * ```ts
 * planSteps({ id: 'm1', role: 'assistant', toolName: 'update_plan', source: {},
 *   content: '{"plan":[{"step":"Add the flag","status":"completed"},{"step":"Write the test","status":"pending"}]}' });
 * // [{ text: 'Add the flag', open: false }, { text: 'Write the test', open: true }]
 * ```
 */
export function planSteps(m: Pick<Message, 'toolName' | 'content'>): PlanStep[] | undefined {
  if (typeof m.content !== 'string' || m.content.length > MAX_PLAN_CHARS) return undefined;
  if (!isPlanMessage(m)) return typeof m.toolName === 'string' ? carriedPlan(m.content) : undefined;
  const text = m.content.trim();
  const steps = text.startsWith('{')
    ? jsonSteps(text)
    : text.includes(GO_MAP)
      ? goMapSteps(text)
      : checklistSteps(text);
  return steps && steps.length > 0 ? steps : undefined;
}

/** Where Cline carries its to-do list: a `task_progress` checklist in the input of any call. */
const CARRIED = '"task_progress"';
/** Where Antigravity keeps its task list: a file written as an artifact of type `task`. */
const TASK_ARTIFACT = '"ArtifactType"';

/**
 * The checklist another tool's call carries in its input, if any: Cline's `task_progress`, or the
 * content of Antigravity's task artifact (`ArtifactMetadata.ArtifactType` `task`, `CodeContent`).
 */
function carriedPlan(content: string): PlanStep[] | undefined {
  if (!content.includes(CARRIED) && !content.includes(TASK_ARTIFACT)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const input = value as Record<string, unknown>;
  const meta = input.ArtifactMetadata;
  const list =
    typeof input.task_progress === 'string'
      ? input.task_progress
      : meta !== null && typeof meta === 'object' && (meta as Record<string, unknown>).ArtifactType === 'task'
        ? input.CodeContent
        : undefined;
  if (typeof list !== 'string') return undefined;
  const steps = checklistSteps(list);
  return steps && steps.length > 0 ? steps : undefined;
}

function jsonSteps(text: string): PlanStep[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return checklistSteps(text);
  }
  if (value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  const list = LIST_KEYS.map((k) => record[k]).find(Array.isArray) as unknown[] | undefined;
  if (!list) return undefined;
  const out: PlanStep[] = [];
  for (const item of list.slice(0, MAX_STEPS)) {
    if (item === null || typeof item !== 'object') continue;
    const step = item as Record<string, unknown>;
    const words = TEXT_KEYS.map((k) => step[k]).find((v) => typeof v === 'string' && v.trim() !== '');
    if (typeof words !== 'string') continue;
    const status = typeof step.status === 'string' ? step.status.toLowerCase().replace(/[\s-]+/g, '_') : '';
    out.push({ text: oneLine(words), open: !CLOSED.has(status) && step.completed !== true });
  }
  return out;
}

function checklistSteps(text: string): PlanStep[] | undefined {
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
    const status = /^\S*/
      .exec(chunk.slice(st + 7))![0]
      .toLowerCase()
      .replace(/-/g, '_');
    const rest = chunk.slice(ti + 6);
    const end = rest.indexOf(']');
    const title = oneLine(end < 0 ? rest : rest.slice(0, end));
    if (title !== '') out.push({ text: title, open: !CLOSED.has(status) });
  }
  return out;
}

/** A step on one line, without the trailing padding a console adds. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
