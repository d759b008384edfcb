/**
 * The playground's playbook: one playbook ("default") in IndexedDB through rearview/store, shared by
 * every tab of this origin (changes from other tabs arrive through BroadcastChannel). Loaded lazily.
 */
import type { DeltaOperation, Playbook, SectionName } from 'rearview/playbook';
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

/** Where an insight goes in the ACE playbook. */
export function sectionFor(insight: Insight): SectionName {
  if (insight.category === 'preference') return 'USER PREFERENCES';
  if (insight.category === 'correction' || insight.category === 'anti_pattern') return 'MISTAKES TO AVOID';
  if (insight.category === 'friction') return 'PATTERNS & APPROACHES';
  return 'OTHERS';
}

const GENERIC = new Set([
  "Apply the user's correction.",
  'Continue this approach.',
  'Automate or remember this to avoid user repetition.',
]);

/** An ADD operation for an insight: its actionable recommendation, or the observation when that is generic. */
export function insightOperation(insight: Insight): DeltaOperation {
  return {
    type: 'ADD',
    section: sectionFor(insight),
    text: GENERIC.has(insight.recommendation)
      ? `${insight.fact} — ${insight.recommendation}`
      : `${insight.recommendation} (${insight.fact.split(':')[0]})`,
    source: { session: 'playground', traceRefs: insight.traceRefs.slice(0, 4) },
  };
}

export async function applyOperations(operations: DeltaOperation[]) {
  return getStore().applyDelta(PLAYBOOK_ID, operations);
}
