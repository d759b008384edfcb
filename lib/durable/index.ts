/**
 * `rearview/durable`: shared playbooks on Cloudflare Durable Objects — one object per scope (team,
 * user) owns its playbooks in SQLite-backed transactional storage, serialises every write, and pushes
 * each change to subscribers over hibernatable WebSockets. `durableObjectPlaybook(env.PLAYBOOKS,
 * name)` is a drop-in {@link PlaybookStore}. See lib/durable/README.md.
 *
 * @module
 */
export {
  durableObjectPlaybook,
  type PlaybookClientOptions,
  playbookClient,
} from './client.js';
export { PlaybookObject } from './object.js';
export { type RoutePlaybookOptions, routePlaybookRequest } from './route.js';
export { durableStorageKv } from './storage-kv.js';
export type {
  ChangeMessage,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableStorageLike,
  FetcherLike,
  PlaybookObjectOptions,
  SyncKvLike,
  WebSocketLike,
} from './types.js';
