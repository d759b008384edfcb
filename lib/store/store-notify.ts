/**
 * Change notification of one PlaybookStore: listeners of this object, and other tabs through a
 * BroadcastChannel opened lazily (only when someone listens or something changes).
 */
import { describeError } from '../core/index.js';
import type { PlaybookChange } from './store-types.js';

/** What the rest of the store needs from the notifier. */
export interface Notifier {
  /** Tells local listeners and other tabs that playbook `id` changed. */
  emit(id: string, kind: PlaybookChange['kind'], version: number): void;
  subscribe(id: string, listener: (change: PlaybookChange) => void): () => void;
  close(): void;
}

/**
 * @param channelName BroadcastChannel name, or `false` for none.
 * @param onRemote Called before remote changes are delivered (cached state of `id` is stale).
 */
export function createNotifier(
  channelName: string | false | undefined,
  onRemote: (id: string) => void,
  warn: (message: string) => void,
): Notifier {
  const listeners = new Map<string, Set<(c: PlaybookChange) => void>>();
  let channel: BroadcastChannel | undefined;

  const deliver = (change: PlaybookChange) => {
    for (const l of listeners.get(change.id) ?? []) {
      try {
        l(change);
      } catch (err) {
        warn(`playbook subscriber threw: ${describeError(err)}`);
      }
    }
  };
  /** Keeps the process alive (Node, Bun) only while someone listens. */
  const refChannel = () => {
    const c = channel as (BroadcastChannel & { ref?: () => void; unref?: () => void }) | undefined;
    if (!c) return;
    if (listeners.size) c.ref?.();
    else c.unref?.();
  };
  const getChannel = (): BroadcastChannel | undefined => {
    if (channel || channelName === false) return channel;
    const BC = (globalThis as { BroadcastChannel?: typeof BroadcastChannel }).BroadcastChannel;
    if (!BC) return undefined;
    channel = new BC(channelName ?? 'rearview:playbook');
    channel.onmessage = (event: MessageEvent) => {
      const d = event.data as Partial<PlaybookChange> | undefined;
      if (!d || typeof d.id !== 'string' || typeof d.kind !== 'string') return;
      onRemote(d.id);
      deliver({ id: d.id, kind: d.kind, version: Number(d.version) || 0, origin: 'remote' });
    };
    refChannel();
    return channel;
  };

  return {
    emit(id, kind, version) {
      deliver({ id, kind, version, origin: 'local' });
      try {
        getChannel()?.postMessage({ id, kind, version });
      } catch {
        // a closed channel: same-instance notifications still went out
      }
    },
    subscribe(id, listener) {
      let set = listeners.get(id);
      if (!set) {
        set = new Set();
        listeners.set(id, set);
      }
      set.add(listener);
      getChannel();
      refChannel();
      return () => {
        const s = listeners.get(id);
        s?.delete(listener);
        if (s && !s.size) listeners.delete(id);
        refChannel();
      };
    },
    close() {
      channel?.close();
      channel = undefined;
      listeners.clear();
    },
  };
}
