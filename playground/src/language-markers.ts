/**
 * The eight languages' markers in the playground: whether the lists hold them, adding them (the Tune
 * panel's button and the Insights panel's note), and which people's turns would need them.
 */
import { loadLanguageMarkerSet } from 'rearview/heuristic';
import { type OtherLanguages, otherLanguages } from 'rearview/language';
import { createSignal } from 'solid-js';
import type { Turn } from './analyze-types';
import type { AppState } from './state';

/** A phrase only the language lists hold: the lists hold them when they hold it. */
const LANGUAGE_PROBE = 'no funciona';

/** Whether the marker lists already hold the eight languages' markers. */
export const languagesAdded = (app: AppState): boolean =>
  app.settings().markers.correction.includes(LANGUAGE_PROBE);

/**
 * The buttons' action: appends the eight languages' markers to every list (`loadLanguageMarkerSet`, a
 * chunk fetched then) and calls `then`; `failed()` holds why the chunk could not be loaded, if so.
 */
export function languageAdder(app: AppState, then?: () => void) {
  const [failed, setFailed] = createSignal<string | null>(null);
  const add = async () => {
    try {
      const lists = await loadLanguageMarkerSet(app.settings().markers);
      app.setSettings((s) => ({ ...s, markers: lists }));
      setFailed(null);
      then?.();
    } catch (err) {
      setFailed((err as Error)?.message ?? String(err));
    }
  };
  return { add, failed };
}

/** The people's turns written in one of the eight languages, if enough (`otherLanguages`). */
export function turnsInOtherLanguages(turns: readonly Turn[]): OtherLanguages | undefined {
  return otherLanguages(turns.flatMap((t) => (t.role === 'user' && t.content ? [t.content] : [])));
}
