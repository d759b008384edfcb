/**
 * The Learn tab's optional model pass: the rules in the review list (as they read now, edits included)
 * go to the model chosen in the Snapshots tab's settings, in one request, to be reworded or dropped.
 * Nothing is sent before the person has seen the estimate and said yes; after, the reported tokens and
 * what changed are shown. A rewrite fills the rule's text field; a rule the model would drop is marked
 * rejected; the person still accepts or rejects each one. "Cancel" aborts the request while it runs
 * and leaves the list as it was.
 */
import type { LearnedRule, LlmCost } from 'rearview/learn';
import { createSignal, Match, Switch } from 'solid-js';
import { currentMode, modeLabel } from '../llm-state';

type Stage =
  | { kind: 'idle' }
  /** `sent`: the list as estimated, which is what "Ask" sends (edits made meanwhile are not). */
  | { kind: 'confirm'; cost: LlmCost; sent: LearnedRule[] }
  /** `controller`: what "Cancel" aborts; the request stops and nothing in the list changes. */
  | { kind: 'asking'; controller: AbortController }
  | { kind: 'done'; cost: LlmCost; note?: string };

const n = (x: number | undefined) => (x ?? 0).toLocaleString('en-US');
const plural = (x: number | undefined, word: string) => `${n(x)} ${word}${x === 1 ? '' : 's'}`;

/** `rules[i]` as the model saw it (id `v<i>`) → its rewrite, or null when the model would drop it. */
export type ModelEdits = Map<number, string | null>;

export default function ModelReview(props: {
  /** The rules under review, with the text the person sees now. */
  rules: () => LearnedRule[];
  onEdits: (edits: ModelEdits) => void;
}) {
  const [stage, setStage] = createSignal<Stage>({ kind: 'idle' });
  // Ids by place in the list: the one-offs added to the review carry no id of their own.
  const asSent = () => props.rules().map((r, i) => ({ ...r, id: `v${i}` }));

  const estimate = async () => {
    const { estimateRefine } = await import('rearview/learn');
    const sent = asSent();
    setStage({ kind: 'confirm', cost: estimateRefine(sent), sent });
  };

  const ask = async (sent: LearnedRule[], estimated: LlmCost) => {
    const controller = new AbortController();
    setStage({ kind: 'asking', controller });
    try {
      const [{ refineRules }, m] = await Promise.all([import('rearview/learn'), import('../reflect')]);
      const client = await m.makeClient(currentMode());
      const { rules, cost } = await refineRules(sent, { llm: client, signal: controller.signal });
      if (controller.signal.aborted && !cost.skipped) cost.skipped = 'cancelled';
      const edits: ModelEdits = new Map();
      const byId = new Map(rules.map((r) => [r.id, r.text]));
      sent.forEach((r, i) => {
        const text = byId.get(r.id);
        if (text === undefined) edits.set(i, null);
        else if (text !== r.text) edits.set(i, text);
      });
      if (!cost.skipped) props.onEdits(edits);
      const err = client.lastError;
      setStage({
        kind: 'done',
        cost,
        ...(cost.skipped ? { note: err ? m.explainLlmError(err.code, err.message) : cost.skipped } : {}),
      });
    } catch (err) {
      // The client could not be made (settings) or the module not loaded: nothing was sent.
      setStage({ kind: 'done', cost: estimated, note: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <div class="learn-model" data-testid="learn-model">
      <Switch>
        <Match when={stage().kind === 'idle' || stage().kind === 'done'}>
          <button
            type="button"
            data-testid="learn-model-estimate"
            disabled={props.rules().length === 0}
            onClick={() => void estimate()}
          >
            Review the wording with {modeLabel()}…
          </button>{' '}
          <span class="hint">(model settings: the Snapshots tab)</span>
        </Match>
        <Match when={stage().kind === 'confirm' && (stage() as Extract<Stage, { kind: 'confirm' }>)}>
          {(s) => (
            <p data-testid="learn-model-confirm">
              About {n(s().cost.estimatedInputTokens)} input and at most {n(s().cost.maxOutputTokens)} output
              tokens go to {modeLabel()}: the {plural(s().sent.length, 'rule')} in this list, redacted, and
              nothing else.{' '}
              <button
                type="button"
                data-testid="learn-model-ask"
                onClick={() => void ask(s().sent, s().cost)}
              >
                Ask
              </button>{' '}
              <button type="button" class="ghost" onClick={() => setStage({ kind: 'idle' })}>
                Not now
              </button>
            </p>
          )}
        </Match>
        <Match when={stage().kind === 'asking' && (stage() as Extract<Stage, { kind: 'asking' }>)}>
          {(s) => (
            <>
              <span role="status">Asking {modeLabel()}…</span>{' '}
              <button
                type="button"
                class="ghost"
                data-testid="learn-model-cancel"
                onClick={() => s().controller.abort()}
              >
                Cancel
              </button>
            </>
          )}
        </Match>
      </Switch>
      <Switch>
        <Match when={stage().kind === 'done' && (stage() as Extract<Stage, { kind: 'done' }>)}>
          {(s) => (
            <p class="hint" role="status" data-testid="learn-model-result">
              {s().note
                ? `Not changed: ${s().note}`
                : `Reported: ${n(s().cost.inputTokens)} input + ${n(s().cost.outputTokens)} output tokens ` +
                  `(estimated ${n(s().cost.estimatedInputTokens)} + at most ${n(s().cost.maxOutputTokens)}). ` +
                  `${plural(s().cost.rewritten, 'rule')} reworded, ${n(s().cost.dropped)} the model would drop ` +
                  `(marked rejected), ${plural(s().cost.refused, 'rewrite')} refused by the rule judge.`}
            </p>
          )}
        </Match>
      </Switch>
    </div>
  );
}
