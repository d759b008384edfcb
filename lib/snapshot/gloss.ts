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
