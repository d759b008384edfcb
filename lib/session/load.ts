/**
 * `loadRearview`: the facade with the learned reader of people's turns, loaded on first use.
 *
 * `createRearview` reads synchronously, so it cannot wait for a model: it reads people's turns with the
 * markers unless it is given a scorer. The reader (`rearview/heuristic-model`, about 64 KB gzipped) is
 * imported here, from its own chunk, so that an app that never calls this never downloads it.
 *
 * @module
 */

import { sessionError } from './end-session.js';
import { createRearview } from './session.js';
import type { Rearview, RearviewOptions } from './types.js';

/**
 * Creates the session facade with people's turns read by the learned reader at its lower thresholds
 * (`readerModel` and `READER_RECALL_MIN_SCORE` of `rearview/heuristic-model`): on authors it never
 * trained on, it finds more corrections than the markers, more of them right. The reader is imported
 * on the first call (a chunk of its own for bundlers); later calls reuse it.
 *
 * Options are {@link createRearview}'s. A `scorer` of your own is used as given, without the import; a
 * `minScore` applies to the reader in place of its thresholds. If the import fails (a chunk the
 * network lost), the facade reads with the markers and `onError` receives `{ stage: 'scorer' }`:
 * the promise rejects only on options `createRearview` refuses (a `TypeError` without a store).
 *
 * @example
 * ```ts
 * import { loadRearview } from 'rearview/session';
 * import { idbStore } from 'rearview/kv';
 *
 * const rv = await loadRearview({ store: idbStore('my-chat', 'playbooks') });
 * rv.observe(messages); // "No, use pnpm here, not npm." → a correction the reader scored
 * ```
 */
export async function loadRearview(options: RearviewOptions): Promise<Rearview> {
  // Refuse bad options before any download, with createRearview's own error.
  if (!options || typeof options !== 'object' || !options.store) return createRearview(options);
  if (typeof options.scorer === 'function') return createRearview(options);
  let reader: typeof import('../heuristic-model/index.js');
  try {
    reader = await import('../heuristic-model/index.js');
  } catch (err) {
    try {
      options.onError?.(sessionError('scorer', err));
    } catch {
      // A listener that throws must not cost the caller the facade.
    }
    return createRearview(options);
  }
  // Outside the try: a problem of the options is createRearview's to throw, not a failed import.
  return createRearview({
    ...options,
    scorer: reader.readerModel,
    minScore: options.minScore ?? reader.READER_RECALL_MIN_SCORE,
  });
}
