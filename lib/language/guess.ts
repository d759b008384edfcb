/**
 * Which language a person's turn is written in, as far as rearview's readers care: English, one of the
 * eight languages `loadLanguageMarkers` (rearview/heuristic) adds, or neither. Why: without those
 * markers a session in Chinese or Spanish gives no correction and no sign why; the CLI and the
 * playground say so with {@link otherLanguages}.
 *
 * The guess is the script (kana, CJK ideographs, Cyrillic) and then the commonest function words of
 * each Latin-script language, written from the languages. Measured on the 4,671 labelled turns whose
 * readers named a language (4 December 2026, `eval/heuristic/language-guess.ts`), "in one of the
 * eight" against the readers: precision 0.867, recall 0.909, 11–19 M characters/s (two runs). `eld` 2.1 (its
 * smallest model, 279 KB gzipped) did 0.872 / 0.876 at about 3 M characters/s and names the exact
 * language more often (0.939 against 0.836); `tinyld` 1.3 (light, 34 KB) 0.497 / 0.858. For this
 * decision the function words do as well, in 1,014 B gzipped.
 */

/**
 * The languages `loadLanguageMarkers` reads besides English.
 *
 * @example
 * ```ts
 * OTHER_LANGUAGES.includes(guessLanguage(text) as OtherLanguage); // loadLanguageMarkers reads it
 * ```
 */
export const OTHER_LANGUAGES = ['es', 'pt', 'fr', 'de', 'ru', 'it', 'zh', 'ja'] as const;
/** One of {@link OTHER_LANGUAGES}. */
export type OtherLanguage = (typeof OTHER_LANGUAGES)[number];

/**
 * The English name of each of {@link OTHER_LANGUAGES}.
 *
 * @example
 * ```ts
 * LANGUAGE_NAMES.zh; // 'Chinese'
 * ```
 */
export const LANGUAGE_NAMES: Readonly<Record<OtherLanguage, string>> = {
  es: 'Spanish',
  pt: 'Portuguese',
  fr: 'French',
  de: 'German',
  ru: 'Russian',
  it: 'Italian',
  zh: 'Chinese',
  ja: 'Japanese',
};

// The commonest short words of each language: articles, prepositions, pronouns, negation, "is".
const FUNCTION_WORDS: Record<'en' | 'es' | 'pt' | 'fr' | 'de' | 'it', string> = {
  en: 'the is and to it i you this that of in for not with be on are do can what',
  es: 'que de el la no es por para con una los las esto pero como está hay',
  pt: 'que de não é para com uma os as isso mas como está você do da em',
  fr: 'le la les est pas que de une pour avec je et un des ce il ne sur',
  de: 'der die das ist nicht und ich es mit ein eine zu auf den sie wir',
  it: 'il che non di è per una con sono la le gli questo ma come del della',
};
let sets: [string, Set<string>][] | undefined;

/**
 * The language a turn is most likely written in: `en`, one of {@link OTHER_LANGUAGES}, or `und` (no
 * letters, or no function word of any language). Reads the first 2,000 characters.
 *
 * @example
 * ```ts
 * guessLanguage('还是不对，你再看看'); // 'zh'
 * guessLanguage('No funciona, sigue fallando.'); // 'es'
 * ```
 */
export function guessLanguage(text: string): 'en' | OtherLanguage | 'und' {
  const t = text.slice(0, 2000);
  let kana = 0;
  let han = 0;
  let cyrillic = 0;
  let latin = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 0x3040 && c < 0x3100) kana++;
    else if (c >= 0x4e00 && c < 0xa000) han++;
    else if (c >= 0x400 && c < 0x500) cyrillic++;
    else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) latin++;
    else if (c >= 0xc0 && c < 0x100) latin++;
  }
  if (kana > 0 && (kana + han) * 4 > latin) return 'ja';
  if (han > 0 && han * 4 > latin) return 'zh';
  if (cyrillic > 0 && cyrillic * 2 > latin) return 'ru';
  sets ??= Object.entries(FUNCTION_WORDS).map(([l, w]) => [l, new Set(w.split(' '))]);
  const words = proseWords(t.toLowerCase());
  let best: string = 'und';
  let most = 0;
  for (const [lang, set] of sets) {
    let k = 0;
    for (const w of words) if (set.has(w)) k++;
    if (k > most) {
      best = lang;
      most = k;
    }
  }
  return best as 'en' | OtherLanguage | 'und';
}

/** Characters that make a whitespace-separated token code, not a word: `-la`, `com.apple.x`, `a/b`, `x=1`. */
const CODE_TOKEN = /^-|[./\\_=@~$%#<>{}|]|\d/;

/**
 * The words of `t` as prose: a pasted terminal (`ls -la`, `com.apple.iBooksX`) holds tokens that equal
 * function words of other languages ("la", "com"), so a whitespace-separated token that reads as code
 * is left out: one with a path, an option, a dotted name or a digit in it (after its outer
 * punctuation). Fenced blocks are read (a prompt pasted in a fence is prose). Linear: one split, one
 * test per token.
 */
function proseWords(t: string): string[] {
  const out: string[] = [];
  for (const raw of t.split(/\s+/)) {
    const token = raw.replace(/^[("'`[]+|[)"'`\],.;:!?]+$/g, '');
    if (token === '' || CODE_TOKEN.test(token)) continue;
    for (const w of token.split(/[^a-z\u00c0-\u00ff]+/)) if (w !== '') out.push(w);
  }
  return out;
}

/** How many of the people's turns read as written in one of the eight languages, and which. */
export interface OtherLanguages {
  /** Turns guessed in one of {@link OTHER_LANGUAGES}. */
  turns: number;
  /** All the turns read. */
  of: number;
  /** Turns per language, most first. */
  languages: Partial<Record<OtherLanguage, number>>;
  /** Their English names, most first, as a phrase: "Chinese", "Chinese and Spanish". */
  names: string;
}

/** Turns {@link otherLanguages} reads: the first ones tell, and a 50 MB session stays quick. */
const TURNS_READ = 200;

/**
 * The turns of `texts` (the first 200) guessed in one of {@link OTHER_LANGUAGES}, when they are at
 * least two and a tenth of those read (so that one guess gone wrong says nothing: on the labelled authors the note would be
 * said for 16 of the 17 who write in those languages and for 4 of the 367 others, Czech and Catalan
 * read as Portuguese and Spanish among them; the two-turn minimum was chosen on them); else
 * `undefined`. At most 200 × 2,000 characters are read, however long the session.
 *
 * @example
 * ```ts
 * otherLanguages(['还是不对', '不行', 'Use pnpm.']); // { turns: 2, of: 3, languages: { zh: 2 }, names: 'Chinese' }
 * ```
 */
export function otherLanguages(texts: readonly string[]): OtherLanguages | undefined {
  const of = Math.min(texts.length, TURNS_READ);
  const counts = new Map<OtherLanguage, number>();
  let turns = 0;
  for (let i = 0; i < of; i++) {
    const g = guessLanguage(texts[i]!);
    if (g === 'en' || g === 'und') continue;
    counts.set(g, (counts.get(g) ?? 0) + 1);
    turns++;
  }
  if (turns < 2 || turns * 10 < of) return undefined;
  return { turns, of, ...rankLanguages(counts) };
}

/**
 * Turns per language, most first (ties by code), and their names as one phrase: what
 * {@link otherLanguages} reports of one session, and what `rearview/learn` reports of a run.
 *
 * @example
 * ```ts
 * rankLanguages(new Map([['es', 2], ['zh', 3]])); // { languages: { zh: 3, es: 2 }, names: 'Chinese and Spanish' }
 * ```
 */
export function rankLanguages(
  counts: ReadonlyMap<OtherLanguage, number>,
): Pick<OtherLanguages, 'languages' | 'names'> {
  const order = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return { languages: Object.fromEntries(order), names: nameLanguages(order.map(([l]) => l)) };
}

/**
 * The English names of `languages`, in their order, as one phrase (for a note to a person).
 *
 * @example
 * ```ts
 * nameLanguages(['zh', 'es', 'de']); // 'Chinese, Spanish and German'
 * ```
 */
export function nameLanguages(languages: readonly OtherLanguage[]): string {
  const names = languages.map((l) => LANGUAGE_NAMES[l]);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}
