import { RearviewError } from './errors.js';

/**
 * SHA-256 of `input` (a string is hashed as its UTF-8 bytes), as 64 lowercase hex characters.
 * Uses Web Crypto (`crypto.subtle`), present in every supported runtime; `crypto` is looked up
 * only when called.
 *
 * @throws {RearviewError} code `unsupported_runtime` when `crypto.subtle` is missing (for example
 * a browser page served over plain http from a non-localhost origin).
 *
 * @example
 * ```ts
 * await sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) {
    throw new RearviewError(
      'unsupported_runtime',
      'crypto.subtle is not available here; sha256Hex needs Web Crypto (a secure context in browsers)',
    );
  }
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const digest = await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return toHex(new Uint8Array(digest));
}

/**
 * Lowercase hex encoding of bytes.
 *
 * @example
 * ```ts
 * toHex(new Uint8Array([0, 255])); // '00ff'
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return out;
}
