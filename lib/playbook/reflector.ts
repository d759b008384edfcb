/**
 * The Reflector: one model call that reads a finished session, the
 * playbook and the cited ids, and returns an analysis plus per-key-point tags. It never rejects.
 *
 * @module
 */

import { describeError, estimateTokens, extractJson, truncateUtf8 } from '../core/index.js';
import type { LlmClient } from '../llm/index.js';
import { createRedactor, type RedactOptions, type Redactor } from '../redact/index.js';
import { formatKeyPoints } from './format.js';
import type { Playbook } from './model.js';
import { type PlaybookDiagnostic, replyOrReport, safeReporter } from './model-call.js';
import { redactReflection } from './redaction.js';
import type { ReflectorResult } from './reflection-result.js';
import { sanitizeKeyPointText } from './sanitize.js';
import type { KeyPointTag } from './tags.js';
import { fillTemplate, REFLECTOR_TEMPLATE } from './templates.js';

export type { ReflectorResult } from './reflection-result.js';

/** Something the Reflector wants the caller to know: a failure it absorbed, or a reply it repaired. */
/** A diagnostic of {@link runReflector}: see {@link PlaybookDiagnostic}. */
export type ReflectorDiagnostic = PlaybookDiagnostic;

/** A transcript message as the Reflector reads it (rearview's `Message`, an Anthropic/OpenAI message…). */
export interface ReflectableMessage {
  role: string;
  content: unknown;
  toolName?: string;
}

/** Options of {@link runReflector}. */
export interface ReflectorOptions {
  /** The model client; `anthropicClient` retries 3× with backoff and redacts by default. */
  llm: LlmClient;
  /**
   * Cancels the call; an aborted call gives the empty result and an `llm_aborted` diagnostic at once,
   * even when the client ignores the signal.
   */
  signal?: AbortSignal;
  /**
   * Time limit of the model call in milliseconds, retries included: past it the result is empty with
   * an `llm_timeout` diagnostic. Default {@link DEFAULT_MODEL_TIMEOUT_MS} (60,000); `Infinity` turns it off.
   */
  timeoutMs?: number;
  /** Receives every absorbed failure and repaired reply (diagnostic mode). Errors it throws are ignored. */
  onDiagnostic?: (diagnostic: ReflectorDiagnostic) => void;
  /**
   * Redact the transcript and playbook before building the prompt (one redactor per call, so a value
   * keeps one placeholder across the transcript), and the analysis and rationales of the reply. Default
   * true; false opts out; an object tunes it.
   */
  redact?: boolean | RedactOptions;
  /** Output token cap. Default 2048. */
  maxTokens?: number;
  /** Overrides the client's model. */
  model?: string;
  /** Sampling temperature. Default 0. */
  temperature?: number;
  /** Replaces {@link REFLECTOR_TEMPLATE} (same placeholders). */
  template?: string;
  /**
   * Bound on the transcript part of the prompt, in estimated tokens. Over it, messages in the middle are
   * left out (the start and the end of the session are kept). Default 100,000.
   */
  maxTranscriptTokens?: number;
}

const EMPTY = (): ReflectorResult => ({ analysis: '', keyPointTags: [] });
const MAX_MESSAGE_BYTES = 20_000;
const MAX_ANALYSIS_BYTES = 16_000;
const MAX_RATIONALE_BYTES = 1_000;

/**
 * Runs the Reflector: formats the playbook, redacts the transcript, asks the
 * model for `{"analysis", "bullet_tags"}` and parses the reply with {@link extractJson} (fences, then
 * balanced braces, then raw). With cited ids the prompt is citation-guided, without it is
 * content-based.
 *
 * Never rejects: an API error after the client's retries, an unparseable reply, an
 * abort, the time limit (`timeoutMs`, default 60 s) or any other failure gives
 * `{ analysis: '', keyPointTags: [] }` and an `onDiagnostic` call. A reply
 * with only some of the keys is accepted with defaults; bullet tags without a string `name` and `tag`
 * are dropped (reported).
 *
 * @example
 * ```ts
 * const cited = extractCitedIds(messages);
 * const { analysis, keyPointTags } = await runReflector(messages, playbook, cited, { llm });
 * applyKeyPointTags(playbook, keyPointTags);
 * ```
 */
export async function runReflector(
  messages: readonly ReflectableMessage[],
  playbook: Playbook,
  citedIds: readonly string[],
  options: ReflectorOptions,
): Promise<ReflectorResult> {
  const report = safeReporter(options?.onDiagnostic);
  const reply = await replyOrReport(
    options,
    () => reflectorPrompt(messages, playbook, citedIds, options),
    report,
    'Reflector',
  );
  if (reply === undefined) return EMPTY();
  try {
    const { result, problems, parsed } = parseReflectorReply(reply);
    if (!parsed) {
      report({
        stage: 'parse',
        code: 'reply_unparseable',
        message: 'Reflector reply holds no JSON object',
        reply: truncateUtf8(reply, 2000),
      });
      return EMPTY();
    }
    if (problems.length) {
      report({
        stage: 'shape',
        code: 'reply_partial',
        message: `Reflector reply partly used: ${problems.join('; ')}`,
        reply: truncateUtf8(reply, 2000),
      });
    }
    return redactReflection(result, options?.redact);
  } catch (error) {
    report({ stage: 'internal', code: 'internal_error', message: describeError(error), error });
    return EMPTY();
  }
}

/**
 * Builds the Reflector prompt: {@link REFLECTOR_TEMPLATE} filled with the transcript (redacted unless
 * `redact: false`, middle elided past `maxTranscriptTokens`), the playbook with counts, and the cited ids
 * (`none` when empty). Exposed for tests and for callers who send the prompt themselves.
 *
 * @example
 * ```ts
 * const prompt = reflectorPrompt(messages, playbook, ['pat-001']);
 * ```
 */
export function reflectorPrompt(
  messages: readonly ReflectableMessage[],
  playbook: Playbook,
  citedIds: readonly string[],
  options: Pick<ReflectorOptions, 'redact' | 'template' | 'maxTranscriptTokens'> = {},
): string {
  const redactor =
    options.redact === false
      ? undefined
      : createRedactor(options.redact === true ? undefined : options.redact);
  const transcript = formatTranscript(messages, {
    redactor,
    maxTokens: options.maxTranscriptTokens ?? 100_000,
  });
  let book = formatKeyPoints(playbook, { counts: true, empty: '(the playbook is empty)' });
  if (redactor) book = redactor.redactText(book);
  const ids = (Array.isArray(citedIds) ? citedIds : []).filter((id) => typeof id === 'string');
  return fillTemplate(options.template ?? REFLECTOR_TEMPLATE, {
    transcript,
    playbook: book,
    cited_ids: ids.length ? ids.join(', ') : 'none',
  });
}

/**
 * A transcript as prompt text: one `[role]` block per message (`[assistant → Bash]` for a tool call,
 * `[tool Bash]` for its output), each message cut to 20,000 bytes, the middle of the session left out
 * when the whole exceeds `maxTokens` (estimated). Redacted through `redactor` when given.
 *
 * @example
 * ```ts
 * formatTranscript([{ role: 'user', content: 'hi' }]); // '[user] hi'
 * ```
 */
export function formatTranscript(
  messages: readonly ReflectableMessage[],
  options: { redactor?: Redactor | undefined; maxTokens?: number } = {},
): string {
  if (!Array.isArray(messages)) return '(no messages)';
  const labels: string[] = [];
  let texts: { role: string; content: string }[] = [];
  for (const m of messages) {
    if (typeof m !== 'object' || m === null) continue;
    const role = typeof m.role === 'string' ? m.role : 'unknown';
    const tool = typeof m.toolName === 'string' ? m.toolName : undefined;
    labels.push(tool ? (role === 'assistant' ? `assistant → ${tool}` : `${role} ${tool}`) : role);
    let text = contentText(m.content);
    if (text.length > MAX_MESSAGE_BYTES / 3) {
      const cut = truncateUtf8(text, MAX_MESSAGE_BYTES);
      if (cut.length < text.length) text = `${cut} […cut]`;
    }
    texts.push({ role, content: text });
  }
  // As one conversation: a password shown in a later message's URL is also hidden where it was typed bare before.
  if (options.redactor) texts = options.redactor.redactMessages(texts);
  const blocks = texts.map((t, i) => `[${labels[i]}] ${t.content}`);
  if (!blocks.length) return '(no messages)';
  const max = options.maxTokens ?? Number.POSITIVE_INFINITY;
  const costs = blocks.map((b) => estimateTokens(b) + 1);
  let total = costs.reduce((a, b) => a + b, 0);
  if (total <= max) return blocks.join('\n\n');
  // Keep the start and the end; drop from the middle outwards (a contiguous run, one marker).
  const keep = blocks.map(() => true);
  const mid = (blocks.length - 1) / 2;
  const order = blocks
    .map((_, i) => i)
    .slice(1, -1)
    .sort((a, b) => Math.abs(a - mid) - Math.abs(b - mid) || a - b);
  let dropped = 0;
  for (const i of order) {
    if (total <= max) break;
    keep[i] = false;
    total -= costs[i]!;
    dropped++;
  }
  const out: string[] = [];
  let marked = false;
  for (let i = 0; i < blocks.length; i++) {
    if (keep[i]) out.push(blocks[i]!);
    else if (!marked) {
      out.push(`[… ${dropped} messages left out …]`);
      marked = true;
    }
  }
  return out.join('\n\n');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const block of content) {
      if (typeof block === 'string') parts.push(block);
      else if (typeof block === 'object' && block !== null) {
        const b = block as { text?: unknown; type?: unknown; input?: unknown; content?: unknown };
        if (typeof b.text === 'string') parts.push(b.text);
        else if (b.input !== undefined) parts.push(safeJson(b.input));
        else if (b.content !== undefined) parts.push(contentText(b.content));
      }
    }
    return parts.join('\n');
  }
  return content === undefined || content === null ? '' : safeJson(content);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** What {@link parseReflectorReply} found. */
export interface ParsedReflectorReply {
  /** The result to use (defaults where the reply lacked something). */
  result: ReflectorResult;
  /** False when the reply held no JSON object at all. */
  parsed: boolean;
  /** What was missing or dropped. */
  problems: string[];
}

const TAGS = new Set(['helpful', 'harmful', 'neutral']);

/**
 * Parses a Reflector reply: the first JSON found by {@link extractJson};
 * missing `analysis` / `bullet_tags` default to `''` / `[]` (partial results are accepted); entries of
 * `bullet_tags` without a string `name` and `tag` are dropped; a tag value is lower-cased when that makes
 * it one of `helpful`/`harmful`/`neutral` (others are kept for `applyKeyPointTags` to report). Texts are
 * bounded. Never throws.
 *
 * @example
 * ```ts
 * parseReflectorReply('Sure: {"analysis": "ok"}').result; // { analysis: 'ok', keyPointTags: [] }
 * ```
 */
export function parseReflectorReply(reply: string): ParsedReflectorReply {
  const problems: string[] = [];
  const json = extractJson(reply);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { result: EMPTY(), parsed: false, problems: ['no JSON object'] };
  }
  const obj = json as Record<string, unknown>;
  let analysis = '';
  if (typeof obj.analysis === 'string') analysis = truncateUtf8(obj.analysis, MAX_ANALYSIS_BYTES);
  else problems.push(obj.analysis === undefined ? 'no "analysis"' : '"analysis" is not a string');
  const keyPointTags: KeyPointTag[] = [];
  const rawTags = obj.bullet_tags ?? obj.bulletTags ?? obj.keyPointTags;
  if (Array.isArray(rawTags)) {
    let dropped = 0;
    for (const t of rawTags) {
      const e = t as { name?: unknown; tag?: unknown; rationale?: unknown } | null;
      if (typeof e !== 'object' || e === null || typeof e.name !== 'string' || typeof e.tag !== 'string') {
        dropped++;
        continue;
      }
      const lower = e.tag.trim().toLowerCase();
      keyPointTags.push({
        name: e.name.trim(),
        tag: TAGS.has(lower) ? lower : e.tag,
        rationale:
          typeof e.rationale === 'string'
            ? sanitizeKeyPointText(e.rationale, { maxBytes: MAX_RATIONALE_BYTES })
            : '',
      });
    }
    if (dropped) problems.push(`${dropped} bullet tag(s) without a string "name" and "tag" dropped`);
  } else {
    problems.push(rawTags === undefined ? 'no "bullet_tags"' : '"bullet_tags" is not a list');
  }
  return { result: { analysis, keyPointTags }, parsed: true, problems };
}
