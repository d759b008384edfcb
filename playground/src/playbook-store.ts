/**
 * The playground's playbook: one playbook ("default") in IndexedDB through rearview/store, shared by
 * every tab of this origin (changes from other tabs arrive through BroadcastChannel). Loaded lazily.
 * Insights become key points through the library's own policy (`proposeKeyPoints` of
 * rearview/playbook: one key point per lesson, near-duplicates merged), exactly as `createRearview`
 * turns them at the end of a session, redacted before they are stored.
 */

import { idbStore } from 'rearview/kv';
import {
  type DeltaOperation,
  dedupeProposals,
  type KeyPointProposal,
  type Playbook,
  proposeKeyPoints,
  type TurnContext,
  turnContexts,
} from 'rearview/playbook';
import { redactText } from 'rearview/redact';
import { type PlaybookStore, playbookStore } from 'rearview/store';
import type { Turn } from './analyze';
import type { Insight } from './heuristics';

export const PLAYBOOK_ID = 'default';
let store: PlaybookStore | undefined;

export function getStore(): PlaybookStore {
  store ??= playbookStore(idbStore('rearview-playground', 'playbooks'), { actor: 'playground' });
  return store;
}

export async function loadPlaybook(): Promise<{ playbook: Playbook; version: number }> {
  const opened = await getStore().open(PLAYBOOK_ID);
  return { playbook: opened.playbook, version: opened.version };
}

/**
 * The user turns of a view and the agent message before each, by reference: what the policy reads
 * (the view carries their full text in `content`).
 */
export function viewTurns(turns: readonly Turn[]): Map<string, TurnContext> {
  const messages = turns
    .filter((t) => t.content !== undefined && t.ref.startsWith('message:'))
    .map((t) => ({
      id: t.ref.slice('message:'.length),
      role: t.role,
      content: t.content,
      ...(t.toolName ? { toolName: t.toolName } : {}),
    }));
  return turnContexts(messages);
}

/**
 * The key points for `insights`, one per lesson: the library's `proposeKeyPoints` over the view's
 * turns — for a view's whole insight list read by the markers, what `lessons` of rearview/session
 * proposes for the file (with a learned scorer, `lessons` proposes only from the turns the markers
 * report too: use the view's `keyPoints`).
 */
export function insightKeyPoints(
  insights: readonly Insight[],
  turns: readonly Turn[] | ReadonlyMap<string, TurnContext>,
): KeyPointProposal[] {
  return proposeKeyPoints(
    insights,
    Array.isArray(turns) ? viewTurns(turns) : (turns as ReadonlyMap<string, TurnContext>),
  );
}

/** The ADD operation of a proposal: redacted, with `session` (the playground by default) as its source. */
export function keyPointOperation(proposal: KeyPointProposal, session = 'playground'): DeltaOperation {
  return {
    type: 'ADD',
    section: proposal.section,
    text: redactText(proposal.text),
    source: { session, traceRefs: proposal.traceRefs.slice(0, 4).map((r) => redactText(r)) },
  };
}

/**
 * The ADD operations for insights: none for what teaches nothing durable (a bare approval, a turn with
 * no instruction, a failure that neither found a fix nor recurred), one per lesson for the rest.
 */
export function insightOperations(insights: readonly Insight[], turns: readonly Turn[]): DeltaOperation[] {
  return insightKeyPoints(insights, turns).map((p) => keyPointOperation(p));
}

export async function applyOperations(operations: DeltaOperation[]) {
  return getStore().applyDelta(PLAYBOOK_ID, operations);
}

/**
 * Adds proposals to a playbook (this browser's by default; any `PlaybookStore`, a Durable Object
 * client too), leaving out those it already says (the library's `dedupeProposals`, as a session's end
 * does). Returns what the store applied and how many were already there.
 */
export async function addKeyPoints(
  proposals: readonly KeyPointProposal[],
  options: { store?: PlaybookStore; id?: string; session?: string } = {},
) {
  const store = options.store ?? getStore();
  const id = options.id ?? PLAYBOOK_ID;
  const { playbook } = await store.open(id);
  const { kept, repeats } = dedupeProposals(proposals, playbook);
  const result = await store.applyDelta(
    id,
    kept.map((p) => keyPointOperation(p, options.session)),
  );
  return { ...result, repeats: repeats.length };
}
