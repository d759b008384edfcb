/**
 * How the scanner reads a text: as UTF-16 code units in a typed array, filled natively. Apart from
 * `scanner.ts` so each stays a file one can read whole.
 */
import type { CompiledMarkers } from './compile.js';

/**
 * The text's UTF-16 code units in a typed array (the compiled markers' own, reused, for texts under
 * {@link SHARED_CODES} units), read natively by `TextEncoder.encodeInto`: an ASCII text (nearly every
 * one) is its UTF-8 bytes, widened natively; any other is decoded back to its units here. The scanner
 * reads the array, never `charCodeAt`: V8 compiles `charCodeAt` for the string kinds it has met (flat,
 * sliced, concatenated, one- or two-byte), and a scanner that had met several ran 1.5–1.8× slower on
 * every text (bench/heuristic.bench.ts, `…-after-mixed-use`). A lone surrogate, which UTF-8 cannot
 * carry, comes back as U+FFFD: one unit for one, neither a word nor a space, so the scan is the same.
 */
export function codesOf(c: CompiledMarkers, text: string): Uint16Array {
  const len = text.length;
  c.encoder ??= new TextEncoder();
  const encoder = c.encoder;
  let bytes = c.bytes;
  if (bytes.length < len) bytes = grown(c, 'bytes', new Uint8Array(len + (len >> 1)), len);
  const first = encoder.encodeInto(text, bytes);
  let codes = c.codes;
  if (codes.length < len) codes = grown(c, 'codes', new Uint16Array(len + 1), len);
  // One byte per unit: ASCII, its bytes are its units, widened natively. Always a Uint16Array, so
  // that V8 compiles the scanner's reads for one kind of array (a second kind, met later, threw the
  // optimised scanner away in some processes).
  if (first.read === len && first.written === len) {
    codes.set(bytes.subarray(0, len));
    return codes;
  }
  let written = first.written;
  if (first.read < len) {
    // Not all of it fitted: room for three bytes a unit, the most UTF-8 takes for UTF-16.
    bytes = grown(c, 'bytes', new Uint8Array(len * 3 + 4), len);
    written = encoder.encodeInto(text, bytes).written;
  }
  let k = 0;
  for (let i = 0; i < written; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      codes[k++] = b;
      i++;
    } else if (b < 0xe0) {
      codes[k++] = ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      i += 2;
    } else if (b < 0xf0) {
      codes[k++] = ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      i += 3;
    } else {
      const cp =
        (((b & 0x07) << 18) |
          ((bytes[i + 1]! & 0x3f) << 12) |
          ((bytes[i + 2]! & 0x3f) << 6) |
          (bytes[i + 3]! & 0x3f)) -
        0x10000;
      codes[k++] = 0xd800 | (cp >> 10);
      codes[k++] = 0xdc00 | (cp & 0x3ff);
      i += 4;
    }
  }
  return codes;
}

/** A larger array, kept for the next texts unless this one is very long (then it is this text's own). */
function grown<K extends 'bytes' | 'codes'>(
  c: CompiledMarkers,
  key: K,
  array: CompiledMarkers[K],
  len: number,
) {
  if (len < SHARED_CODES) c[key] = array;
  return array;
}

/** Texts this long or longer get arrays of their own (the reused ones stay under 1.3 MB). */
const SHARED_CODES = 1 << 18;
