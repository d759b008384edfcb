/**
 * A hard token budget for the formatted playbook: over budget, key points are evicted in a
 * deterministic order (confidence from their counters, then harm, then age, then name), recently
 * added or updated ones last. Every eviction is reported.
 *
 * @module
 */
import { cloneJson, estimateTokens } from '../core/index.js';
import type { RemoveOperation } from './delta.js';
import { type FormatOptions, formatKeyPointLine, formatPlaybook } from './format.js';
import { type KeyPoint, type Playbook, SECTION_NAMES, type SectionName } from './model.js';
import { compareForEviction, keyPointConfidence } from './score.js';

/** Options of {@link enforceBudget}. */
export interface BudgetOptions {
  /** The budget: tokens of `formatPlaybook(playbook, format)`. */
  maxTokens: number;
  /** A synchronous token counter. Default `estimateTokens`. */
  countTokens?: (text: string) => number;
  /**
   * Key points changed in the last N change rounds are evicted only after every other one. A round is
   * one distinct `updatedAt` (or `createdAt`) timestamp — one `applyDelta` call. Default 1; 0 disables.
   */
  protectRounds?: number;
  /** More names to protect (for example those the Curator just touched). */
  protect?: Iterable<string>;
  /** Formatting measured against the budget (template, counts). */
  format?: FormatOptions & { template?: string };
  /** Called once per evicted key point, in eviction order. */
  onEvict?: (eviction: Eviction) => void;
}

/** One evicted key point and why. */
export interface Eviction {
  name: string;
  section: SectionName;
  text: string;
  helpful: number;
  harmful: number;
  /** Wilson lower bound of its counters. */
  confidence: number;
  /** True when it was protected and evicted only because the rest could not fit. */
  protected: boolean;
  reason: string;
}

/** What {@link enforceBudget} did. */
export interface BudgetResult {
  /** A new playbook within budget (the input when nothing had to go). */
  playbook: Playbook;
  /** Evictions in order. */
  evicted: Eviction[];
  /** REMOVE operations equivalent to the evictions, to apply through a PlaybookStore. */
  operations: RemoveOperation[];
  /** Tokens of the formatted result. */
  tokens: number;
  /** Tokens before. */
  tokensBefore: number;
  /** False only when even an empty playbook exceeds the budget (the template alone is too big). */
  withinBudget: boolean;
}

/**
 * Enforces a hard token budget on `formatPlaybook(playbook)`: evicts key points, least trusted first
 * ({@link compareForEviction}: Wilson lower bound, then harmful count, then older, then name), those
 * changed in the last `protectRounds` rounds or named in `protect` only after all others. Deterministic.
 * The input is not modified.
 *
 * @example
 * ```ts
 * const { playbook, evicted } = enforceBudget(pb, { maxTokens: 2000, onEvict: (e) => log(e) });
 * ```
 */
export function enforceBudget(playbook: Playbook, options: BudgetOptions): BudgetResult {
  const count = options.countTokens ?? estimateTokens;
  const format = options.format ?? {};
  const max = options.maxTokens;
  if (!(max >= 0)) throw new RangeError(`maxTokens must be a non-negative number, got ${max}`);
  const tokensBefore = count(formatPlaybook(playbook, format));
  if (tokensBefore <= max) {
    return { playbook, evicted: [], operations: [], tokens: tokensBefore, tokensBefore, withinBudget: true };
  }
  const protectedNames = protectedSet(playbook, options.protectRounds ?? 1, options.protect);
  const all: { kp: KeyPoint; section: SectionName; prot: boolean; cost: number }[] = [];
  for (const section of SECTION_NAMES) {
    for (const kp of playbook.sections[section] ?? []) {
      all.push({
        kp,
        section,
        prot: protectedNames.has(kp.name),
        cost: count(formatKeyPointLine(kp, format)) + 1,
      });
    }
  }
  all.sort((a, b) => Number(a.prot) - Number(b.prot) || compareForEviction(a.kp, b.kp));
  const gone = new Set<string>();
  const out = cloneJson(playbook);
  let tokens = tokensBefore;
  let next = 0;
  // Evict by estimated line cost until the deficit is covered, re-measure exactly, repeat.
  while (tokens > max && next < all.length) {
    let freed = 0;
    while (next < all.length && freed < tokens - max) {
      const e = all[next++]!;
      gone.add(e.kp.name);
      freed += e.cost;
    }
    for (const s of SECTION_NAMES) out.sections[s] = playbook.sections[s].filter((kp) => !gone.has(kp.name));
    tokens = count(formatPlaybook(out, format));
  }
  const evicted: Eviction[] = [];
  for (let i = 0; i < next; i++) {
    const { kp, section, prot } = all[i]!;
    const eviction: Eviction = {
      name: kp.name,
      section,
      text: kp.text,
      helpful: kp.helpful,
      harmful: kp.harmful,
      confidence: Math.round(keyPointConfidence(kp) * 1e6) / 1e6,
      protected: prot,
      reason: prot
        ? `over the ${max}-token budget even without every unprotected key point`
        : `over the ${max}-token budget; lowest confidence first`,
    };
    evicted.push(eviction);
    options.onEvict?.(eviction);
  }
  return {
    playbook: out,
    evicted,
    operations: evicted.map((e) => ({ type: 'REMOVE', name: e.name })),
    tokens,
    tokensBefore,
    withinBudget: tokens <= max,
  };
}

/**
 * Names changed in the last `rounds` rounds (distinct `updatedAt ?? createdAt` timestamps), plus `extra`.
 *
 * @example
 * ```ts
 * recentlyChanged(pb, 1); // Set { 'pat-007' } — touched by the latest applyDelta
 * ```
 */
export function recentlyChanged(playbook: Playbook, rounds: number, extra?: Iterable<string>): Set<string> {
  return protectedSet(playbook, rounds, extra);
}

function protectedSet(playbook: Playbook, rounds: number, extra?: Iterable<string>): Set<string> {
  const out = new Set<string>(extra ?? []);
  if (!(rounds > 0)) return out;
  const stamps = new Set<string>();
  for (const s of SECTION_NAMES) {
    for (const kp of playbook.sections[s] ?? []) {
      const t = kp.updatedAt ?? kp.createdAt;
      if (t) stamps.add(t);
    }
  }
  const recent = new Set([...stamps].sort().reverse().slice(0, rounds));
  for (const s of SECTION_NAMES) {
    for (const kp of playbook.sections[s] ?? []) {
      const t = kp.updatedAt ?? kp.createdAt;
      if (t && recent.has(t)) out.add(kp.name);
    }
  }
  return out;
}
