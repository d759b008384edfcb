/**
 * The Learn tab's run options: evidence needed, token budget, the date evidence counts from, and what
 * reads people's turns.
 */
import { type Accessor, For, type Setter } from 'solid-js';
import { DETECTOR_CHOICES, type Detector } from '../settings';

export interface RunOptionSignals {
  minSessions: Accessor<number>;
  setMinSessions: Setter<number>;
  budget: Accessor<number>;
  setBudget: Setter<number>;
  /** `YYYY-MM-DD`, or '' for all evidence. */
  since: Accessor<string>;
  setSince: Setter<string>;
  detector: Accessor<Detector>;
  setDetector: (d: Detector) => void;
}

export default function RunOptions(props: { o: RunOptionSignals }) {
  const o = props.o;
  return (
    <>
      <label>
        min sessions{' '}
        <input
          type="number"
          min="1"
          value={o.minSessions()}
          data-testid="learn-min-sessions"
          onInput={(e) => o.setMinSessions(Math.max(1, Number(e.currentTarget.value) || 1))}
        />
      </label>
      <label>
        budget (tokens, 0 = none){' '}
        <input
          type="number"
          min="0"
          value={o.budget()}
          onInput={(e) => o.setBudget(Number(e.currentTarget.value) || 0)}
        />
      </label>
      <label title="Only evidence dated on or after this day counts: what the sessions taught since AGENTS.md last changed, say.">
        since{' '}
        <input
          type="date"
          value={o.since()}
          data-testid="learn-since"
          onInput={(e) => o.setSince(e.currentTarget.value)}
        />
      </label>
      <label title="The learned scorers (rearview/heuristic-model) are loaded by the run that needs one. By default the reader at its lower thresholds; at its higher ones it says fewer corrections, more of them right.">
        people's turns read by{' '}
        <select
          value={o.detector()}
          data-testid="learn-detector"
          onChange={(e) => o.setDetector(e.currentTarget.value as Detector)}
        >
          <For each={DETECTOR_CHOICES}>
            {(c) => (
              <option value={c.value} title={c.help}>
                {c.label}
              </option>
            )}
          </For>
        </select>
      </label>
    </>
  );
}
