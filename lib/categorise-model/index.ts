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
import { ValidationError } from '../core/index.js';
import { type NoteFeatureSet, noteBuckets } from './features.js';
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

/**
 * A notes reader's data, as the training script writes it (lib/categorise-model/weights.ts): integer
 * biases and weights in sixteenths of a logit, one per {@link NOTE_CLASSES} entry.
 */
export interface NotesReaderWeights {
  /** One integer per {@link NOTE_CLASSES} entry. */
  bias: readonly number[];
  /**
   * The weights by feature bucket: space-separated `gap:w0:…:w5` entries in base 36, `gap` the bucket's
   * distance from the entry before (the first from 0); empty for a reader of biases only.
   */
  weights: string;
  /** The feature set the weights were trained on (`noteBuckets`); default `'rules'`. */
  featureSet?: NoteFeatureSet;
}

/** A notes reader: its logits and its category of a sentence (see {@link notesReader}). */
export interface NotesReader {
  logits(sentence: string): number[];
  read(sentence: string, role?: 'user' | 'assistant' | 'tool'): SnapshotCategory | undefined;
}

const INT = /^-?[0-9a-z]+$/;

/** The weights by bucket; a ValidationError names the first entry that is not one. */
function decode(text: string): Map<number, Int32Array> {
  const out = new Map<number, Int32Array>();
  let bucket = 0;
  if (text !== '')
    for (const [i, entry] of text.split(' ').entries()) {
      const parts = entry.split(':');
      if (parts.length !== K + 1 || !parts.every((p) => INT.test(p)))
        throw new ValidationError(
          [
            {
              path: `weights[${i}]`,
              message: `must be a bucket gap and ${K} base-36 integers, ':'-separated`,
            },
          ],
          { subject: 'Notes reader data' },
        );
      bucket += Number.parseInt(parts[0]!, 36);
      out.set(
        bucket,
        Int32Array.from(parts.slice(1), (p) => Number.parseInt(p, 36)),
      );
    }
  return out;
}

/**
 * A notes reader from weights of your own (a refit with the training script, or an earlier version
 * kept to compare with): the same reading as {@link notesReader}, which is this function over the
 * shipped weights. The weights are checked and decoded on the first sentence read; malformed ones
 * throw a `ValidationError` (from `rearview/core`) then.
 *
 * @example
 * ```ts
 * const reader = createNotesReader({ bias: [0, 0, 0, 0, 0, 1], weights: '' });
 * reader.read('Anything at all.'); // undefined: the last class, irrelevant, wins every sentence
 * deterministicSnapshot(input, { categorise: reader.read });
 * ```
 */
export function createNotesReader({ bias, weights, featureSet = 'rules' }: NotesReaderWeights): NotesReader {
  let decoded: Map<number, Int32Array> | undefined;
  const logits = (sentence: string): number[] => {
    if (!decoded) {
      if (bias.length !== K || !bias.every(Number.isSafeInteger))
        throw new ValidationError([{ path: 'bias', message: `must be ${K} integers` }], {
          subject: 'Notes reader data',
        });
      decoded = decode(weights);
    }
    const z = [...bias];
    // Exactly the features the weights were trained on: another set's buckets could meet a weight.
    for (const b of noteBuckets(sentence, featureSet)) {
      const wb = decoded.get(b);
      if (wb) for (let c = 0; c < K; c++) z[c]! += wb[c]!;
    }
    return z;
  };
  const read = (sentence: string, role?: 'user' | 'assistant' | 'tool'): SnapshotCategory | undefined => {
    if (role === 'user') {
      const text = squash(String(sentence ?? ''));
      return classify(words(text), text).category;
    }
    const z = logits(sentence);
    let best = 0;
    for (let c = 1; c < K; c++) if (z[c]! > z[best]!) best = c;
    return best === K - 1 ? undefined : (NOTE_CLASSES[best] as SnapshotCategory);
  };
  return { logits, read };
}

let shipped: NotesReader | undefined;
const shippedReader = (): NotesReader =>
  (shipped ??= createNotesReader({ bias: BIAS, weights: WEIGHTS, featureSet: TRAINED.featureSet }));

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
  return shippedReader().logits(sentence);
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
  return shippedReader().read(sentence, role);
}
