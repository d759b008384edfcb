/**
 * The scopes that say what a session shows is over, as data: which of an entry's own categories each
 * one keeps out of the snapshot's lists, the reason the trace gives, and the line the reflection prompt
 * adds when an entry of that scope is in its input. `entriesFromMessages` and `entriesFromSteps`
 * (adapters.ts) give the scopes; `deterministicSnapshot` and `reflectedSnapshotPrompt` both read this
 * table, so a scope is defined in one place. The evidence for each is in lib/snapshot/README.md and
 * eval/snapshot/sets/pending/.
 */
import { headingLine } from '../categorise/index.js';
import type { SnapshotCategory } from './types.js';

/** One scope of the table. */
export interface OverScope {
  /** The entry's scope. */
  scope: string;
  /**
   * The categories an entry of this scope is never listed under, each with the reason
   * `deterministicSnapshotWithTrace` gives when it drops one: `done` for a step, question or guess
   * over, `resolved` for a problem that no longer stands.
   */
  drops: ReadonlyMap<SnapshotCategory, 'done' | 'resolved'>;
  /** What the reflection prompt tells the model when such an entry is in its input. */
  prompt: string;
}

/**
 * The table, in the order the reflection prompt says them.
 *
 * - `done`: a step carried out or overtaken — the agent's sentence that introduces the call, code or
 *   steps that follow it (introduces.jsonl: 2 of 36 still to do), and its words its own tool call
 *   follows right away (call-after.jsonl: 1 of 24 still to do).
 * - `answered`: said before the person's latest turn — a step or a question then was carried out,
 *   answered or overtaken (questions.jsonl: none of 60 questions still open), a guess tested or dropped
 *   (earlier.jsonl: the agent's 1 of 20 still open, the person's 2 of 24); a problem stays (the agent's:
 *   5 of 40 open, overtaken.jsonl 5 of 40 more).
 * - `replied`: the person's latest turn the agent answered in words — no open question (replied.jsonl:
 *   1 of 40 still open); a step it asks for stays.
 * - `delivered`: the person's latest turn the agent answered at length in words (1,500 characters or
 *   more) — no next action and no open question (delivered.jsonl).
 * - `superseded`: with an edit that worked anywhere after it — what was said before the person's latest
 *   turn, or the agent's words after it, or an agent run's step before its last write: what `answered`
 *   drops, and a problem it names no longer stands (blind rounds: superseded.jsonl, 1 of 40 removed
 *   blockers still open; superseded-after.jsonl, none of 14 removed next actions and blockers of the
 *   agent's last stretch still to do; rendered-edits.jsonl, 3 of 40; runs-superseded.jsonl, 1 of 40).
 * - `fixed`: the error of a call a later call made good, or what the agent acted on with an edit that
 *   succeeded: it no longer stands under any heading but evidence.
 *
 * @example
 * ```ts
 * OVER_SCOPES.find((s) => s.scope === 'replied')?.drops.has('unresolvedQuestions'); // true
 * ```
 */
export const OVER_SCOPES: readonly OverScope[] = [
  {
    scope: 'done',
    drops: over(['nextActions', 'unresolvedQuestions']),
    prompt:
      'An entry of scope "done" was carried out, answered or overtaken: it is never a next action or an open question.',
  },
  {
    scope: 'answered',
    drops: over(['nextActions', 'unresolvedQuestions', 'openHypotheses']),
    prompt:
      'An entry of scope "answered" was said before the person\'s latest turn: it is never a next action, an open question or an open hypothesis.',
  },
  {
    scope: 'replied',
    drops: over(['unresolvedQuestions']),
    prompt:
      'An entry of scope "replied" is the person\'s latest turn, which the agent answered: it is never an open question.',
  },
  {
    scope: 'delivered',
    drops: over(['nextActions', 'unresolvedQuestions']),
    prompt:
      'An entry of scope "delivered" is the person\'s latest turn, which the agent answered at length: it is never a next action or an open question.',
  },
  {
    scope: 'superseded',
    drops: over(['nextActions', 'unresolvedQuestions', 'openHypotheses'], ['blockers']),
    prompt:
      'An entry of scope "superseded" was followed by an edit that worked: it is never a blocker, a next action, an open question or an open hypothesis.',
  },
  {
    scope: 'fixed',
    drops: over([], ['blockers', 'nextActions', 'unresolvedQuestions', 'openHypotheses']),
    prompt:
      'An entry of scope "fixed" names a problem a later call fixed or acted on: it is never a blocker.',
  },
];

/** A scope's `drops`: the `done` lists (a step, question or guess over) and the `resolved` ones. */
function over(
  done: readonly SnapshotCategory[],
  resolved: readonly SnapshotCategory[] = [],
): ReadonlyMap<SnapshotCategory, 'done' | 'resolved'> {
  return new Map([
    ...done.map((c) => [c, 'done'] as const),
    ...resolved.map((c) => [c, 'resolved'] as const),
  ]);
}

const BY_SCOPE: ReadonlyMap<string, OverScope> = new Map(OVER_SCOPES.map((s) => [s.scope, s]));

/**
 * Why an entry of `scope` whose own category is `own` is not listed, or undefined when it is.
 *
 * @example
 * ```ts
 * droppedByScope('answered', 'openHypotheses'); // 'done'
 * droppedByScope('superseded', 'blockers'); // 'resolved'
 * droppedByScope('fixed', 'requiredEvidenceLinks'); // undefined
 * droppedByScope('assistant', 'nextActions'); // undefined
 * ```
 */
export function droppedByScope(
  scope: string,
  own: SnapshotCategory | undefined,
): 'done' | 'resolved' | undefined {
  if (own === undefined) return undefined;
  return BY_SCOPE.get(scope)?.drops.get(own);
}

/**
 * The list of a failed call's error line (scope `observation`): a problem whatever it reads as. A
 * question or a step in it is the tool's ("Did you mean _types?", "Run `npm install` first."), not the
 * agent's, and a line aider prints as a heading ("# 1 SEARCH/REPLACE block failed to match!") is no
 * title.
 *
 * @example
 * ```ts
 * observedCategory('nextActions', 'Run `npm install` first.'); // 'blockers'
 * observedCategory(undefined, '# 1 SEARCH/REPLACE block failed to match!'); // 'blockers'
 * observedCategory(undefined, 'Done in 2.1s'); // undefined
 * ```
 */
export function observedCategory(
  own: SnapshotCategory | undefined,
  text: string,
): SnapshotCategory | undefined {
  return own === 'unresolvedQuestions' || own === 'nextActions' || (own === undefined && headingLine(text))
    ? 'blockers'
    : own;
}
