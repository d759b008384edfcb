/** `parseTranscript` and `safeParseTranscript`: detection, dispatch and the never-throwing wrapper. */
import { describeError, isRearviewError, TranscriptError } from '../core/index.js';
import { detectPrepared } from './detect.js';
import { parseAider } from './formats/aider.js';
import { parseAntigravity } from './formats/antigravity.js';
import { parseAtif } from './formats/atif.js';
import { parseChat } from './formats/chat.js';
import { parseClaudeMarkdown } from './formats/claude-markdown.js';
import { parseCline } from './formats/cline.js';
import { parseCodex } from './formats/codex.js';
import { parseConsole } from './formats/console.js';
import { parseGeminiSession } from './formats/gemini.js';
import { parseGeminiConsole } from './formats/gemini-console.js';
import { parseClaudeCode, parseJsonl } from './formats/jsonl.js';
import { parsePlain } from './formats/plain.js';
import type { ParseState } from './formats/result.js';
import { parseShareGpt } from './formats/sharegpt.js';
import { parseSpecStory } from './formats/specstory.js';
import { failedAt, type Prepared, prepareInput, tryJson } from './input.js';
import { Sink, transcriptError } from './sink.js';
import type { ParseTranscriptOptions, SafeResult, Transcript, TranscriptFormat } from './types.js';

const FORMATS: ReadonlySet<string> = new Set<TranscriptFormat>([
  'anthropic',
  'openai',
  'sharegpt',
  'claude-code-jsonl',
  'claude-code-console',
  'plain',
  'jsonl',
  'aider',
  'codex',
  'antigravity',
  'specstory',
  'cline',
  'gemini-cli',
  'gemini-cli-console',
  'atif',
  'claude-code-markdown',
]);

/**
 * Reads a conversation from text (or UTF-8 bytes, or an already parsed JSON value) into a flat list of
 * messages. The format is detected unless `options.format` is given (see {@link detectFormat}).
 *
 * Strict by default: the first invalid item throws a {@link TranscriptError} whose message names the
 * format and the line (text, JSONL) or index (arrays). With `lenient: true` invalid items are left
 * out and listed in `skipped`; items that are not messages by design (progress events, sidechains,
 * thinking blocks…) are never errors and are counted in `ignored` / `ignoredKinds`.
 *
 * @example
 * ```ts
 * const t = parseTranscript('User: list files\nAssistant: Sure.');
 * t.format;                 // 'plain'
 * t.messages.map((m) => m.role); // ['user', 'assistant']
 *
 * const session = parseTranscript(jsonlText, { lenient: true }); // Claude Code session log
 * session.messages.filter((m) => m.toolName === 'Bash');
 * ```
 */
export function parseTranscript(input: unknown, options: ParseTranscriptOptions = {}): Transcript {
  const requested = options.format;
  if (requested !== undefined && !FORMATS.has(requested)) {
    throw transcriptError(
      String(requested),
      `Unknown transcript format "${String(requested)}"`,
      {},
      undefined,
      'transcript_unknown_format',
    );
  }
  let prepared = prepareInput(input, requested ?? 'auto');
  let format: TranscriptFormat;
  if (requested) {
    format = requested;
  } else {
    const detection = detectPrepared(prepared);
    if (!detection.format) {
      throw transcriptError(
        'auto',
        detection.reason ?? 'Could not detect the format',
        detection.at ?? {},
        undefined,
        'transcript_unknown_format',
      );
    }
    format = detection.format;
    if (detection.value !== undefined && (!isLineFormat(format) || !isOneLine(prepared))) {
      prepared = { kind: 'value', value: detection.value };
    }
  }
  const sink = new Sink(format, options.lenient === true);
  const state: ParseState = {
    sink,
    messages: [],
    tools: new Map(),
    includeSidechains: options.includeSidechains === true,
    keepLineBreaks: options.keepLineBreaks === true,
  };
  switch (format) {
    case 'claude-code-jsonl':
      parseClaudeCode(prepared, state);
      break;
    case 'jsonl':
      parseJsonl(prepared, state);
      break;
    case 'codex':
      parseCodex(prepared, state);
      break;
    case 'antigravity':
      parseAntigravity(prepared, state);
      break;
    case 'claude-code-console':
      parseConsole(prepared, state);
      break;
    case 'plain':
      parsePlain(prepared, state);
      break;
    case 'aider':
      parseAider(prepared, state);
      break;
    case 'sharegpt':
      parseShareGpt(asValue(prepared, sink), state);
      break;
    case 'specstory':
      parseSpecStory(prepared, state);
      break;
    case 'gemini-cli-console':
      parseGeminiConsole(prepared, state);
      break;
    case 'claude-code-markdown':
      parseClaudeMarkdown(prepared, state);
      break;
    case 'cline':
      parseCline(asValue(prepared, sink), state);
      break;
    case 'gemini-cli':
      parseGeminiSession(asValue(prepared, sink), state);
      break;
    case 'atif':
      parseAtif(asValue(prepared, sink), state);
      break;
    default:
      parseChat(asValue(prepared, sink), state);
  }
  const transcript: Transcript = {
    format,
    messages: state.messages,
    skipped: sink.skipped,
    ignored: sink.ignored,
    ignoredKinds: sink.ignoredKinds,
  };
  if (state.meta) transcript.meta = state.meta;
  return transcript;
}

/**
 * Like {@link parseTranscript} but never throws: returns `{ ok: true, value }` or
 * `{ ok: false, error }` with a {@link TranscriptError}.
 *
 * @example
 * ```ts
 * const r = safeParseTranscript(userUpload);
 * if (r.ok) render(r.value.messages);
 * else showError(r.error.message); // e.g. '[jsonl] Line is not valid JSON: … (line 3)'
 * ```
 */
export function safeParseTranscript(
  input: unknown,
  options?: ParseTranscriptOptions,
): SafeResult<Transcript> {
  try {
    return { ok: true, value: parseTranscript(input, options) };
  } catch (err) {
    return { ok: false, error: toTranscriptError(err, options?.format) };
  }
}

/**
 * Wraps anything thrown into a TranscriptError (stack overflows on absurdly nested JSON, …).
 *
 * @example
 * ```ts
 * toTranscriptError(new RangeError('Maximum call stack size exceeded'), 'jsonl').code; // 'transcript_invalid'
 * ```
 */
export function toTranscriptError(err: unknown, format: string | undefined): TranscriptError {
  if (err instanceof TranscriptError) return err;
  if (isRearviewError(err) && (err as { name?: unknown }).name === 'TranscriptError')
    return err as TranscriptError;
  const message = describeError(err);
  return transcriptError(format ?? 'auto', `Could not read the input: ${message}`, {}, err);
}

function isLineFormat(format: TranscriptFormat): boolean {
  return (
    format === 'claude-code-jsonl' || format === 'jsonl' || format === 'codex' || format === 'antigravity'
  );
}

/** A single-line JSON text stays text for line formats, so its messages get `line` sources. */
function isOneLine(prepared: Prepared): boolean {
  if (prepared.kind !== 'text') return false;
  const text = prepared.text.trim();
  return text.indexOf('\n') < 0;
}

/** JSON formats need a value: parse text once, reporting the format and where the JSON broke. */
function asValue(prepared: Prepared, sink: Sink): Prepared {
  if (prepared.kind === 'value') return prepared;
  const parsed = tryJson(prepared.text);
  if (!parsed.ok) throw sink.error(`Input is not valid JSON: ${parsed.message}`, failedAt(parsed));
  return { kind: 'value', value: parsed.value };
}
