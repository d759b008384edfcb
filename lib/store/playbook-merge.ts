/**
 * Replica merging: last-writer-wins content with tombstones, and the portable document that carries
 * content plus G-counters (playbook-gcounters.ts). Pure functions; no storage here.
 */
import * as v from 'valibot';
import { type Issue, ValidationError } from '../core/index.js';
import {
  type HighWater,
  type KeyPoint,
  KeyPointNameSchema,
  type Playbook,
  parseKeyPointId,
  SECTION_NAMES,
  type SectionName,
} from '../playbook/index.js';
import { type GCounters, mergeCounters, sumSlots } from './playbook-gcounters.js';
import {
  type ContentDoc,
  ContentDocEnvelopeSchema,
  type Stamp,
  type StoredKeyPoint,
  StoredKeyPointSchema,
} from './playbook-schema.js';
import { dict, own } from './store-keys.js';

/**
 * The portable state of one playbook replica, as `exportJson` writes it and `importJson` reads it:
 * the content document plus every replica's counter slots.
 */
export interface PlaybookDocument extends ContentDoc {
  format: 'rearview.playbook';
  counters: GCounters;
}

const Int = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * valibot schema of a {@link PlaybookDocument}.
 *
 * @example
 * ```ts
 * v.safeParse(PlaybookDocumentSchema, JSON.parse(await store.exportJson('default'))).success; // true
 * ```
 */
export const PlaybookDocumentSchema = v.object({
  ...ContentDocEnvelopeSchema.entries,
  format: v.literal('rearview.playbook'),
  sections: v.object(
    Object.fromEntries(SECTION_NAMES.map((n) => [n, v.array(StoredKeyPointSchema)])) as Record<
      SectionName,
      v.ArraySchema<typeof StoredKeyPointSchema, undefined>
    >,
  ),
  counters: v.record(
    KeyPointNameSchema,
    v.object({ helpful: v.record(v.string(), Int), harmful: v.record(v.string(), Int) }),
  ),
});

/**
 * Orders LWW stamps: by clock, then replica id.
 *
 * @example
 * ```ts
 * compareStamps([2, 'a'], [1, 'z']); // > 0
 * ```
 */
export function compareStamps(a: Stamp, b: Stamp): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/**
 * The user-facing playbook of a content document and its counters: counters are summed over
 * replicas, and a key point merged away (alias) adds its counts to the one it was merged into.
 *
 * @example
 * ```ts
 * const pb = viewPlaybook(doc.content, doc.counters); // counters summed over replicas
 * ```
 */
export function viewPlaybook(doc: ContentDoc | undefined, counters: GCounters): Playbook {
  const sections = {} as Playbook['sections'];
  for (const s of SECTION_NAMES) sections[s] = [];
  if (!doc) return { sections };
  const present = new Map<string, KeyPoint>();
  for (const s of SECTION_NAMES) {
    for (const e of doc.sections[s]) {
      const kp: KeyPoint = {
        name: e.name,
        text: e.text,
        helpful: sumSlots(own(counters, e.name)?.helpful),
        harmful: sumSlots(own(counters, e.name)?.harmful),
        ...(e.createdAt !== undefined ? { createdAt: e.createdAt } : {}),
        ...(e.updatedAt !== undefined ? { updatedAt: e.updatedAt } : {}),
        ...(e.source !== undefined ? { source: e.source } : {}),
      };
      sections[s].push(kp);
      present.set(e.name, kp);
    }
  }
  for (const [name, c] of Object.entries(counters)) {
    if (present.has(name)) continue;
    const target = resolveAlias(doc, name, present);
    if (!target) continue;
    target.helpful += sumSlots(c.helpful);
    target.harmful += sumSlots(c.harmful);
  }
  return { sections };
}

function resolveAlias<T>(doc: ContentDoc, name: string, present: Map<string, T>): T | undefined {
  let current = name;
  for (let depth = 0; depth < 64; depth++) {
    const alias = own(doc.aliases, current);
    if (!alias) return undefined;
    const hit = present.get(alias.into);
    if (hit) return hit;
    current = alias.into;
  }
  return undefined;
}

/**
 * Natural id order: legacy `kpt_` ids first, then by slug and number, then by name.
 *
 * @example
 * ```ts
 * ['pat-010', 'kpt_002', 'pat-002'].sort(compareKeyPointNames); // ['kpt_002', 'pat-002', 'pat-010']
 * ```
 */
export function compareKeyPointNames(a: string, b: string): number {
  const rank = (n: string): [number, string, number] => {
    const legacy = /^kpt_(\d+)$/.exec(n);
    if (legacy) return [0, '', Number(legacy[1])];
    const id = parseKeyPointId(n);
    if (id) return [1, id.slug, id.number];
    return [2, n, 0];
  };
  const x = rank(a);
  const y = rank(b);
  if (x[0] !== y[0]) return x[0] - y[0];
  if (x[1] !== y[1]) return x[1] < y[1] ? -1 : 1;
  if (x[2] !== y[2]) return x[2] - y[2];
  return a < b ? -1 : a > b ? 1 : 0;
}

function stableJson(e: StoredKeyPoint): string {
  return JSON.stringify([e.name, e.text, e.createdAt, e.updatedAt, e.source, e.stamp]);
}

/** Conflicts found by {@link mergeContent}: the same id created independently on two replicas. */
export interface MergeConflict {
  name: string;
  kept: string;
  dropped: string;
}

/**
 * Merges two content documents: per key point the entry with the newest stamp wins, a tombstone
 * newer than an entry removes it, aliases and tombstones keep their newest stamp, high-water marks
 * take the maximum. Sections come out in natural id order. Deterministic and commutative.
 *
 * @example
 * ```ts
 * const { doc, conflicts } = mergeContent(local, remote);
 * ```
 */
export function mergeContent(a: ContentDoc, b: ContentDoc): { doc: ContentDoc; conflicts: MergeConflict[] } {
  const conflicts: MergeConflict[] = [];
  const candidates = new Map<string, { entry: StoredKeyPoint; section: SectionName }>();
  for (const doc of [a, b]) {
    for (const s of SECTION_NAMES) {
      for (const entry of doc.sections[s]) {
        const prev = candidates.get(entry.name);
        if (!prev) {
          candidates.set(entry.name, { entry, section: s });
          continue;
        }
        const c = compareStamps(entry.stamp, prev.entry.stamp);
        const pj = stableJson(prev.entry);
        const ej = stableJson(entry);
        if (c === 0 && (pj !== ej || prev.section !== s)) {
          // Same stamp, different content: independent creations. Deterministic pick, reported.
          const keepNew = ej + s > pj + prev.section;
          conflicts.push({
            name: entry.name,
            kept: keepNew ? entry.text : prev.entry.text,
            dropped: keepNew ? prev.entry.text : entry.text,
          });
          if (keepNew) candidates.set(entry.name, { entry, section: s });
        } else if (c > 0) {
          if (createdDiffers(prev.entry, entry)) {
            conflicts.push({ name: entry.name, kept: entry.text, dropped: prev.entry.text });
          }
          candidates.set(entry.name, { entry, section: s });
        } else if (c < 0 && createdDiffers(prev.entry, entry)) {
          conflicts.push({ name: entry.name, kept: prev.entry.text, dropped: entry.text });
        }
      }
    }
  }
  const removed = dict<Stamp>();
  for (const name of [...new Set([...Object.keys(a.removed), ...Object.keys(b.removed)])].sort()) {
    const x = own(a.removed, name);
    const y = own(b.removed, name);
    removed[name] = !x ? y! : !y ? x : compareStamps(x, y) >= 0 ? x : y;
  }
  const aliases: ContentDoc['aliases'] = dict();
  for (const name of [...new Set([...Object.keys(a.aliases), ...Object.keys(b.aliases)])].sort()) {
    const x = own(a.aliases, name);
    const y = own(b.aliases, name);
    aliases[name] = !x ? y! : !y ? x : compareStamps(x.stamp, y.stamp) >= 0 ? x : y;
  }
  const sections = {} as ContentDoc['sections'];
  for (const s of SECTION_NAMES) sections[s] = [];
  for (const name of [...candidates.keys()].sort(compareKeyPointNames)) {
    const { entry, section } = candidates.get(name)!;
    const tomb = own(removed, name);
    if (tomb && compareStamps(tomb, entry.stamp) >= 0) continue;
    sections[section].push(entry);
  }
  const highWater = { ...a.highWater };
  for (const k of Object.keys(highWater) as (keyof HighWater)[])
    highWater[k] = Math.max(a.highWater[k], b.highWater[k]);
  const legacy = [...new Set([...(a.legacyNames ?? []), ...(b.legacyNames ?? [])])].sort(
    compareKeyPointNames,
  );
  const doc: ContentDoc = {
    schema: 2,
    id: a.id,
    version: Math.max(a.version, b.version),
    clock: Math.max(a.clock, b.clock),
    sections,
    highWater,
    removed,
    aliases,
    ...(legacy.length ? { legacyNames: legacy } : {}),
  };
  return { doc, conflicts };
}

/** Two entries with the same name that were created separately (concurrent ADDs on two replicas). */
function createdDiffers(x: StoredKeyPoint, y: StoredKeyPoint): boolean {
  return x.createdAt !== undefined && y.createdAt !== undefined && x.createdAt !== y.createdAt;
}

/**
 * True when two documents hold the same live key points (ignoring order) and the same tombstones.
 *
 * @example
 * ```ts
 * if (!sameContent(local, merged)) await write(merged);
 * ```
 */
export function sameContent(a: ContentDoc, b: ContentDoc): boolean {
  const flat = (d: ContentDoc) => {
    const entries: string[] = [];
    for (const s of SECTION_NAMES) for (const e of d.sections[s]) entries.push(`${s}\u0000${stableJson(e)}`);
    entries.sort();
    return JSON.stringify([
      entries,
      Object.entries(d.removed).sort(),
      Object.entries(d.aliases).sort(),
      d.highWater,
      [...(d.legacyNames ?? [])].sort(),
    ]);
  };
  return flat(a) === flat(b);
}

/**
 * Merges two replicas of one playbook: content by last-writer-wins with tombstones (see
 * {@link mergeContent}), counters as G-counters (per-replica maximum). The result does not depend on
 * the order of the arguments or of repeated syncs; counters always converge to the sum of every
 * replica's increments.
 *
 * @example
 * ```ts
 * const merged = mergePlaybookDocuments(await a.exportDocument('team'), await b.exportDocument('team'));
 * ```
 */
export function mergePlaybookDocuments(a: PlaybookDocument, b: PlaybookDocument): PlaybookDocument {
  const issues = [...documentIssues(a, 'a'), ...documentIssues(b, 'b')];
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Playbook documents to merge' });
  const { doc } = mergeContent(a, b);
  return { format: 'rearview.playbook', ...doc, counters: mergeCounters(a.counters, b.counters) };
}

/** What makes a document unmergeable (not an object, a section missing or not a list), located. */
function documentIssues(d: unknown, path: string): Issue[] {
  if (typeof d !== 'object' || d === null) return [{ path, message: 'must be a playbook document object' }];
  const sections = (d as { sections?: unknown }).sections;
  if (typeof sections !== 'object' || sections === null) {
    return [{ path: `${path}.sections`, message: 'must be an object of sections' }];
  }
  const issues: Issue[] = [];
  for (const name of SECTION_NAMES) {
    if (!Array.isArray((sections as Record<string, unknown>)[name])) {
      issues.push({ path: `${path}.sections.${name}`, message: 'missing or not a list of key points' });
    }
  }
  return issues;
}
