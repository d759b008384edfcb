/**
 * Texts that take the scanner down every branch, read three times once a compiled marker set has
 * scanned {@link WARM_AFTER} characters. Why: V8 (Node, Deno, Chromium, workerd) optimises `scan`
 * from what its earlier calls did. A branch that no earlier call took — a tab at a line start, an unclosed code fence, a hex-looking
 * word, a character from a rare Unicode block — has no type feedback, so the first text that takes
 * it throws the optimised code away. Often V8 then keeps only an on-stack-replacement version of the
 * loop, and every later call runs about 12 % slower (timed process by process, the shared user turns
 * took 8.2 or 9.5 ms, depending on which branch came first). With every branch seen
 * before V8 optimises, none is new. The reading costs 5–10 ms, once, with the scanner not yet
 * compiled (measured); the results of the texts are thrown away, so nothing a caller sees changes.
 * Built when called, not at load. Checked with V8's block coverage: every branch of `scan`,
 * `matchSentence`, `matchFrom` and `codesOf` but a hash collision in `lookup` and a non-string turn.
 */
import { type CompiledMarkers, LISTS } from './compile.js';
import type { MarkerSet } from './markers.js';

/**
 * @internal Characters a marker set scans before its warm-up: a caller that scans a few turns never
 * pays for it, and V8 optimises `scan` later (after about 60 KB of the shared turns), by which time
 * every branch has been seen.
 */
export const WARM_AFTER = 1 << 14;

/**
 * @internal Reads the texts below three times with `scanTurn` (passed in: this file does not import the
 * scanner), so that V8 optimises `scan` with every branch seen.
 *
 * @example
 * ```ts
 * c.scanned += text.length;
 * if (c.scanned >= WARM_AFTER) warmUp(c, scanTurn); // once: scanTurn stops counting past it
 * ```
 */
export function warmUp(c: CompiledMarkers, scanTurn: (text: string, c: CompiledMarkers) => number): void {
  const texts = exerciseTexts(c.markers);
  // Three rounds: V8 gives a function its feedback only after its first few calls. Small arrays in
  // each round (16 long: the first texts count on it), so that growing them is among the
  // branches taken.
  for (let r = 0; r < 3; r++) {
    c.bytes = new Uint8Array(16);
    c.codes = new Uint16Array(16);
    for (const t of texts) scanTurn(t, c);
  }
}

/**
 * The texts (see the file's comment): the markers' own lists, read as sentences and as questions
 * (every pattern, in the bundle already), then the shapes no marker has.
 */
function exerciseTexts(markers: MarkerSet): string[] {
  // The lists compileMarkers reads, and only their strings (a marker set may hold anything); the
  // markers with flags or gaps, which take the matcher's rarer branches.
  const lists = LISTS.flatMap((key) => (Array.isArray(markers?.[key]) ? markers[key] : []))
    .filter((m) => typeof m === 'string' && /[*$?!+^]/.test(m))
    .join('. ');
  return [
    // first, while the reused arrays are those `warmUp` starts a round with (16 long): a text whose
    // UTF-8 outgrows them
    '\u00e9'.repeat(40),
    // markers: a correction, approval (hedged with "but"), negated, end-anchored, gaps (one across a comma)
    'perfect, but it fails. Put it, back. Never use X instead. -- yes - no',
    // line starts (tab, CR, no-break space, indent), pasted lines (code, hex, symbols), quotes, tags
    'a\n\tb\n\rc\n\u00a0d\n    e(x) = 1;\nDEADBEEF12\ndeadbeef12\n{}[]();;;\n' +
      'our users\' files are here\n`c` "q" <r>x</r> <my-r>x</my-r> <br> "o\n\nn "w\n\rq"',
    // code fences: closed, opened mid-sentence, never closed
    'a ```\nb\n``` c ```d',
    // non-ASCII words, capitals, a combining mark (composed and scanned again), rare blocks, a kana
    // after a letter, full-width punctuation, astral
    'caf\u00e9 \u00dcBER \u043d\u0435 \u0401 cafe\u0301 \ud83d\ude00 a\u3042\uff0c\u3002\uf900\uff21\ufffd\u2c00\u2e00\ue000\ufe00',
    // a slash command; a dot inside a word
    ' /m x',
    'a.py 3.1?q',
    // a sentence over MAX_SENTENCE words
    `${'a '.repeat(520)}.`,
    lists,
    lists.replace(/\. /g, '? '),
  ];
}
