/**
 * The eight languages' markers in the playground: whether the lists hold them, adding them (the Tune
 * panel's button and the Insights panel's note), and which people's turns would need them.
 */
import { loadLanguageMarkerSet } from 'rearview/heuristic';
import { type OtherLanguages, otherLanguages } from 'rearview/language';
import type { Turn } from './analyze-types';
import type { AppState } from './state';

/** A phrase only the language lists hold: the lists hold them when they hold it. */
const LANGUAGE_PROBE = 'no funciona';

/** Turns read for the note: the first ones are enough to tell, and a 50 MB session stays quick. */
const TURNS_READ = 200;

/** Whether the marker lists already hold the eight languages' markers. */
export const languagesAdded = (app: AppState): boolean =>
  app.settings().markers.correction.includes(LANGUAGE_PROBE);

/** Appends the eight languages' markers to every list (`loadLanguageMarkerSet`, a chunk fetched then). */
export async function addLanguages(app: AppState): Promise<void> {
  const lists = await loadLanguageMarkerSet(app.settings().markers);
  app.setSettings((s) => ({ ...s, markers: lists }));
}

/** The people's turns (of the first {@link TURNS_READ}) written in one of the eight languages, if enough. */
export function turnsInOtherLanguages(turns: readonly Turn[]): OtherLanguages | undefined {
  const texts: string[] = [];
  for (const t of turns) {
    if (t.role !== 'user' || !t.content) continue;
    texts.push(t.content);
    if (texts.length === TURNS_READ) break;
  }
  return otherLanguages(texts);
}
