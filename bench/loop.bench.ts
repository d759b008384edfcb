/**
 * Reflexion memory retrieval: `retrieveSimilar` (inverted index with prefix filtering) against 1,000,
 * 10,000 and 100,000 stored entries, next to a linear-scan baseline (Jaccard of cached keyword sets
 * for every entry) in the same run.
 *
 * Two corpora, both from a seeded pseudo-random vocabulary (reproducible):
 * - `zipf`: every entry's prompt draws 6–12 words from one 20,000-word vocabulary with a skewed
 *   (Zipf-like) distribution, so common words are shared by many entries;
 * - `disjoint`: 200 entries share the query's vocabulary, all the others use a disjoint one — the
 *   index's cost should stay flat as those grow, the scan's grows linearly.
 *
 * Queries are stored prompts with one word replaced (similar, usually above the 0.7 threshold) and
 * fresh random prompts (usually no match), alternating.
 *
 * Standalone: `npx tsx bench/loop.bench.ts` prints the results as JSON.
 */
import { jaccard, keywords, ReflexionMemory } from '../lib/loop/index.js';
import { mulberry32 } from '../tools/shared/random';
import { type BenchResult, type BenchSuite, measure, round } from './harness.js';

const SIZES = [1_000, 10_000, 100_000];
const RELATED = 200;
const QUERIES = 64;

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ru',
  'te',
  'sa',
  'po',
  'ne',
  'vi',
  'do',
  'ga',
  'zu',
  'fe',
  'hi',
  'jo',
  'by',
  'qua',
  'xe',
  'wo',
  'ly',
];

/** `size` distinct pseudo-words (3–4 syllables), all with the given prefix letter. */
function vocabulary(size: number, seed: number, prefix: string): string[] {
  const next = mulberry32(seed);
  const words = new Set<string>();
  while (words.size < size) {
    let w = prefix;
    const n = 3 + Math.floor(next() * 2);
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** A prompt of 6–12 words, skewed towards the start of the vocabulary (Zipf-like). */
function prompt(vocab: readonly string[], next: () => number): string {
  const n = 6 + Math.floor(next() * 7);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(vocab[Math.floor(vocab.length * next() ** 3)]!);
  return words.join(' ');
}

function mutate(text: string, vocab: readonly string[], next: () => number): string {
  const words = text.split(' ');
  words[Math.floor(next() * words.length)] = vocab[Math.floor(next() * vocab.length)]!;
  return words.join(' ');
}

interface Corpus {
  prompts: string[];
  queries: string[];
}

function zipfCorpus(size: number): Corpus {
  const vocab = vocabulary(20_000, 7, 'a');
  const next = mulberry32(1000 + size);
  const prompts = Array.from({ length: size }, () => prompt(vocab, next));
  const queries = Array.from({ length: QUERIES }, (_, i) =>
    i % 2 === 0 ? mutate(prompts[Math.floor(next() * size)]!, vocab, next) : prompt(vocab, next),
  );
  return { prompts, queries };
}

function disjointCorpus(size: number): Corpus {
  const near = vocabulary(2_000, 11, 'a');
  const far = vocabulary(20_000, 13, 'z');
  const next = mulberry32(2000);
  const related = Array.from({ length: RELATED }, () => prompt(near, next));
  const farNext = mulberry32(3000 + size);
  const others = Array.from({ length: size - RELATED }, () => prompt(far, farNext));
  const queries = Array.from({ length: QUERIES }, (_, i) =>
    i % 2 === 0 ? mutate(related[Math.floor(next() * RELATED)]!, near, next) : prompt(near, next),
  );
  // The related entries are spread through the memory, not bunched at one end.
  const prompts = [...others];
  for (const [i, p] of related.entries())
    prompts.splice(Math.floor(((i + 0.5) / RELATED) * prompts.length), 0, p);
  return { prompts, queries };
}

async function build(prompts: readonly string[]): Promise<ReflexionMemory> {
  const memory = new ReflexionMemory({ maxEntries: prompts.length, now: () => 0 });
  const CHUNK = 5_000;
  for (let i = 0; i < prompts.length; i += CHUNK) {
    await memory.storeMany(
      prompts
        .slice(i, i + CHUNK)
        .map((p, j) => ({ prompt: p, mistake: `m${i + j}`, correction: `c${i + j}` })),
    );
  }
  return memory;
}

/** The baseline: Jaccard against every entry's cached keyword set, then sort. */
function linearScan(
  entries: { tokens: Set<string>; seq: number }[],
  query: string,
  threshold: number,
  limit: number,
) {
  const q = keywords(query);
  const hits: { seq: number; sim: number }[] = [];
  for (const e of entries) {
    let shared = 0;
    for (const w of q) if (e.tokens.has(w)) shared++;
    if (shared === 0) continue;
    const sim = shared / (q.length + e.tokens.size - shared);
    if (sim >= threshold) hits.push({ seq: e.seq, sim });
  }
  hits.sort((a, b) => b.sim - a.sim || b.seq - a.seq);
  return hits.slice(0, limit);
}

async function suiteFor(kind: 'zipf' | 'disjoint', make: (n: number) => Corpus): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  let indexAtSmallest: number | undefined;
  let scanAtSmallest: number | undefined;
  for (const size of SIZES) {
    const corpus = make(size);
    const t0 = performance.now();
    const memory = await build(corpus.prompts);
    const buildMs = performance.now() - t0;
    const scanEntries = memory.entries().map((e, seq) => ({ tokens: new Set(keywords(e.prompt)), seq }));

    // Both must agree before they are timed.
    let matches = 0;
    for (const q of corpus.queries) {
      const fromIndex = (await memory.retrieveSimilar(q)).map((e) => [e.mistake, e.similarity]);
      const fromScan = linearScan(scanEntries, q, memory.similarityThreshold, 5).map((h) => [
        `m${h.seq}`,
        h.sim,
      ]);
      if (JSON.stringify(fromIndex) !== JSON.stringify(fromScan)) {
        throw new Error(
          `index and scan disagree on "${q}": ${JSON.stringify(fromIndex)} vs ${JSON.stringify(fromScan)}`,
        );
      }
      matches += fromIndex.length;
    }

    let i = 0;
    const index = await measure(
      `retrieveSimilar/${kind}/${size}`,
      () => memory.retrieveSimilar(corpus.queries[i++ % QUERIES]!),
      {
        minRuns: 200,
        budgetMs: 1500,
      },
    );
    let j = 0;
    const scan = await measure(
      `linearScan/${kind}/${size}`,
      () => linearScan(scanEntries, corpus.queries[j++ % QUERIES]!, memory.similarityThreshold, 5),
      { minRuns: 20, budgetMs: 1500 },
    );
    indexAtSmallest ??= index.medianMs;
    scanAtSmallest ??= scan.medianMs;
    out.push(
      {
        ...index,
        entries: size,
        buildMs: round(buildMs, 0),
        matchesPerQuery: round(matches / QUERIES, 2),
        scanOverIndex: round(scan.medianMs / Math.max(index.medianMs, 1e-6), 1),
        growthVs1k: round(index.medianMs / Math.max(indexAtSmallest, 1e-6), 2),
      },
      { ...scan, entries: size, growthVs1k: round(scan.medianMs / Math.max(scanAtSmallest, 1e-6), 2) },
    );
    // Sanity check of the jaccard export against the scan's arithmetic.
    if (jaccard(['a'], ['a']) !== 1) throw new Error('jaccard broken');
  }
  return out;
}

const suite: BenchSuite = {
  name: 'loop',
  async run() {
    return [...(await suiteFor('zipf', zipfCorpus)), ...(await suiteFor('disjoint', disjointCorpus))];
  },
};

export default suite;

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}
