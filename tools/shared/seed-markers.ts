/**
 * Seed 004's marker lists (`car_memgine/reflection.rs`), verbatim: the baseline the evaluations and
 * benchmarks compare rearview's detector with. Not shipped: `rearview/heuristic` carries only its own
 * lists, and a heuristic-entry byte is worth more to a user than a list that misfires.
 */
import type { MarkerSet } from '../../lib/heuristic/index';

/**
 * The reference design's marker lists, verbatim (substring markers; the reference looked them up in lower-cased text, so
 * its `"I said"` and `"I meant"` never matched). Run through this module's word-aware matcher they
 * behave as whole-word phrases.
 *
 * @example
 * ```ts
 * classifyTurn('16 is a perfect square.', SEED_MARKERS).preference; // true: the reference design's bare `perfect`
 * classifyTurn('16 is a perfect square.').preference; // false with DEFAULT_MARKERS
 * ```
 */
export const SEED_MARKERS: MarkerSet = {
  correction: [
    'no, ',
    'no not',
    "don't do",
    'stop doing',
    "that's wrong",
    'actually,',
    'instead,',
    'not that',
    'I said',
    'I meant',
    "please don't",
    'undo that',
    'revert',
    "that's not what",
    'wrong approach',
    'bad idea',
  ],
  challenge: [],
  preference: [
    'i prefer',
    'always use',
    'never use',
    'from now on',
    'in the future',
    'remember that',
    'keep doing',
    'good job',
    'yes exactly',
    'perfect',
    "that's right",
  ],
  positive: ['good job', 'yes exactly', 'perfect', "that's right", 'keep doing'],
  friction: [
    'again',
    'like i said',
    'i already told you',
    'for the third time',
    'as i mentioned',
    'same as before',
    'we discussed this',
    'i keep having to',
  ],
};
