/**
 * The reader (rearview/heuristic-model) and its two sets of thresholds, behind one dynamic import in analyze.ts
 * (`loadScorer`): its own chunk, named after this file, loaded only when the Tune panel first chooses
 * it (the correction scorer's chunk stays apart: the reader's weights are five times its size).
 */
export { READER_MIN_SCORE, READER_RECALL_MIN_SCORE, readerModel } from 'rearview/heuristic-model';
