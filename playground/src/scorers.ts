/**
 * The learned scorers of people's turns (rearview/heuristic-model), each behind its own dynamic import:
 * the correction scorer's chunk (heuristic-model.ts, about 8 KB gzipped) and the reader's
 * (reader-model.ts, about 57 KB), never both for one. The analysis (analyze.ts), its worker and the
 * Learn tab's worker load them from here.
 */
import type { TurnScorer, TurnScores } from 'rearview/heuristic';
import type { Detector } from './settings';

/** A learned scorer of people's turns with the thresholds it was calibrated for (none: the default). */
export interface LearnedScorer {
  scorer: TurnScorer;
  minScore?: Partial<TurnScores>;
}

/** The detectors that are learned scorers. */
export type LearnedDetector = Exclude<Detector, 'markers'>;

const loads: Partial<Record<LearnedDetector, Promise<LearnedScorer>>> = {};
// One function per chunk: each `import()` then gets its own preload list (in one conditional
// expression the bundler gave both the correction scorer's list, so choosing the reader fetched both).
async function importReader(recall: boolean): Promise<LearnedScorer> {
  const m = await import('./reader-model');
  return { scorer: m.readerModel, minScore: recall ? m.READER_RECALL_MIN_SCORE : m.READER_MIN_SCORE };
}
async function importCorrectionModel(): Promise<LearnedScorer> {
  const m = await import('./heuristic-model');
  return { scorer: m.correctionModel };
}

/**
 * A learned scorer, imported on first call (its weights stay out of the first load). A failed import
 * is forgotten here, so the next call tries again; whether the browser then fetches the module again
 * depends on its module map (Chromium does: the e2e test retries after an aborted request; older
 * engines may keep the failure until a reload).
 */
export function loadScorer(detector: LearnedDetector): Promise<LearnedScorer> {
  loads[detector] ??=
    detector === 'correction-model' ? importCorrectionModel() : importReader(detector === 'reader-recall');
  const load = loads[detector];
  load.catch(() => {
    if (loads[detector] === load) delete loads[detector];
  });
  return load;
}
