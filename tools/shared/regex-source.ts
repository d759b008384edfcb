/**
 * The subset of regex syntax the categoriser writes, read into nodes for the gates (gates.ts):
 * literals and escapes, classes, groups (capturing, `(?:`, named), lookarounds (zero-width), alternation,
 * `?`, `*`, `+` and `{m,n}` (lazy or not), `^`, `$`, `\b`. What a node may match is kept only as far as
 * the gates need it: an ASCII letter (or one of a few), white space, another character (one of a few
 * when they can be listed), or anything.
 */

/** @internal What a piece of pattern matches, as far as the gates go. */
export type Node =
  | { t: 'letter'; c: string } // one ASCII letter (lower case)
  | { t: 'letters'; cs: string } // one of a few ASCII letters
  | { t: 'space' } // only white space: skipped before the first word, ends a word after it
  | { t: 'other'; chars?: string; space?: true } // no ASCII letter (one of `chars` when known, or white space when `space`): ends the word
  | { t: 'unknown' } // may be a letter: the words cannot be listed
  | { t: 'empty' } // zero-width: `\B`, lookarounds
  | { t: 'boundary' } // `\b`: after a letter, no letter follows
  | { t: 'start' }
  | { t: 'end' }
  | { t: 'group'; alts: Node[][] }
  | { t: 'repeat'; node: Node; min: number; max: number };

const DIGITS = '0123456789';

/**
 * @internal Parsing stopped: the pattern uses syntax this reading does not know.
 *
 * @example
 * ```ts
 * try { parseSource('(a)\\1'); } catch (e) { e instanceof Unknown; } // true: a back-reference
 * ```
 */
export class Unknown extends Error {}

/**
 * @internal An ASCII letter.
 *
 * @example
 * ```ts
 * isLetter('é'); // false
 * ```
 */
export const isLetter = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/**
 * @internal The alternatives of a regex source, each a sequence of nodes; throws {@link Unknown} on
 * syntax outside the subset read here.
 *
 * @example
 * ```ts
 * parseSource('^\\s*(?:so|to)\\b').length; // 1 (one alternative: start, space*, group, boundary)
 * ```
 */
export function parseSource(src: string): Node[][] {
  let i = 0;
  const alternatives = (): Node[][] => {
    const alts: Node[][] = [[]];
    while (i < src.length && src[i] !== ')') {
      if (src[i] === '|') {
        i++;
        alts.push([]);
        continue;
      }
      let node = atom();
      node = quantified(node);
      alts.at(-1)!.push(node);
    }
    return alts;
  };
  const quantified = (node: Node): Node => {
    const c = src[i];
    let min: number;
    let max: number;
    if (c === '?' || c === '*' || c === '+') {
      i++;
      [min, max] = c === '?' ? [0, 1] : c === '*' ? [0, Infinity] : [1, Infinity];
    } else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(src.slice(i));
      if (!m) throw new Unknown();
      i += m[0].length;
      min = Number(m[1]);
      max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min;
    } else return node;
    if (src[i] === '?') i++; // lazy: the same words
    return { t: 'repeat', node, min, max };
  };
  const atom = (): Node => {
    const c = src[i++]!;
    if (c === '^') return { t: 'start' };
    if (c === '$') return { t: 'end' };
    if (c === '.') return { t: 'unknown' };
    if (c === '(') {
      let zeroWidth = false;
      if (src[i] === '?') {
        const m = /^\?(?::|=|!|<=|<!|<[A-Za-z]\w*>)/.exec(src.slice(i));
        if (!m) throw new Unknown();
        zeroWidth = m[0] === '?=' || m[0] === '?!' || m[0] === '?<=' || m[0] === '?<!';
        i += m[0].length;
      }
      const alts = alternatives();
      if (src[i++] !== ')') throw new Unknown();
      return zeroWidth ? { t: 'empty' } : { t: 'group', alts };
    }
    if (c === '[') return charClass();
    if (c === '\\') return escaped(src[i++]);
    if (c === ')' || c === '|' || c === '?' || c === '*' || c === '+' || c === '{') throw new Unknown();
    return isLetter(c)
      ? { t: 'letter', c: c.toLowerCase() }
      : c <= ' '
        ? { t: 'space' }
        : { t: 'other', chars: c };
  };
  const escaped = (e: string | undefined): Node => {
    if (e === undefined) throw new Unknown();
    if (e === 'b') return { t: 'boundary' };
    if (e === 'B') return { t: 'empty' };
    if (e === 's' || e === 't' || e === 'n' || e === 'r') return { t: 'space' };
    if (e === 'd') return { t: 'other', chars: DIGITS };
    if (e === 'W') return { t: 'other', space: true }; // white space too
    if (e === 'u') {
      const m = /^[0-9a-fA-F]{4}/.exec(src.slice(i));
      if (!m) throw new Unknown();
      i += 4;
      const ch = String.fromCharCode(Number.parseInt(m[0], 16));
      return isLetter(ch) ? { t: 'letter', c: ch.toLowerCase() } : { t: 'other', chars: ch };
    }
    if (e === 'w' || e === 'S' || e === 'D') return { t: 'unknown' };
    if (isLetter(e) || /\d/.test(e)) throw new Unknown(); // \p{…}, \x41, back-references…
    return { t: 'other', chars: e }; // an escaped punctuation mark
  };
  const charClass = (): Node => {
    const negated = src[i] === '^';
    if (negated) i++;
    let letters = '';
    let unknown = negated;
    // The characters other than letters and white space it holds; `undefined` when they cannot be listed.
    let others: string | undefined = '';
    let space = false;
    const codePoint = (): string => {
      const m = /^u([0-9a-fA-F]{4})/.exec(src.slice(i));
      if (!m) throw new Unknown();
      i += 5;
      return String.fromCharCode(Number.parseInt(m[1]!, 16));
    };
    while (i < src.length && src[i] !== ']') {
      let c = src[i++]!;
      if (c === '\\') {
        const e = src[i];
        if (e === 's' || e === 't' || e === 'n' || e === 'r') {
          i++;
          space = true;
          continue;
        }
        if (e === 'd') {
          i++;
          others = others === undefined ? undefined : others + DIGITS;
          continue;
        }
        if (e === 'W') {
          i++;
          others = undefined;
          space = true;
          continue;
        }
        if (e === 'u') c = codePoint();
        else if (e !== undefined && !isLetter(e) && !/\d/.test(e)) c = src[i++]!;
        else {
          unknown = true; // \w, \S…
          i++;
          continue;
        }
      }
      if (src[i] === '-' && src[i + 1] !== ']' && i + 1 < src.length) {
        i++;
        let to = src[i++]!;
        if (to === '\\') to = src[i] === 'u' ? codePoint() : src[i++]!;
        // A range that holds a letter is too long to list; one without, a few characters at most.
        if (!(to < 'A' || c > 'z' || (to < 'a' && c > 'Z'))) unknown = true;
        else if (to.charCodeAt(0) - c.charCodeAt(0) > 16 || others === undefined) others = undefined;
        else for (let k = c.charCodeAt(0); k <= to.charCodeAt(0); k++) others += String.fromCharCode(k);
        continue;
      }
      if (isLetter(c)) letters += c.toLowerCase();
      else if (c <= ' ') space = true;
      else if (others !== undefined) others += c;
    }
    if (src[i++] !== ']') throw new Unknown();
    // Letters beside anything else, or too many letters: it may or may not spell a letter.
    if (unknown || letters.length > 6 || (letters && (others !== '' || space))) return { t: 'unknown' };
    if (letters) return letters.length === 1 ? { t: 'letter', c: letters } : { t: 'letters', cs: letters };
    if (others === '') return { t: 'space' };
    const node: Node = { t: 'other' };
    if (others !== undefined) node.chars = others;
    if (space) node.space = true;
    return node;
  };
  const alts = alternatives();
  if (i !== src.length) throw new Unknown();
  return alts;
}
