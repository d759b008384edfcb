/**
 * UTF-8 aware truncation without encoding the whole string: byte lengths are computed from UTF-16
 * code units as we go, so cutting a 10 MB string to 200 bytes costs 200 steps, not 10 MB.
 */

/**
 * Returns the longest prefix of `text` whose UTF-8 encoding is at most `maxBytes` bytes, never
 * splitting a code point (the behaviour of Rust's `floor_char_boundary` in the reference design).
 * A lone surrogate counts as 3 bytes, as `TextEncoder` writes it (U+FFFD). Never throws.
 *
 * @example
 * ```ts
 * truncateUtf8('café', 4);     // 'caf'  (é is 2 bytes)
 * truncateUtf8('😀😁😂', 5);    // '😀'
 * truncateUtf8('hello', 10);  // 'hello'
 * ```
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (typeof text !== 'string') return '';
  if (!(maxBytes > 0)) return '';
  // Fast path: even at 3 bytes per unit the whole string fits.
  if (text.length * 3 <= maxBytes) return text;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    let width: number;
    let units = 1;
    if (c < 0x80) width = 1;
    else if (c < 0x800) width = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        width = 4;
        units = 2;
      } else width = 3;
    } else width = 3;
    if (bytes + width > maxBytes) break;
    bytes += width;
    i += units;
  }
  return i === text.length ? text : text.slice(0, i);
}

/**
 * The number of bytes `text` takes in UTF-8, without allocating the encoding. A lone surrogate counts
 * as 3 bytes, as `TextEncoder` writes it (U+FFFD). Never throws: anything but a string primitive
 * (`null`, a number, a `String` object, …) is not text and takes 0 bytes, as `truncateUtf8` gives `''`.
 *
 * @example
 * ```ts
 * utf8ByteLength('café'); // 5
 * utf8ByteLength(undefined as unknown as string); // 0
 * ```
 */
export function utf8ByteLength(text: string): number {
  if (typeof text !== 'string') return 0;
  // Every unit takes at least one byte; only runs of non-ASCII units add more. The engine's regex
  // finds those runs several times faster than a unit-by-unit loop (ASCII dominates real sessions).
  let bytes = text.length;
  const runs = /[^\x00-\x7f]+/g;
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    const end = m.index + m[0].length;
    for (let i = m.index; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x800) bytes += 1;
      else {
        bytes += 2;
        // A surrogate pair: 4 bytes for 2 units (a lone surrogate is 3 bytes for 1 unit).
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
          const d = text.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) i++;
        }
      }
    }
  }
  return bytes;
}

/**
 * Cuts `text` to at most `max` UTF-16 units, ending with `…` when cut, never splitting a surrogate pair.
 *
 * @example
 * ```ts
 * clip('abcdef', 4); // 'abc…'
 * ```
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = max - 1;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
