/**
 * What a paste into the input does, decided from its length and where it lands, before the browser
 * inserts anything (pure, so the rules are unit-tested and the handler stays small):
 *
 * - above {@link PASTE_LIMIT} characters the page does not take it: reading it is the browser's
 *   own synchronous clipboard copy (~7 ms a MB) and holding it costs as much again, so the page offers
 *   to open or drop the file instead;
 * - over a bundled sample the page opened by itself (not edited since), a whole transcript replaces
 *   the sample: inserted into it, two transcripts would be concatenated and read as the sample's format;
 * - over a large input (kept in the worker) a paste replaces it;
 * - otherwise the editor takes it, unless the result outgrows the editor: then it goes to the worker.
 */
import { EDITOR_LIMIT } from './state-types';

/**
 * The performance measure around the browser's clipboard read in the paste handler (`getData`): the
 * bench tells the browser's own copy from the page's work in the same task with it.
 */
export const CLIPBOARD_READ = 'rearview:clipboard-read';

/** Pastes above this many characters are refused with an offer to open or drop the file. */
export const PASTE_LIMIT = 10_000_000;

export type PasteDecision =
  /** Let the textarea insert it as usual. */
  | { kind: 'editor' }
  /** Too large to paste: offer Open file / drop. */
  | { kind: 'refuse'; chars: number }
  /** The new input is `text` (the pasted text alone, or spliced into the editor's text). */
  | { kind: 'input'; text: string; replacedSample: boolean };

export interface PasteTarget {
  /** The editor's text, or '' when the input is not in the editor. */
  value: string;
  selectionStart: number;
  selectionEnd: number;
  /** A sample is shown, unedited. */
  sample: boolean;
  /** The input is a large one held by the worker (no editor). */
  large: boolean;
}

/** A whole transcript rather than a snippet: several lines, or one JSON document. */
export function looksWhole(text: string): boolean {
  return text.includes('\n') || /^\s*[[{]/.test(text.slice(0, 64));
}

/**
 * @example
 * ```ts
 * decidePaste(clipboardText, { value, selectionStart, selectionEnd, sample: true, large: false });
 * ```
 */
export function decidePaste(pasted: string, at: PasteTarget): PasteDecision {
  if (pasted.length > PASTE_LIMIT) return { kind: 'refuse', chars: pasted.length };
  if (at.large) return { kind: 'input', text: pasted, replacedSample: false };
  const all = at.selectionStart === 0 && at.selectionEnd === at.value.length;
  if (at.sample && !all && at.value.length > 0 && looksWhole(pasted))
    return { kind: 'input', text: pasted, replacedSample: true };
  const kept = at.value.length - (at.selectionEnd - at.selectionStart);
  if (pasted.length + kept <= EDITOR_LIMIT) return { kind: 'editor' };
  return {
    kind: 'input',
    text: at.value.slice(0, at.selectionStart) + pasted + at.value.slice(at.selectionEnd),
    replacedSample: false,
  };
}
