/**
 * The playground's settings and their defaults, apart from the analysis (analyze.ts): the first paint
 * reads the URL and shows the sliders with these, while the analysis code loads on its own.
 */
import { PARAM_DEFAULTS, type ParamValues } from 'rearview/snapshot';
import { DEFAULT_MARKERS, type Markers } from './heuristics';

/**
 * The tunable numbers (rearview/snapshot's PARAM_SPECS: the snapshot's caps and gates, AgentDiet's
 * a, b and θ) plus the heuristic markers and what reads people's turns.
 */
export interface Settings extends ParamValues {
  markers: Markers;
  /**
   * What reads people's turns: the markers, or a learned scorer of rearview/heuristic-model (loaded
   * on first use): `correction-model` decides corrections, `reader` every category at its own
   * thresholds (`READER_MIN_SCORE`), `reader-recall` at its lower ones (`READER_RECALL_MIN_SCORE`).
   */
  detector: Detector;
}

/** What reads people's turns, as `rearview reflect --detector` names it (a test holds the two lists equal). */
export const DETECTORS = ['markers', 'correction-model', 'reader', 'reader-recall'] as const;
/** One of {@link DETECTORS}. */
export type Detector = (typeof DETECTORS)[number];

/**
 * The detectors as the Tune panel's radios and the Learn tab's menu offer them: the default first,
 * each with its name and what it does (one list, so the two places cannot drift).
 */
export const DETECTOR_CHOICES: readonly { value: Detector; label: string; help: string }[] = [
  {
    value: 'reader-recall',
    label: 'Reader (default)',
    help: 'every category scored by the learned reader at thresholds chosen for recall: on authors it never trained on, more corrections than the markers, more of them right',
  },
  {
    value: 'reader',
    label: 'Reader, higher thresholds',
    help: 'the reader at its own thresholds: fewer corrections, more of them right',
  },
  { value: 'markers', label: 'Markers', help: 'the phrase markers alone (rearview/heuristic)' },
  {
    value: 'correction-model',
    label: 'Learned correction scorer',
    help: 'corrections decided by a small learned model',
  },
];

export const DEFAULT_SETTINGS: Settings = {
  ...PARAM_DEFAULTS,
  markers: DEFAULT_MARKERS,
  // As `rearview reflect` and `rearview learn` read by default (a test holds the three equal).
  detector: 'reader-recall',
};
