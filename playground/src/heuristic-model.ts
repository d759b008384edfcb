/**
 * The learned correction scorer (rearview/heuristic-model), behind one dynamic import in analyze.ts
 * (`loadScorer`): its own chunk, named after this file, loaded only when the Tune panel first chooses it.
 */
export { correctionModel } from 'rearview/heuristic-model';
