import { describeError } from '../core/index.js';
import type { DurableObjectNamespaceLike } from './types.js';

/** Options of {@link routePlaybookRequest}. */
export interface RoutePlaybookOptions<Env, Id = unknown> {
  /** The PlaybookObject binding, or how to get it from `env`. */
  namespace: DurableObjectNamespaceLike<Id> | ((env: Env) => DurableObjectNamespaceLike<Id>);
  /**
   * Maps an authenticated request to the object name of its principal's scope (e.g. `team:42`), or
   * `null` when the credentials are missing or invalid (answered 401). Verify a signature or session
   * here; never copy a name from the URL, body or an unverified header.
   */
  authenticate: (context: { request: Request; env: Env }) => string | null | Promise<string | null>;
}

/**
 * The Worker side of a PlaybookObject: authenticates `request`, then forwards it unchanged to the
 * object of the principal's scope (`…/rpc` and `…/subscribe`, WebSocket upgrades included). A
 * request without a principal gets 401, so one principal can never address another one's object.
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request, env: Env) {
 *     if (new URL(request.url).pathname.startsWith('/playbook/')) {
 *       return routePlaybookRequest(request, env, {
 *         namespace: env.PLAYBOOKS,
 *         authenticate: async ({ request }) => {
 *           const team = await verifyToken(request.headers.get('authorization'));
 *           return team ? `team:${team}` : null;
 *         },
 *       });
 *     }
 *     return new Response('not found', { status: 404 });
 *   },
 * };
 * ```
 */
export async function routePlaybookRequest<Env, Id>(
  request: Request,
  env: Env,
  options: RoutePlaybookOptions<Env, Id>,
): Promise<Response> {
  let name: string | null;
  try {
    name = await options.authenticate({ request, env });
  } catch (err) {
    return failure(401, 'unauthorized', `Authentication failed: ${describeError(err)}`);
  }
  if (typeof name !== 'string' || name === '') {
    return failure(401, 'unauthorized', 'Missing or invalid credentials for the playbook endpoint');
  }
  const namespace = typeof options.namespace === 'function' ? options.namespace(env) : options.namespace;
  return namespace.get(namespace.idFromName(name)).fetch(request);
}

function failure(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
  });
}
