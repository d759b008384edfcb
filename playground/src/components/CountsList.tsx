import { type JSX, Show } from 'solid-js';
import type { Counts } from '../analyze-types';

const DECLINED = 'Calls the person declined: neither failures nor calls that worked';

/** One count: its label, its value, and the test id and title it is found by. */
function Count(props: { label: string; value: JSX.Element; id?: string; title?: string }) {
  return (
    <div title={props.title}>
      <dt>{props.label}</dt>
      <dd data-testid={props.id}>{props.value}</dd>
    </div>
  );
}

/**
 * What the input holds, as counted for the Input panel: messages by role for a conversation, steps
 * for an agent trajectory, and, apart from the failures, the calls the person declined.
 */
export function CountsList(props: { kind: string; counts: Counts }) {
  const c = () => props.counts;
  return (
    <dl class="counts" data-testid="counts">
      <Show
        when={props.kind === 'trajectory'}
        fallback={
          <>
            <Count label="messages" value={c().messages} id="count-messages" />
            <Count label="user" value={c().user} />
            <Count label="assistant" value={c().assistant} />
            <Count label="tool calls" value={c().toolCalls} />
            <Count label="failed tools" value={c().toolErrors} id="count-tool-errors" />
            <Show when={c().declinedCalls}>
              <Count label="declined" value={c().declinedCalls} id="count-declined-calls" title={DECLINED} />
            </Show>
          </>
        }
      >
        {/* A trajectory counts steps: its tool calls are the steps' actions, and the
            observations go back to the model as "user" messages, so message roles mislead. */}
        <Count label="steps" value={c().steps} id="count-steps" />
        <Count label="failed steps" value={c().failedSteps} id="count-failed-steps" />
        <Show when={c().declinedSteps}>
          <Count label="declined" value={c().declinedSteps} id="count-declined-steps" title={DECLINED} />
        </Show>
        <Count
          label="messages"
          value={c().messages}
          id="count-messages"
          title="All messages of the trajectory file, observations (sent back as user messages) included"
        />
      </Show>
      <Count label="ignored" value={c().ignored} />
      <Count
        label="≈ tokens (whole input)"
        value={c().tokens.toLocaleString('en-US')}
        id="count-tokens"
        title="An estimate for the whole input text, its JSON included. The reduction view counts only the steps' observations and errors, which is what compaction shrinks."
      />
    </dl>
  );
}
