/**
 * The model side of the playground, loaded on demand (dynamic import) so the first page load carries
 * neither the LLM layer nor the Anthropic SDK (which rearview/llm itself imports lazily).
 */

import { type ReduceResult, reduceTrajectory } from 'rearview/compress';
import { isRearviewError, LlmError } from 'rearview/core';
import { anthropicClient, fixtureClient, type LlmClient, openAiClient } from 'rearview/llm';
import { createRedactor, type RedactFinding } from 'rearview/redact';
import {
  reflectedSnapshotPrompt as buildReflectionPrompt,
  computeTrajectoryReduction,
  pickParams,
  type SnapshotInput,
  type TrajectoryReduction,
} from 'rearview/snapshot';
import type { Step } from 'rearview/transcript';
import type { Settings } from './analyze';
import { RECORDED_MODEL } from './fixtures-meta';

export type Mode =
  | { kind: 'offline' }
  | { kind: 'anthropic'; apiKey?: string; baseURL?: string; model?: string }
  /** Any OpenAI-compatible chat-completions server on the user's machine (llama.cpp, Ollama, …). */
  | { kind: 'local'; baseURL?: string; model?: string; apiKey?: string };

export interface Hooks {
  /** A retry is about to wait `delayMs` after `error`. */
  onRetry?: (info: { attempt: number; delayMs: number; code: string }) => void;
}

/** Retries in the playground: one, after at most 10 s, so a 429 reaches the user quickly. */
export const PLAYGROUND_RETRY = {
  maxRetries: 1,
  baseDelayMs: 1000,
  maxDelayMs: 4000,
  maxRetryAfterMs: 10_000,
};

let fixtures: Promise<string> | undefined;
function loadFixtures(): Promise<string> {
  fixtures ??= fetch(`${import.meta.env.BASE_URL}fixtures/reflections.jsonl`).then((r) => {
    if (!r.ok) throw new Error(`Could not load the recorded answers (HTTP ${r.status})`);
    return r.text();
  });
  return fixtures;
}

/** A client plus the last error it threw (computeTrajectoryReduction reports failures as text). */
export interface TracedClient extends LlmClient {
  lastError: LlmError | null;
  calls: number;
}

export async function makeClient(mode: Mode, hooks: Hooks = {}): Promise<TracedClient> {
  let inner: LlmClient;
  const retry = {
    baseDelayMs: PLAYGROUND_RETRY.baseDelayMs,
    maxDelayMs: PLAYGROUND_RETRY.maxDelayMs,
    maxRetryAfterMs: PLAYGROUND_RETRY.maxRetryAfterMs,
    onRetry: (info: { attempt: number; delayMs: number; error: LlmError }) =>
      hooks.onRetry?.({ attempt: info.attempt, delayMs: info.delayMs, code: info.error.code }),
  };
  if (mode.kind === 'offline') {
    inner = fixtureClient(await loadFixtures(), { model: RECORDED_MODEL });
  } else if (mode.kind === 'local') {
    const apiKey = mode.apiKey?.trim();
    inner = openAiClient({
      ...(mode.baseURL?.trim() ? { baseURL: mode.baseURL.trim() } : {}),
      ...(mode.model?.trim() ? { model: mode.model.trim() } : {}),
      ...(apiKey ? { apiKey } : {}),
      maxRetries: PLAYGROUND_RETRY.maxRetries,
      retry,
      // Redaction happens in computeTrajectoryReduction / reduceTrajectory; no second pass here.
      redact: false,
    });
  } else {
    const apiKey = mode.apiKey?.trim() || undefined;
    const baseURL = mode.baseURL?.trim() || undefined;
    inner = anthropicClient({
      ...(apiKey ? { apiKey, dangerouslyAllowBrowser: true } : {}),
      ...(baseURL ? { baseURL } : {}),
      ...(mode.model?.trim() ? { model: mode.model.trim() } : {}),
      maxRetries: PLAYGROUND_RETRY.maxRetries,
      retry,
      // Redaction happens in computeTrajectoryReduction / reduceTrajectory; no second pass here.
      redact: false,
    });
  }
  const traced: TracedClient = {
    lastError: null,
    calls: 0,
    async complete(request) {
      traced.calls++;
      try {
        return await inner.complete(request);
      } catch (err) {
        traced.lastError = err instanceof LlmError ? err : new LlmError('llm_unavailable', String(err));
        throw err;
      }
    },
  };
  return traced;
}

export function reflectSnapshot(
  input: SnapshotInput,
  s: Settings,
  llm: LlmClient,
): Promise<TrajectoryReduction> {
  return computeTrajectoryReduction(input, {
    llm,
    ...pickParams(s, 'caps', 'gates'),
  });
}

export function dietTrajectory(steps: readonly Step[], s: Settings, llm: LlmClient): Promise<ReduceResult> {
  return reduceTrajectory(steps, { llm, ...pickParams(s, 'diet') });
}

/** What redaction replaces in the text that would be sent (originals stay in this page's memory). */
export function redactionPreview(input: SnapshotInput, steps?: readonly Step[]): RedactFinding[] {
  const r = createRedactor({ includeOriginals: true });
  r.redactText(buildReflectionPrompt(input));
  for (const st of steps ?? [])
    r.redactText([st.thought, st.action, st.observation].filter(Boolean).join('\n'));
  return r.findings();
}

/** Plain words for an LLM failure code, with what to do about it (a local server fails differently). */
export function explainLlmError(
  code: string | undefined,
  detail = '',
  kind: Mode['kind'] = 'anthropic',
): string {
  if (kind === 'local') {
    switch (code) {
      case 'llm_connection':
        return "Could not reach the local model server. Is it running, at this address? A page may call it only if it allows this origin (CORS): llama.cpp and LM Studio do; Ollama needs OLLAMA_ORIGINS set to this page's origin.";
      case 'llm_not_found':
        return 'The local server does not know this model or path (HTTP 404). Check the model name (Ollama: `ollama list`) and that the address ends in /v1.';
      case 'llm_timeout':
        return 'The local model took too long to answer. A smaller model, or a smaller transcript, answers faster.';
    }
  }
  switch (code) {
    case 'llm_fixture_missing':
      return 'No recording for this input. Offline mode only replays the answers recorded for the bundled samples (with their recorded settings). Use Local model mode (a model server on your machine, no key) or Anthropic mode to reflect on your own transcripts.';
    case 'llm_auth':
      return 'The API key was refused (HTTP 401/403). Check that you pasted the whole key, that it is active, and that it belongs to the right workspace.';
    case 'llm_rate_limited':
      return 'Rate limited (HTTP 429): the API is receiving too many requests for this key. Wait a minute and try again, or use a key with a higher limit.';
    case 'llm_overloaded':
      return 'The API is overloaded right now (HTTP 529). Try again in a little while.';
    case 'llm_connection':
      return 'Could not reach the API: you may be offline, the proxy URL may be wrong, or the proxy does not allow requests from this page (CORS).';
    case 'llm_timeout':
      return 'The request timed out. Try again, or use a smaller transcript.';
    case 'llm_server':
      return 'The API had an internal error (HTTP 5xx). Try again later.';
    case 'llm_bad_request':
      return 'The API rejected the request as malformed (HTTP 400). The input may be too large for the model.';
    case 'llm_not_found':
      return 'The API does not know this model or path (HTTP 404). Check the model name and the proxy URL.';
    case 'llm_invalid_response':
      return 'The reply could not be read. If you use a proxy, check that it forwards the Messages API unchanged.';
    case 'llm_aborted':
      return 'Cancelled.';
    default:
      return detail || 'The request failed.';
  }
}

export function errorCode(err: unknown): string | undefined {
  return isRearviewError(err) ? err.code : undefined;
}
