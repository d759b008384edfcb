/**
 * Which model the playground reflects with, shared by the Snapshots and Reduction views. The API key
 * lives in memory; it is written to IndexedDB only after the user ticks "Remember", and one click forgets it.
 * A local model server's address and model name are remembered in localStorage (they are not secrets);
 * its optional key never is.
 */
import { createSignal } from 'solid-js';
import type { Mode } from './reflect';

export type ModeKind = 'offline' | 'anthropic' | 'local';

export const [mode, setMode] = createSignal<ModeKind>('offline');
export const [apiKey, setApiKey] = createSignal('');
export const [proxyUrl, setProxyUrl] = createSignal('');
export const [model, setModel] = createSignal('');
export const [remembered, setRemembered] = createSignal(false);

const LOCAL_URL = 'rearview-playground.local-endpoint';
const LOCAL_MODEL = 'rearview-playground.local-model';

function stored(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return ''; // storage disabled: nothing remembered
  }
}
function store(key: string, value: string) {
  try {
    if (value.trim()) localStorage.setItem(key, value.trim());
    else localStorage.removeItem(key);
  } catch {
    /* storage disabled: the value lives for this page only */
  }
}

const [localUrlSignal, setLocalUrlSignal] = createSignal(stored(LOCAL_URL));
const [localModelSignal, setLocalModelSignal] = createSignal(stored(LOCAL_MODEL));
/** The local server's base URL (ending before /chat/completions); empty means the adapter's default. */
export const localUrl = localUrlSignal;
export const localModel = localModelSignal;
export const [localKey, setLocalKey] = createSignal('');

export function setLocalUrl(value: string) {
  setLocalUrlSignal(value);
  store(LOCAL_URL, value);
}
export function setLocalModel(value: string) {
  setLocalModelSignal(value);
  store(LOCAL_MODEL, value);
}

/** How the diagnostics and buttons name the model that answers. */
export function modeLabel(kind: ModeKind = mode()): string {
  return kind === 'offline' ? 'recorded answers' : kind === 'local' ? 'the local model' : 'Anthropic';
}

export function currentMode(): Mode {
  const m = mode();
  if (m === 'offline') return { kind: 'offline' };
  if (m === 'local') return { kind: 'local', baseURL: localUrl(), model: localModel(), apiKey: localKey() };
  return { kind: 'anthropic', apiKey: apiKey(), baseURL: proxyUrl(), model: model() };
}

const KEY = 'anthropic-api-key';
async function kv() {
  const { idbStore } = await import('rearview/kv');
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
