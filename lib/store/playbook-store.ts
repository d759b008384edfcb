/**
 * `playbookStore(kv)`: the public constructor, assembled from one module per concern — reading and
 * migration (store-read), content writes (store-content), tags (store-tags), counters
 * (store-counters), history and revert (store-history), import/export (store-transfer), change
 * notification (store-notify), quarantine (store-quarantine) and replica-id checks (store-replica) —
 * which share one {@link StoreContext}. See lib/store/README.md for the layout and guarantees.
 */
import { StoreError } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';
import { mergePlaybookDocuments } from './playbook-merge.js';
import { applyDeltaToStore, savePlaybook } from './store-content.js';
import { createContext, type StoreContext } from './store-context.js';
import { historyOf, revertPlaybook } from './store-history.js';
import { openPlaybook } from './store-read.js';
import { applyTagsToStore } from './store-tags.js';
import { exportDocument, importDocument, importJson } from './store-transfer.js';
import type { PlaybookStore, PlaybookStoreOptions } from './store-types.js';

/**
 * A {@link PlaybookStore} over any {@link KeyValueStore}.
 *
 * @example
 * ```ts
 * const playbooks = playbookStore(idbStore('my-app', 'playbooks'));
 * await playbooks.applyDelta('default', [{ type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'Write tests' }]);
 * await playbooks.applyTags('default', [{ name: 'pat-001', tag: 'helpful' }]);
 * const pb = await playbooks.load('default'); // pat-001 helpful: 1
 * ```
 */
export function playbookStore(kv: KeyValueStore, options: PlaybookStoreOptions = {}): PlaybookStore {
  const ctx: StoreContext = createContext(kv, options);
  const load = async (id: string) => (await openPlaybook(ctx, id)).playbook;
  return {
    kv,
    replicaId: ctx.replicaId,
    async list() {
      const keys = await kv.keys('pb:');
      return keys
        .filter((k) => k.endsWith(':doc'))
        .map((k) => decodeURIComponent(k.slice(3, -4)))
        .sort();
    },
    open: (id) => openPlaybook(ctx, id),
    load,
    save: (id, playbook) => savePlaybook(ctx, id, playbook),
    applyTags: (id, tags) => applyTagsToStore(ctx, id, tags),
    applyDelta: (id, operations) => applyDeltaToStore(ctx, id, operations, load),
    history: (id) => historyOf(ctx, id),
    revert: (id, version) => revertPlaybook(ctx, id, version),
    exportDocument: (id) => exportDocument(ctx, id),
    importDocument: (doc, opts) => importDocument(ctx, doc, opts),
    async exportJson(id) {
      return JSON.stringify(await exportDocument(ctx, id), null, 2);
    },
    importJson: (json, opts) => importJson(ctx, json, opts),
    subscribe: (id, listener) => ctx.notifier.subscribe(id, listener),
    close: () => ctx.notifier.close(),
  };
}

/**
 * Brings two replicas of playbook `id` to the same state: each exports its document, the two are
 * merged (content last-writer-wins, counters per-replica maximum) and each imports the result. After
 * the call both load the same playbook, with counters equal to the sum of every replica's increments.
 *
 * @example
 * ```ts
 * await syncPlaybooks(laptop, phone, 'default');
 * ```
 */
export async function syncPlaybooks(a: PlaybookStore, b: PlaybookStore, id: string): Promise<void> {
  const read = async (s: PlaybookStore) => {
    try {
      return await s.exportDocument(id);
    } catch (err) {
      if ((err as { code?: string }).code === 'store_not_found') return undefined;
      throw err;
    }
  };
  const [da, db] = await Promise.all([read(a), read(b)]);
  if (!da && !db) throw new StoreError('store_not_found', `Playbook ${id} exists in neither store`);
  const merged = da && db ? mergePlaybookDocuments(da, db) : (da ?? db)!;
  await a.importDocument(merged, { id, kind: 'sync' });
  await b.importDocument(merged, { id, kind: 'sync' });
}
