/**
 * A Cloudflare module worker, bundled from dist/, serving rearview/durable in workerd:
 * - /playbook/{rpc,subscribe}  routed by routePlaybookRequest to the principal's PlaybookObject
 *   (bearer tokens `alice` → team:a, `bob` → team:b; a stand-in for a real signature check);
 * - /kv/rpc  the same JSON protocol on a playbookStore over Workers KV (the benchmark's baseline);
 * - /contract  the shared KeyValueStore contract on durableStorageKv inside a Durable Object;
 * - /session  createRearview on durableObjectPlaybook, with a change subscription through the stub.
 */

import {
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
  durableObjectPlaybook,
  durableStorageKv,
  PlaybookObject,
  routePlaybookRequest,
} from 'rearview/durable';
import { type KvNamespaceLike, workersKvStore } from 'rearview/kv';
import { createRearview } from 'rearview/session';
import { type PlaybookStore, playbookStore } from 'rearview/store';
import { runContractCases } from '../../store/contract';

interface Env {
  PLAYBOOKS: DurableObjectNamespaceLike;
  CONTRACT: DurableObjectNamespaceLike;
  KV: KvNamespaceLike;
}

/**
 * Retains every content version the tests make, so they can check the history is complete. Tag events
 * stay at the default cap: the store keeps them in one record rewritten per applyTags, and retaining
 * thousands made the 8×500 run quadratic (91 s instead of 33 s).
 */
export class Playbooks extends PlaybookObject {
  constructor(ctx: DurableObjectStateLike, env: unknown) {
    super(ctx, env, { maxVersions: 2000, maxTagEvents: 100, onWarning: () => {} });
  }
}

/** Runs the KeyValueStore contract on the object's own storage. */
export class ContractObject {
  constructor(private readonly ctx: DurableObjectStateLike & { storage: { deleteAll(): Promise<void> } }) {}
  async fetch(): Promise<Response> {
    const results = await runContractCases(async () => {
      await this.ctx.storage.deleteAll();
      return durableStorageKv(this.ctx.storage);
    });
    return Response.json({ ok: results.every((r) => r.ok), results });
  }
}

const TOKENS: Record<string, string> = { alice: 'team:a', bob: 'team:b' };

let kvStore: PlaybookStore | undefined;

async function kvRpc(request: Request, env: Env): Promise<Response> {
  kvStore ??= playbookStore(workersKvStore(env.KV), { broadcast: false, onWarning: () => {} });
  const { method, args } = (await request.json()) as { method: string; args: unknown[] };
  const fn = (kvStore as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method];
  if (!fn) return Response.json({ error: { code: 'durable_bad_request', message: method } }, { status: 400 });
  return Response.json({ result: (await fn(...args)) ?? null });
}

async function session(env: Env): Promise<Response> {
  const rv = createRearview({ store: durableObjectPlaybook(env.PLAYBOOKS, 'team:session') });
  const changes: unknown[] = [];
  const seen = new Promise<void>((resolve) => {
    rv.on('change', (change) => {
      changes.push(change);
      resolve();
    });
  });
  // Give the change socket time to open before writing.
  await new Promise((r) => setTimeout(r, 200));
  const delta = await rv.store.applyDelta(rv.playbookId, [
    { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'Cite the source of every number' },
  ]);
  await Promise.race([seen, new Promise((r) => setTimeout(r, 3000))]);
  const prompt = await rv.systemPrompt();
  let notFound: unknown;
  try {
    await rv.store.revert('never-written', 7);
  } catch (err) {
    notFound = { code: (err as { code?: string }).code, name: (err as Error).name };
  }
  rv.close();
  return Response.json({ version: delta.version, changes, prompt, notFound });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    try {
      if (pathname.startsWith('/playbook/')) {
        return await routePlaybookRequest(request, env, {
          namespace: (e) => e.PLAYBOOKS,
          authenticate: ({ request: r }) => {
            const token = /^Bearer (\S+)$/.exec(r.headers.get('authorization') ?? '')?.[1];
            return (token && Object.hasOwn(TOKENS, token) && TOKENS[token]) || null;
          },
        });
      }
      if (pathname === '/kv/rpc') return await kvRpc(request, env);
      if (pathname === '/contract')
        return await env.CONTRACT.get(env.CONTRACT.idFromName('c')).fetch(request);
      if (pathname === '/session') return await session(env);
      if (pathname === '/health') return new Response('ok');
      return new Response('not found', { status: 404 });
    } catch (err) {
      return Response.json({ error: { code: 'worker_failed', message: String(err) } }, { status: 500 });
    }
  },
};
