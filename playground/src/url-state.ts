/** Shareable state: the thresholds and the chosen sample, in the page's query string. */
import { DEFAULT_SETTINGS, type Settings } from './analyze';

type NumericKey = Exclude<keyof Settings, 'markers'>;

/** Query parameter → setting, with the range a value is clamped to. */
export const PARAMS: Record<string, { key: NumericKey; min: number; max: number }> = {
  minSnap: { key: 'minSnapshotTokens', min: 0, max: 5000 },
  minSave: { key: 'minSavingsTokens', min: 0, max: 5000 },
  items: { key: 'maxCategoryItems', min: 1, max: 100 },
  len: { key: 'maxTextLength', min: 20, max: 2000 },
  near: { key: 'nearDuplicateThreshold', min: 0.05, max: 1 },
  a: { key: 'a', min: 1, max: 8 },
  b: { key: 'b', min: 0, max: 8 },
  theta: { key: 'theta', min: 10, max: 5000 },
};

export interface UrlState {
  sample: string | null;
  settings: Settings;
}

export function readUrlState(search: string): UrlState {
  const q = new URLSearchParams(search);
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const [param, { key, min, max }] of Object.entries(PARAMS)) {
    const raw = q.get(param);
    if (raw == null || raw.trim() === '') continue;
    const n = Number(raw);
    if (Number.isFinite(n)) settings[key] = Math.min(max, Math.max(min, n));
  }
  return { sample: q.get('sample'), settings };
}

/** Only values that differ from the defaults are written, so a default URL stays clean. */
export function writeUrlState(state: UrlState): string {
  const q = new URLSearchParams();
  if (state.sample) q.set('sample', state.sample);
  for (const [param, { key }] of Object.entries(PARAMS)) {
    if (state.settings[key] !== DEFAULT_SETTINGS[key]) q.set(param, String(state.settings[key]));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
