/**
 * The edge-worker example as a standard `Request → Response` function: a Vercel Edge Function (or any
 * runtime with fetch-style handlers: Deno Deploy, Bun.serve, Next.js route handlers).
 *
 *   POST /…   body: a transcript or trajectory in any format rearview reads
 *     ← { format, messages, insights, added, duplicates, tags, analysis, llm, version, errors }
 *   GET  /…?q=<query>&budget=<tokens>
 *     ← { playbook, prompt }
 *
 * Every request is authenticated (`Authorization: Bearer <token>`, or the deployer's own
 * `authenticate` hook) and reaches only its principal's playbook: the id comes from the hook, never
 * from the request (see ../shared/edge.ts).
 *
 * `export default handler` reads its configuration from the environment when a request comes in
 * (REARVIEW_AUTH_SECRET or REARVIEW_AUTH_KEYS, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL; never at module
 * scope) and keeps playbooks in a per-instance memory store. For durable playbooks, build your own
 * handler with `createHandler({ store, authenticate })` around any `KeyValueStore`.
 */

import { type KeyValueStore, memoryStore } from 'rearview/kv';
import { anthropicClient, type LlmClient } from 'rearview/llm';
import { redactMessages } from 'rearview/redact';
import { loadRearview } from 'rearview/session';
import { parseTranscript } from 'rearview/transcript';
import {
  type Authenticate,
  agentRuns,
  authKeysFromEnv,
  authorize,
  budgetOf,
  reflectBody,
  sharedSecretAuth,
} from '../shared/edge.js';

/** Vercel: run this function on the edge runtime. */
export const config = { runtime: 'edge' };

export interface HandlerOptions {
  /**
   * Who the request is from, and so which playbook it may use; null answers 401. Required unless
   * `authSecret` is given.
   */
  authenticate?: Authenticate;
  /**
   * Signing keys of the default hook (expiring bearer tokens naming their key, see ../shared/edge.ts):
   * one secret, or the active keys by key id (rotation).
   */
  authSecret?: string | Readonly<Record<string, string>>;
  /** Where playbooks live. Default: one memory store per handler (per instance). */
  store?: KeyValueStore;
  /** A model client; overrides `apiKey`. */
  llm?: LlmClient;
  /** API key held server-side; without it (and without `llm`) only the heuristics run. */
  apiKey?: string;
  baseURL?: string;
  model?: string;
  /** Largest transcript accepted, in bytes. Default 8 MB. */
  maxBodyBytes?: number;
}

/** Builds a `Request → Response` handler. Throws when it has no way to authenticate requests. */
export function createHandler(options: HandlerOptions): (request: Request) => Promise<Response> {
  const authenticate =
    options.authenticate ?? (options.authSecret ? sharedSecretAuth(options.authSecret) : undefined);
  if (!authenticate) {
    throw new Error('createHandler needs authenticate or authSecret: playbooks become system prompts');
  }
  let store = options.store;
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const llm =
    options.llm ??
    (options.apiKey
      ? anthropicClient({
          apiKey: options.apiKey,
          ...(options.baseURL ? { baseURL: options.baseURL } : {}),
          ...(options.model ? { model: options.model } : {}),
        })
      : undefined);
  const reply = (body: unknown, status = 200) => {
    let text = JSON.stringify(body);
    // Nothing the handler returns may contain its secrets.
    const secrets =
      typeof options.authSecret === 'object' ? Object.values(options.authSecret) : [options.authSecret];
    for (const key of [options.apiKey, ...secrets]) {
      if (key && text.includes(key)) text = text.split(key).join('[redacted]');
    }
    return new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
  };

  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const auth = await authorize(request, authenticate);
    if ('error' in auth) return reply({ error: auth.error, code: auth.code }, auth.status);
    store ??= memoryStore();
    // People's turns read by the learned reader, imported once, on the first request.
    const rv = await loadRearview({
      store,
      storeOptions: { broadcast: false, onWarning: () => {} },
      playbookId: auth.principal.playbookId,
      ...(llm ? { llm } : {}),
    });
    try {
      if (request.method === 'GET') {
        return reply({
          playbook: await rv.playbook(),
          prompt: await rv.systemPrompt({
            query: url.searchParams.get('q') ?? '',
            tokenBudget: budgetOf(url),
          }),
        });
      }
      if (request.method !== 'POST') return reply({ error: 'use GET or POST' }, 405);
      const text = await request.text();
      if (text.length > maxBody) return reply({ error: 'transcript too large' }, 413);
      let parsed: ReturnType<typeof parseTranscript>;
      try {
        parsed = parseTranscript(text);
      } catch (err) {
        return reply({ error: (err as Error).message, code: (err as { code?: string }).code }, 400);
      }
      const summary = await rv.endSession({
        messages: redactMessages(parsed.messages),
        trajectories: agentRuns(text),
      });
      return reply(reflectBody(parsed.format, summary));
    } finally {
      rv.close();
    }
  };
}

let fromEnv: ((request: Request) => Promise<Response>) | undefined;

/** The Vercel entry: configuration from the environment, read on the first request. */
export default async function handler(request: Request): Promise<Response> {
  if (!fromEnv) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
    // Closed by default: without a secret every request is refused rather than every playbook open.
    const keys = authKeysFromEnv(env);
    if (keys === undefined) {
      return Response.json(
        { error: 'REARVIEW_AUTH_SECRET (16+ characters) or REARVIEW_AUTH_KEYS is not configured' },
        { status: 503 },
      );
    }
    fromEnv = createHandler({
      authSecret: keys,
      ...(env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY } : {}),
      ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
      ...(env.ANTHROPIC_MODEL ? { model: env.ANTHROPIC_MODEL } : {}),
    });
  }
  return fromEnv(request);
}
