import { describeError, LlmError, withDeadline } from '../core/index.js';
import type { RedactOptions } from '../redact/index.js';
import { redactBeforeSending, scrubbed, secretHeaderValues } from './redacting.js';
import { type RetryPolicy, retryAfterMs, withRetries } from './retry.js';
import type { LlmClient, LlmRequest, LlmResponse } from './types.js';

/**
 * Where {@link openAiClient} sends requests by default: a llama.cpp server on its default port. Ollama
 * listens on `http://127.0.0.1:11434/v1`, LM Studio on `http://127.0.0.1:1234/v1`, vLLM on
 * `http://127.0.0.1:8000/v1`.
 *
 * @example
 * ```ts
 * const llm = openAiClient(); // DEFAULT_OPENAI_BASE_URL
 * const ollama = openAiClient({ baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' });
 * ```
 */
export const DEFAULT_OPENAI_BASE_URL = 'http://127.0.0.1:8080/v1';

/**
 * The model name sent when none is given. Servers that host one model (llama.cpp, LM Studio) ignore
 * it; Ollama and vLLM need the real name.
 *
 * @example
 * ```ts
 * openAiClient({ model: DEFAULT_OPENAI_MODEL });
 * ```
 */
export const DEFAULT_OPENAI_MODEL = 'local-model';

/** Options of {@link openAiClient}. Durations in milliseconds. */
export interface OpenAiClientOptions {
  /** Base URL ending before `/chat/completions`. Default {@link DEFAULT_OPENAI_BASE_URL}. */
  baseURL?: string;
  /** Model name. Default {@link DEFAULT_OPENAI_MODEL}. */
  model?: string;
  /** Sent as `Authorization: Bearer …` when given; local servers usually need none. */
  apiKey?: string;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Per-attempt timeout, reading the whole reply included. Default 120000 (local models are slow). */
  timeoutMs?: number;
  /** Stream the reply (server-sent events). Default `true`, unless the request says otherwise. */
  stream?: boolean;
  /** Backoff tuning; `maxRetries` above wins over `retry.maxRetries`. */
  retry?: Omit<RetryPolicy, 'maxRetries'>;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** A `fetch` implementation (default: the global one). */
  fetch?: typeof fetch;
  /** As for {@link anthropicClient}: redact before sending. Default `true`. */
  redact?: boolean | RedactOptions;
}

const STATUS_CODES: Record<number, string> = {
  400: 'llm_bad_request',
  401: 'llm_auth',
  403: 'llm_auth',
  404: 'llm_not_found',
  408: 'llm_timeout',
  413: 'llm_bad_request',
  422: 'llm_bad_request',
  429: 'llm_rate_limited',
  529: 'llm_overloaded',
};

/**
 * An {@link LlmClient} for any OpenAI-compatible chat-completions endpoint — a model server on the
 * user's machine (llama.cpp, Ollama, LM Studio, vLLM) or a hosted one — on plain `fetch`, so it runs
 * wherever rearview runs and adds no dependency.
 *
 * Same contract as {@link anthropicClient}: requests are redacted before they leave (option `redact`);
 * up to `maxRetries` retries with backoff on 408, 409, 429, 5xx, connection failures, timeouts and
 * unreadable replies, honouring `retry-after`; other 4xx never; a caller's `AbortSignal` cancels at
 * once; each attempt has its own timeout, covering the streamed body; error messages are scrubbed of
 * the key and anything key-like, and an HTTP error keeps no `cause`.
 *
 * @throws {LlmError} with `code` `llm_auth`, `llm_bad_request`, `llm_not_found`, `llm_rate_limited`,
 * `llm_overloaded`, `llm_server`, `llm_http`, `llm_connection`, `llm_timeout`, `llm_aborted` or
 * `llm_invalid_response`.
 *
 * @example
 * ```ts
 * const llm = openAiClient({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
 * const { text } = await llm.complete({ messages: [{ role: 'user', content: 'Name one prime.' }], maxTokens: 50 });
 * ```
 */
export function openAiClient(options: OpenAiClientOptions = {}): LlmClient {
  const url = `${(options.baseURL ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '')}/chat/completions`;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const secrets = [options.apiKey, ...secretHeaderValues(options.headers)];
  const complete = async (original: LlmRequest): Promise<LlmResponse> => {
    const started = Date.now();
    const request = redactBeforeSending(original, options.redact);
    const stream = request.stream ?? options.stream ?? true;
    const body = JSON.stringify({
      model: request.model ?? options.model ?? DEFAULT_OPENAI_MODEL,
      messages: [
        ...(request.system ? [{ role: 'system', content: request.system }] : []),
        ...request.messages.map((m) => ({ role: m.role, content: m.content })),
      ],
      max_tokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...options.headers,
    };
    const doFetch = options.fetch ?? fetch;
    const { value, attempts } = await withRetries(
      () =>
        attempt(timeoutMs, request.signal, async (signal) => {
          const res = await doFetch(url, { method: 'POST', headers, body, signal });
          if (!res.ok) throw await httpError(res);
          return stream ? await readStream(res) : readJson(await res.json().catch(unreadable));
        }).catch((err: unknown) => {
          throw scrubbed(err, secrets);
        }),
      { ...options.retry, maxRetries: options.maxRetries ?? 3 },
      request.signal,
    );
    return { ...value, latencyMs: Date.now() - started, attempts };
  };
  return { complete };
}

type Reply = Omit<LlmResponse, 'latencyMs' | 'attempts'>;

/**
 * One attempt under its own timeout ({@link withDeadline}), which also aborts a body still being read;
 * a failure that is not already an {@link LlmError} is a connection failure.
 */
function attempt(
  timeoutMs: number,
  caller: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<Reply>,
): Promise<Reply> {
  return withDeadline(run, { signal: caller, timeoutMs, what: 'The chat-completions request' }).catch(
    (err: unknown) => {
      if (err instanceof LlmError) throw err;
      throw new LlmError(
        'llm_connection',
        `Could not reach the chat-completions endpoint: ${describeError(err)}`,
        { cause: err },
      );
    },
  );
}

async function httpError(res: Response): Promise<LlmError> {
  const raw = await res.text().catch(() => '');
  let detail = raw.slice(0, 300);
  try {
    const parsed = JSON.parse(raw) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof m === 'string') detail = m.slice(0, 300);
  } catch {
    /* not JSON: the start of the text says enough */
  }
  const code = STATUS_CODES[res.status] ?? (res.status >= 500 ? 'llm_server' : 'llm_http');
  const hint = retryAfterMs(res.headers);
  return new LlmError(code, `Chat completions answered ${res.status}: ${detail}`.trim(), {
    status: res.status,
    ...(hint !== undefined ? { retryAfterMs: hint } : {}),
  });
}

function unreadable(err: unknown): never {
  // An abort (the timeout, the caller) while reading is not a bad body: withDeadline() in attempt()
  // has already settled with llm_timeout or llm_aborted.
  if ((err as { name?: unknown } | null)?.name === 'AbortError') throw err;
  throw new LlmError('llm_invalid_response', `The reply is not JSON: ${describeError(err)}`, { cause: err });
}

interface Choice {
  message?: { content?: unknown };
  delta?: { content?: unknown };
  finish_reason?: string | null;
}
interface Chunk {
  choices?: Choice[];
  model?: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

function readJson(value: unknown): Reply {
  const body = value as Chunk;
  const choice = body?.choices?.[0];
  if (!choice || typeof choice.message?.content !== 'string') {
    throw new LlmError('llm_invalid_response', 'The reply has no choices[0].message.content string');
  }
  return {
    text: choice.message.content,
    usage: usageOf(body.usage),
    model: body.model ?? '',
    ...(choice.finish_reason ? { stopReason: choice.finish_reason } : {}),
  };
}

const usageOf = (u: Chunk['usage']) => ({
  inputTokens: u?.prompt_tokens ?? 0,
  outputTokens: u?.completion_tokens ?? 0,
});

/** Reads a server-sent event stream of chat-completion chunks to its `[DONE]` (or its end). */
async function readStream(res: Response): Promise<Reply> {
  if (!res.body) throw new LlmError('llm_invalid_response', 'The streamed reply has no body');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const reply: Reply = { text: '', usage: usageOf(undefined), model: '' };
  let chunks = 0;
  const onData = (data: string): boolean => {
    if (data === '[DONE]') return true;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      throw new LlmError('llm_invalid_response', `A streamed chunk is not JSON: ${data.slice(0, 80)}`);
    }
    if (chunk.error) {
      const m = typeof chunk.error === 'string' ? chunk.error : chunk.error.message;
      throw new LlmError('llm_server', `The stream reported an error: ${m ?? 'unknown'}`);
    }
    chunks++;
    const choice = chunk.choices?.[0];
    if (typeof choice?.delta?.content === 'string') reply.text += choice.delta.content;
    if (choice?.finish_reason) reply.stopReason = choice.finish_reason;
    if (chunk.model) reply.model = chunk.model;
    if (chunk.usage) reply.usage = usageOf(chunk.usage);
    return false;
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += decoder.decode(value, { stream: true });
    let end = buffered.indexOf('\n');
    while (end >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (line.startsWith('data:') && onData(line.slice(5).trim())) {
        await reader.cancel().catch(() => undefined);
        return finished(reply, chunks);
      }
      end = buffered.indexOf('\n');
    }
    if (done) break;
  }
  const last = buffered.trim();
  if (last.startsWith('data:')) onData(last.slice(5).trim());
  return finished(reply, chunks);
}

function finished(reply: Reply, chunks: number): Reply {
  // A stream cut before any chunk (a proxy hiccup, a server restart) is worth another try.
  if (chunks === 0) throw new LlmError('llm_invalid_response', 'The streamed reply ended without a chunk');
  return reply;
}
