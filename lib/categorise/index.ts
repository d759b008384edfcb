/**
 * `rearview/categorise`: what one sentence of agent output does — a plan, a blocker, a guess, a
 * question, a pointer to evidence, or nothing worth keeping — read in one pass over its words, with no
 * model call. The word table and text primitives the snapshot builds on (words, stems, comparable
 * keys, links) live here too, since the categoriser reads through them.
 *
 * @module
 */

export {
  type Classification,
  classify,
  classifyFlags,
  RESOLVED_CODE,
  scopeCategory,
  taskCategory,
  wordFlags,
} from './classify.js';
export type { SnapshotCategory } from './codes.js';
export { headingLine } from './lead.js';
export { findLinks, findLinksFrom } from './links.js';
export { hint } from './needles.js';
export { scanText } from './scan.js';
export { comparableKey, contentTerms, squash, words } from './text.js';
export { keyHash, MINHASHES, PROBE_LIMIT, Vocabulary } from './vocab.js';
