/**
 * The Learn tab's note when sessions of the run read as one of the eight languages
 * (`result.otherLanguages` of rearview/learn): key points are written from English sentences only, so
 * a folder of Chinese sessions gives few rules, and without the note no sign why.
 */
import type { LearnResult } from 'rearview/learn';
import { Show } from 'solid-js';

export default function LanguageNote(props: { result: LearnResult }) {
  return (
    <Show when={props.result.otherLanguages}>
      {(o) => (
        <p class="hint" data-testid="learn-language-note">
          {o().sessions} of {o().of} sessions read as {o().names} ({o().turns} turns): rules are written from
          English sentences only, so they give few. Their corrections show in the Insights tab once the eight
          languages are added (Tune panel, Heuristic markers).
        </p>
      )}
    </Show>
  );
}
