/**
 * Text similarity shared by the playbook's dedup and relevance selection, the session's per-session
 * dedup and the reflexion memory: content words (lower-cased letters and digits of any script, common
 * English stop words left out, a plural `s` trimmed), word shingles, and one Jaccard index.
 * Deterministic and locale-independent.
 *
 * @module
 */

const STOP = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto as is are was were be ' +
    'been being it its this that these those there here than so such not no do does did done can could ' +
    'should would will shall may might must have has had i you he she we they them their our your my me ' +
    'us his her which who whom what when where why how all any each every some more most other very just ' +
    'also only own same too about over under again once'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The content words of `text`, in order.
 *
 * @example
 * ```ts
 * contentWords('Use the type hints in Python functions'); // ['use', 'type', 'hint', 'python', 'function']
 * ```
 */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  if (typeof text !== 'string') return out;
  const lower = text.toLowerCase();
  WORD.lastIndex = 0;
  for (let m = WORD.exec(lower); m !== null; m = WORD.exec(lower)) {
    let w = m[0];
    if (STOP.has(w)) continue;
    if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) {
      if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
      else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
      else w = w.slice(0, -1);
    }
    out.push(w);
  }
  return out;
}

/**
 * Word shingles of `text`: its content words and its pairs of adjacent content words, deduplicated.
 *
 * @example
 * ```ts
 * shingles('run tests often'); // ['run', 'test', 'often', 'run test', 'test often']
 * ```
 */
export function shingles(text: string): string[] {
  const words = contentWords(text);
  const set = new Set(words);
  for (let i = 1; i < words.length; i++) set.add(`${words[i - 1]} ${words[i]}`);
  return [...set];
}

/**
 * Jaccard similarity of two collections of strings, each treated as a set: |A ∩ B| / |A ∪ B|; 0 when
 * either is empty.
 *
 * @example
 * ```ts
 * jaccard(['sort', 'user'], ['sort', 'user', 'age']); // 0.666…
 * jaccard(new Set(shingles('run tests often')), new Set(shingles('run the tests often'))); // 1
 * ```
 */
export function jaccard(a: Iterable<string>, b: Iterable<string>): number {
  const sa = a instanceof Set ? (a as ReadonlySet<string>) : new Set(a);
  const sb = b instanceof Set ? (b as ReadonlySet<string>) : new Set(b);
  if (!sa.size || !sb.size) return 0;
  let inter = 0;
  // Probe the larger set with the smaller one: the cost is the smaller size.
  const [small, large] = sa.size <= sb.size ? [sa, sb] : [sb, sa];
  for (const x of small) if (large.has(x)) inter++;
  return inter / (sa.size + sb.size - inter);
}
