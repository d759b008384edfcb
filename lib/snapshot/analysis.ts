/**
 * The analysis of one entry text (words, key, links, category, terms): a pure function of the text,
 * so a memo (memo.ts) can keep it from one snapshot to the next without changing what one says.
 */
import {
  classify,
  classifyFlags,
  contentTerms,
  findLinks,
  findLinksFrom,
  hint,
  keyHash,
  RESOLVED_CODE,
  scanText,
  squash,
  type Vocabulary,
  words,
} from '../categorise/index.js';
import { ValidationError } from '../core/index.js';
import type { MemoryEntry, SnapshotCategory } from './types.js';

/**
 * The list fields of an {@link ActiveContextSnapshot}, in output order.
 *
 * @example
 * ```ts
 * for (const category of CATEGORIES) console.log(category, snapshot[category].length);
 * ```
 */
export const CATEGORIES: readonly SnapshotCategory[] = [
  'openHypotheses',
  'blockers',
  'nextActions',
  'unresolvedQuestions',
  'requiredEvidenceLinks',
];

/**
 * What one distinct entry text says, computed once per build however often the text repeats (memory
 * entries often do), or once per memo (memo.ts) across builds: the squashed text, its links,
 * words, classification, key and terms. `C` is the build's candidate type.
 */
export interface Analysis<C = unknown> {
  text: string;
  links: string[];
  /** Where the candidates its links became (once they did) start in the build's `linkCands`; -1 before. */
  linkAt: number;
  /**
   * Where the words' ids start in `vocab.ids` (ASCII text); -1 for other text, or until the words are
   * read (only when the text needs them).
   */
  at: number;
  /** How many words, once read (-1 before). */
  n: number;
  /** {@link keyHash} of the comparable key. */
  keyHash: number;
  /** The category without a forcing scope (`undefined` when uncategorized or resolved). */
  category: SnapshotCategory | undefined;
  /** The injected categoriser that gave `readCategory` (a snapshot's `categorise` option), or null. */
  readBy: unknown;
  /** The role `readCategory` was read for (an entry's `role`). */
  readRole: MemoryEntry['role'];
  readCategory: SnapshotCategory | undefined;
  resolved: boolean;
  key: string | null;
  /**
   * The one link the text is in Markdown dress (`bareLink`), null when it is not one; undefined until
   * the text is evidence in some build. A pure function of `text` and `links`: kept across builds.
   */
  bare: string | null | undefined;
  /**
   * Which of `links` are words joined by slashes written bare (word-list.ts `bareWordLists`), null
   * when none has the shape; undefined until the text's links are read in some build.
   */
  lists: Uint8Array | null | undefined;
  /** Its content terms, as a candidate's: -1 until needed. */
  termsAt: number;
  termsLen: number;
  /**
   * The build that last met it (a memo's generation): `linkAt`, `cand` and `candCat`
   * belong to that build alone, and are reset when another one meets the text.
   */
  gen: number;
  /** The candidate this text became (in category `candCat`), so a repeat skips the key look-up. */
  cand: C | null;
  candCat: number;
}

/** {@link comparableKey} from words already split. */
function keyOf(ws: readonly string[]): string {
  const k = ws.join(' ');
  return k.indexOf("'") < 0 ? k : k.replace(/'/g, ' ');
}

/** The links of a text that holds none (one array, never written). */
const NO_LINKS: string[] = [];

/**
 * The analysis of an entry's text. ASCII text that needs no squashing is read in one pass (words,
 * key hash, whether it may hold links) and classified at once; other text is squashed, and read when
 * its words are needed.
 */
export function analyze<C>(raw: string, vocab: Vocabulary, gen: number): Analysis<C> {
  const n = scanText(raw, vocab);
  const text = n >= 0 ? raw : squash(raw);
  const a: Analysis<C> = {
    text,
    links:
      n >= 0
        ? vocab.linkish
          ? findLinksFrom(text, vocab.linkFrom)
          : NO_LINKS
        : text === ''
          ? NO_LINKS
          : findLinks(text),
    linkAt: -1,
    at: -1,
    n: -1,
    keyHash: 0,
    category: undefined,
    readBy: null,
    readRole: undefined,
    readCategory: undefined,
    resolved: false,
    key: null,
    bare: undefined,
    lists: undefined,
    termsAt: -1,
    termsLen: 0,
    gen,
    cand: null,
    candCat: -1,
  };
  if (n >= 0) readIds(a, n, vocab);
  return a;
}

/** Keeps the `n` ids {@link scanText} just wrote for `a`, and classifies `a` by them. */
function readIds(a: Analysis, n: number, vocab: Vocabulary): void {
  a.at = vocab.idsUsed;
  vocab.idsUsed += n; // kept
  a.n = n;
  a.keyHash = vocab.keyHash;
  // The needles its words hold spare the forms' searches (needles.ts).
  hint(a.text, vocab.needleBits);
  const code = classifyFlags(vocab.ids, vocab.flags, a.text, vocab.linkish, a.at, n);
  a.category = code >= 0 && code < CATEGORIES.length ? CATEGORIES[code] : undefined;
  a.resolved = code === RESOLVED_CODE;
}

/**
 * Words, ids and key hash of `a` (squashed text), then its unforced classification. Text that is not
 * ASCII keeps no ids: its terms are found at once (the words are at hand; such text is rare).
 */
export function read(a: Analysis, vocab: Vocabulary): void {
  const n = scanText(a.text, vocab);
  if (n >= 0) {
    readIds(a, n, vocab);
    return;
  }
  const ws = words(a.text);
  a.n = ws.length;
  a.key = keyOf(ws);
  a.keyHash = keyHash(a.key);
  a.termsAt = keepTerms(vocab, vocab.termIdsOf(contentTerms(ws)));
  a.termsLen = vocab.termIdsUsed - a.termsAt;
  const k = classify(ws, a.text, undefined);
  a.category = k.category;
  a.resolved = k.resolved;
}

/** Appends term ids to `vocab.termIds`; returns where they start. */
export function keepTerms(vocab: Vocabulary, terms: readonly number[]): number {
  const at = vocab.termIdsUsed;
  if (at + terms.length > vocab.termIds.length) {
    const grown = new Int32Array(Math.max(vocab.termIds.length * 2, at + terms.length));
    grown.set(vocab.termIds);
    vocab.termIds = grown;
  }
  for (let i = 0; i < terms.length; i++) vocab.termIds[at + i] = terms[i]!;
  vocab.termIdsUsed = at + terms.length;
  return at;
}

/** Where a link's or a task title's content terms are in `vocab.termIds`. */
export interface TermsRef {
  at: number;
  len: number;
}

/**
 * The injected categoriser's answer for `a`'s text written by `role`, checked (a snapshot category or
 * `undefined`; anything else throws `ValidationError`). Kept with the analysis, so a memo asks once per
 * text and role; a text met in another role is read again (who wrote it may change the answer).
 */
export function readWith(
  a: Analysis,
  // `NoteCategoriser` of options.ts, written out: options.ts imports the memo, which imports this file.
  categorise: (text: string, role?: MemoryEntry['role']) => unknown,
  role: MemoryEntry['role'],
): SnapshotCategory | undefined {
  if (a.readBy === categorise && a.readRole === role) return a.readCategory;
  const c: unknown = categorise(a.text, role);
  if (c !== undefined && !CATEGORIES.includes(c as SnapshotCategory))
    throw new ValidationError(
      [{ path: 'categorise', message: `returned ${String(c)}, not a snapshot category` }],
      { subject: 'Snapshot options' },
    );
  a.readCategory = c as SnapshotCategory | undefined;
  a.readBy = categorise;
  a.readRole = role;
  return a.readCategory;
}
