/**
 * rearview/durable in workerd with SQLite-backed Durable Objects on local disk: the storage adapter
 * passes the KeyValueStore contract, createRearview runs unchanged on durableObjectPlaybook, auth
 * keeps principals apart, and 8 concurrent HTTP clients × 500 mixed operations leave exact counters,
 * a complete history and every subscriber with every change in commit order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playbookClient } from '../../lib/durable/index';
import type { PlaybookChange, PlaybookStore } from '../../lib/store/index';
import { mulberry32 as random } from '../../tools/shared/random';
import {
  buildDurableWorker,
  type DurableServer,
  nodeSocket,
  rawSubscriber,
  startDurableWorkerd,
  waitUntil,
} from './workers/durable-server';

let server: DurableServer;
let storage: string;

beforeAll(async () => {
  const dir = await buildDurableWorker();
  storage = mkdtempSync(join(tmpdir(), 'rearview-do-'));
  server = await startDurableWorkerd(dir, storage);
});

afterAll(async () => {
  await server?.stop();
  if (storage) rmSync(storage, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

function client(token: string, clientId?: string): PlaybookStore {
  return playbookClient(
    { fetch: (input, init) => fetch(input, init) },
    {
      baseUrl: `${server.url}/playbook/`,
      headers: auth(token),
      clientId,
      openSocket: (url) => nodeSocket(url, auth(token)),
    },
  );
}

describe('durableStorageKv', () => {
  it('passes the shared KeyValueStore contract on a Durable Object’s SQLite storage', async () => {
    const report = (await (await fetch(`${server.url}/contract`)).json()) as {
      results: { name: string; ok: boolean; error?: string }[];
    };
    expect(report.results.filter((r) => !r.ok)).toEqual([]);
    expect(report.results.length).toBeGreaterThan(10);
  });
});

describe('durableObjectPlaybook', () => {
  it('is a drop-in store for createRearview inside a Worker, changes pushed over the stub', async () => {
    const r = (await (await fetch(`${server.url}/session`)).json()) as Record<string, unknown>;
    expect(r.version).toBe(1);
    expect(r.changes).toEqual([{ id: 'default', kind: 'delta', version: 1, origin: 'local' }]);
    expect(r.prompt).toContain('Cite the source of every number');
    expect(r.notFound).toMatchObject({ code: expect.stringMatching(/^store_/), name: 'StoreError' });
  });

  it('keeps error codes across the wire', async () => {
    const alice = client('alice');
    await expect(alice.importJson('{"sections": [', { id: 'broken' })).rejects.toMatchObject({
      code: expect.stringMatching(/invalid|validation/),
    });
    await expect(alice.kv.set('x', 1)).rejects.toMatchObject({ code: 'store_read_only' });
  });
});

describe('change pushes', () => {
  it('every kind of write reaches the subscribers of its playbook only: import, delta, revert', async () => {
    const alice = client('alice');
    const source = 'push-source';
    await alice.applyDelta(source, [{ type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'v1' }]);
    const json = await alice.exportJson(source);
    const url = (id: string) => `${server.url}/playbook/subscribe?id=${id}`;
    const [copy, named, other] = await Promise.all(
      ['push-copy', 'push-named', source].map((id) => rawSubscriber(url(id), auth('alice'))),
    );
    try {
      await alice.importJson(json, { id: 'push-copy' });
      await alice.applyDelta('push-copy', [{ type: 'ADD', section: 'MISTAKES TO AVOID', text: 'v2' }]);
      await alice.revert('push-copy', 1);
      // No id in the options: the object finds it in the document itself.
      await alice.importJson(JSON.stringify({ ...JSON.parse(json), id: 'push-named' }));
      expect(await waitUntil(() => copy.messages.length >= 3 && named.messages.length >= 1)).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(copy.messages.map((m) => [m.kind, m.version])).toEqual([
        ['import', 1],
        ['delta', 2],
        ['revert', 3],
      ]);
      expect(named.messages.map((m) => m.kind)).toEqual(['import']);
      expect(other.messages).toEqual([]);
    } finally {
      for (const s of [copy, named, other]) s.close();
      alice.close();
    }
  });
});

describe('auth and scoping', () => {
  it('answers 401 without or with invalid credentials, on rpc and subscribe', async () => {
    const body = JSON.stringify({ method: 'list', args: [] });
    for (const headers of [{}, auth('mallory'), { authorization: 'alice' }]) {
      const res = await fetch(`${server.url}/playbook/rpc`, { method: 'POST', body, headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    await expect(rawSubscriber(`${server.url}/playbook/subscribe?id=default`, {})).rejects.toThrow(/401/);
  });

  it('a principal cannot reach another principal’s object, whatever the request says', async () => {
    const alice = client('alice');
    const bob = client('bob');
    await alice.applyDelta('secrets', [
      { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'alice only' },
    ]);
    expect(await bob.list()).not.toContain('secrets');
    // Names smuggled in the URL, a header or the body select nothing: the route ignores them.
    const forged = await fetch(`${server.url}/playbook/rpc?name=team:a&object=team:a`, {
      method: 'POST',
      headers: { ...auth('bob'), 'x-rearview-object': 'team:a', 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'load', args: ['secrets'], name: 'team:a' }),
    });
    expect(JSON.stringify(await forged.json())).not.toContain('alice only');
    expect(JSON.stringify(await alice.load('secrets'))).toContain('alice only');
  });
});

describe('8 concurrent clients × 500 mixed operations on one object', () => {
  const CLIENTS = 8;
  const OPS = 500;

  it('exact counters, complete history, every change to every subscriber in commit order', async () => {
    const id = 'shared';
    const clients = Array.from({ length: CLIENTS }, (_, i) => client('alice', `c${i}`));
    const seeded = await clients[0]!.applyDelta(
      id,
      Array.from({ length: 12 }, (_, i) => ({
        type: 'ADD',
        section: i % 2 ? 'PATTERNS & APPROACHES' : 'MISTAKES TO AVOID',
        text: `seed ${i}`,
      })),
    );
    const names = seeded.applied.map((op) => (op as { name: string }).name);
    expect(names).toHaveLength(12);

    const subscribers = await Promise.all(
      [0, 1, 2].map(() => rawSubscriber(`${server.url}/playbook/subscribe?id=${id}`, auth('alice'))),
    );
    const viaClient: PlaybookChange[] = [];
    const unsubscribe = clients[0]!.subscribe(id, (c) => viaClient.push(c));
    await new Promise((r) => setTimeout(r, 300));

    const expected = new Map(names.map((n) => [n, { helpful: 0, harmful: 0 }]));
    const adds: string[] = [];
    const writes = new Array<number>(CLIENTS).fill(0);
    let tagCalls = 0;
    let deltaCalls = 0;
    const t0 = Date.now();
    await Promise.all(
      clients.map(async (store, c) => {
        const rnd = random(1000 + c);
        let ownAdds = 0;
        for (let i = 0; i < OPS; i++) {
          const r = rnd();
          if (r < 0.7) {
            const tags = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
              name: names[Math.floor(rnd() * names.length)]!,
              tag: rnd() < 0.75 ? ('helpful' as const) : ('harmful' as const),
            }));
            const out = await store.applyTags(id, tags);
            expect(out.applied).toBe(tags.length);
            for (const t of tags) expected.get(t.name)![t.tag]++;
            tagCalls++;
          } else if (r < 0.85) {
            const text = r < 0.8 ? `c${c} op ${i}` : `updated by c${c} op ${i}`;
            const op =
              r < 0.8
                ? { type: 'ADD', section: 'PATTERNS & APPROACHES', text }
                : { type: 'UPDATE', name: names[Math.floor(rnd() * names.length)], text };
            const out = await store.applyDelta(id, [op]);
            expect(out.rejected).toEqual([]);
            if (r < 0.8) {
              adds.push(text);
              ownAdds++;
            }
            deltaCalls++;
          } else if (r < 0.95) {
            // A read sees every section, the seeds and every key point this client's acknowledged ADDs
            // made (read-your-writes; there are no removals). Other clients' ADDs are not counted here: one
            // acknowledged while this read was in flight is in `adds` by the time the check runs.
            const loaded = await store.load(id);
            expect(Object.keys(loaded.sections).length).toBe(5);
            const total = Object.values(loaded.sections).reduce((n, list) => n + list.length, 0);
            expect(total).toBeGreaterThanOrEqual(names.length + ownAdds);
            continue;
          } else {
            expect((await store.history(id)).length).toBeGreaterThan(0);
            continue;
          }
          writes[c]!++;
        }
      }),
    );
    const elapsed = Date.now() - t0;
    const total = tagCalls + deltaCalls;

    // Final counts exact.
    const playbook = await clients[1]!.load(id);
    const all = Object.values(playbook.sections).flat();
    for (const [name, want] of expected) {
      const kp = all.find((k) => k.name === name);
      expect({ name, helpful: kp?.helpful, harmful: kp?.harmful }).toEqual({ name, ...want });
    }
    const texts = new Set(all.map((k) => k.text));
    expect(adds.filter((t) => !texts.has(t))).toEqual([]);

    // History complete: one version per delta (plus the seed); tag events up to the retention cap
    // (100), the newest last.
    const opened = await clients[2]!.open(id);
    expect(opened.version).toBe(1 + deltaCalls);
    const history = await clients[2]!.history(id);
    expect(
      history.filter((h) => h.type === 'version').map((h) => (h as { version: number }).version),
    ).toEqual(Array.from({ length: 1 + deltaCalls }, (_, i) => i + 1));
    expect(history.filter((h) => h.type === 'tags')).toHaveLength(Math.min(100, tagCalls));

    // Every subscriber saw every change once, numbered without gaps, in commit order.
    expect(await waitUntil(() => subscribers.every((s) => s.messages.length >= total))).toBe(true);
    for (const s of subscribers) {
      const seqs = s.messages.map((m) => m.seq as number);
      expect(seqs).toEqual(Array.from({ length: total }, (_, i) => s.hello.seq + 1 + i));
      const versions = s.messages.map((m) => m.version as number);
      expect(versions.every((v, i) => i === 0 || v >= versions[i - 1]!)).toBe(true);
      expect(s.messages.filter((m) => m.kind === 'tags')).toHaveLength(tagCalls);
      for (let c = 0; c < CLIENTS; c++) {
        expect(s.messages.filter((m) => m.client === `c${c}`)).toHaveLength(writes[c]!);
      }
      s.close();
    }
    expect(subscribers[1]!.messages).toEqual(subscribers[0]!.messages);
    // The client API: its own changes are `local`, everyone else's `remote`.
    expect(await waitUntil(() => viaClient.length >= total)).toBe(true);
    expect(viaClient.filter((c) => c.origin === 'local')).toHaveLength(writes[0]!);
    expect(viaClient.filter((c) => c.origin === 'remote')).toHaveLength(total - writes[0]!);
    unsubscribe();
    for (const c of clients) c.close();
    console.log(`durable: ${CLIENTS}×${OPS} ops (${total} writes) in ${elapsed} ms`);
  }, 120_000);
});
