/**
 * Reflexion memory: past mistakes and their corrections, retrieved by prompt similarity and formatted
 * as few-shot context, so one episode's lesson helps the next.
 *
 * Retrieval is keyword Jaccard similarity through an inverted index with prefix filtering (see
 * lesson-index.ts): only the posting lists of the query's rarest words are read, so entries that share
 * no word with the query cost nothing, and very common words are never scanned. An optional embedding
 * similarity can be added (that part is a scan over the stored vectors).
 *
 * Persistence goes through any {@link KeyValueStore} (IndexedDB in browsers, Workers KV, memory), one
 * document per entry, so a later session or another worker can {@link ReflexionMemory.load} it.
 */
import * as v from 'valibot';
import { ConfigError, ValidationError } from '../core/index.js';
import type { KeyValueStore } from '../kv/index.js';
import { formatLessons, keywords } from './keywords.js';
import { cosine, indexedLesson, LessonIndex } from './lesson-index.js';
import {
  promptHash,
  type ReflexionEntry,
  type ReflexionInput,
  type ReflexionMatch,
  StoredEntrySchema,
  type StoredReflexionDocument,
} from './reflexion-entry.js';
import type { MemoryLesson } from './types.js';

/** A caller-supplied embedding model; similarity is the cosine of the two vectors. */
export interface EmbeddingSimilarity {
  embed(text: string): number[] | Promise<number[]>;
  /** Minimum cosine similarity for a match. Default: the memory's `similarityThreshold`. */
  threshold?: number;
}

/** Options of the {@link ReflexionMemory} constructor. Every field is optional. */
export interface ReflexionMemoryOptions {
  /** Entries kept; past this, the oldest are evicted. Default 1000. */
  maxEntries?: number;
  /** Minimum similarity for {@link ReflexionMemory.retrieveSimilar}. Default 0.7. */
  similarityThreshold?: number;
  /** Where entries persist. Without one, the memory lives in this process only. */
  store?: KeyValueStore;
  /** Separates several memories in one store. Default `'default'`. */
  namespace?: string;
  /** Clock for timestamps, in ms. Default `Date.now`. */
  now?: () => number;
  /** Adds embedding similarity on top of keyword similarity. */
  embedding?: EmbeddingSimilarity;
}

/** Options of {@link ReflexionMemory.retrieveSimilar}. */
export interface RetrieveOptions {
  /** Most entries returned. Default 5. */
  limit?: number;
  /** Overrides the memory's `similarityThreshold` for this call. */
  threshold?: number;
}

/** What {@link ReflexionMemory.load} found in the store. */
export interface LoadReport {
  loaded: number;
  /** Documents that failed validation: left in the store, ignored, reported here. */
  skipped: { key: string; reason: string }[];
  /** Entries dropped for being over `maxEntries` or superseded by a newer duplicate. */
  evicted: number;
}

/**
 * Default {@link ReflexionMemoryOptions.maxEntries}: past 1000 entries, the oldest are evicted.
 *
 * @example
 * ```ts
 * const memory = new ReflexionMemory({ maxEntries: DEFAULT_MAX_ENTRIES * 10 });
 * ```
 */
export const DEFAULT_MAX_ENTRIES = 1000;
/**
 * Default {@link ReflexionMemoryOptions.similarityThreshold}: a keyword Jaccard similarity of at least
 * 0.7 counts as a match.
 *
 * @example
 * ```ts
 * const memory = new ReflexionMemory({ similarityThreshold: DEFAULT_SIMILARITY_THRESHOLD });
 * const similarity = jaccard(keywords('sort users by age'), keywords('sort the users by age'));
 * similarity >= DEFAULT_SIMILARITY_THRESHOLD; // true: a match
 * ```
 */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.7;

interface Meta {
  v: 1;
  nextSeq: number;
}

const LOAD_CHUNK = 1000;

/**
 * Cross-episode memory of mistakes and corrections.
 *
 * - **Retrieval**: {@link retrieveSimilar} ranks entries by keyword Jaccard similarity of their prompt
 *   to the query (see {@link keywords}), through an inverted index with prefix filtering: with
 *   threshold `t` and `q` query keywords, a match must share one of the `q − ⌈t·q⌉ + 1` rarest ones,
 *   so only those posting lists are read and every candidate is verified exactly. With `embedding`,
 *   cosine similarity is computed too (a scan) and an entry's similarity is the larger of the two.
 *   Ties go to the newest entry.
 * - **Eviction**: oldest first. Storing a lesson whose prompt hash and mistake equal an existing
 *   entry's replaces that entry (it becomes the newest), so repeated lessons do not crowd out others.
 *   Past `maxEntries`, the oldest entries are dropped (from the store too).
 * - **Persistence**: with `store`, each entry is one document under
 *   `reflexion:{namespace}:entry:{seq}:{hash prefix}` and the sequence counter lives under
 *   `reflexion:{namespace}:meta` (advanced with `store.update`, atomic in IndexedDB across tabs).
 *   {@link open} (or {@link load}) rebuilds the index; documents failing validation are skipped and
 *   reported, never fatal. Entries written by other sessions appear on the next `load()`.
 *
 * Mutations (`store`, `storeMany`, `clear`, `load`) run one at a time in call order.
 *
 * @example
 * ```ts
 * const memory = await ReflexionMemory.open({ store: idbStore('my-app'), namespace: 'sql' });
 * await memory.store({ prompt: 'Count users per country', mistake: 'Forgot GROUP BY', correction: 'GROUP BY country' });
 * const lessons = await memory.retrieveSimilar('count the users per country');
 * const context = memory.formatForPrompt(lessons);
 * ```
 */
export class ReflexionMemory {
  readonly maxEntries: number;
  readonly similarityThreshold: number;
  readonly namespace: string;
  /** The report of the last {@link load}, if any. */
  lastLoad: LoadReport | undefined;

  readonly #store: KeyValueStore | undefined;
  readonly #now: () => number;
  readonly #embedding: EmbeddingSimilarity | undefined;
  readonly #index = new LessonIndex();
  #nextSeq = 0;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ReflexionMemoryOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    const threshold = options.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD;
    const issues: { path: string; message: string }[] = [];
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      issues.push({ path: 'maxEntries', message: 'must be an integer ≥ 1' });
    if (!(threshold >= 0 && threshold <= 1))
      issues.push({ path: 'similarityThreshold', message: 'must be in [0, 1]' });
    const namespace = options.namespace ?? 'default';
    if (typeof namespace !== 'string' || namespace === '' || namespace.includes(':')) {
      issues.push({ path: 'namespace', message: 'must be a non-empty string without ":"' });
    }
    if (issues.length) throw new ConfigError(issues);
    this.maxEntries = maxEntries;
    this.similarityThreshold = threshold;
    this.namespace = namespace;
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
    this.#embedding = options.embedding;
  }

  /**
   * Creates a memory and loads it from `options.store` (when given).
   *
   * @example
   * ```ts
   * const memory = await ReflexionMemory.open({ store: memoryStore() });
   * ```
   */
  static async open(options: ReflexionMemoryOptions = {}): Promise<ReflexionMemory> {
    const memory = new ReflexionMemory(options);
    await memory.load();
    return memory;
  }

  get #prefix(): string {
    return `reflexion:${this.namespace}:`;
  }

  /**
   * Replaces the in-memory index with the store's contents. Invalid documents are skipped and
   * reported; entries past `maxEntries` are evicted (oldest first) and deleted from the store.
   */
  load(): Promise<LoadReport> {
    return this.#serial(async () => {
      const report: LoadReport = { loaded: 0, skipped: [], evicted: 0 };
      this.#index.clear();
      const store = this.#store;
      if (!store) {
        this.lastLoad = report;
        return report;
      }
      const keys = await store.keys(`${this.#prefix}entry:`);
      const docs: { key: string; doc: StoredReflexionDocument }[] = [];
      for (let i = 0; i < keys.length; i += LOAD_CHUNK) {
        const chunk = keys.slice(i, i + LOAD_CHUNK);
        const values = await store.getMany(chunk);
        chunk.forEach((key, j) => {
          const parsed = v.safeParse(StoredEntrySchema, values[j]);
          if (parsed.success) docs.push({ key, doc: parsed.output });
          else report.skipped.push({ key, reason: describeIssues(parsed.issues) });
        });
      }
      docs.sort((a, b) => a.doc.seq - b.doc.seq || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const stale: string[] = [];
      for (const { key, doc } of docs) {
        const { v: _v, seq, embedding, ...entry } = doc;
        const vector = embedding ?? (this.#embedding ? await this.#embedding.embed(entry.prompt) : undefined);
        const replaced = this.#index.insert(indexedLesson(seq, key, entry, vector));
        if (replaced?.key) stale.push(replaced.key);
        this.#nextSeq = Math.max(this.#nextSeq, seq + 1);
      }
      report.evicted += stale.length;
      const evicted = this.#index.evictBeyond(this.maxEntries);
      report.evicted += evicted.length;
      for (const r of evicted) if (r.key) stale.push(r.key);
      if (stale.length) await store.deleteMany(stale);
      report.loaded = this.#index.size;
      this.lastLoad = report;
      return report;
    });
  }

  /**
   * Remembers one lesson and returns the stored entry. Persists it first when there is a store (a
   * failed write leaves the memory unchanged and rejects with the store's error).
   */
  async store(input: ReflexionInput): Promise<ReflexionEntry> {
    const [entry] = await this.storeMany([input]);
    return entry!;
  }

  /** Remembers several lessons with one write (and one counter update) to the store. */
  storeMany(inputs: readonly ReflexionInput[]): Promise<ReflexionEntry[]> {
    const checked = inputs.map((input, i) => checkInput(input, i));
    return this.#serial(async () => {
      if (checked.length === 0) return [];
      // Timestamps first, in input order: hashes resolve in any order.
      const stamps = checked.map((input) => input.timestamp ?? this.#now());
      const hashes = await Promise.all(checked.map((input) => promptHash(input.prompt)));
      const entries: ReflexionEntry[] = checked.map((input, i) => ({
        promptHash: hashes[i]!,
        prompt: input.prompt,
        mistake: input.mistake,
        correction: input.correction,
        timestamp: stamps[i]!,
      }));
      const vectors = this.#embedding
        ? await Promise.all(entries.map((e) => this.#embedding!.embed(e.prompt)))
        : undefined;
      const first = await this.#reserve(entries.length);
      const recs = entries.map((entry, i) => {
        const seq = first + i;
        const key = this.#store
          ? `${this.#prefix}entry:${String(seq).padStart(12, '0')}:${entry.promptHash.slice(0, 16)}`
          : undefined;
        return indexedLesson(seq, key, entry, vectors?.[i]);
      });
      if (this.#store) {
        await this.#store.setMany(
          recs.map((r) => [
            r.key!,
            {
              v: 1,
              seq: r.seq,
              ...r.entry,
              ...(r.vector ? { embedding: r.vector } : {}),
            } satisfies StoredReflexionDocument,
          ]),
        );
      }
      const stale: string[] = [];
      for (const r of recs) {
        const replaced = this.#index.insert(r);
        if (replaced?.key) stale.push(replaced.key);
      }
      for (const r of this.#index.evictBeyond(this.maxEntries)) if (r.key) stale.push(r.key);
      if (this.#store && stale.length) await this.#store.deleteMany(stale);
      return recs.map((r) => ({ ...r.entry }));
    });
  }

  /**
   * Entries whose prompt is similar to `prompt` (at least the threshold), most similar first, newest
   * first on ties, at most `limit` (default 5).
   */
  async retrieveSimilar(prompt: string, options: RetrieveOptions = {}): Promise<ReflexionMatch[]> {
    const limit = options.limit ?? 5;
    const threshold = options.threshold ?? this.similarityThreshold;
    const scores = this.#index.keywordMatches(keywords(prompt), threshold);
    if (this.#embedding) {
      const query = await this.#embedding.embed(prompt);
      const min = this.#embedding.threshold ?? threshold;
      for (const r of this.#index.values()) {
        if (!r.vector) continue;
        const sim = cosine(query, r.vector);
        if (sim >= min && sim > (scores.get(r.seq) ?? -1)) scores.set(r.seq, sim);
      }
    }
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
    const out: ReflexionMatch[] = [];
    for (const [seq, similarity] of ranked) {
      if (out.length >= limit) break;
      out.push({ ...this.#index.get(seq)!.entry, similarity });
    }
    return out;
  }

  /** Formats entries (for example from {@link retrieveSimilar}) as few-shot context; see {@link formatLessons}. */
  formatForPrompt(entries: readonly MemoryLesson[], options: { maxChars?: number } = {}): string {
    return formatLessons(entries, options);
  }

  /** Forgets every entry, in the store too (this namespace only). */
  clear(): Promise<void> {
    return this.#serial(async () => {
      this.#index.clear();
      this.#nextSeq = 0;
      if (this.#store) {
        const keys = await this.#store.keys(this.#prefix);
        if (keys.length) await this.#store.deleteMany(keys);
      }
    });
  }

  /** Number of entries held. */
  count(): number {
    return this.#index.size;
  }

  /** Every entry, oldest first (copies). */
  entries(): ReflexionEntry[] {
    return [...this.#index.values()].map((r) => ({ ...r.entry }));
  }

  // -------------------------------------------------------------------------------------------

  /** Reserves `n` sequence numbers; through the store's atomic update when there is a store. */
  async #reserve(n: number): Promise<number> {
    if (!this.#store) {
      const first = this.#nextSeq;
      this.#nextSeq += n;
      return first;
    }
    const local = this.#nextSeq;
    const meta = await this.#store.update<Meta>(`${this.#prefix}meta`, (current) => {
      const stored =
        typeof current?.nextSeq === 'number' && Number.isInteger(current.nextSeq) ? current.nextSeq : 0;
      return { v: 1, nextSeq: Math.max(stored, local) + n };
    });
    this.#nextSeq = meta.nextSeq;
    return meta.nextSeq - n;
  }

  #serial<T>(op: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(op, op);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

function checkInput(input: ReflexionInput, index: number): ReflexionInput {
  const issues: { path: string; message: string }[] = [];
  const at = (k: string) => `[${index}].${k}`;
  if (typeof input !== 'object' || input === null) {
    throw new ValidationError([{ path: `[${index}]`, message: 'must be an object' }], {
      subject: 'Reflexion entry',
    });
  }
  for (const k of ['prompt', 'mistake', 'correction'] as const) {
    if (typeof input[k] !== 'string') issues.push({ path: at(k), message: 'must be a string' });
  }
  if (input.timestamp !== undefined && !Number.isFinite(input.timestamp)) {
    issues.push({ path: at('timestamp'), message: 'must be a finite number' });
  }
  if (issues.length) throw new ValidationError(issues, { subject: 'Reflexion entry' });
  return input;
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; ');
}
