/**
 * A pointer with a gloss: a path or URL that opens the entry, followed by a short description in
 * parentheses or after an em dash or `+` ("`src/domain/Settings.ts` (settings structure)",
 * "`client.ts:148-162` — event routing"). Such a line is a place to look, annotated: evidence, when
 * nothing else in it plans, asks or reports a problem (the caller checks that).
 */
import { isPointer } from './pointer.js';
import { afterListMarker } from './text.js';

/**
 * Whether `raw` opens with a path or URL (after a list marker or bold, maybe in backticks, maybe with
 * a `:line` or `:from-to` suffix) that a gloss follows: `(…)`, `+ …`, `— …` or `– …`. One pass over the opening characters.
 *
 * @example
 * ```ts
 * glossedPointer('`frontend/src/domain/Settings.ts` (settings structure)'); // true
 * glossedPointer('src/a.ts is where the retry lives'); // false (a sentence, not a gloss)
 * ```
 */
export function glossedPointer(raw: string): boolean {
  const len = raw.length;
  let i = 0;
  while (i < len && raw.charCodeAt(i) <= 0x20) i++;
  i = afterListMarker(raw, i);
  while (i < len && raw.charCodeAt(i) === 0x2a) i++; // bold
  const ticked = raw.charCodeAt(i) === 0x60;
  if (ticked) i++;
  const s = i;
  while (i < len && raw.charCodeAt(i) > 0x20 && raw.charCodeAt(i) !== 0x60) i++;
  let e = i;
  // A `:12` or `:148-162` suffix belongs to the pointer.
  let k = e;
  while (
    k > s &&
    ((raw.charCodeAt(k - 1) >= 0x30 && raw.charCodeAt(k - 1) <= 0x39) || raw.charCodeAt(k - 1) === 0x2d)
  )
    k--;
  if (k < e && k > s && raw.charCodeAt(k - 1) === 0x3a) e = k - 1;
  if (e - s < 3) return false;
  if (ticked) {
    if (raw.charCodeAt(i) !== 0x60) return false;
    i++;
  }
  while (i < len && raw.charCodeAt(i) === 0x2a) i++;
  while (i < len && raw.charCodeAt(i) === 0x20) i++;
  const g = raw.charCodeAt(i);
  const glossOpens =
    g === 0x28 || // (
    g === 0x2b || // +
    // An em or en dash glosses; a plain hyphen in file-review lists mostly gives a verdict
    // ("`a.ts` - looks good", "- already listed"), which is no pointer to follow.
    ((g === 0x2014 || g === 0x2013) && raw.charCodeAt(i + 1) === 0x20); // — –
  // Something must follow the opener (a bare pointer is `isPointer`'s case); the first token is read
  // as a pointer last, as most lines have no gloss opener there.
  return glossOpens && i + 2 < len && isPointer(raw.slice(s, e));
}

/** "If I look at", "If we check in", "I saw": the writer opening a file to read it, or having read it. */
const LOOK_AT = /^\s*(?:if\s+(?:i|we)\s+(?:look|check)\s+(?:at|in)|i\s+saw)\s+`?([^\s`,:]+)/i;

/**
 * Whether `raw` is the writer looking at a file ("If I look at `sphinx/writers/latex.py`:", "If I
 * look at `a/b.py`, it uses `erfa.atioq`."): evidence by the labelling conventions of sets 7-9, a
 * place named as where the answer is read.
 *
 * @example
 * ```ts
 * lookedAtPointer('If I look at `sphinx/writers/latex.py`:'); // true
 * lookedAtPointer('If I look at the docs, nothing changed.'); // false (no path)
 * ```
 */
export function lookedAtPointer(raw: string): boolean {
  const c = raw.charCodeAt(0) | 0x20;
  if (c !== 0x69 && c !== 0x20) return false; // "If…" or leading space: a cheap gate
  const m = LOOK_AT.exec(raw);
  return m !== null && isPointer(m[1]!);
}
