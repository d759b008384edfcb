/**
 * The in-memory index behind {@link ReflexionMemory}: lessons by sequence number (oldest first), an
 * inverted index from keyword to lessons, and the duplicate key (prompt hash + normalized mistake)
 * that makes a repeated lesson replace the earlier one.
 */
import { keywords } from './keywords.js';
import { normalizePrompt, type ReflexionEntry } from './reflexion-entry.js';

/** One indexed lesson: the entry, where it is stored, and what retrieval compares. */
export interface IndexedLesson {
  seq: number;
  /** Its document's key in the store; `undefined` without a store. */
  key: string | undefined;
  entry: ReflexionEntry;
  tokens: ReadonlySet<string>;
  vector: number[] | undefined;
  /** Prompt hash and normalized mistake: two lessons with the same one are the same lesson. */
  dedupe: string;
}

/** Wraps `entry` for the index (a copy: callers keep theirs). */
export function indexedLesson(
  seq: number,
  key: string | undefined,
  entry: ReflexionEntry,
  vector?: number[],
): IndexedLesson {
  return {
    seq,
    key,
    entry: { ...entry },
    tokens: new Set(keywords(entry.prompt)),
    vector,
    dedupe: `${entry.promptHash}\n${normalizePrompt(entry.mistake)}`,
  };
}

/** Lessons with keyword postings; retrieval reads only the postings it needs (prefix filtering). */
export class LessonIndex {
  /** By sequence number, oldest first (a Map keeps insertion order, and sequence numbers only grow). */
  readonly #records = new Map<number, IndexedLesson>();
  readonly #postings = new Map<string, Set<number>>();
  readonly #dedupe = new Map<string, number>();

  get size(): number {
    return this.#records.size;
  }

  get(seq: number): IndexedLesson | undefined {
    return this.#records.get(seq);
  }

  values(): IterableIterator<IndexedLesson> {
    return this.#records.values();
  }

  /** Indexes `rec`; returns the lesson it replaced (same prompt and mistake), if any. */
  insert(rec: IndexedLesson): IndexedLesson | undefined {
    const previous = this.#dedupe.get(rec.dedupe);
    const replaced = previous === undefined ? undefined : this.#remove(previous);
    this.#records.set(rec.seq, rec);
    this.#dedupe.set(rec.dedupe, rec.seq);
    for (const w of rec.tokens) {
      let list = this.#postings.get(w);
      if (!list) {
        list = new Set();
        this.#postings.set(w, list);
      }
      list.add(rec.seq);
    }
    return replaced;
  }

  /** Drops the oldest lessons past `max` and returns them. */
  evictBeyond(max: number): IndexedLesson[] {
    const out: IndexedLesson[] = [];
    while (this.#records.size > max) {
      const oldest = this.#records.keys().next().value as number;
      out.push(this.#remove(oldest)!);
    }
    return out;
  }

  clear(): void {
    this.#records.clear();
    this.#postings.clear();
    this.#dedupe.clear();
  }

  /** Keyword Jaccard similarity ≥ `threshold` to the query's keywords, by sequence number. */
  keywordMatches(query: readonly string[], threshold: number): Map<number, number> {
    const scores = new Map<number, number>();
    const q = query.length;
    if (q === 0) return scores;
    // Jaccard ≥ t needs |Q ∩ E| ≥ t·|Q| (as |Q ∪ E| ≥ |Q|), and at least one shared word.
    const minShared = Math.max(1, Math.ceil(threshold * q - 1e-9));
    if (minShared > q) return scores;
    const lists = query.map((w) => this.#postings.get(w)).sort((a, b) => (a?.size ?? 0) - (b?.size ?? 0));
    // Any entry sharing minShared words shares at least one of any (q − minShared + 1) of them: read
    // only the rarest ones' postings (prefix filtering).
    const prefix = q - minShared + 1;
    const maxLen = threshold > 0 ? Math.floor(q / threshold + 1e-9) : Number.POSITIVE_INFINITY;
    const seen = new Set<number>();
    for (let i = 0; i < prefix; i++) {
      const list = lists[i];
      if (!list) continue;
      for (const seq of list) {
        if (seen.has(seq)) continue;
        seen.add(seq);
        const rec = this.#records.get(seq)!;
        const size = rec.tokens.size;
        if (size < minShared || size > maxLen) continue;
        let shared = 0;
        for (const w of query) if (rec.tokens.has(w)) shared++;
        const sim = shared / (q + size - shared);
        if (shared > 0 && sim >= threshold - 1e-12) scores.set(seq, sim);
      }
    }
    return scores;
  }

  #remove(seq: number): IndexedLesson | undefined {
    const rec = this.#records.get(seq);
    if (!rec) return undefined;
    this.#records.delete(seq);
    if (this.#dedupe.get(rec.dedupe) === seq) this.#dedupe.delete(rec.dedupe);
    for (const w of rec.tokens) {
      const list = this.#postings.get(w);
      list?.delete(seq);
      if (list?.size === 0) this.#postings.delete(w);
    }
    return rec;
  }
}

/** Cosine similarity of two vectors (over the shorter length); 0 when either is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / (Math.sqrt(na) * Math.sqrt(nb));
}
