/** A proposed rule's evidence turns in the Learn tab's review list. */
import type { LearnedRule } from 'rearview/learn';
import { createSignal, For, Show } from 'solid-js';

/**
 * A rule's evidence turns, drawn when opened: drawing every rule's turns with the result (1,400 items
 * for the rules of 1 GB of sessions) was a 0.5 s task on the main thread.
 */
export default function EvidenceList(props: { evidence: LearnedRule['evidence'] }) {
  const [open, setOpen] = createSignal(false);
  return (
    <details on:toggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Evidence ({props.evidence.length} turns)</summary>
      <Show when={open()}>
        <ul>
          <For each={props.evidence}>
            {(e) => (
              <li>
                <code>
                  {e.session}
                  {e.line !== undefined ? `:${e.line}` : ''} #{e.message}
                </code>{' '}
                {e.date ? e.date.slice(0, 10) : ''} — {e.quote}
              </li>
            )}
          </For>
        </ul>
      </Show>
    </details>
  );
}
