/**
 * The dictionary `rearview learn` repairs typos in rules with (`isWord` of rearview/learn): Hunspell's
 * en_US and en_GB (`dictionary-en`, `dictionary-en-gb`: "colour" and "optimise" are no typos) read by
 * `nspell`, and cspell's software terms (`@cspell/dict-software-terms`: "repo", "lockfile", "webapp").
 * All pure JavaScript or plain word lists, loaded on first use, in the CLI only: the library takes any
 * `isWord` and carries no word list.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** `nspell`'s checker, as far as the CLI uses it (the package ships no types). */
interface Checker {
  correct(word: string): boolean;
}

/** cspell's software-term lists, one word a line (`#` comments): the playground fetches the same (a test checks). */
export const TERM_LISTS = [
  'softwareTerms.txt.gz',
  'software-tools.txt',
  'networkingTerms.txt',
  'webServices.txt',
  'computing-acronyms.txt',
  'coding-compound-terms.txt',
];

function softwareTerms(): Set<string> {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('@cspell/dict-software-terms/cspell-ext.json')), 'dict');
  const out = new Set<string>();
  for (const name of TERM_LISTS) {
    let raw: Buffer;
    try {
      raw = readFileSync(join(dir, name));
    } catch {
      continue; // a list a later version renamed: the others still count
    }
    // As `wordList` of rearview/playbook reads it (the CLI loads the library from dist/ at run time only).
    for (const line of (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n')) {
      const w = line.trim();
      if (w && !w.startsWith('#')) out.add(w.toLowerCase());
    }
  }
  return out;
}

/**
 * A dictionary test for `learn`'s `isWord`, or undefined when the packages cannot be loaded (the rules
 * then keep the person's spelling, and the summary says so).
 * @example
 * ```ts
 * const isWord = await loadDictionary();
 * isWord?.('colour'); // true
 * ```
 */
export function loadDictionary(): Promise<((word: string) => boolean) | undefined> {
  // Loaded once per process (about 0.2 s and 50 MB for both dictionaries): `reflect` may run many times.
  loading ??= load();
  return loading;
}

let loading: Promise<((word: string) => boolean) | undefined> | undefined;

async function load(): Promise<((word: string) => boolean) | undefined> {
  try {
    // By name at run time: `nspell` ships no types, and the build leaves packages as imports.
    const named = (name: string) => import(/* @vite-ignore */ name);
    const [{ default: nspell }, { default: us }, { default: gb }] = (await Promise.all([
      named('nspell'),
      named('dictionary-en'),
      named('dictionary-en-gb'),
    ])) as [{ default: (d: unknown) => Checker }, { default: unknown }, { default: unknown }];
    const checkers = [nspell(us), nspell(gb)];
    const terms = softwareTerms();
    return (word) => terms.has(word.toLowerCase()) || checkers.some((c) => c.correct(word));
  } catch {
    return undefined;
  }
}
