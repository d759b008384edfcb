/**
 * Saving the accepted rules of the Learn tab as key points of a playbook: this browser's (IndexedDB,
 * the playbook the Playbook tab shows) or a shared one behind a `rearview/durable` endpoint. Each rule
 * becomes a key point through the store's own path (redacted, near-duplicates of what the playbook
 * already says left out by `dedupeProposals`). Loaded only when the person saves.
 */
import type { LearnedRule } from 'rearview/learn';
import type { KeyPointProposal } from 'rearview/playbook';
import type { PlaybookStore } from 'rearview/store';

/** Where accepted rules go: this browser's playbook, or a shared one at `url` (a `rearview/durable` route). */
export type SaveTarget = { kind: 'browser' } | { kind: 'shared'; url: string };

/** What a save did: key points added, and rules the playbook already said. */
export interface SaveOutcome {
  added: number;
  repeats: number;
  rejected: number;
  version: number;
}

/** Evidence links kept on a key point: the playbook keeps a few provenance refs, not every turn. */
const REFS = 4;

/**
 * The key-point proposal of a rule: preferences go to USER PREFERENCES, corrections and failure
 * lessons to MISTAKES TO AVOID (the sections `learn` itself deduplicates in); its evidence turns are
 * the trace refs (`learn:{session}#{message}`).
 */
export function ruleProposal(rule: LearnedRule): KeyPointProposal {
  return {
    section: rule.kind === 'preference' ? 'USER PREFERENCES' : 'MISTAKES TO AVOID',
    text: rule.text,
    category: rule.kind === 'rule' ? 'correction' : rule.kind,
    traceRefs: rule.evidence.slice(0, REFS).map((e) => `learn:${e.session}#${e.message}`),
  };
}

/** Saves `rules` into the target's playbook (id "default", as the Playbook tab uses). */
export async function saveRules(rules: readonly LearnedRule[], target: SaveTarget): Promise<SaveOutcome> {
  const { addKeyPoints } = await import('../playbook-store');
  let store: PlaybookStore | undefined;
  if (target.kind === 'shared') {
    const { playbookClient } = await import('rearview/durable');
    store = playbookClient({ fetch: (url, init) => fetch(url, init) }, { baseUrl: target.url });
  }
  const result = await addKeyPoints(rules.map(ruleProposal), {
    ...(store ? { store } : {}),
    session: 'learn',
  });
  return {
    added: result.applied.length,
    repeats: result.repeats,
    rejected: result.rejected.length,
    version: result.version,
  };
}
