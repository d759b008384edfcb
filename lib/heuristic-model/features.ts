/**
 * The features the learned correction model reads from one user turn. They are chosen so that what a
 * model learns from them carries over to people and projects it has never seen: a closed list of
 * function and discourse words (no topic word of any project can become a feature), punctuation,
 * length and position, the shape of pasted output, the marker detector's signals and the context the
 * transcript carries. Pure string work, no locale-dependent API: the same turn gives the same features
 * in every runtime.
 */
import type { TurnEvidence } from '../heuristic/index.js';
import { endsAsking, isSpace } from './text-scan.js';

/**
 * The closed vocabulary: English function words, negation, status and discourse words of talk about
 * work ("still", "again", "instead", "wrong", "works"), and the common negations and retry words of
 * Spanish, Portuguese, French, German, Czech and Russian. Written before the model was trained; a
 * word outside it only counts towards the out-of-vocabulary share.
 */
const WORDS = `a about actually after again ago all already also always am an and another any anymore
anything are arent as at back bad be because been before being better both broke broken bug but by can
cant change changed check come completely correct could couldnt did didnt do does doesnt doing done dont
down each else error errors even ever every everything exactly expected fail failed failing fails false
few fine first fix fixed for forgot from get gets getting go going good got great had has hasnt have
havent he here how however i if ill im in incorrect instead is isnt issue it its ive just keep kept know
last let like look looks lost make many may maybe me mean meant mind missing more most much must my need
never new next nice no nope not nothing now of off ok okay on once one only or other our out over perfect
please problem problems really remove removed revert right said same see seems seen should shouldnt show
since so some something still stop stuck supposed sure than thank thanks that thats the their them then
there these they thing think this those though told too tried try trying undo up us use used using very
wait want wanted was wasnt way we well were werent what when where which while who why will with without
wont work worked working works would wouldnt wrong yes yet you your youre
otra otro vez todavia aun sigue no funciona error mal incorrecto deshacer porque pero
ainda nao não de novo erro errado funciona mas porque
pas encore toujours erreur faux marche plus
nicht noch immer wieder fehler falsch funktioniert aber
ne nefunguje porad chyba znovu spatne proc
нет не снова опять ошибка неправильно работает всё еще ещё почему`;

let vocab: Map<string, number> | undefined;

/**
 * @internal The closed vocabulary, built on first use: each word with its id (its place in the list,
 * 0, 1, …), which `baseParts` records per word so that the reader needs no second lookup.
 *
 * @example
 * ```ts
 * vocabulary().has('still'); // true
 * ```
 */
export function vocabulary(): Map<string, number> {
  if (!vocab) {
    vocab = new Map();
    for (const w of WORDS.split(/\s+/)) if (w !== '' && !vocab.has(w)) vocab.set(w, vocab.size);
  }
  return vocab;
}

/**
 * The vocabulary as an open-addressing table keyed by a hash of the word computed here (id + 1 per
 * slot, 0 empty), and the words by id to confirm a hit. `Map.get` on a word just cut from the text
 * first has the engine hash the new string, the costliest step of reading a turn's words.
 */
let vocabTable: { slots: Int16Array; words: string[] } | undefined;

const FNV_BASIS = 0x811c9dc5;
const FNV_MUL = 0x01000193;
const wordHash = (w: string): number => {
  let h = FNV_BASIS;
  for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), FNV_MUL);
  return h;
};

/**
 * @internal A word's id in {@link vocabulary}, or -1 (the same answer as `vocabulary().get(w) ?? -1`).
 * `hash`, when known (from {@link wordsOf}), saves reading the word again.
 *
 * @example
 * ```ts
 * vocabularyId('still') >= 0; // true
 * vocabularyId('parser'); // -1
 * ```
 */
export function vocabularyId(w: string, hash = wordHash(w)): number {
  const { slots, words } = vocabTable ?? buildVocabTable();
  for (let i = hash & 2047; ; i = (i + 1) & 2047) {
    const id = slots[i]! - 1;
    if (id < 0) return -1;
    if (words[id] === w) return id;
  }
}

function buildVocabTable(): { slots: Int16Array; words: string[] } {
  const words = [...vocabulary().keys()];
  const slots = new Int16Array(2048);
  words.forEach((x, id) => {
    let i = wordHash(x) & 2047;
    while (slots[i] !== 0) i = (i + 1) & 2047;
    slots[i] = id + 1;
  });
  vocabTable = { slots, words };
  return vocabTable;
}

/**
 * @internal {@link vocabularyId} of the word held as code units in `codes[0..length)` with FNV-1a
 * hash `hash`: the scan that reads words without cutting them out of the text asks it.
 *
 * @example
 * ```ts
 * vocabularyIdOfCodes(Uint16Array.of(110, 111), 2, fnv1a32('no') | 0) === vocabularyId('no'); // true
 * ```
 */
export function vocabularyIdOfCodes(codes: Uint16Array, length: number, hash: number): number {
  const { slots, words } = vocabTable ?? buildVocabTable();
  for (let i = hash & 2047; ; i = (i + 1) & 2047) {
    const id = slots[i]! - 1;
    if (id < 0) return -1;
    const w = words[id]!;
    if (w.length !== length) continue;
    let k = 0;
    while (k < length && w.charCodeAt(k) === codes[k]) k++;
    if (k === length) return id;
  }
}

/**
 * A line that someone pasted (output, a log, code) or quoted, not the user's own words: indented by
 * a tab or four spaces, a quote, a shell prompt, a stack frame (`  at f (x.js:1)`, `File "x.py"`),
 * a traceback, or a line opening with code or markup punctuation. Prose that happens to start with
 * "at" or "#" stays prose. @internal Exported for the test that holds `reader-scan`'s line test to it.
 *
 * @example
 * ```ts
 * PASTED.test('  at run (app.js:3:9)'); // true
 * ```
 */
export const PASTED = /^(?:\s{4}|\t|\s*(?:>|\$ |File "|Traceback|[{}[\]<|])|\s+at \S)/;
/**
 * Error shapes in pasted output (generic across languages and tools). `error\b` alone matches the
 * same lines as `\berror\b|\w+Error\b` (before "error" there is either a word boundary or a word
 * character), and with a literal first the engine can skip ahead instead of trying every position.
 * @internal Exported for `reader-scan`, which reads pasted lines as `baseParts` does.
 *
 * @example
 * ```ts
 * ERROR_SHAPE.test('TypeError: x is undefined'); // true
 * ```
 */
export const ERROR_SHAPE = /error\b|\b(?:exception|traceback|failed|failure|errno|panic|fatal)\b/i;
const BUCKETS = [0, 2, 5, 10, 20, 40];
/** A line with something besides white space (what `line.trim() !== ''` says, without the copy). */
const NOT_BLANK = /\S/;
/** How much of a turn is read (see {@link turnFeatures}). */
const READ = 600;

const bucket = (n: number): number => {
  let b = 0;
  while (b < BUCKETS.length && n > BUCKETS[b]!) b++;
  return b;
};

/**
 * The features of one turn, as names (a model maps each to a weight; unknown names weigh nothing).
 * Only the turn's first 600 characters are read, so the cost per turn is bounded.
 *
 * @example
 * ```ts
 * const signals = { correction: true, challenge: false, preference: false, approval: false, friction: false };
 * const turn = { text: 'No, that is still wrong.', signals, interrupted: false, repeat: false, undo: false, first: false, reply: 'Done.' };
 * turnFeatures(turn).includes('w:still'); // true
 * ```
 */
export function turnFeatures(e: TurnEvidence): string[] {
  return withPairs(baseFeatures(e));
}

/**
 * @internal {@link turnFeatures} without the pairs: what `correctionScore` reads, adding the pairs'
 * weights from {@link shapeFeatures} without building their names.
 *
 * @example
 * ```ts
 * baseFeatures(turn).some((f) => f.startsWith('x:')); // false
 * ```
 */
export function baseFeatures(e: TurnEvidence): string[] {
  const out = new Set<string>(['bias']);
  const { words, tail, ids } = baseParts(e);
  let previous = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const inVocab = ids[i]! >= 0;
    if (i < 2) out.add(`${i === 0 ? 'f' : 's'}:${inVocab ? w : '*'}`);
    if (inVocab) {
      out.add(`w:${w}`);
      if (previous !== '') out.add(`b:${previous}_${w}`);
    }
    previous = inVocab ? w : '';
  }
  for (const f of tail) out.add(f);
  return [...out];
}

/** @internal See {@link baseParts}. */
export interface BaseParts {
  words: string[];
  /** Each word's id in the closed vocabulary (`vocabulary()`), or -1 for a word outside it. */
  ids: number[];
  tail: string[];
  /**
   * What the reader would read again, when its reading is the same as this one (no decomposed accent
   * and no double quote in the prose): the turn's first 600 characters, its non-blank lines and the
   * pasted ones among them, and the prose lower-cased without inline code and apostrophes.
   */
  shared?: { raw: string; lines: number; pasted: number; bare: string };
}

/**
 * @internal What {@link baseFeatures} reads of a turn: its prose words (at most 200; each gives `f:`
 * or `s:` for the first two, `w:` when in the vocabulary and `b:` for two vocabulary words in a row)
 * and the names of the rest, in order (all of them shape features). One source for the names and
 * for the reader's hashes of them.
 *
 * @example
 * ```ts
 * baseParts(turn).tail; // ['len:2', 'oov:1', 'p:ends?', 'ctx:first']
 * ```
 */
export function baseParts(e: TurnEvidence): BaseParts {
  const tail: string[] = [];
  // The first 600 characters: what the model was trained on (the labelled turns are stored cut there),
  // and a bound on the work per turn however much was pasted.
  let raw = typeof e.text === 'string' ? e.text.slice(0, READ) : '';
  // Decomposed accents (NFD) would miss the closed vocabulary's composed spelling: compose them first.
  const composed = !/[\u0300-\u036f]/.test(raw);
  if (!composed) raw = raw.normalize('NFC');
  // The user's own prose: code fences, inline code, double-quoted spans and pasted lines removed.
  let pastedLines = 0;
  let pastedError = false;
  const proseLines: string[] = [];
  let inFence = false;
  // The reader's count: lines that are not blank, and the pasted ones among them.
  let lines = 0;
  let pastedFilled = 0;
  for (const line of raw.split('\n')) {
    const filled = NOT_BLANK.test(line);
    if (filled) lines++;
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      pastedLines++;
      if (filled) pastedFilled++;
      continue;
    }
    if (inFence || PASTED.test(line)) {
      pastedLines++;
      if (filled) pastedFilled++;
      if (!pastedError && ERROR_SHAPE.test(line)) pastedError = true;
      continue;
    }
    proseLines.push(line);
  }
  const joined = proseLines.join('\n');
  const quoted = joined.includes('"');
  // Each replacement only where its character occurs: most turns have no code, quote or apostrophe.
  const unticked = joined.includes('`') ? joined.replace(/`[^`\n]*`/g, ' ') : joined;
  const prose = (quoted ? unticked.replace(/"[^"\n]*"/g, ' ') : unticked).toLowerCase();
  const bare = prose.includes("'") || prose.includes('’') ? prose.replace(/['’]/g, '') : prose;
  const hashes: number[] = [];
  const words = wordsOf(bare, 200, hashes);
  const ids: number[] = [];
  let oov = 0;
  for (let i = 0; i < words.length; i++) {
    const id = vocabularyId(words[i]!, hashes[i]);
    if (id < 0) oov++;
    ids.push(id);
  }
  tail.push(`len:${bucket(words.length)}`);
  if (words.length > 0) tail.push(`oov:${Math.min(4, Math.floor((oov * 5) / words.length))}`);
  const trimmed = prose.trim();
  if (trimmed.endsWith('?')) tail.push('p:ends?');
  if (trimmed.includes('?')) tail.push('p:?');
  if (trimmed.includes('!')) tail.push('p:!');
  if (/\?\?|\?!|!\?/.test(trimmed)) tail.push('p:??');
  if (/(?:^|\s)[A-Z]{3,}(?:\s|[.!?,]|$)/.test(joined)) tail.push('p:caps');
  if (/^[a-z]/.test(raw.trimStart())) tail.push('p:lower');
  if (pastedLines > 0) tail.push(`paste:${bucket(pastedLines) > 2 ? 'long' : 'short'}`);
  if (pastedError) tail.push('paste:error');
  // Position and the reply this turn answers: a first turn is a task, an answer to a question is an answer.
  if (e.first) tail.push('ctx:first');
  if (typeof e.reply !== 'string') tail.push('ctx:noreply');
  else {
    // The last 300 characters of `reply.trimEnd()`, read in place.
    let to = e.reply.length;
    while (to > 0 && isSpace(e.reply.charCodeAt(to - 1))) to--;
    if (endsAsking(e.reply, Math.max(0, to - 300), to)) tail.push('ctx:asked');
  }
  // The marker detector's signals and the transcript's context.
  const s: Partial<TurnEvidence['signals']> = e.signals ?? {};
  if (s.correction && !s.challenge) tail.push('m:correction');
  if (s.challenge) tail.push('m:challenge');
  if (s.preference) tail.push('m:preference');
  if (s.approval) tail.push('m:approval');
  if (s.friction) tail.push('m:friction');
  if (e.interrupted) tail.push('c:interrupted');
  if (e.repeat) tail.push('c:repeat');
  if (e.undo) tail.push('c:undo');
  // Without a quote removed or an accent composed, the reader's prose is this one (bar blank lines).
  const shared = composed && !quoted ? { raw, lines, pasted: pastedFilled, bare } : undefined;
  return { words, ids, tail, shared };
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
/** Per BMP code unit: 0 not yet asked, 1 a word character, 2 not one (filled as characters are met). */
let wordTable: Uint8Array | undefined;

/**
 * @internal The first `max` matches of `/[\p{L}\p{N}_]+/gu` in `text`, the same strings, found by a
 * scan that asks the Unicode regex only once per distinct non-ASCII character (the regex over a whole
 * turn was the reader's costliest step). With `hashes`, each word's FNV-1a hash (the one
 * {@link vocabularyId} takes) is pushed there in the same scan.
 *
 * @example
 * ```ts
 * wordsOf('no, ещё 2x_y!', 10); // ['no', 'ещё', '2x_y']
 * ```
 */
export function wordsOf(text: string, max: number, hashes?: number[]): string[] {
  wordTable ??= new Uint8Array(0x10000);
  const table = wordTable;
  const out: string[] = [];
  let start = -1;
  let h = FNV_BASIS;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    let word: boolean;
    let width = 1;
    if (c < 128) word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95;
    else {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) {
        width = 2;
        word = WORD_CHAR.test(String.fromCodePoint(cp));
      } else {
        let t = table[cp]!;
        if (t === 0) {
          t = WORD_CHAR.test(String.fromCharCode(cp)) ? 1 : 2;
          table[cp] = t;
        }
        word = t === 1;
      }
    }
    if (word) {
      if (start < 0) {
        start = i;
        h = FNV_BASIS;
      }
      h = Math.imul(h ^ c, FNV_MUL);
      if (width === 2) h = Math.imul(h ^ text.charCodeAt(i + 1), FNV_MUL);
    } else if (start >= 0) {
      out.push(text.slice(start, i));
      hashes?.push(h);
      start = -1;
      if (out.length >= max) return out;
    }
    i += width;
  }
  if (start >= 0 && out.length < max) {
    out.push(text.slice(start));
    hashes?.push(h);
  }
  return out;
}

/** The features that describe the turn's shape and context, not its words: the ones {@link withPairs} crosses. */
const SHAPE = /^(?:m|c|ctx|p|f|len|paste|oov):/;

/**
 * @internal The shape and context features among `features`, in code-unit order: the ones paired.
 *
 * @example
 * ```ts
 * shapeFeatures(['w:no', 'm:correction', 'ctx:first']); // ['ctx:first', 'm:correction']
 * ```
 */
export function shapeFeatures(features: readonly string[]): string[] {
  return features.filter((f) => SHAPE.test(f)).sort();
}

/**
 * The features plus every pair of shape and context features (`x:a&b`, in code-unit order): a
 * linear model over them can weigh "a marker hit in a first turn" apart from either alone. Pairs of
 * words are left out, so no topic can enter through them. The pairs are there because they lift
 * cross-author recall at the same precision from 0.32 to 0.40 (eval/heuristic/LABELLING.md).
 */
function withPairs(features: string[]): string[] {
  const shape = shapeFeatures(features);
  for (let i = 0; i < shape.length; i++)
    for (let j = i + 1; j < shape.length; j++) features.push(`x:${shape[i]}&${shape[j]}`);
  return features;
}
