/**
 * The edge-worker example as a standard `Request → Response` function: a Vercel Edge Function (or any
 * runtime with fetch-style handlers: Deno Deploy, Bun.serve, Next.js route handlers).
 *
 *   POST /…?playbook=<id>   body: a transcript or trajectory in any format rearview reads
 *     ← { format, messages, insights, added, duplicates, tags, analysis, llm, version, errors }
 *   GET  /…?playbook=<id>&q=<query>&budget=<tokens>
 *     ← { playbook, prompt }
 *
 * `export default handler` reads its configuration from the environment when a request comes in
 * (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL; never at module scope) and keeps playbooks
 * in a per-instance memory store. For durable playbooks, build your own handler with
 * `createHandler({ store })` around any `KeyValueStore` (e.g. an adapter over your KV database).
 */
import { anthropicClient, type LlmClient } from 'rearview/llm';
import { redactMessages } from 'rearview/redact';
import { createRearview } from 'rearview/session';
import { type KeyValueStore, memoryStore } from 'rearview/store';
import { parseTranscript } from 'rearview/transcript';

/** Vercel: run this function on the edge runtime. */
export const config = { runtime: 'edge' };

export interface HandlerOptions {
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

const PLAYBOOK_ID = /^[\w.-]{1,64}$/;

/** Builds a `Request → Response` handler. */
export function createHandler(options: HandlerOptions = {}): (request: Request) => Promise<Response> {
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
    // Nothing the handler returns may contain its key.
    if (options.apiKey && text.includes(options.apiKey)) text = text.split(options.apiKey).join('[redacted]');
    return new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
  };

  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const playbookId = url.searchParams.get('playbook') ?? 'default';
    if (!PLAYBOOK_ID.test(playbookId)) return reply({ error: 'invalid playbook id' }, 400);
    store ??= memoryStore();
    const rv = createRearview({
      store,
      storeOptions: { broadcast: false, onWarning: () => {} },
      playbookId,
      ...(llm ? { llm } : {}),
    });
    try {
      if (request.method === 'GET') {
        const budget = Number(url.searchParams.get('budget') ?? 1500);
        return reply({
          playbook: await rv.playbook(),
          prompt: await rv.systemPrompt({
            query: url.searchParams.get('q') ?? '',
            tokenBudget: Number.isFinite(budget) && budget > 0 ? budget : 1500,
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
      const summary = await rv.endSession({ messages: redactMessages(parsed.messages) });
      return reply({
        format: parsed.format,
        messages: summary.messages,
        insights: summary.insights,
        added: summary.added,
        duplicates: summary.duplicates,
        tags: summary.tags,
        analysis: summary.analysis,
        llm: summary.llm,
        version: summary.version,
        errors: summary.errors,
      });
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
    fromEnv = createHandler({
      ...(env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY } : {}),
      ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
      ...(env.ANTHROPIC_MODEL ? { model: env.ANTHROPIC_MODEL } : {}),
    });
  }
  return fromEnv(request);
}
