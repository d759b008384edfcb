#!/usr/bin/env node
// Issues a bearer token the edge examples accept: `<principal>.<exp>.<kid>.<signature>`, the signature
// an HMAC-SHA256 of "rearview:v2:<principal>:<exp>:<kid>" keyed with the secret of key `kid` (see
// edge.ts: sharedSecretAuth). Tokens expire (`exp`, seconds since the epoch) and name their key, so
// keys rotate: a token of a key no longer active is refused. In production your backend does this
// after its own login; this script is for trying the examples with curl.
//
//   REARVIEW_AUTH_SECRET=… node examples/shared/token.mjs alice            # key `default`, 1 hour
//   REARVIEW_AUTH_SECRET=… REARVIEW_AUTH_KID=2026-12 REARVIEW_TOKEN_TTL=600 node examples/shared/token.mjs alice
import { createHmac } from 'node:crypto';

/**
 * @param {string} secret the secret of key `kid` (REARVIEW_AUTH_SECRET, or one of REARVIEW_AUTH_KEYS)
 * @param {string} principal who the token speaks for ([A-Za-z0-9_-], at most 48 characters)
 * @param {{ kid?: string, ttlSeconds?: number, now?: number }} [options] the key id (default
 *   `default`), the lifetime (default 3600 s) and the issue time in seconds (default now)
 * @returns {string}
 */
export function issueToken(secret, principal, options = {}) {
  if (!/^[\w-]{1,48}$/.test(principal)) throw new Error(`invalid principal id ${JSON.stringify(principal)}`);
  const kid = options.kid ?? 'default';
  if (!/^[\w-]{1,32}$/.test(kid)) throw new Error(`invalid key id ${JSON.stringify(kid)}`);
  const ttl = options.ttlSeconds ?? 3600;
  if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new Error(`invalid lifetime ${ttl}`);
  const exp = (options.now ?? Math.floor(Date.now() / 1000)) + ttl;
  const sig = createHmac('sha256', secret)
    .update(`rearview:v2:${principal}:${exp}:${kid}`)
    .digest('base64url');
  return `${principal}.${exp}.${kid}.${sig}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.REARVIEW_AUTH_SECRET;
  const principal = process.argv[2];
  if (!secret || !principal) {
    console.error(
      'usage: REARVIEW_AUTH_SECRET=… [REARVIEW_AUTH_KID=…] [REARVIEW_TOKEN_TTL=s] node examples/shared/token.mjs <principal>',
    );
    process.exit(2);
  }
  const ttl = process.env.REARVIEW_TOKEN_TTL ? Number(process.env.REARVIEW_TOKEN_TTL) : undefined;
  console.log(issueToken(secret, principal, { kid: process.env.REARVIEW_AUTH_KID, ttlSeconds: ttl }));
}
