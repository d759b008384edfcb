/**
 * A Cloudflare Worker that learns from transcripts with the API key held server-side.
 *
 *   POST /reflect   body: a transcript or trajectory in any format rearview reads
 *     → parseTranscript → redact → loadRearview({ store: Workers KV, llm: Claude }) → endSession
 *     ← { format, messages, insights, added, duplicates, tags, analysis, version, errors }
 *   GET /playbook?q=<query>&budget=<tokens>
 *     ← { playbook, prompt }: the stored playbook and the system-prompt section for a query
 *   With a Durable Object binding (PLAYBOOK_OBJECTS) the playbooks live in one `Playbooks` object per
 *   principal instead of KV, and two more routes reach the object itself:
 *   POST /playbook/rpc { method, args }  → any PlaybookStore method on the principal's object
 *   GET  /playbook/subscribe?id=default  (WebSocket) ← each change as it commits
 *
 * Every request carries `Authorization: Bearer <token>` (see ../shared/edge.ts: a principal signed
 * with REARVIEW_AUTH_SECRET or one of the keys of REARVIEW_AUTH_KEYS; tokens expire and name their key);
 * the playbook is the principal's own, never one the request names.
 *
 * Bindings: PLAYBOOKS (a KV namespace) or PLAYBOOK_OBJECTS (the Durable Object namespace of
 * `Playbooks`, SQLite-backed; when bound it wins), REARVIEW_AUTH_SECRET (a secret; without it every request is
 * refused), ANTHROPIC_API_KEY (a secret; without it only the heuristics run), optional
 * ANTHROPIC_BASE_URL, ANTHROPIC_MODEL and ALLOWED_ORIGIN (CORS for a browser front end). The keys are
 * read from `env` inside the request and never leave the Worker: responses are scrubbed.
 */
import {
  type DurableObjectNamespaceLike,
  durableObjectPlaybook,
  PlaybookObject,
  routePlaybookRequest,
} from 'rearview/durable';
import { type KvNamespaceLike, workersKvStore } from 'rearview/kv';
import { anthropicClient } from 'rearview/llm';
import { redactMessages } from 'rearview/redact';
import { loadRearview } from 'rearview/session';
import { type PlaybookStore, playbookStore } from 'rearview/store';
import { parseTranscript } from 'rearview/transcript';
import {
  type Authenticate,
  agentRuns,
  authKeysFromEnv,
  authorize,
  budgetOf,
  principalOf,
  reflectBody,
  sharedSecretAuth,
} from '../shared/edge.js';

export interface Env {
  /** Workers KV: the simple option (mostly-read playbooks, eventual consistency across locations). */
  PLAYBOOKS?: KvNamespaceLike;
  /** Durable Objects: one consistent playbook per principal for many concurrent writers. */
  PLAYBOOK_OBJECTS?: DurableObjectNamespaceLike;
  REARVIEW_AUTH_SECRET?: string;
  /** The set of active signing keys, a JSON object of key id → secret (rotation); wins over the secret. */
  REARVIEW_AUTH_KEYS?: string;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  ANTHROPIC_MODEL?: string;
  ALLOWED_ORIGIN?: string;
}

/** The Durable Object class: export it under the `class_name` of wrangler.toml (SQLite-backed). */
export class Playbooks extends PlaybookObject {}

/** Largest transcript accepted, in bytes. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

function json(env: Env, body: unknown, status = 200): Response {
  let text = JSON.stringify(body);
  // Defence in depth: nothing the Worker returns may contain its secrets.
  for (const key of [env.ANTHROPIC_API_KEY, env.REARVIEW_AUTH_SECRET, ...authSecrets(env)]) {
    if (key && text.includes(key)) text = text.split(key).join('[redacted]');
  }
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (env.ALLOWED_ORIGIN) {
    headers['access-control-allow-origin'] = env.ALLOWED_ORIGIN;
    headers.vary = 'origin';
  }
  return new Response(text, { status, headers });
}

/**
 * One playbook store per isolate, and so one G-counter replica per isolate. The id must be unique per
 * writer: Workers KV has no transactions, so two writers sharing a slot (the colo, as this example
 * once did) overwrite each other's increments — 198 of 200 concurrent tags were lost that way. Within
 * the isolate, concurrent requests go through this one store, whose KV adapter queues the writes to
 * each key; across isolates, each has its own slot. The trade-off: every isolate that ever wrote adds
 * a slot (a few keys) that loads read, so slots grow with isolate churn rather than staying one per
 * data centre. A fresh id per request would also be correct, with a slot per request: far worse. For
 * a bounded count, route each playbook through one Durable Object and use its id.
 */
let shared:
  | { kv: KvNamespaceLike | undefined; store?: PlaybookStore; authenticate?: Authenticate; secret?: string }
  | undefined;

function isolateState(env: Env) {
  if (!shared || shared.kv !== env.PLAYBOOKS) {
    // No replicaId: the store draws a random one (created here, inside a request, not at module scope).
    const store = env.PLAYBOOKS
      ? playbookStore(workersKvStore(env.PLAYBOOKS), { broadcast: false, onWarning: () => {} })
      : undefined;
    shared = { kv: env.PLAYBOOKS, ...(store ? { store } : {}) };
  }
  // The key set as configured: a change (a rotation) takes effect on the next request.
  const keys = authKeysFromEnv(env);
  const config = keys === undefined ? undefined : JSON.stringify(keys);
  if (shared.secret !== config) {
    if (keys === undefined) delete shared.authenticate;
    else shared.authenticate = sharedSecretAuth(keys);
    shared.secret = config;
  }
  return shared;
}

/** The secrets of the configured key set (`REARVIEW_AUTH_KEYS`), kept out of every answer. */
function authSecrets(env: Env): string[] {
  const keys = authKeysFromEnv(env);
  return keys && typeof keys === 'object' ? Object.values(keys) : [];
}

/** The facade, with people's turns read by the learned reader (imported once, on first use). */
function rearviewFor(env: Env, store: PlaybookStore, playbookId: string) {
  return loadRearview({
    store,
    ...(env.ANTHROPIC_API_KEY
      ? {
          llm: anthropicClient({
            apiKey: env.ANTHROPIC_API_KEY,
            ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
            ...(env.ANTHROPIC_MODEL ? { model: env.ANTHROPIC_MODEL } : {}),
          }),
        }
      : {}),
    playbookId,
  });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'OPTIONS' && env.ALLOWED_ORIGIN) {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': env.ALLOWED_ORIGIN,
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'authorization, content-type',
        },
      });
    }
    const objects = env.PLAYBOOK_OBJECTS;
    const objectRoute = objects !== undefined && url.pathname.startsWith('/playbook/');
    if (url.pathname !== '/reflect' && url.pathname !== '/playbook' && !objectRoute) {
      return json(env, { error: 'not found', routes: ['POST /reflect', 'GET /playbook'] }, 404);
    }
    const state = isolateState(env);
    // Closed by default: a deployment without a secret refuses everyone rather than serving everyone.
    const authenticate = state.authenticate;
    if (!authenticate) {
      return json(
        env,
        { error: 'REARVIEW_AUTH_SECRET (16+ characters) or REARVIEW_AUTH_KEYS is not configured' },
        503,
      );
    }
    if (objectRoute) {
      // The object is the principal's own: its name comes from the verified token, never the request.
      return routePlaybookRequest(request, env, {
        namespace: objects,
        authenticate: async ({ request: r }) => principalOf(await authenticate(r))?.playbookId ?? null,
      });
    }
    const auth = await authorize(request, authenticate);
    if ('error' in auth) return json(env, { error: auth.error, code: auth.code }, auth.status);
    // With Durable Objects the principal's object holds its playbook under the id 'default'; with KV
    // the playbook id itself is the principal's.
    const store = objects ? durableObjectPlaybook(objects, auth.principal.playbookId) : state.store;
    if (!store) return json(env, { error: 'no playbook storage bound (PLAYBOOKS or PLAYBOOK_OBJECTS)' }, 503);
    const playbookId = objects ? 'default' : auth.principal.playbookId;
    try {
      return await serve(request, env, url, store, playbookId);
    } finally {
      // A Durable Object client is per request; the KV store is the isolate's and stays open.
      if (objects) store.close();
    }
  },
};

/** The two routes of the session facade, on whichever playbook store the deployment binds. */
async function serve(request: Request, env: Env, url: URL, store: PlaybookStore, playbookId: string) {
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
    const rv = await rearviewFor(env, store, playbookId);
    try {
      const summary = await rv.endSession({
        messages: redacted,
        trajectories: agentRuns(text),
        signal: AbortSignal.timeout(55_000),
      });
      return json(env, reflectBody(format, summary));
    } finally {
      rv.close();
    }
  }

  if (request.method !== 'GET') return json(env, { error: 'use GET' }, 405);
  const rv = await rearviewFor(env, store, playbookId);
  try {
    return json(env, {
      playbook: await rv.playbook(),
      prompt: await rv.systemPrompt({ query: url.searchParams.get('q') ?? '', tokenBudget: budgetOf(url) }),
    });
  } finally {
    rv.close();
  }
}
