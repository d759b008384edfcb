/**
 * A deterministic text embedding that gives bit-identical floats in every JavaScript engine (and in
 * Python): all hashing and accumulation is 32-bit integer arithmetic, and the only floating-point
 * work is one L2 normalization made of `+`, `*`, `/` and `Math.sqrt`, each correctly rounded by
 * IEEE 754.
 */

import { fmix32, fnv1a32Bytes, ValidationError } from '../core/index.js';
import { splitWhitespace } from './text.js';

/**
 * Default dimension of {@link deterministicEmbedding}: 32 (reference design:
 * `DeterministicEmbeddingAdapter(dim=32)`).
 *
 * @example
 * ```ts
 * deterministicEmbedding('summary of the turn').length; // 32 (EMBEDDING_DIM)
 * deterministicEmbedding('summary of the turn', EMBEDDING_DIM * 2).length; // 64
 * ```
 */
export const EMBEDDING_DIM = 32;

/** Hash features per token; several spread each token over the vector. */
const FEATURES = 4;
const GOLDEN = 0x9e3779b9;

/**
 * Embeds `text` as a `dim`-dimension unit vector (L2 norm 1): a signed, weighted feature hash of its
 * whitespace tokens (Python's `str.split()`). Each token's UTF-8 bytes are hashed with FNV-1a (32
 * bit); {@link FEATURES} MurmurHash3-finalized variants pick a coordinate, a sign and a weight 1–8,
 * added into integer counts. The counts `c` become `c[i] / Math.sqrt(Σ c[j]·c[j])`. Text without
 * tokens (or whose features cancel out) gives the zero vector.
 *
 * Same text, same floats, in every runtime; identical texts have cosine 1, texts sharing no token
 * are close to orthogonal.
 *
 * @throws {ValidationError} when `dim` is not an integer from 1 to 65536.
 *
 * @example
 * ```ts
 * const v = deterministicEmbedding('summary of the turn'); // 32 numbers, Σ v² ≈ 1
 * ```
 */
export function deterministicEmbedding(text: string, dim: number = EMBEDDING_DIM): number[] {
  if (!Number.isInteger(dim) || dim < 1 || dim > 65536) {
    throw new ValidationError([{ path: 'dim', message: 'must be an integer from 1 to 65536' }], {
      subject: 'Embedding dimension',
    });
  }
  const counts = new Int32Array(dim);
  const encoder = new TextEncoder();
  for (const token of splitWhitespace(String(text))) {
    const h = fnv1a32Bytes(encoder.encode(token));
    for (let k = 0; k < FEATURES; k++) {
      const x = fmix32((h ^ Math.imul(k + 1, GOLDEN)) >>> 0);
      const index = x % dim;
      const weight = 1 + ((x >>> 8) & 7);
      counts[index]! += x & 0x80000000 ? -weight : weight;
    }
  }
  let sumSquares = 0;
  for (let i = 0; i < dim; i++) sumSquares += counts[i]! * counts[i]!;
  const out = new Array<number>(dim);
  if (sumSquares === 0) return out.fill(0);
  const norm = Math.sqrt(sumSquares);
  for (let i = 0; i < dim; i++) out[i] = counts[i]! / norm;
  return out;
}
