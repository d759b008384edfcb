/**
 * The edge examples' bearer tokens (examples/shared/edge.ts, issued by examples/shared/token.mjs):
 * they expire, name their signing key so keys rotate (an inactive key id is refused), and any change
 * to what they claim breaks the signature. Each refusal is a 401 with its own code.
 */
import { describe, expect, it } from 'vitest';
import { type Authenticate, authKeysFromEnv, authorize, sharedSecretAuth } from '../../examples/shared/edge';
// @ts-expect-error a plain ES module script without declarations
import { issueToken } from '../../examples/shared/token.mjs';

const issue = issueToken as (
  secret: string,
  principal: string,
  options?: { kid?: string; ttlSeconds?: number; now?: number },
) => string;

const OLD = 'old-secret-0123456789abcdef';
const NEW = 'new-secret-fedcba9876543210';
const NOW = 1_800_000_000;
const clock = (t: number) => () => t;

const request = (token: string) =>
  new Request('https://edge.example/playbook', { headers: { authorization: `Bearer ${token}` } });

async function answer(authenticate: Authenticate, token: string) {
  const out = await authorize(request(token), authenticate);
  return 'principal' in out ? { ok: out.principal.id } : { status: out.status, code: out.code };
}

describe('expiry', () => {
  const auth = sharedSecretAuth(OLD, { now: clock(NOW) });

  it('accepts a token until its expiry, then answers 401 token_expired', async () => {
    const token = issue(OLD, 'alice', { ttlSeconds: 600, now: NOW });
    expect(token.split('.')).toHaveLength(4);
    expect(await answer(auth, token)).toEqual({ ok: 'alice' });
    expect(await answer(sharedSecretAuth(OLD, { now: clock(NOW + 599) }), token)).toEqual({ ok: 'alice' });
    expect(await answer(sharedSecretAuth(OLD, { now: clock(NOW + 600) }), token)).toEqual({
      status: 401,
      code: 'token_expired',
    });
  });

  it('refuses a token that would live longer than the maximum lifetime', async () => {
    const forever = issue(OLD, 'alice', { ttlSeconds: 10 * 365 * 24 * 3600, now: NOW });
    expect(await answer(auth, forever)).toEqual({ status: 401, code: 'token_lifetime' });
    const strict = sharedSecretAuth(OLD, { now: clock(NOW), maxLifetimeSeconds: 60 });
    expect(await answer(strict, issue(OLD, 'alice', { ttlSeconds: 61, now: NOW }))).toEqual({
      status: 401,
      code: 'token_lifetime',
    });
  });

  it('refuses the never-expiring tokens of the old format', async () => {
    const { createHmac } = await import('node:crypto');
    const legacy = `alice.${createHmac('sha256', OLD).update('rearview:alice').digest('base64url')}`;
    expect(await answer(auth, legacy)).toEqual({ status: 401, code: 'token_malformed' });
  });
});

describe('rotation', () => {
  it('a key set accepts every active key; a dropped key id answers 401 token_unknown_key', async () => {
    const both = sharedSecretAuth({ k1: OLD, k2: NEW }, { now: clock(NOW) });
    const oldToken = issue(OLD, 'alice', { kid: 'k1', now: NOW });
    const newToken = issue(NEW, 'bob', { kid: 'k2', now: NOW });
    expect(await answer(both, oldToken)).toEqual({ ok: 'alice' });
    expect(await answer(both, newToken)).toEqual({ ok: 'bob' });
    // k1 retired: its tokens stop working at once, k2's go on.
    const rotated = sharedSecretAuth({ k2: NEW }, { now: clock(NOW) });
    expect(await answer(rotated, oldToken)).toEqual({ status: 401, code: 'token_unknown_key' });
    expect(await answer(rotated, newToken)).toEqual({ ok: 'bob' });
  });

  it('reads the key set from the environment: REARVIEW_AUTH_KEYS wins over REARVIEW_AUTH_SECRET', () => {
    expect(authKeysFromEnv({ REARVIEW_AUTH_SECRET: OLD })).toBe(OLD);
    expect(
      authKeysFromEnv({ REARVIEW_AUTH_SECRET: OLD, REARVIEW_AUTH_KEYS: JSON.stringify({ k2: NEW }) }),
    ).toEqual({
      k2: NEW,
    });
    expect(authKeysFromEnv({ REARVIEW_AUTH_SECRET: 'short' })).toBeUndefined();
    expect(authKeysFromEnv({ REARVIEW_AUTH_KEYS: JSON.stringify({ k2: 'short' }) })).toBeUndefined();
    expect(authKeysFromEnv({ REARVIEW_AUTH_KEYS: '{not json' })).toBeUndefined();
    expect(() => sharedSecretAuth({})).toThrow(/empty/);
    expect(() => sharedSecretAuth({ 'bad kid!': NEW })).toThrow(/key id/);
  });
});

describe('tampering', () => {
  const auth = sharedSecretAuth({ k1: OLD, k2: NEW }, { now: clock(NOW) });
  const token = issue(OLD, 'alice', { kid: 'k1', ttlSeconds: 600, now: NOW });
  const [principal = '', exp = '', kid = '', sig = ''] = token.split('.');

  it.each([
    ['another principal', 'token_invalid', `mallory.${exp}.${kid}.${sig}`],
    ['a later expiry', 'token_invalid', `${principal}.${Number(exp) + 3600}.${kid}.${sig}`],
    ['another active key id', 'token_invalid', `${principal}.${exp}.k2.${sig}`],
    [
      'a changed signature',
      'token_invalid',
      `${principal}.${exp}.${kid}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
    ],
    ['a signature made with another key', 'token_invalid', issue(NEW, 'alice', { kid: 'k1', now: NOW })],
    ['a part missing', 'token_malformed', `${principal}.${exp}.${sig}`],
    ['a part too many', 'token_malformed', `${token}.x`],
    ['an expiry that is no number', 'token_malformed', `${principal}.soon.${kid}.${sig}`],
    ['a principal with a dot', 'token_malformed', `ali.ce.${exp}.${kid}.${sig}`],
  ])('%s → 401 %s', async (_name, code, forged) => {
    expect(await answer(auth, forged)).toEqual({ status: 401, code });
  });

  it('no token at all → 401 unauthorized', async () => {
    const out = await authorize(new Request('https://edge.example/playbook'), auth);
    expect(out).toMatchObject({ status: 401, code: 'unauthorized' });
  });
});
