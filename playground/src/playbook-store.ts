/**
 * The playground's playbook: one playbook ("default") in IndexedDB through rearview/store, shared by
 * every tab of this origin (changes from other tabs arrive through BroadcastChannel). Loaded lazily.
 * Insights become key points through the library's own policy (`proposeKeyPoint`), exactly as
 * `createRearview` turns them at the end of a session, redacted before they are stored.
 */
import { type DeltaOperation, type Playbook, proposeKeyPoint } from 'rearview/playbook';
import { redactText } from 'rearview/redact';
import { idbStore, type PlaybookStore, playbookStore } from 'rearview/store';
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
 * The ADD operation for an insight about the user turn `turnText`, or undefined when the library's
 * policy says it teaches nothing durable (a bare approval, friction without advice, a failed tool call).
 */
export function insightOperation(insight: Insight, turnText: string): DeltaOperation | undefined {
  const proposal = proposeKeyPoint(insight, turnText);
  if (!proposal) return undefined;
  return {
    type: 'ADD',
    section: proposal.section,
    text: redactText(proposal.text),
    source: { session: 'playground', traceRefs: proposal.traceRefs.slice(0, 4) },
  };
}

/** The ADD operations for insights; `turnText` gives the text of the turn an insight points at first. */
export function insightOperations(
  insights: readonly Insight[],
  turnText: (ref: string) => string | undefined,
): DeltaOperation[] {
  const out: DeltaOperation[] = [];
  for (const insight of insights) {
    const op = insightOperation(insight, turnText(insight.traceRefs[0] ?? '') ?? '');
    if (op) out.push(op);
  }
  return out;
}

export async function applyOperations(operations: DeltaOperation[]) {
  return getStore().applyDelta(PLAYBOOK_ID, operations);
}
