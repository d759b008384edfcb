/**
 * Moving playbooks between stores: the portable document (content plus every replica's counter
 * slots), its JSON form, imports of older layouts, and merging an incoming document into the stored one.
 */
import * as v from 'valibot';
import { cloneJson, parseJsonLocated, StoreError, ValidationError } from '../core/index.js';
import { countersFromRecords } from './playbook-gcounters.js';
import {
  type MergeConflict,
  mergeContent,
  type PlaybookDocument,
  PlaybookDocumentSchema,
  sameContent,
} from './playbook-merge.js';
import {
  detectPlaybookSchema,
  migratePlaybook,
  PlaybookV0Schema,
  PlaybookV1Schema,
} from './playbook-migrations.js';
import type { ContentDoc } from './playbook-schema.js';
import { changeContent } from './store-content.js';
import type { StoreContext } from './store-context.js';
import { mergeCounterRecords } from './store-counters.js';
import { docKey } from './store-keys.js';
import { validationFrom } from './store-quarantine.js';
import { readCounters, readDoc } from './store-read.js';
import type { WriteResult } from './store-types.js';

/** {@link PlaybookStore.exportDocument}. */
export async function exportDocument(ctx: StoreContext, id: string): Promise<PlaybookDocument> {
  const diagnostics: StoreError[] = [];
  const doc = await readDoc(ctx, id, diagnostics);
  const records = await readCounters(ctx, id, diagnostics);
  ctx.quarantine.report(diagnostics);
  if (!doc) throw new StoreError('store_not_found', `Playbook ${id} does not exist`, { key: docKey(id) });
  return { format: 'rearview.playbook', ...doc, counters: countersFromRecords(records) };
}

/** {@link PlaybookStore.importDocument}. */
export async function importDocument(
  ctx: StoreContext,
  incoming: PlaybookDocument,
  opts: { id?: string; kind?: 'import' | 'sync' } = {},
): Promise<WriteResult> {
  const parsed = v.safeParse(PlaybookDocumentSchema, incoming);
  if (!parsed.success) throw validationFrom(parsed.issues, 'Playbook document');
  const id = opts.id ?? incoming.id;
  const { format: _f, counters, ...content } = incoming;
  const contentDoc: ContentDoc = { ...content, id };
  let conflicts: MergeConflict[] = [];
  const out = await changeContent(ctx, id, opts.kind ?? 'import', [], (doc) => {
    if (!doc) return { doc: cloneJson(contentDoc), result: undefined };
    const merged = mergeContent(doc, contentDoc);
    conflicts = merged.conflicts;
    if (sameContent(doc, merged.doc)) return { unchanged: undefined };
    return { doc: { ...merged.doc, id }, result: undefined };
  });
  const grew = await mergeCounterRecords(ctx, id, counters);
  if (grew && !out.changed) ctx.notifier.emit(id, opts.kind ?? 'import', out.version);
  return {
    id,
    version: out.version,
    changed: out.changed || grew,
    ...(conflicts.length ? { conflicts } : {}),
  };
}

/** {@link PlaybookStore.importJson}. */
export async function importJson(
  ctx: StoreContext,
  json: string,
  opts: { id?: string } = {},
): Promise<WriteResult> {
  const raw = parseJsonLocated(json, 'Playbook JSON');
  const schema = detectPlaybookSchema(raw);
  if (schema === 0 || schema === 1) {
    const id = opts.id ?? (raw as { id?: unknown }).id;
    if (typeof id !== 'string' || !id) {
      throw new ValidationError([{ path: 'id', message: 'a playbook id is needed to import this layout' }], {
        subject: 'Playbook JSON',
      });
    }
    const validation = v.safeParse(schema === 0 ? PlaybookV0Schema : PlaybookV1Schema, raw);
    if (!validation.success) throw validationFrom(validation.issues, 'Playbook JSON');
    const { doc, counters } = migratePlaybook(raw, id);
    return importDocument(
      ctx,
      { format: 'rearview.playbook', ...doc, counters: countersFromRecords([counters]) },
      { id },
    );
  }
  if ((raw as { format?: unknown })?.format !== 'rearview.playbook' || schema !== 2) {
    throw new ValidationError(
      [
        {
          path: schema === undefined ? '' : 'schema',
          message: `not a playbook document (schema ${String(schema)})`,
        },
      ],
      { subject: 'Playbook JSON' },
    );
  }
  const parsed = v.safeParse(PlaybookDocumentSchema, raw);
  if (!parsed.success) throw validationFrom(parsed.issues, 'Playbook JSON');
  return importDocument(ctx, raw as PlaybookDocument, opts);
}
