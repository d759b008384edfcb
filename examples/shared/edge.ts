/**
 * What both edge examples (edge-worker, vercel-edge) need beyond rearview itself: authentication with
 * playbooks scoped to the caller, and the JSON bodies they answer with. Web APIs only.
 *
 * Why authentication: `POST /reflect` writes lessons into a playbook, and a playbook becomes
 * system-prompt text for later sessions. Open to anyone, it lets anyone put words into anyone's
 * prompt. So every request names a principal that the deployer vouches for, and the playbook id is
 * derived from that principal, never taken from the request.
 */
import type { SessionSummary } from 'rearview/session';
import { agentRunFormat, parseTrajectory, type Trajectory } from 'rearview/transcript';

/** Who is calling, and the one playbook they may read and write. */
export interface Principal {
  id: string;
  playbookId: string;
}

/** Why a request did not authenticate: a stable `code` for clients, and a message for people. */
export interface AuthFailure {
  code: string;
  message: string;
}

/**
 * The deployer's hook: the principal a request authenticates as, else null or an {@link AuthFailure}
 * (the caller gets a 401, with the failure's code when there is one). Plug in whatever the app
 * already uses (a session cookie, a JWT verified with its JWKS, mTLS…).
 */
export type Authenticate = (
  request: Request,
) => Promise<Principal | AuthFailure | null> | Principal | AuthFailure | null;

/** Principal ids: short, and safe inside a playbook id and a KV key. */
const PRINCIPAL = /^[\w-]{1,48}$/;
/** Key ids: short names of signing keys (`2026-12`, `k2`). */
const KEY_ID = /^[\w-]{1,32}$/;
/** The key id of a single secret given as a string. */
export const DEFAULT_KEY_ID = 'default';
/** The longest a token may live by default: 30 days. */
const MAX_LIFETIME_SECONDS = 30 * 24 * 3600;
const encoder = new TextEncoder();

/** The playbook of a principal: one per principal, so no caller can reach another's. */
export function playbookIdFor(principal: string): string {
  return `user-${principal}`;
}

/** Equal byte strings, in time that depends only on their lengths (no early exit on a mismatch). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What a token signs: everything it claims, so changing any part breaks the signature. */
export function tokenClaims(principal: string, exp: number, kid: string): string {
  return `rearview:v2:${principal}:${exp}:${kid}`;
}

async function sign(secret: string, text: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

/**
 * The signing keys of {@link sharedSecretAuth}: one secret (key id `default`) or a set of active keys
 * by key id. Rotation: add the new key, issue tokens with it, and drop the old one once its tokens
 * have expired (or at once, to revoke them all). Throws on a short secret or a malformed key id.
 */
export function signingKeys(keys: string | Readonly<Record<string, string>>): Map<string, string> {
  const entries = typeof keys === 'string' ? [[DEFAULT_KEY_ID, keys] as const] : Object.entries(keys);
  if (entries.length === 0) throw new Error('the auth key set is empty');
  for (const [kid, secret] of entries) {
    if (!KEY_ID.test(kid)) throw new Error(`invalid auth key id ${JSON.stringify(kid)}: [A-Za-z0-9_-], 1-32`);
    if (typeof secret !== 'string' || secret.length < 16) {
      throw new Error(`the auth secret of key ${kid} must be at least 16 characters`);
    }
  }
  return new Map(entries);
}

/**
 * The signing keys configured in an environment: `REARVIEW_AUTH_KEYS`, a JSON object of key id →
 * secret (the set of active keys), else `REARVIEW_AUTH_SECRET` alone (key id `default`); undefined
 * when neither is usable (the examples then refuse every request).
 */
export function authKeysFromEnv(env: {
  REARVIEW_AUTH_KEYS?: string;
  REARVIEW_AUTH_SECRET?: string;
}): string | Record<string, string> | undefined {
  const set = env.REARVIEW_AUTH_KEYS;
  if (set) {
    try {
      const keys = JSON.parse(set) as Record<string, string>;
      signingKeys(keys);
      return keys;
    } catch {
      return undefined;
    }
  }
  const secret = env.REARVIEW_AUTH_SECRET ?? '';
  return secret.length >= 16 ? secret : undefined;
}

const fail = (code: string, message: string): AuthFailure => ({ code, message });

/**
 * The default hook: `Authorization: Bearer <principal>.<exp>.<kid>.<signature>`, where `exp` is the
 * expiry in seconds since the epoch, `kid` names the signing key, and the signature is
 * base64url(HMAC-SHA256(key, "rearview:v2:<principal>:<exp>:<kid>")) as `token.mjs` issues it (your
 * backend does, after its own login). The signature is recomputed with the named key and compared in
 * constant time. Failures, each a 401 with its code: `token_malformed`, `token_unknown_key` (a key
 * that is not, or no longer, active), `token_invalid` (a signature that does not match: tampered),
 * `token_expired`, `token_lifetime` (an expiry further away than `maxLifetimeSeconds`, default 30
 * days: no token lives forever).
 */
export function sharedSecretAuth(
  keys: string | Readonly<Record<string, string>>,
  options: { now?: () => number; maxLifetimeSeconds?: number } = {},
): Authenticate {
  const active = signingKeys(keys);
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const maxLifetime = options.maxLifetimeSeconds ?? MAX_LIFETIME_SECONDS;
  return async (request) => {
    const header = request.headers.get('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!token) return null;
    const parts = token.split('.');
    if (parts.length !== 4) return fail('token_malformed', 'a token is <principal>.<exp>.<kid>.<signature>');
    const [principal, expText, kid, signature] = parts as [string, string, string, string];
    if (!PRINCIPAL.test(principal) || !/^\d{1,12}$/.test(expText) || !KEY_ID.test(kid)) {
      return fail('token_malformed', 'a token is <principal>.<exp>.<kid>.<signature>');
    }
    const secret = active.get(kid);
    if (secret === undefined) return fail('token_unknown_key', `the token's key ${kid} is not active`);
    const exp = Number(expText);
    const expected = encoder.encode(base64url(await sign(secret, tokenClaims(principal, exp, kid))));
    if (!timingSafeEqual(encoder.encode(signature), expected)) {
      return fail('token_invalid', 'the token signature does not match');
    }
    const t = now();
    if (exp <= t) return fail('token_expired', 'the token has expired');
    if (exp > t + maxLifetime) return fail('token_lifetime', `the token lives longer than ${maxLifetime} s`);
    return { id: principal, playbookId: playbookIdFor(principal) };
  };
}

/**
 * Why a request may not go on (an error body with its code, and a status), or the principal. The
 * playbook is the principal's: a `playbook` query parameter (how these examples used to pick one) is
 * refused rather than silently ignored, so an old client learns that it no longer chooses.
 */
export async function authorize(
  request: Request,
  authenticate: Authenticate,
): Promise<{ principal: Principal } | { error: string; code: string; status: number }> {
  const principal = await authenticate(request);
  if (!principal) {
    return { error: 'unauthorized: send Authorization: Bearer <token>', code: 'unauthorized', status: 401 };
  }
  if ('code' in principal)
    return { error: `unauthorized: ${principal.message}`, code: principal.code, status: 401 };
  if (new URL(request.url).searchParams.has('playbook')) {
    return {
      error: 'the playbook comes from your credentials; drop the playbook parameter',
      code: 'bad_request',
      status: 400,
    };
  }
  return { principal };
}

/** The principal of an {@link Authenticate} result, or null for a failure of any kind. */
export function principalOf(result: Principal | AuthFailure | null): Principal | null {
  return result && 'playbookId' in result ? result : null;
}

/**
 * The agent run of a SWE-agent or mini-swe-agent body, whose failed steps its messages do not mark:
 * handed to `endSession` so the failure lessons match the CLI's and the playground's. A Claude Code
 * session needs none (its tool calls are messages).
 */
export function agentRuns(text: string): Trajectory[] {
  try {
    return agentRunFormat(text) ? [parseTrajectory(text, { lenient: true })] : [];
  } catch {
    return [];
  }
}

/** The answer to a reflected transcript. */
export function reflectBody(format: string, summary: SessionSummary) {
  return {
    format,
    messages: summary.messages,
    insights: summary.insights,
    added: summary.added,
    duplicates: summary.duplicates,
    tags: summary.tags,
    analysis: summary.analysis,
    llm: summary.llm,
    version: summary.version,
    errors: summary.errors,
  };
}

/** The system-prompt token budget of `GET /playbook`: the `budget` parameter when it is usable. */
export function budgetOf(url: URL): number {
  const budget = Number(url.searchParams.get('budget') ?? 1500);
  return Number.isFinite(budget) && budget > 0 ? budget : 1500;
}
