/**
 * Which model the playground reflects with, shared by the Snapshots and Reduction views. The API key
 * lives in memory; it is written to IndexedDB only after the user ticks "Remember", and one click forgets it.
 */
import { createSignal } from 'solid-js';
import type { Mode } from './reflect';

export const [mode, setMode] = createSignal<'offline' | 'anthropic'>('offline');
export const [apiKey, setApiKey] = createSignal('');
export const [proxyUrl, setProxyUrl] = createSignal('');
export const [model, setModel] = createSignal('');
export const [remembered, setRemembered] = createSignal(false);

export function currentMode(): Mode {
  return mode() === 'offline'
    ? { kind: 'offline' }
    : { kind: 'anthropic', apiKey: apiKey(), baseURL: proxyUrl(), model: model() };
}

const KEY = 'anthropic-api-key';
async function kv() {
  const { idbStore } = await import('rearview/store');
  return idbStore('rearview-playground', 'secrets');
}

/** Loads a remembered key, if the user chose to keep one. */
export async function restoreKey(): Promise<void> {
  try {
    const stored = await (await kv()).get<string>(KEY);
    if (typeof stored === 'string' && stored) {
      setApiKey(stored);
      setRemembered(true);
    }
  } catch {
    /* no IndexedDB: nothing was remembered */
  }
}

export async function rememberKey(): Promise<void> {
  await (await kv()).set(KEY, apiKey());
  setRemembered(true);
}

export async function forgetKey(): Promise<void> {
  await (await kv()).delete(KEY);
  setRemembered(false);
  setApiKey('');
}
