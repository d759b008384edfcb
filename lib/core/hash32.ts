/**
 * Small integer hashes shared by the deterministic modules (snapshot consolidation, embeddings,
 * MinHash). Integer-only arithmetic (`Math.imul`, `>>>`), so every runtime gives the same bits.
 */

/**
 * FNV-1a's 32-bit offset basis (`0x811c9dc5`), for callers that hash while they scan.
 *
 * @example
 * ```ts
 * let h = FNV_OFFSET;
 * for (const ch of 'abc') h = Math.imul(h ^ ch.charCodeAt(0), FNV_PRIME);
 * h >>> 0; // 440920331, the same as fnv1a32('abc')
 * ```
 */
export const FNV_OFFSET = 0x811c9dc5;
/**
 * FNV-1a's 32-bit prime (`0x01000193`); multiply with `Math.imul` to stay in 32 bits.
 *
 * @example
 * ```ts
 * const step = (h: number, code: number) => Math.imul(h ^ code, FNV_PRIME);
 * step(FNV_OFFSET, 'a'.charCodeAt(0)) >>> 0; // fnv1a32('a')
 * ```
 */
export const FNV_PRIME = 0x01000193;

/**
 * FNV-1a, 32 bit, over a string's UTF-16 code units; an unsigned integer.
 *
 * @example
 * ```ts
 * fnv1a32('abc'); // 440920331
 * ```
 */
export function fnv1a32(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/**
 * FNV-1a, 32 bit, over bytes (for example UTF-8 from `TextEncoder`); an unsigned integer.
 *
 * @example
 * ```ts
 * fnv1a32Bytes(new TextEncoder().encode('abc')); // 440920331
 * ```
 */
export function fnv1a32Bytes(bytes: Uint8Array): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return h >>> 0;
}

/**
 * MurmurHash3's 32-bit finalizer: spreads the bits of `h`; an unsigned integer.
 *
 * @example
 * ```ts
 * fmix32(fnv1a32('abc') ^ 0x9e3779b1);
 * ```
 */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
