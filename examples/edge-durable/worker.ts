/**
 * A Cloudflare Worker whose playbooks live in Durable Objects: one PlaybookObject per principal, so
 * every user (or team) of every data centre reads and writes one consistent playbook, counters never
 * lose an increment, and open pages get each change pushed over a WebSocket.
 *
 *   POST /reflect              body: a transcript → createRearview({ store: the principal's object }).endSession
 *   GET  /playbook?q=&budget=  ← { playbook, prompt }
 *   POST /playbook/rpc         { method, args } → any PlaybookStore method on the principal's object
 *   GET  /playbook/subscribe?id=default  (WebSocket) ← { type: 'change', seq, id, kind, version }
 *
 * Every request carries `Authorization: Bearer <token>` (../shared/edge.ts); the object is the
 * principal's own, never one the request names. Bindings: PLAYBOOK_OBJECTS (the Durable Object
 * namespace of `Playbooks`, SQLite-backed: see wrangler.toml), REARVIEW_AUTH_SECRET, optional
 * ANTHROPIC_API_KEY / ANTHROPIC_MODEL.
 */
import {
  type DurableObjectNamespaceLike,
  durableObjectPlaybook,
  PlaybookObject,
  routePlaybookRequest,
} from 'rearview/durable';
import { anthropicClient } from 'rearview/llm';
import { redactMessages } from 'rearview/redact';
import { createRearview } from 'rearview/session';
import { parseTranscript } from 'rearview/transcript';
import { type Authenticate, authorize, budgetOf, reflectBody, sharedSecretAuth } from '../shared/edge.js';

export interface Env {
  PLAYBOOK_OBJECTS: DurableObjectNamespaceLike;
  REARVIEW_AUTH_SECRET?: string;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_MODEL?: string;
}

/** The Durable Object class: export it under the `class_name` of wrangler.toml. */
export class Playbooks extends PlaybookObject {}

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const json = (body: unknown, status = 200) => Response.json(body, { status });

let auth: { secret: string; authenticate: Authenticate } | undefined;
function authenticator(env: Env): Authenticate | undefined {
  const secret = env.REARVIEW_AUTH_SECRET ?? '';
  if (secret.length < 16) return undefined;
  if (auth?.secret !== secret) auth = { secret, authenticate: sharedSecretAuth(secret) };
  return auth.authenticate;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const authenticate = authenticator(env);
    // Closed by default: without a secret everyone is refused rather than everyone served.
    if (!authenticate) return json({ error: 'REARVIEW_AUTH_SECRET is not configured (16+ characters)' }, 503);

    if (url.pathname.startsWith('/playbook/')) {
      return routePlaybookRequest(request, env, {
        namespace: env.PLAYBOOK_OBJECTS,
        // One object per principal: its name comes from the verified token only.
        authenticate: async ({ request: r }) => (await authenticate(r))?.playbookId ?? null,
      });
    }
    if (url.pathname !== '/reflect' && url.pathname !== '/playbook') {
      return json(
        {
          error: 'not found',
          routes: ['POST /reflect', 'GET /playbook', '/playbook/rpc', '/playbook/subscribe'],
        },
        404,
      );
    }
    const authorized = await authorize(request, authenticate);
    if ('error' in authorized) return json({ error: authorized.error }, authorized.status);
    const store = durableObjectPlaybook(env.PLAYBOOK_OBJECTS, authorized.principal.playbookId);
    const rv = createRearview({
      store,
      playbookId: 'default',
      ...(env.ANTHROPIC_API_KEY
        ? {
            llm: anthropicClient({
              apiKey: env.ANTHROPIC_API_KEY,
              ...(env.ANTHROPIC_MODEL ? { model: env.ANTHROPIC_MODEL } : {}),
            }),
          }
        : {}),
    });
    try {
      if (url.pathname === '/reflect') {
        if (request.method !== 'POST') return json({ error: 'use POST' }, 405);
        const text = await request.text();
        if (text.length > MAX_BODY_BYTES) return json({ error: 'transcript too large' }, 413);
        let parsed: ReturnType<typeof parseTranscript>;
        try {
          parsed = parseTranscript(text);
        } catch (err) {
          return json({ error: (err as Error).message, code: (err as { code?: string }).code }, 400);
        }
        const summary = await rv.endSession({
          messages: redactMessages(parsed.messages),
          signal: AbortSignal.timeout(55_000),
        });
        return json(reflectBody(parsed.format, summary));
      }
      if (request.method !== 'GET') return json({ error: 'use GET' }, 405);
      return json({
        playbook: await rv.playbook(),
        prompt: await rv.systemPrompt({ query: url.searchParams.get('q') ?? '', tokenBudget: budgetOf(url) }),
      });
    } finally {
      rv.close();
      store.close();
    }
  },
};
