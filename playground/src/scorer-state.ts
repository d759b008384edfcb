/**
 * The main thread's import of the learned scorer the Tune panel chose: what the analysis in state.ts
 * reads (the scorer, or why it failed, for the detector chosen now; nothing while it loads).
 */
import { type Accessor, createEffect, createMemo, createSignal, on } from 'solid-js';
import type { LearnedDetector, LearnedScorer } from './scorers';
import type { Detector } from './settings';

/**
 * Imports the chosen learned scorer when it is chosen and the input is analysed on this thread
 * (`large()` false: a large input's worker imports its own). An answer for a detector no longer chosen
 * is dropped; choosing a scorer again after a failure tries again.
 */
export function scorerImport(chosen: Accessor<Detector>, large: Accessor<boolean>) {
  const detector = createMemo(chosen);
  const learnedOn = createMemo(() => detector() !== 'markers');
  const [model, setModel] = createSignal<{
    detector?: LearnedDetector;
    scorer?: LearnedScorer;
    error?: string;
  }>({});
  /** What the import has given for the detector chosen now (an answer for another one is stale). */
  const current = (): { scorer?: LearnedScorer; error?: string } =>
    model().detector === detector() ? model() : {};
  createEffect(
    on([detector, large], ([d, big]) => {
      if (d === 'markers' || big || current().scorer) return;
      setModel({ detector: d });
      void import('./scorers')
        .then((m) => m.loadScorer(d))
        .then(
          (scorer) => detector() === d && setModel({ detector: d, scorer }),
          (err: unknown) => detector() === d && setModel({ detector: d, error: String(err) }),
        );
    }),
  );
  return { detector, learnedOn, current };
}
