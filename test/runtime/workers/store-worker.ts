/**
 * A Cloudflare module worker, bundled from dist/, that exercises rearview/store on a REAL Workers KV
 * binding (env.KV, configured in workerd's capnp config):
 * - GET /contract  runs the shared KeyValueStore contract on workersKvStore(env.KV);
 * - GET /replicas  two PlaybookStores (two writers) apply tags concurrently on one namespace;
 * - GET /memory-entries  a bounded memoryEntryStore on KV.
 * Every answer is JSON.
 */
import { type KvNamespaceLike, memoryEntryStore, workersKvStore } from 'rearview/kv';
import { playbookStore } from 'rearview/store';
import { runContractCases } from '../../store/contract';

interface Env {
  KV: KvNamespaceLike;
}

async function clear(kv: KvNamespaceLike): Promise<void> {
  for (;;) {
    const page = await kv.list({});
    if (!page.keys.length) return;
    await Promise.all(page.keys.map((k) => kv.delete(k.name)));
  }
}

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(req.url);
    try {
      if (pathname === '/contract') {
        const results = await runContractCases(async () => {
          await clear(env.KV);
          return workersKvStore(env.KV);
        });
        return Response.json({ ok: results.every((r) => r.ok), results });
      }
      if (pathname === '/replicas') {
        await clear(env.KV);
        const quiet = { broadcast: false as const, onWarning: () => {} };
        const a = playbookStore(workersKvStore(env.KV), { ...quiet, replicaId: 'colo-a' });
        const b = playbookStore(workersKvStore(env.KV), { ...quiet, replicaId: 'colo-b' });
        await a.applyDelta('p', [{ type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'shared' }]);
        await Promise.all([
          ...Array.from({ length: 30 }, () => a.applyTags('p', [{ name: 'pat-001', tag: 'helpful' }])),
          ...Array.from({ length: 20 }, () => b.applyTags('p', [{ name: 'pat-001', tag: 'harmful' }])),
        ]);
        const pb = await playbookStore(workersKvStore(env.KV), quiet).load('p');
        const history = await a.history('p');
        // Counter records are sharded by name: strip the shard suffix to see who wrote.
        const writers = (await env.KV.list({ prefix: 'pb:p:c:' })).keys.map((k) =>
          k.name.replace(/:[0-9a-f]{2}$/, ''),
        );
        const counterKeys = [...new Set(writers)].sort();
        return Response.json({
          ok: true,
          keyPoint: pb.sections['PATTERNS & APPROACHES'][0],
          counterKeys,
          history: history.length,
        });
      }
      if (pathname === '/memory-entries') {
        await clear(env.KV);
        const mem = memoryEntryStore<number>(workersKvStore(env.KV), { namespace: 'm', maxEntries: 5 });
        for (let i = 0; i < 3; i++) await mem.append([i * 3, i * 3 + 1, i * 3 + 2]);
        return Response.json({ ok: true, values: (await mem.list()).map((e) => e.value) });
      }
      return new Response('not found', { status: 404 });
    } catch (err) {
      const e = err as { code?: string; message?: string; stack?: string };
      return Response.json({ ok: false, code: e.code, message: e.message, stack: e.stack }, { status: 500 });
    }
  },
};
