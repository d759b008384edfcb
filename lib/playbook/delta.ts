/**
 * Curator delta operations (ADD, UPDATE, MERGE, REMOVE): their shapes and schemas, and
 * {@link applyDelta}, which applies a batch to a copy and reports what each operation did.
 *
 * @module
 */
import * as v from 'valibot';
import { cloneJson } from '../core/index.js';
import {
  formatKeyPointId,
  type HighWater,
  highWaterOf,
  type Playbook,
  parseKeyPointId,
  SECTION_NAMES,
  SECTION_SLUGS,
  type SectionName,
} from './model.js';
import { describeIssues, KeyPointNameSchema } from './schema.js';

/** Where a key point's current text came from: the session and the traces that produced it. */
export interface Provenance {
  session?: string;
  traceRefs?: string[];
}

/** Adds a key point to a section; its id is allocated unless `name` is given. */
export interface AddOperation {
  type: 'ADD';
  section: SectionName;
  text: string;
  name?: string;
  /** Provenance recorded on the new key point (`KeyPoint.source`). */
  source?: Provenance;
}
/** Replaces the text of a key point; its counters stay. */
export interface UpdateOperation {
  type: 'UPDATE';
  name: string;
  text: string;
  /** Provenance of the new text; replaces the key point's `source` when given. */
  source?: Provenance;
}
/** Merges two or more key points into one (`into`, default the first), summing their counters. */
export interface MergeOperation {
  type: 'MERGE';
  names: string[];
  text: string;
  into?: string;
  /** Provenance of the merged text; replaces the survivor's `source` when given. */
  source?: Provenance;
}
/** Removes a key point. Its id is never reused. */
export interface RemoveOperation {
  type: 'REMOVE';
  name: string;
}
/** One curator operation on a playbook. */
export type DeltaOperation = AddOperation | UpdateOperation | MergeOperation | RemoveOperation;

/**
 * valibot schema of a {@link Provenance}.
 *
 * @example
 * ```ts
 * v.parse(ProvenanceSchema, { session: 'sess-1', traceRefs: ['trace-9'] });
 * ```
 */
export const ProvenanceSchema = v.object({
  session: v.optional(v.string()),
  traceRefs: v.optional(v.array(v.string())),
});

/**
 * valibot schema of a {@link DeltaOperation}.
 *
 * @example
 * ```ts
 * v.parse(DeltaOperationSchema, { type: 'ADD', section: 'OTHERS', text: 'Note' });
 * ```
 */
export const DeltaOperationSchema = v.variant('type', [
  v.object({
    type: v.literal('ADD'),
    section: v.picklist(SECTION_NAMES),
    text: v.pipe(v.string(), v.minLength(1)),
    name: v.optional(v.string()),
    source: v.optional(ProvenanceSchema),
  }),
  v.object({
    type: v.literal('UPDATE'),
    name: KeyPointNameSchema,
    text: v.pipe(v.string(), v.minLength(1)),
    source: v.optional(ProvenanceSchema),
  }),
  v.object({
    type: v.literal('MERGE'),
    names: v.pipe(v.array(KeyPointNameSchema), v.minLength(2)),
    text: v.pipe(v.string(), v.minLength(1)),
    into: v.optional(KeyPointNameSchema),
    source: v.optional(ProvenanceSchema),
  }),
  v.object({ type: v.literal('REMOVE'), name: KeyPointNameSchema }),
]);

/** Options of {@link applyDelta}. */
export interface ApplyDeltaOptions {
  /** High-water marks from the stored document; ids at or below them are never allocated again. */
  highWater?: Partial<HighWater>;
  /** Timestamp for `createdAt`/`updatedAt`. Default: the current time, read when called. */
  now?: () => string;
}

/** One operation as applied: ADDs carry the name that was allocated, MERGEs their `into`. */
export type AppliedOperation =
  | (AddOperation & { name: string })
  | UpdateOperation
  | (MergeOperation & { into: string })
  | RemoveOperation;

/** What {@link applyDelta} did. */
export interface DeltaResult {
  /** A new playbook; the input is not modified. */
  playbook: Playbook;
  /** The operations applied, in order, with allocated names filled in. */
  applied: AppliedOperation[];
  /** The operations refused, with the reason. Nothing of a refused operation is applied. */
  rejected: { op: unknown; reason: string }[];
  /** High-water marks after the delta. */
  highWater: HighWater;
}

/**
 * Applies curator operations in order and returns a new playbook. Deterministic given `options.now`.
 * An operation whose target is missing is rejected, never redirected; ids are allocated per section
 * above the high-water mark, so a removed id is never reused. MERGE sums the counters into `into`.
 *
 * @example
 * ```ts
 * const { playbook, applied, rejected } = applyDelta(pb, [
 *   { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'Write the test first' },
 *   { type: 'MERGE', names: ['pat-001', 'pat-002'], text: 'Use types and tests' },
 * ]);
 * ```
 */
export function applyDelta(
  playbook: Playbook,
  operations: readonly unknown[],
  options: ApplyDeltaOptions = {},
): DeltaResult {
  const out = cloneJson(playbook) as Playbook;
  for (const s of SECTION_NAMES) out.sections[s] ??= [];
  const highWater = highWaterOf(out, options.highWater);
  const now = options.now ?? (() => new Date().toISOString());
  const applied: AppliedOperation[] = [];
  const rejected: DeltaResult['rejected'] = [];

  const find = (name: string): { section: SectionName; index: number } | undefined => {
    for (const section of SECTION_NAMES) {
      const index = out.sections[section].findIndex((kp) => kp.name === name);
      if (index >= 0) return { section, index };
    }
    return undefined;
  };

  for (const raw of operations) {
    const parsed = v.safeParse(DeltaOperationSchema, raw);
    if (!parsed.success) {
      rejected.push({ op: raw, reason: `invalid operation: ${describeIssues(parsed.issues)}` });
      continue;
    }
    const op = parsed.output as DeltaOperation;
    switch (op.type) {
      case 'ADD': {
        const slug = SECTION_SLUGS[op.section];
        let name: string;
        if (op.name !== undefined) {
          const id = parseKeyPointId(op.name);
          if (!id || id.slug !== slug) {
            rejected.push({ op: raw, reason: `name ${op.name} is not a ${slug}-NNN id` });
            continue;
          }
          if (find(op.name)) {
            rejected.push({ op: raw, reason: `key point ${op.name} already exists` });
            continue;
          }
          if (id.number <= highWater[slug]) {
            rejected.push({ op: raw, reason: `id ${op.name} was already allocated and is never reused` });
            continue;
          }
          name = op.name;
          highWater[slug] = id.number;
        } else {
          highWater[slug] += 1;
          name = formatKeyPointId(op.section, highWater[slug]);
        }
        const at = now();
        out.sections[op.section].push({
          name,
          text: op.text,
          helpful: 0,
          harmful: 0,
          createdAt: at,
          updatedAt: at,
          ...(op.source ? { source: cloneJson(op.source) } : {}),
        });
        applied.push({ ...op, name });
        break;
      }
      case 'UPDATE': {
        const at = find(op.name);
        if (!at) {
          rejected.push({ op: raw, reason: `key point ${op.name} not found` });
          continue;
        }
        const kp = out.sections[at.section][at.index]!;
        kp.text = op.text;
        kp.updatedAt = now();
        if (op.source) kp.source = cloneJson(op.source);
        applied.push(op);
        break;
      }
      case 'MERGE': {
        const into = op.into ?? op.names[0]!;
        if (new Set(op.names).size !== op.names.length) {
          rejected.push({ op: raw, reason: 'MERGE names must be distinct' });
          continue;
        }
        if (!op.names.includes(into)) {
          rejected.push({ op: raw, reason: `MERGE into ${into} is not one of its names` });
          continue;
        }
        const missing = op.names.filter((n) => !find(n));
        if (missing.length) {
          rejected.push({ op: raw, reason: `key points not found: ${missing.join(', ')}` });
          continue;
        }
        const target = find(into)!;
        const kp = out.sections[target.section][target.index]!;
        for (const n of op.names) {
          if (n === into) continue;
          const at = find(n)!;
          const other = out.sections[at.section][at.index]!;
          kp.helpful += other.helpful;
          kp.harmful += other.harmful;
          out.sections[at.section].splice(at.index, 1);
        }
        kp.text = op.text;
        kp.updatedAt = now();
        if (op.source) kp.source = cloneJson(op.source);
        applied.push({ ...op, into });
        break;
      }
      case 'REMOVE': {
        const at = find(op.name);
        if (!at) {
          rejected.push({ op: raw, reason: `key point ${op.name} not found` });
          continue;
        }
        out.sections[at.section].splice(at.index, 1);
        applied.push(op);
        break;
      }
    }
  }
  return { playbook: out, applied, rejected, highWater };
}
