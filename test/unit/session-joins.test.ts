/**
 * The precondition of the incremental-reading properties (test/session-joins.ts): it tells the
 * conversations where the session keeps a half of a secret split across two messages from the others.
 */
import { describe, expect, it } from 'vitest';
import { joinsFormASecret } from '../session-joins';

describe('joinsFormASecret', () => {
  it('holds where the session keeps a half, and not where a join is an accident', () => {
    // An address cut before its top-level domain: the session redacts "A@0." from then on.
    expect(
      joinsFormASecret([
        { role: 'user', content: 'A@0.' },
        { role: 'user', content: 'AA' },
      ]),
    ).toBe(true);
    const key = 'ghp_R8x2Kq9ZmT4vB7nW1pL3sD6fH0jY5cX8aE2uG';
    const split = [
      { role: 'user', content: `push with ${key.slice(0, 20)}` },
      { role: 'assistant', content: '' },
      { role: 'user', content: `${key.slice(20)} from now on` },
    ];
    expect(joinsFormASecret(split)).toBe(true);
    expect(
      joinsFormASecret([
        { role: 'user', content: 'A@A.' },
        { role: 'user', content: "Shouldn't it?" },
      ]),
    ).toBe(false);
    expect(
      joinsFormASecret([
        { role: 'user', content: `use ${key}` },
        { role: 'user', content: 'Thanks' },
      ]),
    ).toBe(false);
  });
});
