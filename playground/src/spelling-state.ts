/**
 * The main thread's dictionary for the analysis in state.ts: fetched (spelling.ts) the first time an
 * input gives a key point written from a person's turn, then every analysis repairs typos in key
 * points with it, as the CLI does. Until it arrives, or if it cannot be fetched, the spelling stays as
 * typed. A large input's worker fetches its own.
 */
import { createSignal } from 'solid-js';
import type { fromPeople, lessonParts } from './analyze';

/** What of the analysis module the dictionary's users call. */
interface Analysis {
  lessonParts: typeof lessonParts;
  fromPeople: typeof fromPeople;
}

/**
 * The dictionary test (undefined until fetched), and `parts`: the analysis's lesson parts with it,
 * which starts the fetch the first time a key point comes from a person (read in a memo, the dictionary's
 * arrival runs the memo again).
 * @example
 * ```ts
 * const dictionary = dictionaryImport();
 * createMemo(() => dictionary.parts(analysis, parsed, markers));
 * ```
 */
export function dictionaryImport() {
  const [isWord, setIsWord] = createSignal<((word: string) => boolean) | undefined>(undefined);
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    void import('./spelling').then((s) => s.loadDictionary()).then((d) => d && setIsWord(() => d));
  };
  const parts = (an: Analysis, ...[p, markers, learned]: Parameters<typeof lessonParts>) => {
    const spell = isWord();
    const out = an.lessonParts(p, markers, learned, spell);
    if (!spell && an.fromPeople(out.keyPoints)) ask();
    return out;
  };
  return { isWord, parts };
}
