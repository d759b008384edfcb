/**
 * The Snapshots panel's parts: the category titles, where an item moved from, the snapshot lists with
 * their marks, the retired items, why a reflection was skipped and the reflected path's diagnostics.
 */
import { comparableKey } from 'rearview/categorise';
import {
  type ActiveContextSnapshot,
  CATEGORIES,
  type SnapshotCategory,
  type TrajectoryReduction,
} from 'rearview/snapshot';
import { createMemo, For, Show } from 'solid-js';
import { type ModeKind, modeLabel } from '../llm-state';

export const TITLES: Record<SnapshotCategory, string> = {
  openHypotheses: 'Open hypotheses',
  blockers: 'Blockers',
  nextActions: 'Next actions',
  unresolvedQuestions: 'Unresolved questions',
  requiredEvidenceLinks: 'Evidence links',
};

/** The category another side holds the same item in (by comparable key), if not `c`. */
export function movedFrom(
  snapshot: ActiveContextSnapshot | undefined,
  c: SnapshotCategory,
  key: string,
): SnapshotCategory | undefined {
  if (!snapshot) return undefined;
  return CATEGORIES.find(
    (other) =>
      other !== c &&
      other !== 'requiredEvidenceLinks' &&
      Array.isArray(snapshot[other]) &&
      (snapshot[other] as string[]).some((x) => comparableKey(x) === key),
  );
}

export function skipText(r: TrajectoryReduction): string {
  const d = r.diagnostics;
  switch (d.reflectionSkippedReason) {
    case 'below_threshold':
      return ` — the deterministic snapshot has ${d.deterministicTokens} tokens, under minSnapshotTokens. Lower it in Tune to reflect anyway.`;
    case 'insufficient_savings':
      return ` — the reflection saves ${d.savingsTokens} tokens, under minSavingsTokens. Lower it in Tune to adopt it.`;
    case 'validation_failed':
      return ` — ${d.rejectedItems.length} item(s) did not trace back to an entry.`;
    case 'no_llm':
      return ' — no model.';
    default:
      return d.reflectionError ? ` — ${d.reflectionError}` : '';
  }
}

export function SnapshotLists(props: {
  snapshot: ActiveContextSnapshot;
  mark: (c: SnapshotCategory, text: string) => { mark: string; note: string };
}) {
  return (
    <For each={CATEGORIES}>
      {(c) => (
        <Show when={props.snapshot[c].length}>
          <h4>
            {TITLES[c]} <span class="hint">({props.snapshot[c].length})</span>
          </h4>
          <ul class="items">
            <For each={props.snapshot[c]}>
              {(text) => {
                const m = createMemo(() => props.mark(c, text));
                return (
                  <li class={`item mark-${m().mark}`} data-mark={m().mark}>
                    <Show when={m().mark && m().mark !== 'kept'}>
                      <span class="mark">{m().mark}</span>
                    </Show>
                    <span class="text">{text}</span>
                    <Show when={m().note}>
                      <span class="note">{m().note}</span>
                    </Show>
                  </li>
                );
              }}
            </For>
          </ul>
        </Show>
      )}
    </For>
  );
}

export function Retired(props: { list: { category: SnapshotCategory; text: string; reason: string }[] }) {
  return (
    <Show when={props.list.length}>
      <h4>
        Retired since the previous run <span class="hint">({props.list.length})</span>
      </h4>
      <ul class="items retired" data-testid="retired">
        <For each={props.list}>
          {(r) => (
            <li class="item mark-retired">
              <span class="mark">{r.reason}</span>
              <span class="text">{r.text}</span>
              <span class="note">{TITLES[r.category]}</span>
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

/** Skip reasons that are the gates doing their job, not failures. */
const GATE_SKIPS = new Set(['below_threshold', 'insufficient_savings', 'no_llm']);

export function Diagnostics(props: { r: TrajectoryReduction; mode: string }) {
  const d = () => props.r.diagnostics;
  const row = (k: string, v: unknown) => (
    <tr>
      <th scope="row">{k}</th>
      <td>{v == null ? '—' : String(v)}</td>
    </tr>
  );
  return (
    <section class="diagnostics" data-testid="diagnostics" aria-label="Diagnostics of the reflected path">
      <h3>Diagnostics</h3>
      <table>
        <tbody>
          {row('reflection', d().reflectionUsed ? 'used' : `skipped (${d().reflectionSkippedReason})`)}
          {row(
            'model called',
            d().reflectionInvoked
              ? `yes (${props.mode === 'offline' ? 'recorded answer' : modeLabel(props.mode as ModeKind)})`
              : 'no',
          )}
          {row(
            'tokens in / out',
            d().reflectionInvoked
              ? `${d().reflectionInputTokens ?? '—'} / ${d().reflectionOutputTokens ?? '—'}`
              : null,
          )}
          {row(
            'latency',
            d().reflectionLatencyMs != null ? `${Math.round(d().reflectionLatencyMs!)} ms` : null,
          )}
          {row('deterministic tokens', d().deterministicTokens)}
          {row('reflected tokens', d().reflectedTokens)}
          {row('savings', d().savingsTokens != null ? `${d().savingsTokens} tokens` : null)}
          {row('rejected items', d().rejectedItems.length)}
          {row('items cut by caps', d().cappedItems)}
          {/* A gate that skipped the reflection (too small to be worth it) is not an error. */}
          {row(
            GATE_SKIPS.has(d().reflectionSkippedReason ?? '') ? 'why skipped' : 'error',
            d().reflectionError,
          )}
        </tbody>
      </table>
      <Show when={d().rejectedItems.length}>
        <ul class="items">
          <For each={d().rejectedItems}>
            {(x) => (
              <li class="item mark-dropped">
                <span class="mark">rejected</span>
                <span class="text">{x.text}</span>
                <span class="note">{x.why}</span>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={d().dropped.length}>
        <h4>Dropped by the model</h4>
        <ul class="items">
          <For each={d().dropped}>
            {(x) => (
              <li class="item mark-dropped">
                <span class="mark">{x.reason}</span>
                <span class="text">{x.text}</span>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <pre class="logline">{d().logLine}</pre>
    </section>
  );
}
