import { clampParam, type ParamSpec } from 'rearview/snapshot';
import { For } from 'solid-js';
import { DEFAULT_SETTINGS } from '../analyze';
import type { Markers } from '../heuristics';
import { SLIDER_GROUPS } from '../sliders';
import type { AppState } from '../state';

const MARKER_LISTS: { key: keyof Markers; label: string }[] = [
  { key: 'correction', label: 'Correction markers' },
  { key: 'challenge', label: 'Challenge markers' },
  { key: 'preference', label: 'Preference markers' },
  { key: 'positive', label: 'Approval markers' },
  { key: 'friction', label: 'Friction markers' },
];

function Slider(props: { spec: ParamSpec; app: AppState }) {
  const id = `set-${props.spec.name}`;
  const value = () => props.app.settings()[props.spec.name];
  const set = (raw: string) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) return;
    const v = clampParam(props.spec.name, n);
    props.app.setSettings((s) => ({ ...s, [props.spec.name]: v }));
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

export function TunePanel(props: { app: AppState }) {
  const app = props.app;
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
      <For each={SLIDER_GROUPS}>
        {(group) => (
          <fieldset>
            <legend>{group.legend}</legend>
            <For each={group.specs}>{(spec) => <Slider spec={spec} app={app} />}</For>
          </fieldset>
        )}
      </For>
      <details>
        <summary>Heuristic markers</summary>
        <p class="hint">
          One pattern per line, matched word by word in user turns (rearview/heuristic): <code>^</code> only
          at the start of a clause, <code>*</code> a gap of up to 3 words, trailing <code>$</code> ends the
          clause, <code>?</code> only in a question, <code>!</code> only in a statement. Negated matches are
          ignored.
        </p>
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
