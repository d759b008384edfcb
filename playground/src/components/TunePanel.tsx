import { clampParam, type ParamSpec } from 'rearview/snapshot';
import { createSignal, For, Show } from 'solid-js';
import type { Markers } from '../heuristics';
import { languageAdder, languagesAdded } from '../language-markers';
import { DEFAULT_SETTINGS, DETECTOR_CHOICES } from '../settings';
import { SLIDER_GROUPS } from '../sliders';
import type { AppState } from '../state';

const MARKER_LISTS: { key: keyof Markers; label: string }[] = [
  { key: 'correction', label: 'Correction markers' },
  { key: 'challenge', label: 'Challenge markers' },
  { key: 'preference', label: 'Preference markers' },
  { key: 'positive', label: 'Approval markers' },
  { key: 'friction', label: 'Friction markers' },
];

type Tab = ReturnType<AppState['tab']>;

/** Which tab each group of numbers changes: the Insights tab only follows the markers. */
const AFFECTS: Record<string, { tab: Tab; name: string; how: string }> = {
  Insights: { tab: 'insights', name: 'Insights', how: 'at once' },
  'Active-context snapshot': {
    tab: 'snapshots',
    name: 'Snapshots',
    how: 'the deterministic snapshot at once; the reflected one at its next run',
  },
  'Trajectory reduction': {
    tab: 'reduction',
    name: 'Trajectory reduction',
    how: 'a at once; b and θ at the next AgentDiet run',
  },
};
const affects = (legend: string) => AFFECTS[legend] ?? AFFECTS['Active-context snapshot']!;

/** What reads people's turns (the markers or a learned scorer) and what became of a scorer's import. */
function DetectorChoice(props: { app: AppState; onChange: () => void }) {
  const app = props.app;
  const st = app.scorerStatus;
  const reader = () => app.settings().detector.startsWith('reader');
  return (
    <fieldset aria-describedby="learned-help">
      <legend>Insights: who reads people's turns</legend>
      <For each={DETECTOR_CHOICES}>
        {(c) => (
          <label class="radio" title={c.help}>
            <input
              type="radio"
              name="detector"
              value={c.value}
              checked={app.settings().detector === c.value}
              onChange={() => {
                app.setSettings((s) => ({ ...s, detector: c.value }));
                props.onChange();
              }}
            />
            {c.label}
          </label>
        )}
      </For>
      <p class="hint" id="learned-help">
        The learned scorers come from rearview/heuristic-model, loaded on first use. By default the reader
        scores every category of people's turns at thresholds chosen for recall; at its higher thresholds it
        says fewer corrections, more of them right. The markers alone are the phrase lists below; the
        correction scorer decides corrections only.
      </p>
      <Show when={st()}>
        {(s) => (
          <p
            class={s().kind === 'failed' ? 'error' : 'hint'}
            role={s().kind === 'failed' ? 'alert' : 'status'}
            data-testid="scorer-status"
          >
            {s().kind === 'loading'
              ? 'Loading the model…'
              : s().kind === 'on'
                ? reader()
                  ? 'On: people’s turns and their scores are the reader’s.'
                  : 'On: corrections and their scores are the model’s.'
                : `The model could not be loaded (${(s() as { message: string }).message}); showing the markers’ insights.`}
          </p>
        )}
      </Show>
    </fieldset>
  );
}

function Slider(props: { spec: ParamSpec; app: AppState; onChange: () => void }) {
  const id = `set-${props.spec.name}`;
  const value = () => props.app.settings()[props.spec.name];
  const set = (raw: string) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) return;
    const v = clampParam(props.spec.name, n);
    props.app.setSettings((s) => ({ ...s, [props.spec.name]: v }));
    props.onChange();
  };
  return (
    <div class="slider">
      <label for={id}>{props.spec.label}</label>
      <input
        id={id}
        type="range"
        min={props.spec.min}
        max={props.spec.max}
        step={props.spec.step}
        value={value()}
        onInput={(e) => set(e.currentTarget.value)}
        aria-describedby={`${id}-help`}
      />
      <input
        type="number"
        aria-label={`${props.spec.label} value`}
        min={props.spec.min}
        max={props.spec.max}
        step={props.spec.step}
        value={value()}
        onChange={(e) => set(e.currentTarget.value)}
      />
      <p class="hint" id={`${id}-help`}>
        {props.spec.help}
      </p>
    </div>
  );
}

/**
 * Appends the common corrections, approvals and friction of eight more languages to the marker lists
 * (`loadLanguageMarkerSet` of rearview/heuristic, a chunk fetched on the first click).
 */
function LanguageMarkers(props: { app: AppState; onChange: () => void }) {
  const app = props.app;
  const added = () => languagesAdded(app);
  const { add, failed } = languageAdder(app, props.onChange);
  return (
    <p class="hint" data-testid="language-markers">
      <button type="button" disabled={added()} onClick={() => void add()}>
        {added() ? 'Eight more languages added' : 'Add eight more languages'}
      </button>{' '}
      Spanish, Portuguese, French, German, Russian, Italian, Chinese and Japanese: their common corrections,
      approvals and friction, appended to each list (English only without them).
      <Show when={failed()}>{(m) => <span role="alert"> The lists could not be loaded ({m()}).</span>}</Show>
    </p>
  );
}

export function TunePanel(props: { app: AppState }) {
  const app = props.app;
  /** The group last changed, while its tab is not the one shown: say where the change is visible. */
  const [changed, setChanged] = createSignal<string | null>(null);
  const elsewhere = () => {
    const g = changed();
    return g && app.tab() !== affects(g).tab ? affects(g) : null;
  };
  const setMarkers = (key: keyof Markers, raw: string) => {
    const list = raw
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    app.setSettings((s) => ({ ...s, markers: { ...s.markers, [key]: list } }));
  };
  return (
    <section class="panel" aria-labelledby="tune-title">
      <div class="panel-head">
        <h2 id="tune-title">Tune</h2>
        <button type="button" class="ghost" onClick={() => app.setSettings(DEFAULT_SETTINGS)}>
          Reset to defaults
        </button>
      </div>
      <Show when={elsewhere()}>
        {(a) => (
          <p class="notice" role="status" data-testid="tune-elsewhere">
            This change shows on the {a().name} tab, not on{' '}
            {app.tab() === 'insights' ? 'Insights' : 'this tab'}.{' '}
            <button type="button" class="link" onClick={() => app.setTab(a().tab)}>
              Show {a().name}
            </button>
          </p>
        )}
      </Show>
      <For each={SLIDER_GROUPS}>
        {(group) => (
          <fieldset>
            <legend>{group.legend}</legend>
            <p class="hint affects" data-testid={`affects-${affects(group.legend).tab}`}>
              Changes the <strong>{affects(group.legend).name}</strong> tab: {affects(group.legend).how}.
            </p>
            <For each={group.specs}>
              {(spec) => <Slider spec={spec} app={app} onChange={() => setChanged(group.legend)} />}
            </For>
          </fieldset>
        )}
      </For>
      <DetectorChoice app={app} onChange={() => setChanged('Insights')} />
      <details>
        <summary>Heuristic markers (change the Insights and Learn tabs)</summary>
        <p class="hint">
          One pattern per line, matched word by word in user turns (rearview/heuristic): <code>^</code> only
          at the start of a clause, <code>*</code> a gap of up to 3 words, trailing <code>$</code> ends the
          clause, <code>?</code> only in a question, <code>!</code> only in a statement. Negated matches are
          ignored.
        </p>
        <LanguageMarkers app={app} onChange={() => setChanged('Insights')} />
        <For each={MARKER_LISTS}>
          {(m) => (
            <label class="marker">
              {m.label}
              <textarea
                rows={4}
                value={app.settings().markers[m.key].join('\n')}
                onChange={(e) => setMarkers(m.key, e.currentTarget.value)}
              />
            </label>
          )}
        </For>
      </details>
    </section>
  );
}
