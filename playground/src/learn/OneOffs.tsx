/**
 * The candidates a Learn run saw in fewer sessions than asked (`LearnResult.oneOffs`): on one person's
 * folder they are most of what `learn` finds, so the tab lists them under the rules, each with a
 * button that moves it into the review list (edit, accept, reject, export like any rule).
 */
import type { LearnedRule } from 'rearview/learn';
import { For, Show } from 'solid-js';

export default function OneOffs(props: {
  oneOffs: readonly LearnedRule[];
  count: number;
  minSessions: number;
  inReview: (rule: LearnedRule) => boolean;
  onReview: (rule: LearnedRule) => void;
}) {
  return (
    <Show when={props.oneOffs.length > 0}>
      <details class="learn-one-offs" data-testid="learn-one-offs">
        <summary>
          {props.count} seen in fewer than {props.minSessions} sessions
          {props.count > props.oneOffs.length ? ` (the first ${props.oneOffs.length})` : ''}: review one
          before adding it
        </summary>
        <ul>
          <For each={props.oneOffs}>
            {(rule) => (
              <li data-testid="learn-one-off">
                <span>{rule.text}</span>{' '}
                <span class="meta">
                  {rule.kind} · {rule.sessions} session{rule.sessions === 1 ? '' : 's'}
                </span>{' '}
                <button type="button" disabled={props.inReview(rule)} onClick={() => props.onReview(rule)}>
                  {props.inReview(rule) ? 'In review' : 'Review'}
                </button>
              </li>
            )}
          </For>
        </ul>
      </details>
    </Show>
  );
}
