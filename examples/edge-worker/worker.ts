/**
 * A Cloudflare Worker that learns from transcripts with the API key held server-side.
 *
 *   POST /reflect?playbook=<id>   body: a transcript or trajectory in any format rearview reads
 *     → parseTranscript → redact → createRearview({ store: Workers KV, llm: Claude }) → endSession
 *     ← { format, messages, insights, added, duplicates, tags, analysis, version, errors }
 *   GET /playbook?playbook=<id>&q=<query>&budget=<tokens>
 *     ← { playbook, prompt }: the stored playbook and the system-prompt section for a query
 *
 * Bindings: PLAYBOOKS (a KV namespace), ANTHROPIC_API_KEY (a secret; without it only the heuristics
 * run), optional ANTHROPIC_BASE_URL, ANTHROPIC_MODEL and ALLOWED_ORIGIN (CORS for a browser front end).
 * The key is read from `env` inside the request and never leaves the Worker: responses are scrubbed.
 */
import { anthropicClient } from 'rearview/llm';
import { redactMessages } from 'rearview/redact';
import { createRearview } from 'rearview/session';
import { type KvNamespaceLike, workersKvStore } from 'rearview/store';
import { parseTranscript } from 'rearview/transcript';

export interface Env {
  PLAYBOOKS: KvNamespaceLike;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  ANTHROPIC_MODEL?: string;
  ALLOWED_ORIGIN?: string;
}

/** Largest transcript accepted, in bytes. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const PLAYBOOK_ID = /^[\w.-]{1,64}$/;

function json(env: Env, body: unknown, status = 200): Response {
  let text = JSON.stringify(body);
  // Defence in depth: nothing the Worker returns may contain its key.
  const key = env.ANTHROPIC_API_KEY;
  if (key && text.includes(key)) text = text.split(key).join('[redacted]');
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (env.ALLOWED_ORIGIN) {
    headers['access-control-allow-origin'] = env.ALLOWED_ORIGIN;
    headers.vary = 'origin';
  }
  return new Response(text, { status, headers });
}

function rearviewFor(env: Env, request: Request) {
  const colo = (request as Request & { cf?: { colo?: string } }).cf?.colo;
  return createRearview({
    store: workersKvStore(env.PLAYBOOKS),
    // One G-counter slot per data centre keeps the number of slots small (see rearview/store).
    storeOptions: { replicaId: `edge-${colo ?? 'local'}`, broadcast: false, onWarning: () => {} },
    ...(env.ANTHROPIC_API_KEY
      ? {
          llm: anthropicClient({
            apiKey: env.ANTHROPIC_API_KEY,
            ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
            ...(env.ANTHROPIC_MODEL ? { model: env.ANTHROPIC_MODEL } : {}),
          }),
        }
      : {}),
    playbookId: new URL(request.url).searchParams.get('playbook') ?? 'default',
  });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const playbook = url.searchParams.get('playbook') ?? 'default';
    if (!PLAYBOOK_ID.test(playbook)) return json(env, { error: 'invalid playbook id' }, 400);
    if (request.method === 'OPTIONS' && env.ALLOWED_ORIGIN) {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': env.ALLOWED_ORIGIN,
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'content-type',
        },
      });
    }

    if (url.pathname === '/reflect') {
      if (request.method !== 'POST') return json(env, { error: 'use POST' }, 405);
      const declared = Number(request.headers.get('content-length') ?? 0);
      if (declared > MAX_BODY_BYTES) return json(env, { error: 'transcript too large' }, 413);
      const text = await request.text();
      if (text.length > MAX_BODY_BYTES) return json(env, { error: 'transcript too large' }, 413);
      let messages: ReturnType<typeof parseTranscript>['messages'];
      let format: string;
      try {
        const parsed = parseTranscript(text);
        messages = parsed.messages;
        format = parsed.format;
      } catch (err) {
        // A located message: `[jsonl] Line is not valid JSON: … (line 3)`.
        return json(env, { error: (err as Error).message, code: (err as { code?: string }).code }, 400);
      }
      // Redact before anything is analysed, stored or sent (anthropicClient redacts again by default).
      const redacted = redactMessages(messages);
      const rv = rearviewFor(env, request);
      try {
        const summary = await rv.endSession({ messages: redacted, signal: AbortSignal.timeout(55_000) });
        return json(env, {
          format,
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
    }

    if (url.pathname === '/playbook' && request.method === 'GET') {
      const rv = rearviewFor(env, request);
      try {
        const budget = Number(url.searchParams.get('budget') ?? 1500);
        return json(env, {
          playbook: await rv.playbook(),
          prompt: await rv.systemPrompt({
            query: url.searchParams.get('q') ?? '',
            tokenBudget: Number.isFinite(budget) && budget > 0 ? budget : 1500,
          }),
        });
      } finally {
        rv.close();
      }
    }

    return json(env, { error: 'not found', routes: ['POST /reflect', 'GET /playbook'] }, 404);
  },
};
