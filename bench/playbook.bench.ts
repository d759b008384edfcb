/**
 * Playbooks: formatPlaybook of 10,000 key points; applyKeyPointTags with 1,000 tags on 10,000 key points;
 * near-duplicate detection (prefix-filtered index) at 1,000, 10,000 and 50,000 key points with its
 * growth (10k/1k and 50k/10k against the size ratios, and µs per key point), against the all-pairs scan
 * in the same run at the sizes it can afford (1,000 and 5,000), with ratios. Also selectForPrompt and
 * enforceBudget on 10,000 key points.
 *
 * Key points are generated from a seeded pseudo-random vocabulary with a Zipf-like skew (common words
 * are shared by many key points) from a few sentence templates; about 10% are near-duplicate rewrites
 * of an earlier key point (one word swapped, a word dropped or reordered).
 *
 * Standalone: `npx tsx bench/playbook.bench.ts` prints the results as JSON.
 */
import {
  applyKeyPointTags,
  emptyPlaybook,
  enforceBudget,
  findDuplicates,
  findDuplicatesAllPairs,
  formatPlaybook,
  type KeyPointTag,
  type Playbook,
  SECTION_NAMES,
  SECTION_SLUGS,
  selectForPrompt,
} from '../lib/playbook/index.js';
import { mulberry32 } from '../tools/shared/random';
import { type BenchResult, type BenchSuite, measure, round } from './harness.js';

const SYLLABLES = 'ka lo mi ru te sa no vi de po ga li mu re ta si ne bo fi ze'.split(' ');
const TEMPLATES = [
  (w: string[]) =>
    `Before changing ${w[0]} run the ${w[1]} ${w[2]} checks and compare ${w[3]} output with ${w[4]}.`,
  (w: string[]) =>
    `Avoid editing ${w[0]} ${w[1]} directly; regenerate ${w[2]} from ${w[3]} instead of ${w[4]}.`,
  (w: string[]) => `The user prefers ${w[0]} answers with ${w[1]} ${w[2]} first and ${w[3]} ${w[4]} after.`,
  (w: string[]) => `The ${w[0]} service lives in ${w[1]}/${w[2]} and reads ${w[3]} from ${w[4]} settings.`,
];

export function syntheticPlaybook(size: number, seed = 42): Playbook {
  const rand = mulberry32(seed);
  const vocab: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    let w = '';
    const n = 2 + (i % 3);
    for (let k = 0; k < n; k++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    vocab.push(`${w}${i}`);
  }
  const zipf = () => vocab[Math.floor(vocab.length * rand() ** 3)]!;
  const pb = emptyPlaybook();
  const next = [0, 0, 0, 0, 0];
  const texts: string[] = [];
  for (let i = 0; i < size; i++) {
    const s = i % 5;
    let text: string;
    if (i > 20 && rand() < 0.1) {
      const words = texts[Math.floor(rand() * texts.length)]!.split(' ');
      const j = Math.floor(rand() * words.length);
      if (rand() < 0.5) words[j] = zipf();
      else words.splice(j, 1);
      text = words.join(' ');
    } else {
      const words = Array.from({ length: 5 }, zipf);
      text = `${TEMPLATES[Math.floor(rand() * TEMPLATES.length)]!(words)} Also ${zipf()} ${zipf()} ${zipf()}.`;
    }
    texts.push(text);
    next[s]! += 1;
    pb.sections[SECTION_NAMES[s]!].push({
      name: `${SECTION_SLUGS[SECTION_NAMES[s]!]}-${String(next[s]).padStart(3, '0')}`,
      text,
      helpful: Math.floor(rand() * 8),
      harmful: Math.floor(rand() * 3),
      createdAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    });
  }
  return pb;
}

const suite: BenchSuite = {
  name: 'playbook',
  async run() {
    const out: BenchResult[] = [];
    const pb10k = syntheticPlaybook(10_000);
    const formatted = formatPlaybook(pb10k);
    out.push({
      ...(await measure('formatPlaybook/10k', () => formatPlaybook(pb10k), { bytes: formatted.length })),
      keyPoints: 10_000,
    });

    const names = SECTION_NAMES.flatMap((s) => pb10k.sections[s].map((k) => k.name));
    const rand = mulberry32(7);
    const tags: KeyPointTag[] = Array.from({ length: 1000 }, (_, i) => ({
      name: i % 50 === 0 ? `pat-9${i}99` : names[Math.floor(rand() * names.length)]!,
      tag: ['helpful', 'harmful', 'neutral'][i % 3]!,
      rationale: 'bench',
    }));
    const target = syntheticPlaybook(10_000);
    out.push({
      ...(await measure('applyKeyPointTags/1k-tags-on-10k', () =>
        applyKeyPointTags(target, tags, { onWarning: () => {} }),
      )),
      keyPoints: 10_000,
      tags: 1000,
    });

    // Dedup: indexed at 1k / 10k / 50k, all-pairs at 1k / 5k. Near-linear growth means growthVsPrevious
    // close to sizeRatioVsPrevious (10 for 10k/1k, 5 for 50k/10k) and a flat usPerKeyPoint.
    const indexed = new Map<number, number>();
    const sizes = [1_000, 10_000, 50_000];
    for (let s = 0; s < sizes.length; s++) {
      const size = sizes[s]!;
      const previous = sizes[s - 1];
      const pb = syntheticPlaybook(size);
      const groups = findDuplicates(pb);
      const r = await measure(`dedup/indexed/${size}`, () => findDuplicates(pb), {
        minRuns: size >= 50_000 ? 5 : size >= 10_000 ? 7 : 15,
        budgetMs: size >= 50_000 ? 4000 : 1500,
        warmup: size >= 50_000 ? 1 : 3,
      });
      indexed.set(size, r.medianMs);
      out.push({
        ...r,
        keyPoints: size,
        groups: groups.length,
        merged: groups.reduce((a, g) => a + g.names.length - 1, 0),
        usPerKeyPoint: round((r.medianMs * 1000) / size, 2),
        growthVs1k: round(r.medianMs / Math.max(indexed.get(1_000)!, 1e-6), 2),
        sizeRatioVs1k: size / 1_000,
        ...(previous === undefined
          ? {}
          : {
              growthVsPrevious: round(r.medianMs / Math.max(indexed.get(previous)!, 1e-6), 2),
              sizeRatioVsPrevious: size / previous,
            }),
      });
    }
    const allPairs = new Map<number, number>();
    for (const size of [1_000, 5_000]) {
      const pb = syntheticPlaybook(size);
      const same = JSON.stringify(findDuplicatesAllPairs(pb)) === JSON.stringify(findDuplicates(pb));
      if (!same) throw new Error(`all-pairs and indexed dedup disagree at ${size}`);
      const r = await measure(`dedup/all-pairs/${size}`, () => findDuplicatesAllPairs(pb), {
        minRuns: size >= 5_000 ? 1 : 3,
        budgetMs: 1000,
        warmup: size >= 5_000 ? 0 : 1,
      });
      allPairs.set(size, r.medianMs);
      const idx = indexed.get(size) ?? (await measure('tmp', () => findDuplicates(pb))).medianMs;
      out.push({
        ...r,
        keyPoints: size,
        sameGroupsAsIndexed: same,
        indexedMs: round(idx),
        allPairsOverIndexed: round(r.medianMs / Math.max(idx, 1e-6), 1),
        usPerKeyPoint: round((r.medianMs * 1000) / size, 2),
        growthVs1k: round(r.medianMs / Math.max(allPairs.get(1_000)!, 1e-6), 2),
        sizeRatioVs1k: size / 1_000,
      });
    }

    out.push({
      ...(await measure('selectForPrompt/10k-into-2k-tokens', () =>
        selectForPrompt(pb10k, 'compare the output before changing settings', { tokenBudget: 2000 }),
      )),
      keyPoints: 10_000,
    });
    out.push({
      ...(await measure(
        'enforceBudget/10k-to-20k-tokens',
        () => enforceBudget(pb10k, { maxTokens: 20_000 }),
        {
          minRuns: 3,
        },
      )),
      keyPoints: 10_000,
    });
    return out;
  },
};

export default suite;

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}
