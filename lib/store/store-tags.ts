/**
 * applyTags: reflector tags as one transaction over the head (is the content still the version the
 * names were checked against?), this replica's tag log and only the counter shards the tags touch.
 */
import * as v from 'valibot';
import { StoreError, ValidationError } from '../core/index.js';
import { type KeyPointTag, tallyKeyPointTags } from '../playbook/index.js';
import {
  type CounterRecord,
  type HeadRecord,
  HeadRecordSchema,
  type TagEvent,
  type TagLogRecord,
} from './playbook-schema.js';
import type { StoreContext } from './store-context.js';
import { isCounterRecord } from './store-counters.js';
import { counterKey, dict, dictOf, docKey, headKey, own, shardOf, tagKey } from './store-keys.js';
import { issuesOf } from './store-quarantine.js';
import { cacheNames, readDoc, STALE } from './store-read.js';
import type { ApplyTagsResult } from './store-types.js';

/** The head is corrupt or missing while the content exists: it must be repaired before tagging. */
interface BadHead {
  head: unknown;
}

/** {@link PlaybookStore.applyTags}. */
export async function applyTagsToStore(
  ctx: StoreContext,
  id: string,
  tags: readonly KeyPointTag[],
): Promise<ApplyTagsResult> {
  if (!Array.isArray(tags)) {
    throw new ValidationError([{ path: '', message: 'bullet tags must be an array' }], {
      subject: 'Bullet tags',
    });
  }
  const { kv, quarantine: q, shards } = ctx;
  const me = await ctx.replicaId();
  const who = await ctx.actor();
  const tKey = tagKey(id, me);
  for (let attempt = 0; attempt < 50; attempt++) {
    let cached = ctx.namesCache.get(id);
    if (!cached) {
      const diagnostics: StoreError[] = [];
      const doc = await readDoc(ctx, id, diagnostics);
      q.report(diagnostics);
      cacheNames(ctx, id, doc);
      cached = ctx.namesCache.get(id)!;
    }
    const { version, names } = cached;
    const tally = tallyKeyPointTags(names, tags);
    const at = ctx.nowIso();
    const corruptFound: StoreError[] = [];
    const pending = new Map<string, number>();
    // Only the shards holding the tagged names take part in the transaction.
    const touched = [...new Set([...tally.increments.keys()].map((n) => shardOf(n, shards)))].sort(
      (a, b) => a - b,
    );
    const cKeys = touched.map((shard) => counterKey(id, me, shard));
    const result = await kv.transact<number | typeof STALE | BadHead>(
      [headKey(id), tKey, ...cKeys],
      (values) => {
        const [head, tagLog] = values;
        const headOk = head !== undefined && v.safeParse(HeadRecordSchema, head).success;
        // Without a valid head the version cannot be checked; retrying would only meet it again.
        if (!headOk && version > 0) return { result: { head } };
        const headVersion = headOk ? (head as HeadRecord).version : 0;
        if (headVersion !== version) return { result: STALE };
        const writes: (readonly [string, unknown])[] = [];
        const records = new Map<number, CounterRecord>();
        touched.forEach((shard, i) => {
          const counter = values[2 + i];
          let record: CounterRecord = { replica: me, counts: dict() };
          if (counter !== undefined) {
            if (isCounterRecord(counter)) record = counter as CounterRecord;
            else {
              const error = q.corrupt(cKeys[i]!, 'Counter record is invalid');
              corruptFound.push(error);
              writes.push([q.keyFor(cKeys[i]!), q.record(cKeys[i]!, counter, error)]);
            }
          }
          records.set(shard, { replica: me, counts: dictOf(record.counts) });
        });
        let log: TagLogRecord = { events: [] };
        if (tagLog !== undefined) {
          // Only the shape is checked on this hot path; history() validates every event with valibot.
          if (Array.isArray((tagLog as TagLogRecord | null)?.events)) log = tagLog as TagLogRecord;
          else {
            const error = q.corrupt(tKey, 'Tag log is invalid');
            corruptFound.push(error);
            writes.push([q.keyFor(tKey), q.record(tKey, tagLog, error)]);
          }
        }
        if (tally.increments.size === 0 && writes.length === 0) return { result: version };
        const increments = dict<TagEvent['increments'][string]>();
        for (const [name, inc] of tally.increments) {
          const counts = records.get(shardOf(name, shards))!.counts;
          const c = own(counts, name) ?? { helpful: 0, harmful: 0 };
          counts[name] = { helpful: c.helpful + inc.helpful, harmful: c.harmful + inc.harmful };
          increments[name] = { ...inc };
        }
        touched.forEach((shard, i) => {
          writes.push([
            cKeys[i]!,
            ctx.replicaGuard.stamp(cKeys[i]!, values[2 + i], records.get(shard)!, pending),
          ]);
        });
        if (ctx.maxTagEvents > 0 && tally.increments.size) {
          const event: TagEvent = {
            at,
            actor: who,
            contentVersion: version,
            increments,
            given: tags.length,
            skipped: tally.skipped.length,
          };
          writes.push([tKey, { events: [...log.events, event].slice(-ctx.maxTagEvents) }]);
        }
        return { writes, result: version };
      },
    );
    if (corruptFound.length) q.report(corruptFound);
    if (result === STALE) {
      ctx.namesCache.delete(id);
      continue;
    }
    if (typeof result === 'object') {
      await repairHead(ctx, id, result.head);
      ctx.namesCache.delete(id);
      continue;
    }
    ctx.replicaGuard.committed(pending);
    await ctx.replicaGuard.verify(kv, pending, me);
    if (tally.skipped.length)
      for (const s of tally.skipped) ctx.warn(`applyTags(${id}): skipped ${s.reason}`);
    const appliedCount = [...tally.increments.values()].reduce((n, i) => n + i.helpful + i.harmful, 0);
    if (appliedCount) ctx.notifier.emit(id, 'tags', version);
    return { applied: appliedCount, skipped: tally.skipped, version };
  }
  throw new StoreError('store_conflict', `Playbook ${id} changed concurrently too many times; try again`, {
    key: headKey(id),
  });
}

/**
 * Rebuilds a corrupt or missing head from the content document (version kept, change log restarted),
 * quarantining and reporting the corrupt one. Does nothing if someone rewrote the head meanwhile.
 */
async function repairHead(ctx: StoreContext, id: string, raw: unknown): Promise<void> {
  const key = headKey(id);
  const parsed = raw === undefined ? undefined : v.safeParse(HeadRecordSchema, raw);
  const error =
    parsed && !parsed.success
      ? ctx.quarantine.corrupt(key, `Playbook head is invalid: ${issuesOf(parsed.issues)}`)
      : undefined;
  const rawJson = JSON.stringify(raw);
  const repaired = await ctx.kv.transact([key, docKey(id)], ([current, doc]) => {
    if (JSON.stringify(current) !== rawJson) return { result: false };
    const version = (doc as { version?: unknown } | undefined)?.version;
    const writes: (readonly [string, unknown])[] = error
      ? [[ctx.quarantine.keyFor(key), ctx.quarantine.record(key, raw, error)]]
      : [];
    if (typeof version === 'number' && Number.isSafeInteger(version) && version > 0) {
      writes.push([key, { version, log: [] } satisfies HeadRecord]);
      return { writes, result: true };
    }
    return { writes, deletes: raw === undefined ? [] : [key], result: true };
  });
  if (repaired && error) ctx.quarantine.report([error]);
}
