/**
 * The notes reader's features of one sentence: today's rules as features (their category, the
 * `resolved` bit, the cue bits of every word and of the first word), the sentence's own words
 * (unigrams, adjacent pairs, the opening word and pair), and its shape (closing punctuation, an inner
 * `?`, backticks, links, length). Each name is hashed (FNV-1a, 32 bits, `Math.imul`) to one of
 * {@link BUCKETS}: the model keeps weights by bucket, never a word. Pure string work on a squashed,
 * bounded text: the same buckets in every runtime.
 */
import { classify, findLinks, squash, wordFlags, words } from '../categorise/index.js';

/**
 * Buckets of the hashed features (2^18): few collisions among the features a model keeps.
 *
 * @example
 * ```ts
 * noteBucket('u:maybe') < BUCKETS; // true
 * ```
 */
export const BUCKETS = 1 << 18;
/** Characters read per sentence: bounded work, and about what a reader weighs. */
const READ = 600;
/** Words read per sentence. */
const MAX_WORDS = 64;
/** The cue bits of lib/categorise's word flags (the low 24 bits). */
const CUE_BITS = 24;

/**
 * A feature name's bucket: FNV-1a over UTF-16 code units, integer-only, cut to {@link BUCKETS}.
 *
 * @example
 * ```ts
 * noteBucket('r:blockers'); // a number in [0, 2^18)
 * ```
 */
export function noteBucket(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) & (BUCKETS - 1);
}

/** The closing character class of a sentence, past trailing quotes, stars and brackets. */
function ending(t: string): string {
  let i = t.length - 1;
  while (i >= 0 && ' *_)"\'`]'.includes(t.charAt(i))) i--;
  const c = t.charAt(i);
  return c === '?' || c === ':' || c === '!' || c === '.' ? c : 'w';
}

function lengthBin(n: number): string {
  return n <= 2 ? '2' : n <= 5 ? '5' : n <= 10 ? '10' : n <= 20 ? '20' : n <= 40 ? '40' : 'more';
}

/**
 * Which features a model reads: `rules` (today's rules as features, with the shape features),
 * `words` (words, word pairs and shape, no rule), or `all`.
 *
 * @example
 * ```ts
 * const set: NoteFeatureSet = 'rules';
 * ```
 */
export type NoteFeatureSet = 'rules' | 'words' | 'all';

/**
 * The feature names of one sentence (before hashing), of the feature set `set` (default `all`).
 *
 * @example
 * ```ts
 * noteFeatures('Maybe the cache is stale?').includes('e:?'); // true
 * ```
 */
export function noteFeatures(sentence: string, set: NoteFeatureSet = 'all'): string[] {
  const text = squash(String(sentence ?? '').slice(0, READ));
  const ws = words(text);
  const out: string[] = [];
  const k = classify(ws, text);
  const rule = k.category ?? 'none';
  const rules = set !== 'words';
  const open = set !== 'rules';
  if (rules) {
    out.push(`r:${rule}`);
    if (k.resolved) out.push('r:resolved');
    let flags = 0;
    for (const w of ws) flags |= wordFlags(w);
    const first = ws.length > 0 ? wordFlags(ws[0]!) : 0;
    for (let b = 0; b < CUE_BITS; b++) {
      if (flags & (1 << b)) out.push(`c:${b}`);
      if (first & (1 << b)) out.push(`c0:${b}`);
    }
  }
  const end = ending(text);
  out.push(`e:${end}`);
  if (rules) out.push(`re:${rule}|${end}`);
  if (text.slice(0, -1).includes('?')) out.push('q:inner');
  if (text.includes('`')) out.push('tick');
  const links = text === '' ? 0 : findLinks(text).length;
  out.push(`l:${Math.min(links, 2)}`);
  out.push(`n:${lengthBin(ws.length)}`);
  if (!open) return out;
  let previous = '^';
  const n = Math.min(ws.length, MAX_WORDS);
  for (let i = 0; i < n; i++) {
    const raw = ws[i]!;
    // Numbers and long tokens (hashes, identifiers) carry a topic, not what the sentence does.
    const w = raw.charCodeAt(0) <= 0x39 ? '0' : raw.length > 20 ? '~' : raw;
    out.push(`u:${w}`, `b:${previous}_${w}`);
    if (i === 0) {
      out.push(`f:${w}`);
      if (rules) out.push(`rf:${rule}|${w}`);
    }
    if (i === 1) out.push(`f2:${previous}_${w}`);
    previous = w;
  }
  if (n > 0) out.push(`b:${previous}_$`);
  return out;
}

/**
 * The hashed buckets of a sentence's features (of the feature set `set`), each once, ascending.
 *
 * @example
 * ```ts
 * noteBuckets('Run the tests next.').every((b) => b < BUCKETS); // true
 * ```
 */
export function noteBuckets(sentence: string, set: NoteFeatureSet = 'all'): number[] {
  return [...new Set(noteFeatures(sentence, set).map(noteBucket))].sort((a, b) => a - b);
}
