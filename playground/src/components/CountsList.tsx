import { Show } from 'solid-js';
import type { Counts } from '../analyze-types';

/**
 * What the input holds, as counted for the Input panel: messages by role for a conversation, steps
 * for an agent trajectory, and, apart from the failures, the calls the person declined.
 */
export function CountsList(props: { kind: string; counts: Counts }) {
  return (
    <dl class="counts" data-testid="counts">
      <Show
        when={props.kind === 'trajectory'}
        fallback={
          <>
            <div>
              <dt>messages</dt>
              <dd data-testid="count-messages">{props.counts.messages}</dd>
            </div>
            <div>
              <dt>user</dt>
              <dd>{props.counts.user}</dd>
            </div>
            <div>
              <dt>assistant</dt>
              <dd>{props.counts.assistant}</dd>
            </div>
            <div>
              <dt>tool calls</dt>
              <dd>{props.counts.toolCalls}</dd>
            </div>
            <div>
              <dt>failed tools</dt>
              <dd data-testid="count-tool-errors">{props.counts.toolErrors}</dd>
            </div>
            <Show when={props.counts.declinedCalls}>
              <div title="Calls the person declined: neither failures nor calls that worked">
                <dt>declined</dt>
                <dd data-testid="count-declined-calls">{props.counts.declinedCalls}</dd>
              </div>
            </Show>
          </>
        }
      >
        {/* A trajectory counts steps: its tool calls are the steps' actions, and the
            observations go back to the model as "user" messages, so message roles mislead. */}
        <div>
          <dt>steps</dt>
          <dd data-testid="count-steps">{props.counts.steps}</dd>
        </div>
        <div>
          <dt>failed steps</dt>
          <dd data-testid="count-failed-steps">{props.counts.failedSteps}</dd>
        </div>
        <Show when={props.counts.declinedSteps}>
          <div title="Calls the person declined: neither failures nor calls that worked">
            <dt>declined</dt>
            <dd data-testid="count-declined-steps">{props.counts.declinedSteps}</dd>
          </div>
        </Show>
        <div title="All messages of the trajectory file, observations (sent back as user messages) included">
          <dt>messages</dt>
          <dd data-testid="count-messages">{props.counts.messages}</dd>
        </div>
      </Show>
      <div>
        <dt>ignored</dt>
        <dd>{props.counts.ignored}</dd>
      </div>
      <div title="An estimate for the whole input text, its JSON included. The reduction view counts only the steps' observations and errors, which is what compaction shrinks.">
        <dt>≈ tokens (whole input)</dt>
        <dd data-testid="count-tokens">{props.counts.tokens.toLocaleString('en-US')}</dd>
      </div>
    </dl>
  );
}
