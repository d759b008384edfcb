/**
 * The playground's dictionary, the one the CLI repairs typos in key points and rules with
 * (cli/spelling.ts): Hunspell's en_US and en_GB read by `nspell`, and cspell's software terms. Fetched
 * as assets (about 1.2 MB, 0.4 MB compressed on the wire) by the Learn tab's worker when a run starts,
 * and by the analysis once an input gives a key point written from a person's turn; never on the
 * page's first load. Undefined when they cannot be fetched: the spelling stays as typed.
 */

import { wordList } from 'rearview/playbook';
import usAff from '#dictionary-en/index.aff?url';
import usDic from '#dictionary-en/index.dic?url';
import gbAff from '#dictionary-en-gb/index.aff?url';
import gbDic from '#dictionary-en-gb/index.dic?url';

import termsCompound from '#software-terms/coding-compound-terms.txt?url';
import termsAcronyms from '#software-terms/computing-acronyms.txt?url';
import termsNetworking from '#software-terms/networkingTerms.txt?url';
import termsTools from '#software-terms/software-tools.txt?url';
import termsMain from '#software-terms/softwareTerms.txt.gz?url';
import termsWeb from '#software-terms/webServices.txt?url';

const TERM_LISTS = [termsMain, termsTools, termsNetworking, termsWeb, termsAcronyms, termsCompound];

/** A file's text; a gzip file is unpacked here unless the server already did (it sent it encoded). */
async function text(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
  const unpacked = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(unpacked).text();
}

let loading: Promise<((word: string) => boolean) | undefined> | undefined;

/**
 * The dictionary test, fetched once per worker.
 * @example
 * ```ts
 * const isWord = await loadDictionary();
 * learn(sources, isWord ? { isWord } : {});
 * ```
 */
export function loadDictionary(): Promise<((word: string) => boolean) | undefined> {
  loading ??= (async () => {
    try {
      const [nspellModule, ...texts] = await Promise.all([
        import('nspell'),
        text(usAff),
        text(usDic),
        text(gbAff),
        text(gbDic),
        ...TERM_LISTS.map(text),
      ]);
      const nspell = nspellModule.default;
      const [ua, ud, ga, gd, ...lists] = texts as string[];
      const checkers = [nspell({ aff: ua!, dic: ud! }), nspell({ aff: ga!, dic: gd! })];
      const terms = new Set(lists.flatMap(wordList));
      return (word: string) => terms.has(word.toLowerCase()) || checkers.some((c) => c.correct(word));
    } catch {
      return undefined;
    }
  })();
  return loading;
}
