import type { KeyPointProposal } from 'rearview/playbook';
import { keyPointOf } from 'rearview/session';
import { createEffect, createMemo, createSignal, For, on, Show } from 'solid-js';
import type { Turn } from '../analyze-types';
import type { Insight } from '../heuristics';
import { languageAdder, languagesAdded, turnsInOtherLanguages } from '../language-markers';
import type { AppState } from '../state';

const WINDOW = 150;
const INSIGHTS_SHOWN = 60;

const CATEGORY: Record<string, string> = {
  correction: 'Correction',
  preference: 'Preference',
  friction: 'Friction',
  anti_pattern: 'Failed tool call',
  gotcha: 'Gotcha',
};

export const categoryLabel = (i: Insight) =>
  i.tags.includes('tool_failure') ? 'Failed tool call' : (CATEGORY[i.category] ?? i.category);

export function InsightsPanel(props: { app: AppState }) {
  const app = props.app;
  const [status, setStatus] = createSignal('');
  const turns = () => app.view()?.turns ?? [];
  /** The turn of a ref; the index is built on first use (a 50 MB session has 37,000 turns). */
  const byRef = createMemo(() => {
    const list = turns();
    let index: Map<string, Turn> | undefined;
    return (ref: string) => {
      index ??= new Map(list.map((t) => [t.ref, t]));
      return index.get(ref);
    };
  });
  const [allInsights, setAllInsights] = createSignal(false);
  const insights = createMemo(() => {
    const list = app.view()?.insights ?? [];
    return allInsights() ? list : list.slice(0, INSIGHTS_SHOWN);
  });
  const index = createMemo(() => {
    const h = app.highlight();
    return h && byRef()(h) ? turns().findIndex((t) => t.ref === h) : -1;
  });
  const [start, setStart] = createSignal(0);
  const shown = createMemo(() => turns().slice(start(), start() + WINDOW));

  createEffect(
    on(index, (i) => {
      if (i < 0) return;
      if (i < start() || i >= start() + WINDOW) setStart(Math.max(0, i - 20));
      queueMicrotask(() => {
        const el = document.querySelector<HTMLElement>(`[data-ref="${CSS.escape(app.highlight() ?? '')}"]`);
        el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
        el?.focus({ preventScroll: true });
      });
    }),
  );

  // The file's key points are the library's (`lessons` of rearview/session, near-duplicates merged),
  // computed with the insights: the same list the CLI prints. An insight shows the key point it leads to.
  const keyPoints = () => app.view()?.keyPoints ?? [];
  // The key points each insight led to: the library's link (`keyPointOf`), the one the CLI prints.
  const links = createMemo(() => {
    const list = app.view()?.insights ?? [];
    const at = keyPointOf(list, keyPoints());
    return new Map(list.map((ins, i) => [ins, at[i] ?? []]));
  });
  const proposals = (ins: Insight): KeyPointProposal[] =>
    (links().get(ins) ?? []).flatMap((k) => keyPoints()[k] ?? []);
  /**
   * A person's turn (a correction, preference, friction or approval) says what to do only through the
   * key point written from it: the detector's own recommendation is a placeholder ("Apply the user's
   * correction.", "Automate or remember this…", "Continue this approach.") or a fragment of the turn.
   */
  const fromTurn = (ins: Insight) =>
    !ins.tags.includes('tool_failure') &&
    (ins.category === 'correction' ||
      ins.category === 'preference' ||
      ins.category === 'friction' ||
      ins.category === 'approval');
  /**
   * Which learned scorer gave an insight its score: the correction scorer decides corrections, the
   * reader every category of a person's turn; failed tool calls are never theirs.
   */
  const scoredBy = (ins: Insight) => {
    const by = app.view()?.learned;
    if (!by || !ins.tags.includes('user_feedback')) return '';
    if (by === 'reader-recall') return ' (reader)';
    if (by === 'reader') return ' (reader, higher thresholds)';
    return ins.category === 'correction' ? ' (learned scorer)' : '';
  };

  async function addToPlaybook(list: readonly KeyPointProposal[]) {
    const pb = await import('../playbook-store');
    const r = await pb.addKeyPoints(list);
    const known = r.repeats ? ` ${r.repeats} already in the playbook.` : '';
    setStatus(
      `Added ${r.applied.length} key point${r.applied.length === 1 ? '' : 's'} to the playbook (version ${r.version}).${known}`,
    );
  }

  const counts = createMemo(() => {
    const c: Record<string, number> = {};
    for (const i of app.view()?.insights ?? []) c[categoryLabel(i)] = (c[categoryLabel(i)] ?? 0) + 1;
    return Object.entries(c);
  });

  return (
    <div class="insights">
      <Show when={app.view()} fallback={<p class="hint">Load a transcript to see insights.</p>}>
        {(v) => (
          <>
            <div class="panel-head">
              <p class="hint">
                Heuristic reflection: no LLM, no cost. {v().insights.length} insight
                {v().insights.length === 1 ? '' : 's'}
                <For each={counts()}>{([k, n]) => <span class="chip">{`${k}: ${n}`}</span>}</For>
              </p>
              <Show when={v().keyPoints.length}>
                <button type="button" onClick={() => void addToPlaybook(v().keyPoints)}>
                  Add all to playbook
                </button>
              </Show>
            </div>
            <p class="hint" role="status" data-testid="insight-status">
              {status()}
            </p>
            <Show when={v().keyPoints.length}>
              <details class="key-points" data-testid="key-points">
                <summary>
                  Key points ({v().keyPoints.length}): what a session would add to the playbook
                </summary>
                <ol>
                  <For each={v().keyPoints}>
                    {(k) => (
                      <li>
                        [{k.section}] {k.text}
                        {k.context ? ` — corrected: ${k.context}` : ''}
                      </li>
                    )}
                  </For>
                </ol>
              </details>
            </Show>
            <LanguageNote app={app} turns={turns()} />
            <Show when={app.scorerStatus()?.kind === 'loading'}>
              <p class="hint" role="status" data-testid="insights-scorer-loading">
                Loading the learned reader of people's turns: the list is updated when it is ready.
              </p>
            </Show>
            <Show when={app.scorerStatus()?.kind === 'failed'}>
              <p class="error" data-testid="insights-scorer-error">
                The learned scorer could not be loaded (see Tune): these are the markers' insights.
              </p>
            </Show>
            <Show
              when={v().insights.length}
              fallback={
                <p class="empty-note" data-testid="no-insights">
                  No corrections, preferences, friction or failed tool calls found. Try adding a marker in
                  Tune → Heuristic markers.
                </p>
              }
            >
              <ul class="insight-list" data-testid="insights">
                <For each={insights()}>
                  {(ins) => (
                    <li class={`insight cat-${ins.tags.includes('tool_failure') ? 'tool' : ins.category}`}>
                      <div class="insight-head">
                        <span class="badge">{categoryLabel(ins)}</span>
                        <span class="hint" data-testid="insight-score">
                          {ins.confidence} confidence
                          {ins.score != null ? `, score ${ins.score.toFixed(2)}` : ''}
                          {scoredBy(ins)}
                        </span>
                      </div>
                      <p class="fact">{ins.fact}</p>
                      <Show when={!fromTurn(ins)}>
                        <p class="rec">{ins.recommendation}</p>
                      </Show>
                      <Show when={fromTurn(ins) && !proposals(ins).length}>
                        <p class="hint" data-testid="evidence-only">
                          Evidence only: no key point is proposed from this turn.
                        </p>
                      </Show>
                      <Show when={ins.tags.includes('one_off')}>
                        <p class="hint" data-testid="one-off">
                          A one-off fix: it worked once, for that task, and is not proposed as a key point.
                        </p>
                      </Show>
                      <For each={proposals(ins)}>
                        {(p) => (
                          <p class="hint" data-testid="proposal">
                            Key point ({p.section}): {p.text}
                            {p.context ? ` — corrected: ${p.context}` : ''}
                          </p>
                        )}
                      </For>
                      <div class="row">
                        <For each={ins.traceRefs.filter((r) => byRef()(r)).slice(0, 2)}>
                          {(ref, i) => (
                            <button type="button" class="link" onClick={() => app.goTo(ref)}>
                              {i() === 0 ? 'Go to turn' : 'Go to the turn before'} (
                              {byRef()(ref)?.where || ref})
                            </button>
                          )}
                        </For>
                        <Show when={proposals(ins).length}>
                          <button
                            type="button"
                            class="link"
                            onClick={() => void addToPlaybook(proposals(ins))}
                          >
                            Add to playbook
                          </button>
                        </Show>
                      </div>
                    </li>
                  )}
                </For>
              </ul>
              <Show when={!allInsights() && v().insights.length > INSIGHTS_SHOWN}>
                <button type="button" class="ghost" onClick={() => setAllInsights(true)}>
                  Show all {v().insights.length} insights
                </button>
              </Show>
            </Show>
            <h3>
              {v().kind === 'trajectory' ? 'Steps' : 'Turns'} ({turns().length})
            </h3>
            <Show when={start() > 0}>
              <button type="button" class="ghost" onClick={() => setStart(Math.max(0, start() - WINDOW))}>
                Show earlier
              </button>
            </Show>
            <ol class="turns" data-testid="turns">
              <For each={shown()}>
                {(t) => (
                  <li
                    data-ref={t.ref}
                    tabIndex={-1}
                    class={`turn role-${t.role}`}
                    classList={{ highlighted: app.highlight() === t.ref, error: t.isError }}
                  >
                    <div class="turn-head">
                      <span class="role">{t.label}</span>
                      <span class="hint">{t.where}</span>
                    </div>
                    <pre>{t.preview}</pre>
                  </li>
                )}
              </For>
            </ol>
            <Show when={start() + WINDOW < turns().length}>
              <button type="button" class="ghost" onClick={() => setStart(start() + WINDOW)}>
                Show later
              </button>
            </Show>
          </>
        )}
      </Show>
    </div>
  );
}

/**
 * Says when people's turns are in one of the eight languages the markers read only once their lists
 * are added, with the button that adds them: without it a Chinese session shows no correction and no
 * sign why.
 */
function LanguageNote(props: { app: AppState; turns: readonly Turn[] }) {
  const other = createMemo(() =>
    languagesAdded(props.app) ? undefined : turnsInOtherLanguages(props.turns),
  );
  const { add, failed } = languageAdder(props.app);
  return (
    <Show when={other()}>
      {(o) => (
        <p class="hint" data-testid="language-note">
          {o().turns} of {o().of} people's turns read as {o().names}: the markers read English only.{' '}
          <button type="button" onClick={() => void add()}>
            Add eight more languages
          </button>
          <Show when={failed()}>
            {(m) => <span role="alert"> The lists could not be loaded ({m()}).</span>}
          </Show>
        </p>
      )}
    </Show>
  );
}
