#!/usr/bin/env node
// Issues a bearer token the edge examples accept: `<principal>.<HMAC-SHA256 of "rearview:<principal>">`,
// keyed with REARVIEW_AUTH_SECRET (see edge.ts: sharedSecretAuth). In production your backend does
// this after its own login; this script is for trying the examples with curl.
//
//   REARVIEW_AUTH_SECRET=… node examples/shared/token.mjs alice
import { createHmac } from 'node:crypto';

/**
 * @param {string} secret the shared secret (REARVIEW_AUTH_SECRET)
 * @param {string} principal who the token speaks for ([A-Za-z0-9_-], at most 48 characters)
 * @returns {string}
 */
export function issueToken(secret, principal) {
  if (!/^[\w-]{1,48}$/.test(principal)) throw new Error(`invalid principal id ${JSON.stringify(principal)}`);
  const sig = createHmac('sha256', secret).update(`rearview:${principal}`).digest('base64url');
  return `${principal}.${sig}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.REARVIEW_AUTH_SECRET;
  const principal = process.argv[2];
  if (!secret || !principal) {
    console.error('usage: REARVIEW_AUTH_SECRET=… node examples/shared/token.mjs <principal>');
    process.exit(2);
  }
  console.log(issueToken(secret, principal));
}
