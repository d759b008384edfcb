/**
 * The long lists of the worker's answers (turns, snapshot trace, compaction steps, memory entries),
 * taken out and sent in pieces: the page deserializes each message in one main-thread task, and a
 * 50 MB session's view holds ~25 MB of such lists (one list in one message was a 250 ms task). The
 * rest of the answer, with those lists emptied, follows last and completes it.
 */

/** Where the long lists are, in a View and in an update (which holds `snapshot` / `compaction`). */
export const LIST_PATHS = [
  'turns',
  'insights',
  'snapshot.trace.kept',
  'snapshot.trace.dropped',
  'snapshot.retired',
  'compaction.steps',
  'input.entries',
] as const;

export type ListPath = (typeof LIST_PATHS)[number];

/** About this many characters of text per piece (a few ms to deserialize), and never more items. */
export const PIECE_CHARS = 200_000;
export const PIECE_ITEMS = 2000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `value` with the lists at `paths` emptied, and those lists. Objects on the way to a list are copied,
 * so `value` itself is untouched (the worker keeps it). Paths that lead nowhere are skipped.
 *
 * @example
 * ```ts
 * const { shell, lists } = takeLists({ turns: [1, 2], ms: 3 }); // shell.turns = [], lists = [['turns', [1, 2]]]
 * ```
 */
export function takeLists<T extends object>(
  value: T,
  paths: readonly string[] = LIST_PATHS,
): { shell: T; lists: [string, unknown[]][] } {
  const shell = { ...value } as Obj;
  const lists: [string, unknown[]][] = [];
  for (const path of paths) {
    const keys = path.split('.');
    let at: Obj = shell;
    let ok = true;
    for (const key of keys.slice(0, -1)) {
      const next = at[key];
      if (!isObj(next)) {
        ok = false;
        break;
      }
      at[key] = { ...next };
      at = at[key] as Obj;
    }
    const last = keys.at(-1)!;
    const list = at[last];
    if (!ok || !Array.isArray(list)) continue;
    lists.push([path, list]);
    at[last] = [];
  }
  return { shell: shell as T, lists };
}

/**
 * Puts lists received in pieces back into a shell made by {@link takeLists}.
 *
 * @example
 * ```ts
 * putLists(shell, new Map([['turns', [1, 2]]])); // shell.turns = [1, 2]
 * ```
 */
export function putLists(shell: object, lists: ReadonlyMap<string, unknown[]>): void {
  for (const [path, list] of lists) {
    const keys = path.split('.');
    let at: unknown = shell;
    for (const key of keys.slice(0, -1)) at = isObj(at) ? at[key] : undefined;
    if (isObj(at)) at[keys.at(-1)!] = list;
  }
}

/** A rough size of an item in characters: its strings, a little per number and per object. */
function roughSize(v: unknown, depth = 0): number {
  if (typeof v === 'string') return v.length + 2;
  if (typeof v !== 'object' || v === null || depth > 3) return 8;
  let n = 2;
  for (const x of Array.isArray(v) ? v : Object.values(v)) n += roughSize(x, depth + 1) + 4;
  return n;
}

/**
 * `list` cut into pieces of about {@link PIECE_CHARS} characters (and at most {@link PIECE_ITEMS}
 * items), in order.
 *
 * @example
 * ```ts
 * for (const items of pieces(view.turns)) post({ type: 'items', id, path: 'turns', items });
 * ```
 */
export function* pieces<T>(list: readonly T[], chars = PIECE_CHARS, items = PIECE_ITEMS): Generator<T[]> {
  let start = 0;
  let size = 0;
  for (let i = 0; i < list.length; i++) {
    size += roughSize(list[i]);
    if (size >= chars || i + 1 - start >= items) {
      yield list.slice(start, i + 1);
      start = i + 1;
      size = 0;
    }
  }
  if (start < list.length) yield list.slice(start);
}
