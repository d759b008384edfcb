/**
 * The playground's settings and their defaults, apart from the analysis (analyze.ts): the first paint
 * reads the URL and shows the sliders with these, while the analysis code loads on its own.
 */
import { PARAM_DEFAULTS, type ParamValues } from 'rearview/snapshot';
import { DEFAULT_MARKERS, type Markers } from './heuristics';

/**
 * The tunable numbers (rearview/snapshot's PARAM_SPECS: the snapshot's caps and gates, AgentDiet's
 * a, b and θ) plus the heuristic markers and the learned correction scorer switch.
 */
export interface Settings extends ParamValues {
  markers: Markers;
  /** Corrections decided by `correctionModel` of rearview/heuristic-model (loaded on first use). */
  learnedScorer: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  ...PARAM_DEFAULTS,
  markers: DEFAULT_MARKERS,
  learnedScorer: false,
};
