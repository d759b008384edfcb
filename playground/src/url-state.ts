/**
 * Shareable state: the thresholds, what reads people's turns (`scorer=learned` for the learned
 * correction scorer, as links have said since it came, `scorer=reader` and `scorer=reader-recall` for
 * the reader at its two sets of thresholds) and the chosen
 * sample, in the page's query string. Keys and ranges are rearview/snapshot's PARAM_SPECS; a
 * value out of range is clamped, not refused (links outlive ranges).
 */
import { clampParam, PARAM_NAMES, PARAM_SPECS } from 'rearview/snapshot';
import { DEFAULT_SETTINGS, type Settings } from './settings';

export interface UrlState {
  sample: string | null;
  settings: Settings;
}

export function readUrlState(search: string): UrlState {
  const q = new URLSearchParams(search);
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const name of PARAM_NAMES) {
    const raw = q.get(PARAM_SPECS[name].query);
    if (raw == null || raw.trim() === '') continue;
    const n = Number(raw);
    if (Number.isFinite(n)) settings[name] = clampParam(name, n);
  }
  const scorer = q.get('scorer');
  settings.detector =
    scorer === 'learned'
      ? 'correction-model'
      : scorer === 'reader' || scorer === 'reader-recall' || scorer === 'markers'
        ? scorer
        : DEFAULT_SETTINGS.detector;
  return { sample: q.get('sample'), settings };
}

/** Only values that differ from the defaults are written, so a default URL stays clean. */
export function writeUrlState(state: UrlState): string {
  const q = new URLSearchParams();
  if (state.sample) q.set('sample', state.sample);
  for (const name of PARAM_NAMES) {
    if (state.settings[name] !== DEFAULT_SETTINGS[name])
      q.set(PARAM_SPECS[name].query, String(state.settings[name]));
  }
  const { detector } = state.settings;
  if (detector !== DEFAULT_SETTINGS.detector)
    q.set('scorer', detector === 'correction-model' ? 'learned' : detector);
  const s = q.toString();
  return s ? `?${s}` : '';
}
