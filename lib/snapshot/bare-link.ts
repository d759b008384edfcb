/**
 * An evidence line that is only a link or path in Markdown dress ("- `src/app.js`", "1. `a.ts`",
 * "web/base.js:") is that link: the snapshot lists it as the link itself, so it reads cleanly and
 * merges with the same link named elsewhere (a tool call's path, another list).
 */

import { findLinks, squash } from '../categorise/index.js';

/** A list marker (`-`, `*`, `•`, `+`, `1.`, `1)`) and the space after it, at the line's start. */
const LIST_MARKER = /^\s*(?:[-*•+]|\d{1,3}[.)])\s+/;

/** Bold and backticks around a link, a colon after it, and spaces: `*`, `` ` ``, `:`, space, tab. */
const dress = (c: number): boolean => c === 0x2a || c === 0x60 || c === 0x3a || c === 0x20 || c === 0x09;

/**
 * The one link `text` holds when nothing else is in it but Markdown dress, else `undefined`.
 *
 * @example
 * ```ts
 * bareLink('- `src/app.js`', ['src/app.js']); // 'src/app.js'
 * bareLink('See src/app.js', ['src/app.js']); // undefined: a pointer sentence keeps its words
 * ```
 */
export function bareLink(text: string, links: readonly string[]): string | undefined {
  if (links.length !== 1) return undefined;
  const link = links[0]!;
  if (text === link) return undefined;
  const rest = text.replace(LIST_MARKER, '');
  // Trimmed by index, not by a regex anchored at the end (which is quadratic on a long run of spaces).
  let from = 0;
  let to = rest.length;
  while (from < to && (rest.charCodeAt(from) === 0x2a || rest.charCodeAt(from) === 0x60)) from++;
  while (to > from && dress(rest.charCodeAt(to - 1))) to--;
  return to - from === link.length && rest.startsWith(link, from) ? link : undefined;
}

/**
 * The text a snapshot lists for an entry's value: squashed, and a link in Markdown dress as the link.
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
  return bareLink(text, findLinks(text)) ?? text;
}
