/**
 * Picks the key points worth a prompt: relevant to the task (BM25 over content words) and trusted
 * (Wilson lower bound of the counters), packed into a token budget. Deterministic.
 *
 * @module
 */
import { contentWords, estimateTokens } from '../core/index.js';
import { type FormatOptions, formatKeyPointLine, formatPlaybook } from './format.js';
import { emptyPlaybook, type KeyPoint, type Playbook, SECTION_NAMES, type SectionName } from './model.js';
import { compareNames, keyPointConfidence } from './score.js';

/** Options of {@link selectForPrompt}. */
export interface SelectOptions {
  /** Budget for the formatted selection (template included). */
  tokenBudget: number;
  /** A synchronous token counter. Default `estimateTokens`. */
  countTokens?: (text: string) => number;
  /** Weight of relevance against confidence in [0, 1]. Default 0.7 (0.3 for confidence). */
  relevanceWeight?: number;
  /** Leave out key points whose relevance (0…1) is below this. Default 0: any key point may fill room. */
  minRelevance?: number;
  /** Formatting of the result (template, counts). */
  format?: FormatOptions & { template?: string };
}

/** What {@link selectForPrompt} returns. */
export interface Selection {
  /** The chosen key points, in their playbook order and sections. */
  playbook: Playbook;
  /** `formatPlaybook(playbook, format)` of the selection. */
  text: string;
  /** Tokens of `text`. */
  tokens: number;
  /** Chosen names, best first, with their scores. */
  selected: { name: string; score: number; relevance: number; confidence: number }[];
  /** How many key points were left out. */
  omitted: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * Chooses the most relevant, best-rated key points for `query` within `tokenBudget`. Score =
 * `relevanceWeight` × relevance (BM25 of the query's content words, scaled to 0…1 by the best match)
 * + (1 − `relevanceWeight`) × confidence (Wilson lower bound); an empty query ranks by confidence alone.
 * Key points are taken best first while they fit (a long one that does not fit is skipped, shorter ones
 * may still fit); ties break by name. The result keeps playbook order so prompts stay stable.
 *
 * @example
 * ```ts
 * const { text } = selectForPrompt(pb, 'migrate the users table', { tokenBudget: 1500 });
 * const system = `${base}\n\n${text}`;
 * ```
 */
export function selectForPrompt(playbook: Playbook, query: string, options: SelectOptions): Selection {
  const count = options.countTokens ?? estimateTokens;
  const format = options.format ?? {};
  const weight = Math.min(1, Math.max(0, options.relevanceWeight ?? 0.7));
  const minRelevance = options.minRelevance ?? 0;
  const items: { kp: KeyPoint; section: SectionName; order: number; words: string[] }[] = [];
  for (const section of SECTION_NAMES) {
    for (const kp of playbook.sections[section] ?? []) {
      items.push({ kp, section, order: items.length, words: contentWords(kp.text) });
    }
  }
  const q = [...new Set(contentWords(typeof query === 'string' ? query : ''))];
  const relevance = bm25(
    items.map((it) => it.words),
    q,
  );
  const best = relevance.reduce((a, b) => Math.max(a, b), 0);
  const scored = items.map((it, i) => {
    const rel = best > 0 ? relevance[i]! / best : 0;
    const conf = keyPointConfidence(it.kp);
    const score = q.length && best > 0 ? weight * rel + (1 - weight) * conf : conf;
    return { ...it, rel, conf, score };
  });
  const ranked = scored
    .filter((s) => s.rel >= minRelevance)
    .sort((a, b) => b.score - a.score || compareNames(a.kp.name, b.kp.name));
  // Greedy packing on per-line estimates, then an exact check of the whole.
  const base = count(formatPlaybook(emptyPlaybook(), { ...format, empty: '' }));
  const headerCost = new Map(SECTION_NAMES.map((s) => [s, count(`## ${s}`) + 2]));
  let used = base;
  const openSections = new Set<SectionName>();
  const chosen: typeof ranked = [];
  for (const s of ranked) {
    const cost =
      count(formatKeyPointLine(s.kp, format)) +
      1 +
      (openSections.has(s.section) ? 0 : headerCost.get(s.section)!);
    if (used + cost > options.tokenBudget) continue;
    used += cost;
    openSections.add(s.section);
    chosen.push(s);
  }
  let result = build(chosen);
  let tokens = count(formatPlaybook(result, format));
  while (tokens > options.tokenBudget && chosen.length) {
    chosen.pop();
    result = build(chosen);
    tokens = count(formatPlaybook(result, format));
  }
  return {
    playbook: result,
    text: formatPlaybook(result, format),
    tokens,
    selected: chosen.map((s) => ({
      name: s.kp.name,
      score: round(s.score),
      relevance: round(s.rel),
      confidence: round(s.conf),
    })),
    omitted: items.length - chosen.length,
  };
}

function build(chosen: readonly { kp: KeyPoint; section: SectionName; order: number }[]): Playbook {
  const pb = emptyPlaybook();
  for (const c of [...chosen].sort((a, b) => a.order - b.order)) pb.sections[c.section].push(c.kp);
  return pb;
}

/** Okapi BM25 of each document for the query words. */
function bm25(docs: readonly string[][], query: readonly string[]): number[] {
  if (!query.length || !docs.length) return docs.map(() => 0);
  const wanted = new Set(query);
  const df = new Map<string, number>();
  let totalLen = 0;
  for (const d of docs) {
    totalLen += d.length;
    const seen = new Set<string>();
    for (const w of d) {
      if (!wanted.has(w) || seen.has(w)) continue;
      seen.add(w);
      df.set(w, (df.get(w) ?? 0) + 1);
    }
  }
  const avg = totalLen / docs.length || 1;
  const n = docs.length;
  return docs.map((d) => {
    if (!d.length) return 0;
    const tf = new Map<string, number>();
    for (const w of d) if (wanted.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
    let score = 0;
    for (const [w, f] of tf) {
      const idf = Math.log(1 + (n - df.get(w)! + 0.5) / (df.get(w)! + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg));
    }
    return score;
  });
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
