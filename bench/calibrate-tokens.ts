/**
 * Calibrates `estimateTokens` against gpt-tokenizer's o200k_base on the real transcripts in
 * `../shared/data` (beside the repo).
 *
 *   npx tsx bench/calibrate-tokens.ts          prints the error table as JSON
 *   npx tsx bench/calibrate-tokens.ts --fit    also fits the feature weights and prints them, with a
 *                                              two-fold cross-check and the table they would give
 *
 * Every data set is cut two ways: per message (one chunk per message, tool input or tool output) and
 * into fixed 4096-character (~4 KB) chunks of the concatenated messages. Errors are relative to the
 * reference count: (estimate − reference) / reference.
 *
 * The fit: word1 … word14 are measured word by word (mean o200k count of ` word`); the remaining
 * weights start from a weighted least-squares solution and are refined by a coordinate search that
 * minimises, averaged over every data set and cut, the mean absolute relative error of chunks of at
 * least 50 tokens plus the absolute total error. Rare features keep their hand-set weights. Paste the
 * printed weights between WEIGHTS-BEGIN and WEIGHTS-END in lib/core/tokens.ts, then run Biome.
 */
import { basename } from 'node:path';
import { countTokens as o200kCount } from 'gpt-tokenizer/encoding/o200k_base';
import { TOKEN_FEATURES, TOKEN_WEIGHTS, tokenFeatures } from '../lib/core/tokens';
import { fixedChunks, loadDatasets } from './calibrate-data';
import { round } from './harness';

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const MIN_TOKENS = 200;

export function referenceCount(text: string): number {
  return o200kCount(text, NO_SPECIAL);
}

// ---------------------------------------------------------------------------------------------------
// Data sets: each yields the list of message texts.

interface Sample {
  features: Float64Array;
  ref: number;
}

interface Group {
  dataset: string;
  split: 'perMessage' | 'fixed4k';
  samples: Sample[];
}

function buildGroups(data: Map<string, string[]>): Group[] {
  const groups: Group[] = [];
  for (const [dataset, messages] of data) {
    for (const split of ['perMessage', 'fixed4k'] as const) {
      const texts = split === 'perMessage' ? messages : fixedChunks(messages);
      const samples = texts.map((t) => ({ features: tokenFeatures(t), ref: referenceCount(t) }));
      groups.push({ dataset, split, samples: samples.filter((s) => s.ref > 0) });
    }
  }
  return groups;
}

function predict(features: Float64Array, weights: ArrayLike<number>): number {
  let milli = 0;
  for (let j = 0; j < features.length; j++) milli += features[j]! * weights[j]!;
  return Math.max(1, Math.round(milli / 1000));
}

interface Stats {
  chunks: number;
  meanAbsRelErrAll: number;
  chunks200: number;
  meanAbsRelErr: number;
  worstRelErr: number;
  totalRelErr: number;
  refTokens: number;
  estTokens: number;
}

function stats(samples: Sample[], weights: ArrayLike<number>): Stats {
  let sumAll = 0;
  let sum200 = 0;
  let n200 = 0;
  let worst = 0;
  let ref = 0;
  let est = 0;
  for (const s of samples) {
    const e = predict(s.features, weights);
    const rel = (e - s.ref) / s.ref;
    sumAll += Math.abs(rel);
    ref += s.ref;
    est += e;
    if (s.ref >= MIN_TOKENS) {
      n200++;
      sum200 += Math.abs(rel);
      if (Math.abs(rel) > Math.abs(worst)) worst = rel;
    }
  }
  return {
    chunks: samples.length,
    meanAbsRelErrAll: round(sumAll / Math.max(1, samples.length), 4),
    chunks200: n200,
    meanAbsRelErr: round(sum200 / Math.max(1, n200), 4),
    worstRelErr: round(worst, 4),
    totalRelErr: round((est - ref) / Math.max(1, ref), 4),
    refTokens: ref,
    estTokens: est,
  };
}

function table(groups: Group[], weights: ArrayLike<number>): Record<string, Record<string, Stats>> {
  const out: Record<string, Record<string, Stats>> = {};
  for (const g of groups) {
    out[g.dataset] ??= {};
    out[g.dataset]![g.split] = stats(g.samples, weights);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Fitting: weighted least squares pulled towards the current weights, then a coordinate search on
// the reported errors themselves.

const MIN_FIT_TOKENS = 50;

/** What the fit minimises: per group, mean |rel| over chunks ≥ 50 tokens plus |total rel|. */
function objective(groups: Group[], weights: ArrayLike<number>): number {
  let total = 0;
  for (const g of groups) {
    let sum = 0;
    let n = 0;
    let ref = 0;
    let est = 0;
    for (const s of g.samples) {
      const e = predict(s.features, weights);
      ref += s.ref;
      est += e;
      if (s.ref >= MIN_FIT_TOKENS) {
        sum += Math.abs(e - s.ref) / s.ref;
        n++;
      }
    }
    total += sum / Math.max(1, n) + Math.abs(est - ref) / Math.max(1, ref);
  }
  return total / groups.length;
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const pivot = m[c]![c]!;
    if (Math.abs(pivot) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const factor = m[r]![c]! / pivot;
      if (factor === 0) continue;
      for (let k = c; k <= n; k++) m[r]![k]! -= factor * m[c]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

/**
 * Features seen fewer times than this in all the data keep their current (hand-set) weights instead
 * of being fitted to noise: the shared data is almost all English and code, with a few hundred CJK,
 * emoji and non-English words in total.
 */
const MIN_SUPPORT = 2000;

/**
 * Always hand-set: the cost per letter beyond 14 in one word. Real text has almost no such words
 * (the fit would happily set it to 0), but random identifiers, base64 and hashes do, and o200k
 * spends about half a token per letter on them.
 */
const HAND_SET = new Set<string>(['wordCharsOver14']);

/**
 * Upper bounds in thousandths: an ASCII character is one byte, so a per-character feature can never
 * honestly cost more than one token per character; other features stay below 3 tokens per piece.
 */
const MAX_WEIGHT = TOKEN_FEATURES.map((name) =>
  name.endsWith('Chars') || name.endsWith('Over2') ? (name.startsWith('symbol') ? 3000 : 1000) : 3000,
);

function supportOf(groups: Group[]): number[] {
  const support = new Array<number>(TOKEN_FEATURES.length).fill(0);
  for (const g of groups) {
    if (g.split !== 'perMessage') continue;
    for (const s of g.samples) for (let j = 0; j < support.length; j++) support[j]! += s.features[j]!;
  }
  return support;
}

const WORD_SLOTS = 14;

/**
 * Piece-level measurement of the plain word slots: the mean o200k count of ` word` for every
 * lower-case or Capitalised word of 1…14 letters that follows a space in the data, made
 * non-decreasing. The chunk-level fit then only has to explain everything else.
 */
function measureWordTable(data: Map<string, string[]>): { weights: number[]; counts: number[] } {
  const tokens = new Array<number>(WORD_SLOTS).fill(0);
  const counts = new Array<number>(WORD_SLOTS).fill(0);
  const word = /(?<= )(?:[a-z]+|[A-Z][a-z]+)(?![A-Za-z])/g;
  for (const messages of data.values()) {
    for (const m of messages) {
      for (const match of m.matchAll(word)) {
        const len = match[0].length;
        if (len > WORD_SLOTS) continue;
        tokens[len - 1]! += referenceCount(` ${match[0]}`);
        counts[len - 1]!++;
      }
    }
  }
  const means = tokens.map((t, i) => (counts[i] ? (t / counts[i]!) * 1000 : 1000));
  return { weights: nonDecreasing(means, counts).map(Math.round), counts };
}

/** Weighted pool-adjacent-violators: the closest non-decreasing sequence. */
function nonDecreasing(values: number[], weights: number[]): number[] {
  const blocks: { sum: number; w: number; n: number }[] = [];
  values.forEach((v, i) => {
    const w = Math.max(1, weights[i]!);
    blocks.push({ sum: v * w, w, n: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!;
      const a = blocks[blocks.length - 2]!;
      if (a.sum / a.w <= b.sum / b.w) break;
      blocks.pop();
      a.sum += b.sum;
      a.w += b.w;
      a.n += b.n;
    }
  });
  return blocks.flatMap((b) => new Array<number>(b.n).fill(b.sum / b.w));
}

/** min Σ w (x·β − y)² + λ Σ (β − prior)², w = 1 / (ref · group size); β ≥ 0 by clamping. */
function leastSquares(
  groups: Group[],
  prior: readonly number[],
  frozen: boolean[],
  lambda: number,
): number[] {
  const free = prior.map((_, j) => j).filter((j) => !frozen[j]);
  const d = free.length;
  const ata = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  const atb = new Array<number>(d).fill(0);
  for (const g of groups) {
    for (const s of g.samples) {
      const w = 1 / (s.ref * g.samples.length);
      const x = s.features;
      let y = s.ref;
      for (let j = 0; j < prior.length; j++) if (frozen[j]) y -= (x[j]! * prior[j]!) / 1000;
      for (let a = 0; a < d; a++) {
        const xa = x[free[a]!]!;
        if (xa === 0) continue;
        atb[a]! += w * xa * y;
        for (let b = 0; b < d; b++) ata[a]![b]! += w * xa * x[free[b]!]!;
      }
    }
  }
  for (let a = 0; a < d; a++) {
    ata[a]![a]! += lambda;
    atb[a]! += lambda * (prior[free[a]!]! / 1000);
  }
  const beta = solve(ata, atb);
  const out = [...prior];
  free.forEach((j, a) => {
    out[j] = Math.min(MAX_WEIGHT[j]!, Math.max(0, Math.round(beta[a]! * 1000)));
  });
  return out;
}

/** Greedy ±step moves on one weight at a time while the objective improves, halving the step. */
function coordinateSearch(groups: Group[], start: number[], frozen: boolean[]): number[] {
  const w = [...start];
  let best = objective(groups, w);
  for (let step = 256; step >= 4; step /= 2) {
    let improved = true;
    while (improved) {
      improved = false;
      for (let j = 0; j < w.length; j++) {
        if (frozen[j]) continue;
        for (const delta of [step, -step]) {
          const old = w[j]!;
          const next = old + delta;
          if (next < 0 || next > MAX_WEIGHT[j]!) continue;
          w[j] = next;
          const value = objective(groups, w);
          if (value < best - 1e-9) {
            best = value;
            improved = true;
          } else w[j] = old;
        }
      }
    }
  }
  return w;
}

/** Coordinate search from the least-squares solution and from `start`; the better result wins. */
function fitWeights(groups: Group[], start: number[], frozen: boolean[]): number[] {
  const fromLs = coordinateSearch(groups, leastSquares(groups, start, frozen, 1e-4), frozen);
  const fromStart = coordinateSearch(groups, start, frozen);
  return objective(groups, fromLs) <= objective(groups, fromStart) ? fromLs : fromStart;
}

function fold(groups: Group[], keep: 0 | 1): Group[] {
  return groups.map((g) => ({ ...g, samples: g.samples.filter((_, i) => i % 2 === keep) }));
}

function formatWeights(weights: number[]): string {
  const items = weights.map((w) => `${w}, `).join('');
  const lines: string[] = [];
  let line = '  ';
  for (const item of items.split(' ').filter(Boolean)) {
    if (line.length + item.length + 1 > 108) {
      lines.push(line.trimEnd());
      line = '  ';
    }
    line += `${item} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

/** Pretty JSON with every innermost object (one Stats row) kept on a single line. */
function compactJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\{\n\s+("chunks"[^{}]*?)\n\s+\}/g,
    (_, body: string) => `{ ${body.replace(/\n\s+/g, ' ')} }`,
  );
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const data = loadDatasets();
  if (!data) {
    console.log(JSON.stringify({ skipped: 'shared data folder ../shared/data not found beside the repo' }));
    return;
  }
  const groups = buildGroups(data);
  const result: Record<string, unknown> = {
    reference: 'gpt-tokenizer o200k_base',
    note: [
      'relative error = (estimate − reference) / reference',
      `meanAbsRelErr, worstRelErr: over chunks of at least ${MIN_TOKENS} reference tokens (chunks200)`,
      'meanAbsRelErrAll: over every non-empty chunk',
      'totalRelErr: (Σ estimate − Σ reference) / Σ reference',
    ],
    current: table(groups, TOKEN_WEIGHTS),
  };
  if (process.argv.includes('--fit')) {
    const support = supportOf(groups);
    const words = measureWordTable(data);
    const start = [...TOKEN_WEIGHTS];
    const frozen = TOKEN_FEATURES.map(
      (name, j) => HAND_SET.has(name) || support[j]! < MIN_SUPPORT || j < WORD_SLOTS,
    );
    for (let j = 0; j < WORD_SLOTS; j++) start[j] = words.weights[j]!;
    const fitted = fitWeights(groups, start, frozen);
    const a = fitWeights(fold(groups, 0), start, frozen);
    const b = fitWeights(fold(groups, 1), start, frozen);
    result.fit = {
      objectiveBefore: round(objective(groups, TOKEN_WEIGHTS), 5),
      objectiveAfter: round(objective(groups, fitted), 5),
      weights: Object.fromEntries(TOKEN_FEATURES.map((name, i) => [name, fitted[i]! / 1000])),
      wordTable: { measuredOn: words.counts, note: 'word1…word14 measured piece by piece, not fitted' },
      handSet: TOKEN_FEATURES.filter((_, j) => frozen[j] && j >= WORD_SLOTS),
      support: Object.fromEntries(TOKEN_FEATURES.map((name, i) => [name, support[i]])),
      table: table(groups, fitted),
      crossCheck: {
        note: 'fitted on even-numbered chunks, measured on odd-numbered ones, and the other way round',
        evenFitOddTest: table(fold(groups, 1), a),
        oddFitEvenTest: table(fold(groups, 0), b),
      },
    };
    console.log(compactJson(result));
    console.log(`\n// paste into TOKEN_WEIGHTS in lib/core/tokens.ts:\n${formatWeights(fitted)}`);
    return;
  }
  console.log(compactJson(result));
}

if (basename(process.argv[1] ?? '') === 'calibrate-tokens.ts') await main();
