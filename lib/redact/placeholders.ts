/** Placeholders already in a text: where they are, so that their numbers stay reserved. */

/** A placeholder-shaped token at a given position (kind names are checked against the known ones). */
const PLACEHOLDER = /\[([a-z][a-z0-9_-]{0,63})-([1-9][0-9]{0,8})\]/y;

/**
 * Calls `onPlaceholder` for every placeholder of a known kind already in `text`. Jumps from `[` to `[`
 * with `indexOf`, which is an order of magnitude faster than a regular-expression search.
 *
 * @example
 * ```ts
 * findPlaceholders('a [email-2] b', new Set(['email']), (kind, n) => console.log(kind, n)); // email 2
 * ```
 */
export function findPlaceholders(
  text: string,
  knownKinds: ReadonlySet<string>,
  onPlaceholder: (kind: string, n: number, start: number, end: number) => void,
): void {
  const re = PLACEHOLDER;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) {
    if (i + 1 >= text.length) break;
    const c = text.charCodeAt(i + 1);
    if (c < 97 || c > 122) continue;
    re.lastIndex = i;
    const m = re.exec(text);
    if (m !== null && knownKinds.has(m[1]!)) onPlaceholder(m[1]!, Number(m[2]), i, re.lastIndex);
  }
}
