/**
 * Format detection. Cheap and linear: JSON inputs are classified by the keys of their items (all
 * items are looked at for the Anthropic/OpenAI distinction, at most 20 lines for JSONL), text inputs
 * by the prefixes of their first 64 KB of lines.
 */

import { isAntigravityStep } from './formats/antigravity.js';
import { isAtif } from './formats/atif.js';
import { isClaudeMarkdownTitle } from './formats/claude-markdown.js';
import { isClineUiMessage } from './formats/cline.js';
import { isCodexLine } from './formats/codex.js';
import { isGeminiSession } from './formats/gemini.js';
import { plainPrefix, roleTag } from './formats/plain.js';
import { specstoryHeader } from './formats/specstory-header.js';
import {
  failedAt,
  firstLine,
  type JsonFailure,
  type Prepared,
  parseWholeJson,
  prepareInput,
  tryJson,
} from './input.js';
import { firstNonSpace, isBlank } from './lines.js';
import { isRecord } from './sink.js';
import type { SourceRef, TranscriptFormat } from './types.js';

/** Lines of JSONL sampled to tell Claude Code events from plain message lines. */
const JSONL_SAMPLE = 20;
/** Characters of text scanned for console or plain-text markers. */
const TEXT_WINDOW = 64 * 1024;

/** Detection result: the format, or why none fits; `value` is the parsed JSON when the text was JSON. */
export interface Detection {
  format?: TranscriptFormat;
  /** The whole input parsed as JSON, kept so it is not parsed twice. */
  value?: unknown;
  reason?: string;
  at?: SourceRef;
}

/**
 * Guesses the transcript format of `input` (text, bytes or a parsed value). Returns undefined when
 * no format fits, or for empty or binary input. Never throws.
 *
 * @example
 * ```ts
 * detectFormat('User: hi\nAssistant: hello');          // 'plain'
 * detectFormat({ conversations: [{ from: 'human', value: 'hi' }] }); // 'sharegpt'
 * detectFormat('{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}'); // 'claude-code-jsonl'
 * ```
 */
export function detectFormat(input: unknown): TranscriptFormat | undefined {
  try {
    return detectPrepared(prepareInput(input, 'auto')).format;
  } catch {
    return undefined;
  }
}

/**
 * Detection on a prepared input.
 *
 * @example
 * ```ts
 * detectPrepared({ kind: 'text', text: 'Human: hi' }).format; // 'plain'
 * ```
 */
export function detectPrepared(prepared: Prepared): Detection {
  if (prepared.kind === 'value') return detectValue(prepared.value);
  const text = prepared.text;
  const whole = parseWholeJson(text);
  if (whole?.ok) return { ...detectValue(whole.value), value: whole.value };
  const start = text.charCodeAt(firstNonSpace(text));
  if (whole && start === 0x7b) return detectJsonl(text, whole);
  const fromText = detectText(text);
  if (fromText.format || !whole) return fromText;
  return { reason: `Input is not valid JSON: ${whole.message}`, at: failedAt(whole) };
}

/**
 * Classifies a parsed JSON value.
 *
 * @example
 * ```ts
 * detectValue([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] }]).format; // 'anthropic'
 * ```
 */
export function detectValue(value: unknown): Detection {
  if (Array.isArray(value)) return detectArray(value);
  if (!isRecord(value))
    return { reason: `Expected an array or an object, got ${value === null ? 'null' : typeof value}` };
  if (Array.isArray(value.conversations)) return { format: 'sharegpt' };
  if (isAtif(value)) return { format: 'atif' };
  if (isGeminiSession(value)) return { format: 'gemini-cli' };
  const wrapped = Array.isArray(value.messages)
    ? value.messages
    : Array.isArray(value.history)
      ? value.history
      : undefined;
  if (wrapped) {
    if (wrapped.length === 0) return { reason: 'The messages array is empty' };
    const inner = detectArray(wrapped);
    if (inner.format === 'openai' && value.system !== undefined && !hasOpenAiMarkers(wrapped)) {
      return { format: 'anthropic' };
    }
    if (inner.format === 'anthropic' || inner.format === 'openai') return inner;
    return { reason: 'The messages array holds no role-based messages', at: { index: 0 } };
  }
  const agent = agentLog(value);
  if (agent) return { format: agent };
  if (isClaudeEvent(value)) return { format: 'claude-code-jsonl' };
  if ('role' in value || ('from' in value && 'value' in value)) return { format: 'jsonl' };
  return {
    reason: 'The object has none of the keys of a known format (messages, conversations, role, type)',
  };
}

function detectArray(items: unknown[]): Detection {
  if (items.length === 0) return { reason: 'The array is empty' };
  const first = items.find(isRecord);
  if (!first) return { reason: 'The array holds no objects', at: { index: 0 } };
  if (Array.isArray(first.conversations)) return { format: 'sharegpt' };
  if ('from' in first && 'value' in first) return { format: 'sharegpt' };
  const agent = agentLog(first);
  if (agent) return { format: agent };
  if (isClaudeEvent(first)) return { format: 'claude-code-jsonl' };
  if (isClineUiMessage(first)) return { format: 'cline' };
  if (!('role' in first)) {
    return {
      reason: 'Array items have none of the keys of a known format (role, from, conversations, type)',
      at: { index: items.indexOf(first) },
    };
  }
  if (isClineHistory(items)) return { format: 'cline' };
  if (hasAnthropicMarkers(items)) return { format: 'anthropic' };
  return { format: 'openai' };
}

/**
 * Cline's `api_conversation_history.json`: Anthropic messages whose first user message carries the
 * harness's wrappers (`<task>`, `<environment_details>`, `[TASK RESUMPTION]`). Only the first user
 * message of the first four items is looked at.
 */
function isClineHistory(items: unknown[]): boolean {
  for (let i = 0; i < items.length && i < 4; i++) {
    const item = items[i];
    if (!isRecord(item) || item.role !== 'user') continue;
    if (!Array.isArray(item.content)) return false;
    for (const block of item.content) {
      if (!isRecord(block) || typeof block.text !== 'string') continue;
      // Only the opening is looked at: no copy of a block that may be megabytes long.
      const t = block.text;
      const at = firstNonSpace(t);
      if (
        t.startsWith('<task>', at) ||
        t.startsWith('<environment_details>', at) ||
        t.startsWith('[TASK RESUMPTION]', at)
      ) {
        return true;
      }
    }
    return false;
  }
  return false;
}

const ANTHROPIC_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'image',
  'document',
]);

function hasAnthropicMarkers(items: unknown[]): boolean {
  for (const item of items) {
    if (!isRecord(item) || !Array.isArray(item.content)) continue;
    for (const block of item.content) {
      if (isRecord(block) && typeof block.type === 'string' && ANTHROPIC_BLOCKS.has(block.type)) return true;
    }
  }
  return false;
}

function hasOpenAiMarkers(items: unknown[]): boolean {
  for (const item of items) {
    if (!isRecord(item)) continue;
    if (item.tool_calls !== undefined || item.function_call !== undefined || item.tool_call_id !== undefined)
      return true;
    if (
      item.role === 'system' ||
      item.role === 'developer' ||
      item.role === 'tool' ||
      item.role === 'function'
    )
      return true;
  }
  return false;
}

/**
 * `codex` or `antigravity` when `obj` is a line of a Codex CLI rollout or an Antigravity step log,
 * else undefined. Checked before Claude Code events: those logs also have a string `type`.
 *
 * @example
 * ```ts
 * agentLog({ step_index: 3, source: 'MODEL', type: 'VIEW_FILE' }); // 'antigravity'
 * ```
 */
export function agentLog(obj: Record<string, unknown>): 'codex' | 'antigravity' | undefined {
  if (isAntigravityStep(obj)) return 'antigravity';
  if (isCodexLine(obj)) return 'codex';
  return undefined;
}

const CLAUDE_EVENT_TYPES = new Set([
  'user',
  'assistant',
  'progress',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'attachment',
  'ai-title',
  'custom-title',
  'last-prompt',
  'result',
]);

/**
 * True for a Claude Code session event: a known `type` with a `uuid`/`sessionId`, or a user or
 * assistant event with a `message` object.
 *
 * @example
 * ```ts
 * isClaudeEvent({ type: 'progress', uuid: 'u1' }); // true
 * ```
 */
export function isClaudeEvent(obj: Record<string, unknown>): boolean {
  const type = obj.type;
  if (typeof type !== 'string' || 'role' in obj) return false;
  // Codex rollouts wrap their items in `payload`, Antigravity steps carry `step_index`: never Claude.
  if ('payload' in obj || 'step_index' in obj) return false;
  if (typeof obj.uuid === 'string' || typeof obj.sessionId === 'string' || 'isSidechain' in obj) return true;
  if ((type === 'user' || type === 'assistant') && isRecord(obj.message)) return true;
  return CLAUDE_EVENT_TYPES.has(type) && type !== 'user' && type !== 'assistant';
}

function detectJsonl(text: string, whole: JsonFailure): Detection {
  const first = firstLine(text);
  if (!first) return { reason: 'Input is empty', at: { line: 1 } };
  const parsed = tryJson(first.line);
  if (!parsed.ok) {
    // Read as one JSON text (pretty-printed, most likely): where that text broke is the useful place.
    return { reason: `Input is neither JSON nor JSONL: ${whole.message}`, at: failedAt(whole) };
  }
  let start = 0;
  let sampled = 0;
  let messageLike = false;
  while (start < text.length && sampled < JSONL_SAMPLE) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (isBlank(line)) continue;
    sampled++;
    const r = tryJson(line);
    if (!r.ok || !isRecord(r.value)) continue;
    const agent = agentLog(r.value);
    if (agent) return { format: agent };
    if (isClaudeEvent(r.value)) return { format: 'claude-code-jsonl' };
    if ('role' in r.value || ('from' in r.value && 'value' in r.value)) messageLike = true;
  }
  if (messageLike) return { format: 'jsonl' };
  return {
    reason:
      'JSONL lines are neither messages ({role, content} / {from, value}) nor Claude Code, Codex or Antigravity events',
    at: { line: first.lineNumber },
  };
}

/** True when `text` holds `</speaker>` (any case) within the detection window. */
function closesTag(text: string, speaker: string, end: number): boolean {
  const re = new RegExp(`</${speaker}>`, 'i');
  return re.test(text.slice(0, end));
}

const AIDER_HEADER = '# aider chat started at ';
const GEMINI_AGENT = '\u2726'; // ✦
/**
 * A tool call behind `●`, the agent's mark where the terminal's font lacks `⏺` (Linux, Windows):
 * `● Bash(npm test)`. `●` alone is a common bullet, so only the call's shape counts.
 */
const CONSOLE_CALL = /^\u25cf [A-Z][\w.:-]{0,80}\(/;

/** A recent aider's prompt line: `#### ` and the two trailing spaces of a Markdown line break. */
function isAiderPrompt(line: string): boolean {
  return line.startsWith('#### ') && line.endsWith('  ');
}

function detectText(text: string): Detection {
  const end = Math.min(text.length, TEXT_WINDOW);
  let start = 0;
  let firstContent = true;
  let prefixed = 0;
  const speakers = new Set<string>();
  let firstIsPrefixed = false;
  /** The previous line was `### User` / `### Assistant` (a Claude Markdown export has a date line next). */
  let claudeHeading = false;
  while (start < end) {
    let stop = text.indexOf('\n', start);
    if (stop < 0) stop = text.length;
    const line = text.slice(start, stop);
    start = stop + 1;
    if (isBlank(line)) continue;
    const c = line.charCodeAt(0);
    if (claudeHeading && line.startsWith('> ')) return { format: 'claude-code-markdown' };
    const bare = c === 0x23 /* # */ ? line.trimEnd() : '';
    claudeHeading = bare === '### User' || bare === '### Assistant';
    if (firstContent && c === 0x23 && isClaudeMarkdownTitle(line)) return { format: 'claude-code-markdown' };
    // SpecStory: its generator comment, its old title, or a turn header.
    if (
      (c === 0x3c && line.startsWith('<!-- Generated by SpecStory')) ||
      bare === '## SpecStory' ||
      (c === 0x5f && specstoryHeader(line) !== undefined)
    ) {
      return { format: 'specstory' };
    }
    // aider: a session header anywhere, or a history excerpt opening on a prompt line.
    if (line.startsWith(AIDER_HEADER) || (firstContent && isAiderPrompt(line))) return { format: 'aider' };
    if (
      c === 0x23fa /* ⏺ */ ||
      (c === 0x25cf /* ● */ && CONSOLE_CALL.test(line)) ||
      line.includes('Welcome to Claude Code') ||
      (c === 0x256d /* ╭ */ && line.includes(' Claude Code v')) ||
      line.trimStart().startsWith('\u23bf')
    ) {
      return { format: 'claude-code-console' };
    }
    if (line.trimStart().startsWith(GEMINI_AGENT)) return { format: 'gemini-cli-console' };
    // A chat in role tags: an opening tag first, and its closing tag in the window.
    if (firstContent && c === 0x3c /* < */) {
      const tag = roleTag(line);
      if (tag && closesTag(text, tag.speaker, end)) return { format: 'plain' };
    }
    const prefix = plainPrefix(line);
    if (prefix) {
      prefixed++;
      speakers.add(prefix.speaker);
      if (firstContent) firstIsPrefixed = true;
    }
    firstContent = false;
  }
  if (firstIsPrefixed || (prefixed >= 2 && speakers.size >= 2)) return { format: 'plain' };
  return {
    reason:
      'Could not detect the format: no JSON, no Claude Code console markers (⏺ or ● Tool(…), ⎿), no aider session header ("# aider chat started at"), no "User:" / "Assistant:" prefixes and no <user> … </user> tags',
    at: { line: 1 },
  };
}
