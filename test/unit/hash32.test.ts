import { describe, expect, it } from 'vitest';
import { fmix32, fnv1a32, fnv1a32Bytes } from '../../lib/core/index';

describe('32-bit hashes', () => {
  it('match the published FNV-1a vectors', () => {
    // Reference values from the FNV-1a definition (computed independently in Python).
    expect(fnv1a32('')).toBe(2166136261);
    expect(fnv1a32('a')).toBe(3826002220);
    expect(fnv1a32('abc')).toBe(440920331);
    expect(fnv1a32Bytes(new TextEncoder().encode('abc'))).toBe(440920331);
    expect(fnv1a32Bytes(new TextEncoder().encode('café'))).toBe(2821410889);
  });

  it('fmix32 is MurmurHash3’s finalizer: unsigned, and 0 stays 0', () => {
    expect(fmix32(0)).toBe(0);
    for (const x of [1, 0xffffffff, 0x80000000, 123456789]) {
      const y = fmix32(x);
      expect(Number.isInteger(y) && y >= 0 && y <= 0xffffffff).toBe(true);
    }
    expect(fmix32(1)).toBe(0x514e28b7);
  });
});
