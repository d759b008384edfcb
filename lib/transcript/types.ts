/**
 * The shapes `rearview/transcript` produces: a flat list of messages for conversations, a list of
 * steps for agent trajectories.
 */
import type { TranscriptError } from '../core/index.js';

/**
 * Conversation formats {@link parseTranscript} reads.
 *
 * @example
 * ```ts
 * const format: TranscriptFormat = 'claude-code-jsonl';
 * ```
 */
export type TranscriptFormat =
  | 'anthropic'
  | 'openai'
  | 'sharegpt'
  | 'claude-code-jsonl'
  | 'claude-code-console'
  | 'plain'
  | 'jsonl'
  | 'aider'
  | 'codex'
  | 'antigravity'
  | 'specstory'
  | 'cline'
  | 'gemini-cli'
  | 'gemini-cli-console'
  | 'atif'
  | 'claude-code-markdown';

/**
 * Agent-run formats {@link parseTrajectory} reads.
 *
 * @example
 * ```ts
 * const format: TrajectoryFormat = 'mini-swe-agent';
 * ```
 */
export type TrajectoryFormat =
  | 'swe-agent'
  | 'mini-swe-agent'
  | 'claude-code-jsonl'
  | 'codex'
  | 'antigravity'
  | 'atif';

/**
 * Who spoke. Tool calls are `assistant` messages with a `toolName`; tool outputs are `tool` messages.
 *
 * @example
 * ```ts
 * const role: Role = 'tool';
 * ```
 */
export type Role = 'user' | 'assistant' | 'system' | 'tool';

/**
 * Where an item came from in the input: a 1-based `line` for text and JSONL, a 0-based `index` for
 * arrays (both for a JSON array that sits on one line of JSONL, never in practice).
 *
 * @example
 * ```ts
 * const at: SourceRef = { line: 12 };
 * ```
 */
export interface SourceRef {
  /** 1-based line number in a text or JSONL input. */
  line?: number;
  /** 0-based index in a JSON array input. */
  index?: number;
  /** 1-based column on `line`: set on error locations only (where a JSON text broke). */
  column?: number;
}

/**
 * One message of a transcript.
 *
 * @example
 * ```ts
 * const call: Message = {
 *   id: 'toolu_1', role: 'assistant', content: '{"command":"ls"}', toolName: 'Bash', toolUseId: 'toolu_1',
 *   source: { line: 4 },
 * };
 * ```
 */
export interface Message {
  /** Stable for the same input: the event uuid where the format has one, else `m{index}` / `m{line}`. */
  id: string;
  role: Role;
  /** The text. For a tool call, the call's input as JSON (or the raw arguments string). */
  content: string;
  /**
   * ISO timestamp when the format records one; without an offset where the format writes none
   * (aider, Claude Code markdown: the writer's local time).
   */
  ts?: string;
  /** Tool name, on tool calls and (when known) on tool results. */
  toolName?: string;
  /** Pairs a tool call with its result. */
  toolUseId?: string;
  /** True on a tool result the format marks as failed. */
  isError?: boolean;
  /**
   * Set on a turn in the user's seat that no person wrote, naming what wrote it (see
   * {@link SyntheticKind}). Heuristic reflection never analyses such turns.
   */
  synthetic?: SyntheticKind;
  source: SourceRef;
}

/**
 * What wrote a {@link Message} that sits in the user's seat but was not typed by a person:
 *
 * - `summary`: Claude Code's continuation summary after a compaction ("This session is being
 *   continued from a previous conversation…", `isCompactSummary`);
 * - `meta`: Claude Code `isMeta` events (skill bodies, local-command caveats; a skill body rendered
 *   without the flag, "Base directory for this skill: …", too), and the context Codex
 *   injects in the user's seat (`<environment_context>`, `<user_instructions>`, AGENTS.md, `<turn_aborted>`);
 * - `command`: a command expansion (`<command-name>`, `<command-message>`, `<local-command-stdout>`),
 *   Claude Code's shell mode (`<bash-input>`, `<bash-stdout>`, `<bash-stderr>`) and its notice of an
 *   unknown skill (`Unknown skill: …`),
 *   an aider housekeeping command (`/add`, `/drop`, `/clear`, `/model`, `/tokens`, `/run`…, a
 *   `/ask`, `/code` or `/architect` whose text aider repeats as the next prompt, and a prompt aider
 *   rejected as an unknown command), or a console's own slash command (`/model Sonet`, `/cost`) in a
 *   console session copied as text. `/undo` is never synthetic: it is the person rejecting the last edit;
 * - `hook`: hook output and system reminders (`<system-reminder>`, `<user-prompt-submit-hook>`), and
 *   the text Cline injects in the user role (`[TASK RESUMPTION]`, reminders, tool-use errors);
 * - `notification`: background-task notices (`<task-notification>`);
 * - `confirmation`: an aider yes/no answer logged as a prompt ("Add file to the chat? … all"), or an
 *   empty aider prompt (`<blank>`);
 * - `handoff`: in aider's architect mode, the architect model's reply logged again as the prompt of
 *   the editor model;
 * - `task`: the task statement that opens an agent trajectory (SWE-agent, mini-swe-agent, ATIF);
 * - `observation`: a tool output an agent harness sends in the user role.
 *
 * @example
 * ```ts
 * const kind: SyntheticKind = 'summary';
 * parseTranscript(session).messages.filter((m) => m.role === 'user' && !m.synthetic); // what people typed
 * ```
 */
export type SyntheticKind =
  | 'summary'
  | 'meta'
  | 'command'
  | 'hook'
  | 'notification'
  | 'confirmation'
  | 'handoff'
  | 'task'
  | 'observation';

/**
 * An input item that was invalid and left out in lenient mode.
 *
 * @example
 * ```ts
 * const bad: SkippedItem = { line: 7, reason: 'not valid JSON: Unexpected token' };
 * ```
 */
export interface SkippedItem extends SourceRef {
  /** Why the item was rejected, in the words the error would have used. */
  reason: string;
}

/**
 * A parsed conversation.
 *
 * - `skipped`: invalid items left out in lenient mode (always empty in strict mode, which throws).
 * - `ignored` / `ignoredKinds`: valid items that are not conversation messages by design (progress
 *   events, sidechains, thinking blocks, images, the console welcome box…). They are not problems.
 *
 * @example
 * ```ts
 * const t: Transcript = parseTranscript('User: hi\nAssistant: hello');
 * t.messages.length; // 2
 * ```
 */
export interface Transcript {
  format: TranscriptFormat;
  messages: Message[];
  skipped: SkippedItem[];
  /** Total of `ignoredKinds`. */
  ignored: number;
  /** Counts of ignored items by kind, e.g. `{ progress: 1083, sidechain: 4, thinking: 39 }`. */
  ignoredKinds: Record<string, number>;
  /** What the export says about the session, where it says it (SpecStory, Cline, Gemini CLI, ATIF…). */
  meta?: TranscriptMeta;
}

/**
 * Session facts an export records beside the messages: the agent that ran it, the models that
 * answered (in order of first appearance), the session id, when it started and the folder it ran in.
 *
 * @example
 * ```ts
 * const meta: TranscriptMeta = { agent: 'cursor', models: ['claude-opus-4-5'], sessionId: '0c56ec44-…' };
 * const started: TranscriptMeta = { startedAt: '2025-07-18T01:12:00.000Z' };
 * const where: TranscriptMeta = { agent: 'claude-code', cwd: '/Users/ana/proj' };
 * ```
 */
export interface TranscriptMeta {
  agent?: string;
  models?: string[];
  sessionId?: string;
  /**
   * When the session started, where the export records it apart from the turns: SpecStory's title,
   * `# Populate the database (2025-07-18 01:12Z)` → `2025-07-18T01:12:00.000Z`. A title written
   * with no zone (older exports: the writer's local time) is kept without an offset, as written
   * (`2025-05-12T09:53:57`), like `Message.ts`.
   */
  startedAt?: string;
  /**
   * The folder the agent worked in, where the export records it: the `cwd` of a Claude Code session's
   * first event that has one, of a Codex CLI rollout's `session_meta` or first `turn_context`, of a
   * converted session's `meta`, or the `cwd:` line of the Claude Code console's welcome box. As
   * written (`/Users/ana/proj`, `C:\\work\\repo`), less trailing separators. `rearview/snapshot` lists
   * evidence under it relative to it.
   */
  cwd?: string;
}

/**
 * Options of {@link parseTranscript}.
 *
 * @example
 * ```ts
 * const options: ParseTranscriptOptions = { format: 'jsonl', lenient: true };
 * ```
 */
export interface ParseTranscriptOptions {
  /** Skip detection and read the input as this format. */
  format?: TranscriptFormat;
  /** Keep the good items and report each bad one in `skipped` instead of throwing. */
  lenient?: boolean;
  /** Claude Code JSONL: keep `isSidechain: true` events (subagent files) instead of ignoring them. */
  includeSidechains?: boolean;
  /**
   * Claude Code console copies: keep the line breaks the terminal made when it wrapped the agent's
   * prose at its width. By default a paragraph the terminal cut into lines is joined again (the
   * width is read from the copy; a copy that shows none keeps every break).
   */
  keepLineBreaks?: boolean;
}

/**
 * One action of an agent and what came back.
 *
 * @example
 * ```ts
 * const step: Step = { index: 0, thought: 'List files', action: 'ls', tool: 'bash', observation: 'a.py', exitCode: 0, source: { index: 2 } };
 * ```
 */
export interface Step {
  /** 0-based position in `steps`. */
  index: number;
  thought?: string;
  /** The command or the tool input (JSON for tool calls). */
  action?: string;
  /** Tool or command name. */
  tool?: string;
  observation?: string;
  /** Set when the step failed: the error text (output of a non-zero exit, an is_error result…). */
  error?: string;
  exitCode?: number;
  source: SourceRef;
}

/**
 * How a run ended. `failed` is always set; see the README for each format's rule.
 *
 * @example
 * ```ts
 * const outcome: Outcome = { status: 'Submitted', submission: 'diff --git …', failed: false };
 * ```
 */
export interface Outcome {
  /** The format's own exit status, e.g. `submitted`, `Submitted`, `exit_cost`. */
  status?: string;
  /** Whether the task was solved, when the caller knows (e.g. from a SWE-bench results file). */
  resolved?: boolean;
  submission?: string;
  failed: boolean;
}

/**
 * A parsed agent run.
 *
 * @example
 * ```ts
 * const traj: Trajectory = parseTrajectory(text);
 * traj.steps.filter((s) => s.error).length; // failed tool calls
 * ```
 */
export interface Trajectory {
  id: string;
  format: TrajectoryFormat;
  steps: Step[];
  outcome?: Outcome;
  /** Invalid items left out in lenient mode. */
  skipped: SkippedItem[];
  /** Items that are not steps by design (progress events, sidechains, prompts…). */
  ignored: number;
}

/**
 * Options of {@link parseTrajectory}.
 *
 * @example
 * ```ts
 * const options: ParseTrajectoryOptions = { format: 'mini-swe-agent', resolved: true };
 * ```
 */
export interface ParseTrajectoryOptions {
  format?: TrajectoryFormat;
  /** Overrides the id found in the input (instance_id, sessionId) or derived from its content. */
  id?: string;
  lenient?: boolean;
  /** Whether the run solved its task, known from outside the file; sets `outcome.resolved` and `failed`. */
  resolved?: boolean;
}

/**
 * Result of the never-throwing variants.
 *
 * @example
 * ```ts
 * const r: SafeResult<Transcript> = safeParseTranscript(text);
 * if (!r.ok) console.error(r.error.message);
 * ```
 */
export type SafeResult<T> = { ok: true; value: T } | { ok: false; error: TranscriptError };
