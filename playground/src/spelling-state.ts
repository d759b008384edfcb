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
  // The last parts, kept when the dictionary's arrival changes no key point: the lists on screen are
  // then the same objects, and nothing is drawn again under the reader's eyes.
  let last: { args: unknown[]; out: ReturnType<typeof lessonParts> } | undefined;
  const parts = (an: Analysis, ...[p, markers, learned]: Parameters<typeof lessonParts>) => {
    const spell = isWord();
    const out = an.lessonParts(p, markers, learned, spell);
    const args = [p, markers, learned];
    const same =
      last?.args.every((a, i) => a === args[i]) &&
      last.out.keyPoints.length === out.keyPoints.length &&
      last.out.keyPoints.every((k, i) => k.text === out.keyPoints[i]!.text);
    if (same) return last!.out;
    last = { args, out };
    if (!spell && an.fromPeople(out.keyPoints)) ask();
    return out;
  };
  return { isWord, parts };
}

/**
 * Whether two readings of the insights are the same objects, field by field: the `equals` of the memo
 * that holds them, so that a reading the dictionary did not change is not passed on (nothing on screen
 * is drawn again).
 * @example
 * ```ts
 * createMemo(read, null, { equals: sameParts });
 * ```
 */
export function sameParts<T extends object>(a: T | null, b: T | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys)
    if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  return true;
}
