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

/**
 * The deployer's hook: the principal a request authenticates as, or null (the caller gets a 401).
 * Plug in whatever the app already uses (a session cookie, a JWT verified with its JWKS, mTLS…).
 */
export type Authenticate = (request: Request) => Promise<Principal | null> | Principal | null;

/** Principal ids: short, and safe inside a playbook id and a KV key. */
const PRINCIPAL = /^[\w-]{1,48}$/;
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

async function sign(secret: string, principal: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`rearview:${principal}`)));
}

/**
 * The default hook: `Authorization: Bearer <principal>.<signature>`, where the signature is
 * base64url(HMAC-SHA256(secret, "rearview:" + principal)) as `token.mjs` issues it (your backend does,
 * after its own login). It is recomputed here with the shared secret and compared in constant time.
 */
export function sharedSecretAuth(secret: string): Authenticate {
  if (secret.length < 16) throw new Error('the auth secret must be at least 16 characters');
  return async (request) => {
    const header = request.headers.get('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const dot = token?.lastIndexOf('.') ?? -1;
    if (!token || dot < 1) return null;
    const principal = token.slice(0, dot);
    if (!PRINCIPAL.test(principal)) return null;
    const expected = encoder.encode(base64url(await sign(secret, principal)));
    if (!timingSafeEqual(encoder.encode(token.slice(dot + 1)), expected)) return null;
    return { id: principal, playbookId: playbookIdFor(principal) };
  };
}

/**
 * Why a request may not go on (an error body and status), or the principal. The playbook is the
 * principal's: a `playbook` query parameter (how these examples used to pick one) is refused rather
 * than silently ignored, so an old client learns that it no longer chooses.
 */
export async function authorize(
  request: Request,
  authenticate: Authenticate,
): Promise<{ principal: Principal } | { error: string; status: number }> {
  const principal = await authenticate(request);
  if (!principal) return { error: 'unauthorized: send Authorization: Bearer <token>', status: 401 };
  if (new URL(request.url).searchParams.has('playbook')) {
    return { error: 'the playbook comes from your credentials; drop the playbook parameter', status: 400 };
  }
  return { principal };
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
