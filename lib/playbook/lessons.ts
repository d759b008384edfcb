/**
 * Many proposals at once: the policy over a list of insights, and the playbook's own near-duplicate
 * search (`findDuplicates`) to keep one key point per lesson — among the proposals, and against what a
 * playbook already says.
 *
 * @module
 */
import { cloneJson, contentText, defaultRef } from '../core/index.js';
import { DEDUP_THRESHOLD, findDuplicates } from './dedup.js';
import { emptyPlaybook, type KeyPoint, type Playbook, SECTION_NAMES } from './model.js';
import { noteAgentLines, ownWords, saidLines } from './pasted.js';
import {
  type InsightLike,
  insightProposals,
  type KeyPointProposal,
  type ProposeOptions,
  type TurnContext,
} from './policy.js';

/** What {@link dedupeProposals} kept and left out. */
export interface ProposalDedup<P extends KeyPointProposal = KeyPointProposal> {
  /** One proposal per lesson, in their order: the first of each group of near-duplicates. */
  kept: P[];
  /** Proposals the playbook already says: `of` is that key point's name (a repeat confirms it). */
  repeats: { proposal: P; of: string }[];
  /** Proposals that repeat an earlier kept one (`of` is its index in `kept`). */
  merged: { proposal: P; of: number }[];
}

const NEW_PREFIX = '\u0000new-';

/**
 * Keeps one proposal per lesson, through the playbook's near-duplicate search (`findDuplicates`, word
 * shingle Jaccard ≥ `threshold`, across sections: the same instruction as a mistake and as a
 * preference is one lesson). A proposal close to a key point of `playbook` is a repeat of it; of
 * proposals close to each other the first is kept. Pure.
 *
 * @example
 * ```ts
 * const { kept, repeats } = dedupeProposals(proposals, await store.load(id));
 * // kept: the new lessons; repeats: [{ proposal, of: 'mis-001' }] — raise mis-001's helpful count
 * ```
 */
export function dedupeProposals<P extends KeyPointProposal>(
  proposals: readonly P[],
  playbook: Playbook = emptyPlaybook(),
  threshold = DEDUP_THRESHOLD,
): ProposalDedup<P> {
  const scratch = cloneJson(playbook) as Playbook;
  for (const s of SECTION_NAMES) scratch.sections[s] ??= [];
  const existing = new Set<string>();
  for (const s of SECTION_NAMES) for (const kp of scratch.sections[s]) existing.add(kp.name);
  proposals.forEach((p, i) => {
    const kp: KeyPoint = {
      name: `${NEW_PREFIX}${String(i).padStart(6, '0')}`,
      text: p.text,
      helpful: 0,
      harmful: 0,
    };
    scratch.sections[p.section]?.push(kp);
  });
  const indexOf = (name: string) =>
    name.startsWith(NEW_PREFIX) ? Number(name.slice(NEW_PREFIX.length)) : -1;
  /** For each proposal index: the existing key point or the earlier proposal it repeats. */
  const target = new Map<number, string | number>();
  for (const g of findDuplicates(scratch, { threshold, sameSection: false })) {
    const old = existing.has(g.into) ? g.into : g.names.find((n) => existing.has(n));
    const fresh = g.names
      .map(indexOf)
      .filter((i) => i >= 0)
      .sort((a, b) => a - b);
    if (old !== undefined) for (const i of fresh) target.set(i, old);
    else for (const i of fresh.slice(1)) target.set(i, fresh[0]!);
  }
  const out: ProposalDedup<P> = { kept: [], repeats: [], merged: [] };
  const keptAt = new Map<number, number>();
  proposals.forEach((proposal, i) => {
    const t = target.get(i);
    if (typeof t === 'string') out.repeats.push({ proposal, of: t });
    else if (typeof t === 'number') out.merged.push({ proposal, of: keptAt.get(t) ?? 0 });
    else {
      keptAt.set(i, out.kept.length);
      out.kept.push(proposal);
    }
  });
  return out;
}

/** A conversation message as {@link turnContexts} reads it (`Message` of `rearview/transcript` fits). */
export interface TurnMessageLike {
  role: string;
  content: unknown;
  id?: string;
  toolName?: string;
  synthetic?: unknown;
}

/**
 * Every user turn of a conversation by its trace reference (`message:{id}`, else `message:m{index}`,
 * as the heuristics name turns), with the agent message before it: what {@link proposeKeyPoint} reads.
 * A turn's text leaves out the lines the person pasted back from the agent's earlier messages
 * (`ownWords`): a key point is written from the person's own words.
 *
 * @example
 * ```ts
 * const turns = turnContexts(messages);
 * proposeKeyPoint(insight, turns.get(insight.traceRefs[0]) ?? '');
 * ```
 */
export function turnContexts(messages: readonly TurnMessageLike[]): Map<string, TurnContext> {
  const out = new Map<string, TurnContext>();
  let previous: TurnContext['previous'];
  if (!Array.isArray(messages)) return out;
  // The agent's lines so far: a line the person pastes back from them is not the person's (pasted.ts).
  const said = saidLines();
  messages.forEach((m, i) => {
    if (m === null || typeof m !== 'object' || m.synthetic) return;
    if (m.role === 'assistant') {
      previous = { content: m.content, ...(typeof m.toolName === 'string' ? { toolName: m.toolName } : {}) };
      const written = contentText(m.content);
      if (written !== undefined) noteAgentLines(said, written);
      return;
    }
    if (m.role !== 'user' && m.role !== 'human') return;
    const full = contentText(m.content);
    if (full === undefined) return;
    const text = ownWords(said, full);
    out.set(defaultRef(m, i), previous ? { text, previous } : { text });
    previous = undefined;
  });
  return out;
}

/**
 * The policy over many insights: {@link insightProposals} for each (its turn looked up by its first
 * trace reference), then {@link dedupeProposals} among them. What the session facade proposes for a
 * conversation, and what the CLI and the playground show.
 *
 * @example
 * ```ts
 * const proposals = proposeKeyPoints(insights, turnContexts(messages));
 * ```
 */
export function proposeKeyPoints<I extends InsightLike>(
  insights: readonly I[],
  turns: ReadonlyMap<string, TurnContext> | ((ref: string) => TurnContext | string | undefined),
  options: ProposeOptions = {},
): KeyPointProposal<I['category']>[] {
  const lookup = typeof turns === 'function' ? turns : (ref: string) => turns.get(ref);
  const proposals: KeyPointProposal<I['category']>[] = [];
  for (const insight of Array.isArray(insights) ? insights : []) {
    proposals.push(...insightProposals(insight, lookup(insight.traceRefs[0] ?? '') ?? '', options));
  }
  return dedupeProposals(proposals).kept;
}
