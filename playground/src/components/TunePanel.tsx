import { For } from 'solid-js';
import { DEFAULT_SETTINGS, type Settings } from '../analyze';
import type { Markers } from '../heuristics';
import type { AppState } from '../state';

type NumKey = Exclude<keyof Settings, 'markers'>;

interface SliderSpec {
  key: NumKey;
  label: string;
  min: number;
  max: number;
  step: number;
  help: string;
}

const SNAPSHOT: SliderSpec[] = [
  {
    key: 'minSnapshotTokens',
    label: 'minSnapshotTokens',
    min: 0,
    max: 2000,
    step: 10,
    help: 'Reflect only when the deterministic snapshot has at least this many tokens.',
  },
  {
    key: 'minSavingsTokens',
    label: 'minSavingsTokens',
    min: 0,
    max: 1000,
    step: 10,
    help: 'Adopt the reflection only when it saves at least this many tokens.',
  },
  {
    key: 'maxCategoryItems',
    label: 'Items per category (cap)',
    min: 1,
    max: 50,
    step: 1,
    help: 'At most this many items in each list.',
  },
  {
    key: 'maxTextLength',
    label: 'Characters per item (cap)',
    min: 40,
    max: 600,
    step: 10,
    help: 'Longer items are cut.',
  },
  {
    key: 'nearDuplicateThreshold',
    label: 'Near-duplicate similarity',
    min: 0.1,
    max: 1,
    step: 0.05,
    help: 'Jaccard similarity from which two items are consolidated.',
  },
];
const DIET: SliderSpec[] = [
  {
    key: 'a',
    label: 'AgentDiet a (delay)',
    min: 1,
    max: 5,
    step: 1,
    help: 'At step s, step s − a is compressed; the last a steps are kept.',
  },
  {
    key: 'b',
    label: 'AgentDiet b (context)',
    min: 0,
    max: 3,
    step: 1,
    help: 'Steps before the target shown to the model.',
  },
  {
    key: 'theta',
    label: 'AgentDiet θ (tokens)',
    min: 50,
    max: 2000,
    step: 10,
    help: 'Compress only steps of at least θ tokens, saving at least θ.',
  },
];

const MARKER_LISTS: { key: keyof Markers; label: string }[] = [
  { key: 'correction', label: 'Correction markers' },
  { key: 'challenge', label: 'Challenge markers' },
  { key: 'preference', label: 'Preference markers' },
  { key: 'positive', label: 'Approval markers' },
  { key: 'friction', label: 'Friction markers' },
];

function Slider(props: { spec: SliderSpec; app: AppState }) {
  const id = `set-${props.spec.key}`;
  const value = () => props.app.settings()[props.spec.key];
  const set = (raw: string) => {
    const n = Number(raw);
    if (!Number.isFinite(n)) return;
    const v = Math.min(props.spec.max, Math.max(props.spec.min, n));
    props.app.setSettings((s) => ({ ...s, [props.spec.key]: v }));
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
      <fieldset>
        <legend>Active-context snapshot</legend>
        <For each={SNAPSHOT}>{(spec) => <Slider spec={spec} app={app} />}</For>
      </fieldset>
      <fieldset>
        <legend>Trajectory reduction</legend>
        <For each={DIET}>{(spec) => <Slider spec={spec} app={app} />}</For>
      </fieldset>
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
