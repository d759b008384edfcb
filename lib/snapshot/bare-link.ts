/**
 * An evidence line that is only a link or path in Markdown dress ("- `src/app.js`", "1. `a.ts`",
 * "web/base.js:"), or with one word beside it ("See a.py", "ls src/", "File: a.py"), is that link: the
 * snapshot lists it as the link itself, so it reads cleanly and merges with the same link named
 * elsewhere (a tool call's path, another list).
 */

import { findLinks, squash } from '../categorise/index.js';
import { LIST_MARKER, withoutListMarker } from './sentences.js';

/**
 * A Markdown link whose label is its target, `[X](X)`: read as X. The label is at most 500 characters
 * without brackets or spaces, so each `[` is read a bounded number of characters.
 */
const SELF_LINK = /\[([^[\]\s]{1,500})\]\(\1\)/g;

/**
 * Markdown dress and punctuation around a link: `*`, `` ` ``, `:`, `：`, `>`, `-`, `•`, `+`, `.`, `,`,
 * `;`, quotes. A run of only these is no word.
 */
const DRESS = new Set([0x2a, 0x60, 0x3a, 0xff1a, 0x3e, 0x2d, 0x2022, 0x2b, 0x2e, 0x2c, 0x3b, 0x22, 0x27]);
/** What makes the words around a link a gloss that is kept: brackets, dashes used as such, `=`. */
const GLOSS = new Set([0x28, 0x29, 0x5b, 0x5d, 0x2014, 0x2013, 0x3d]);
const space = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Whether the character at `i` (outside the text counts) sets a link apart: a space, dress, or none. */
const apart = (text: string, i: number): boolean =>
  i < 0 || i >= text.length || space(text.charCodeAt(i)) || DRESS.has(text.charCodeAt(i));

/**
 * The words of `text` in [from, to), dress aside, added to `count`, up to 2 (enough to tell "at most
 * one"); 2 when a word holds a gloss character.
 */
function wordsIn(text: string, from: number, to: number, count: number): number {
  let worded = false;
  for (let i = from; i <= to && count < 2; i++) {
    const c = i < to ? text.charCodeAt(i) : 0x20;
    if (space(c)) {
      if (worded) count++;
      worded = false;
    } else if (GLOSS.has(c)) return 2;
    else if (!DRESS.has(c)) worded = true;
  }
  return count;
}

/**
 * The one link `text` points to when nothing else is in it but Markdown dress and at most one word (a
 * label, a command or a verb: "File: a.py", "ls src/", "See lib/retry.ts:42"), else `undefined`. A
 * gloss (brackets, a dash, more words) keeps the sentence.
 *
 * @example
 * ```ts
 * bareLink('- `src/app.js`', ['src/app.js']); // 'src/app.js'
 * bareLink('See lib/retry.ts:42', ['lib/retry.ts:42']); // 'lib/retry.ts:42'
 * bareLink('@https://x.dev/docs', ['https://x.dev/docs']); // 'https://x.dev/docs': a chat's mention
 * bareLink('👉 **[http://localhost:4173/](http://localhost:4173/)**', ['http://localhost:4173/', 'http://localhost:4173/']); // 'http://localhost:4173/'
 * bareLink('`src/app.js` (the entry point)', ['src/app.js']); // undefined: a glossed path keeps its words
 * ```
 */
export function bareLink(text: string, links: readonly string[]): string | undefined {
  // A Markdown link whose label is its target (`[https://x.dev](https://x.dev)`) names one link, twice.
  if (links.length === 0 || links.some((l) => l !== links[0])) return undefined;
  const link = links[0]!;
  if (text === link) return undefined;
  if (links.length > 1) {
    text = text.replace(SELF_LINK, '$1');
    if (text === link) return link;
  }
  const marker = LIST_MARKER.exec(text);
  const from = marker ? marker[0].length : 0;
  const at = text.indexOf(link, from);
  if (at < 0) return undefined;
  // The link stands apart: a link glued to other letters ("**web/base.js**" read as `base.js`) is part
  // of a longer token.
  const end = at + link.length;
  // An IDE chat's mention (`@https://…`, `@src/a.ts`) sets the link apart as a space would.
  const mention = text.charCodeAt(at - 1) === 0x40 && apart(text, at - 2);
  if (!(mention || apart(text, at - 1)) || !apart(text, end)) return undefined;
  const rest = from > 0 ? text.slice(from) : text;
  return wordsIn(rest, at - from + link.length, rest.length, wordsIn(rest, 0, at - from, 0)) <= 1
    ? link
    : undefined;
}

/**
 * The text a snapshot lists for an entry's value: squashed, a link in Markdown dress as the link, and
 * a note without its list marker or checklist box (`- [ ] Add the migration` as `Add the migration`).
 * Use it to find which category took an entry.
 *
 * @example
 * ```ts
 * const s = deterministicSnapshot({ objective: '', entries: [{ scope: 'notes', key: 'k', value: '- `a.ts`', sourceIteration: 0 }] });
 * s.requiredEvidenceLinks.includes(listedText('- `a.ts`')); // true: listed as 'a.ts'
 * ```
 */
export function listedText(value: string): string {
  const text = squash(value);
  return bareLink(text, findLinks(text)) ?? withoutListMarker(text);
}
