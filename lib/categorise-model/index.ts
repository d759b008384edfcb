/**
 * `rearview/categorise-model`: the notes reader, a learned categoriser for the sentences of agent
 * notes (issue 39). A softmax regression over hashed features of the sentence: today's rules as
 * features (their category, resolved bit and cue bits), the sentence's words and word pairs, and its
 * shape. Trained by `npm run eval:notes-reader -- --final --write` on the labelled entries of
 * eval/snapshot and shipped as integer weights: a sentence's category is the argmax of integer sums,
 * the same in every runtime. Pass `notesReader` as `deterministicSnapshot`'s `categorise` option;
 * import it lazily (`await import('rearview/categorise-model')`) to keep its weights out of a bundle
 * that does not use it.
 *
 * @module
 */
import { classify, type SnapshotCategory, squash, words } from '../categorise/index.js';
import { noteBuckets } from './features.js';
import { BIAS, TRAINED, WEIGHTS } from './weights.js';

export { BUCKETS, type NoteFeatureSet, noteBucket, noteBuckets, noteFeatures } from './features.js';

/**
 * The reader's classes, in the order of its weights: the five snapshot categories and `irrelevant`
 * (kept out of the snapshot).
 *
 * @example
 * ```ts
 * NOTE_CLASSES.length; // 6
 * ```
 */
export const NOTE_CLASSES = [
  'openHypotheses',
  'blockers',
  'nextActions',
  'unresolvedQuestions',
  'requiredEvidenceLinks',
  'irrelevant',
] as const;
const K = NOTE_CLASSES.length;

let weights: Map<number, Int32Array> | undefined;

/** The weights by bucket, decoded once on first use. */
function decode(): Map<number, Int32Array> {
  if (weights) return weights;
  const out = new Map<number, Int32Array>();
  let bucket = 0;
  if (WEIGHTS !== '')
    for (const entry of WEIGHTS.split(' ')) {
      const parts = entry.split(':');
      bucket += Number.parseInt(parts[0]!, 36);
      out.set(
        bucket,
        Int32Array.from(parts.slice(1), (p) => Number.parseInt(p, 36)),
      );
    }
  weights = out;
  return out;
}

/**
 * The reader's integer logits of one sentence, one per {@link NOTE_CLASSES} entry (sixteenths of a
 * logit); the largest is its class.
 *
 * @example
 * ```ts
 * const z = noteLogits('Maybe the cache key ignores the locale.');
 * NOTE_CLASSES[z.indexOf(Math.max(...z))]; // 'openHypotheses'
 * ```
 */
export function noteLogits(sentence: string): number[] {
  const w = decode();
  const z = [...BIAS];
  // Exactly the features the weights were trained on: another set's buckets could meet a weight.
  for (const b of noteBuckets(sentence, TRAINED.featureSet)) {
    const wb = w.get(b);
    if (wb) for (let c = 0; c < K; c++) z[c]! += wb[c]!;
  }
  return z;
}

/**
 * The reader's category of one sentence of agent notes, or `undefined` when it is none worth keeping
 * (done, resolved, chatter). Ties go to the earlier class of {@link NOTE_CLASSES}. A person's words
 * (`role` `user`) get the rules' answer of `rearview/categorise`: every sentence the reader learned
 * from is an agent's or a tool's, and on a person's own error reports ("it is not working") it was
 * wrong (eval/snapshot/sets/pending/README.md, "The notes reader's lists").
 *
 * @example
 * ```ts
 * notesReader('Should we rename it to with_common_list_options?'); // 'unresolvedQuestions'
 * notesReader('it is still not working', 'user'); // the rules' answer: 'blockers'
 * deterministicSnapshot(input, { categorise: notesReader });
 * ```
 */
export function notesReader(
  sentence: string,
  role?: 'user' | 'assistant' | 'tool',
): SnapshotCategory | undefined {
  if (role === 'user') {
    const text = squash(String(sentence ?? ''));
    return classify(words(text), text).category;
  }
  const z = noteLogits(sentence);
  let best = 0;
  for (let c = 1; c < K; c++) if (z[c]! > z[best]!) best = c;
  return best === K - 1 ? undefined : (NOTE_CLASSES[best] as SnapshotCategory);
}
