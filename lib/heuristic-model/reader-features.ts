/**
 * The features of the reader (`readerModel`): the shape and context features of the correction model
 * (`turnFeatures`, with the first two words but not its vocabulary words: `readsBase`), plus the open words of the person's own prose (lower-cased,
 * apostrophes dropped, composed accents), their pairs, characters pairs of Chinese, Japanese and
 * Korean text (no spaces to split words on), what the reply being answered did (claimed a fix, showed
 * an error, asked), whether the agent's next reply owns a mistake, text no person typed (command templates, IDE boilerplate) and how much of the turn
 * is pasted. Each feature name is hashed (FNV-1a, 32 bits, `Math.imul`) to one of 2^20 buckets: the
 * model stores weights by bucket, never a word. Pure string work: the same buckets in every runtime.
 */
import { fnv1a32 } from '../core/index.js';
import type { TurnEvidence } from '../heuristic/index.js';
import { type BaseParts, turnFeatures, wordsOf } from './features.js';
import { endsAsking, isSpace } from './text-scan.js';

/**
 * Buckets of the hashed features: 2^20, few collisions among the features a model keeps.
 *
 * @example
 * ```ts
 * hashFeature('u:no') < BUCKETS; // true
 * ```
 */
export const BUCKETS = 1 << 20;
/**
 * @internal How much of a turn the reader reads: bounded work per turn. The labels were read from the
 * first 600 characters; the first 400 score the same out of fold (corrections' average precision on
 * the `strangers` rows 0.681 → 0.683, on the older sets 0.788 → 0.798) and are a sixth fewer to read.
 */
export const READ = 400;

/**
 * @internal The turn as the reader reads it: its first {@link READ} characters (the same object when
 * it is no longer).
 *
 * @example
 * ```ts
 * readerTurn(turn).text.length <= READ; // true
 * ```
 */
export const readerTurn = (e: TurnEvidence): TurnEvidence =>
  typeof e.text === 'string' && e.text.length > READ ? { ...e, text: e.text.slice(0, READ) } : e;
/**
 * How much of the reply a turn answers is read, from its end: what it claimed, showed or asked last.
 * Its last 150 characters score as its last 600 did out of fold (corrections' average precision on the
 * `strangers` rows 0.683 with 300, 0.685 with 150), a quarter of the characters: the claim and error
 * patterns over the last 600 had been a fifth of the reader's time.
 */
const REPLY_READ = 150;
/** @internal The words (and CJK characters) read of a turn's prose. */
export const MAX_WORDS = 120;

/**
 * A feature name's bucket: FNV-1a over UTF-16 code units, 32 bits, integer-only (identical
 * everywhere), cut to {@link BUCKETS}.
 *
 * @example
 * ```ts
 * hashFeature('u:still'); // a number in [0, 2^20)
 * ```
 */
export function hashFeature(name: string): number {
  return fnv1a32(name) & (BUCKETS - 1);
}

/**
 * @internal Command templates and IDE boilerplate sent in the person's seat: no person typed them
 * (`isTemplate` tests it; exported for the test that holds the two to the same answer).
 *
 * @example
 * ```ts
 * TEMPLATE.test('Implement the plan as specified'); // true
 * ```
 */
export const TEMPLATE =
  /## User Input|You \*\*MUST\*\*|For the code present, we get this error|Implement the plan as specified|<USER_REQUEST>|\$ARGUMENTS|^---\n(?:description|name):/m;
const FRONT_MATTER = /^---\n(?:description|name):/m;
/** The reply claims the work is done or fixed: a complaint after it is a correction. */
const CLAIM =
  /\b(?:fixed|i(?:'ve| have) (?:updated|fixed|changed|added|implemented|made|removed|created)|should (?:now )?work|now (?:works|working)|successfully|is now|are now|all set|done)\b/i;
/**
 * `\b(?:error|…)\b|\w+Error\b` written with `error\b` alone (before "error" there is either a word
 * boundary or a word character): the same replies match, and the literal first lets the engine skip.
 */
const ERROR = /error\b|\b(?:exception|traceback|failed|failure|fatal)\b/i;
/** Runs of Han, kana and Hangul: scripts written without spaces between words. */
const CJK_RUNS = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+/g;
const PASTED = /^(?:\s{4}|\t|\s*(?:>|\$ |File "|Traceback|[{}[\]<|])|\s+at \S)/;

/**
 * @internal What the reader reads of a turn beyond `turnFeatures`, computed once: named by
 * {@link readerFeatures}, hashed without names by `readerHashes` (one source for both).
 */
export interface ReaderParts {
  /** The pasted share of the non-blank lines, 0..4, or -1 for a turn without one. */
  pasted: number;
  template: boolean;
  /** The prose words as the reader names them (`0` for a number, `~` for a token over 20 characters). */
  words: string[];
  /** The runs of CJK characters of the prose. */
  runs: string[];
  claim: boolean;
  error: boolean;
  asked: boolean;
}

/**
 * @internal Whether `s` holds a Han, kana or Hangul character (the ranges of `CJK_RUNS`, by code unit).
 *
 * @example
 * ```ts
 * hasCjk('还是'); // true
 * ```
 */
export function hasCjk(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af))
      return true;
  }
  return false;
}

const allDigits = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return s.length > 0;
};

/**
 * @internal The reader's own reading of one turn (see {@link ReaderParts}).
 *
 * @example
 * ```ts
 * readerParts(turn).words; // ['that', 'is', 'still', 'broken']
 * ```
 */
export function readerParts(e: TurnEvidence, base?: BaseParts): ReaderParts {
  const prose = readerProse(e, base);
  const words = prose.words.slice(0, MAX_WORDS);
  for (let i = 0; i < words.length; i++) words[i] = readerWord(words[i]!);
  const reply = replyParts(e.reply);
  return {
    pasted: prose.lines > 0 ? Math.min(4, Math.floor((prose.pasted * 5) / prose.lines)) : -1,
    template: isTemplate(prose.raw),
    words,
    runs: cjkRuns(prose.text),
    claim: reply.claim,
    error: reply.error,
    asked: reply.asked,
  };
}

/**
 * @internal The word as the reader names it: numbers and long tokens (hashes, paths) carry a topic,
 * not how the person speaks.
 *
 * @example
 * ```ts
 * [readerWord('42'), readerWord('a1b2c3d4e5f6a7b8c9d0e1'), readerWord('still')]; // ['0', '~', 'still']
 * ```
 */
export const readerWord = (w: string): string => (allDigits(w) ? '0' : w.length > 20 ? '~' : w);

/**
 * @internal The runs of CJK characters of the prose, none without a CJK character.
 *
 * @example
 * ```ts
 * cjkRuns('还是 not 不行'); // ['还是', '不行']
 * ```
 */
export const cjkRuns = (text: string): string[] => (hasCjk(text) ? (text.match(CJK_RUNS) ?? []) : []);

/**
 * @internal Whether the turn looks like a command template or IDE boilerplate: `TEMPLATE`'s
 * alternatives one by one, the literal ones by the engine's substring search (faster than the regex
 * trying seven alternatives at every position), the line-anchored one only where `---` and a line
 * break occur. The same answer as `TEMPLATE.test(raw)`.
 *
 * @example
 * ```ts
 * isTemplate('## User Input\n$ARGUMENTS'); // true
 * ```
 */
export const isTemplate = (raw: string): boolean =>
  raw.includes('## User Input') ||
  raw.includes('You **MUST**') ||
  raw.includes('For the code present, we get this error') ||
  raw.includes('Implement the plan as specified') ||
  raw.includes('<USER_REQUEST>') ||
  raw.includes('$ARGUMENTS') ||
  (raw.includes('---\n') && FRONT_MATTER.test(raw));

/**
 * @internal What the reply a turn answers did, read from its last 150 characters: claimed a fix,
 * showed an error, asked a question.
 *
 * @example
 * ```ts
 * replyParts('I have fixed the bug. Shall I go on?'); // { claim: true, error: false, asked: true }
 * ```
 */
export function replyParts(full: string | undefined): { claim: boolean; error: boolean; asked: boolean } {
  if (typeof full !== 'string' || full === '') return { claim: false, error: false, asked: false };
  const from = Math.max(0, full.length - REPLY_READ);
  const reply = full.slice(from);
  // `reply.trimEnd()` ends where the last character that is not white space does.
  let to = full.length;
  while (to > from && isSpace(full.charCodeAt(to - 1))) to--;
  return { claim: CLAIM.test(reply), error: ERROR.test(reply), asked: endsAsking(full, from, to) };
}

/**
 * @internal The prose the reader reads: shared with `baseParts` when it can be (its words are then
 * the base reading's, cut at 200; more than the reader reads), otherwise read again.
 *
 * @example
 * ```ts
 * readerProse(turn, baseParts(turn)).words; // the prose words; the reader reads the first 120
 * ```
 */
export function readerProse(e: TurnEvidence, base?: BaseParts): Required<Prose> {
  const shared = base?.shared;
  if (shared)
    return {
      raw: shared.raw,
      lines: shared.lines,
      pasted: shared.pasted,
      text: shared.bare,
      words: base.words,
    };
  const prose = readProse(e);
  return {
    raw: prose.raw,
    lines: prose.lines,
    pasted: prose.pasted,
    text: prose.text,
    words: wordsOf(prose.text, MAX_WORDS),
  };
}

/**
 * The reader's reading of the lines, when `baseParts` could not share its own (its blank lines add no
 * word and no CJK run, so otherwise the two are the same).
 */
interface Prose {
  raw: string;
  lines: number;
  pasted: number;
  text: string;
  words?: string[];
}

function readProse(e: TurnEvidence): Prose {
  const raw = typeof e.text === 'string' ? e.text.slice(0, READ) : '';
  let pasted = 0;
  let lines = 0;
  let inFence = false;
  const prose: string[] = [];
  for (const line of raw.split('\n')) {
    if (line.trim() === '') continue;
    lines++;
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      pasted++;
      continue;
    }
    if (inFence || PASTED.test(line)) {
      pasted++;
      continue;
    }
    prose.push(line);
  }
  let text = prose.join('\n').replace(/`[^`\n]*`/g, ' ');
  if (/[\u0300-\u036f]/.test(text)) text = text.normalize('NFC');
  text = text.toLowerCase().replace(/['’]/g, '');
  return { raw, lines, pasted, text };
}

/**
 * @internal Which of the correction model's features (`turnFeatures`) the reader reads: not its vocabulary words
 * and word pairs (`w:`, `b:`: the reader's own `u:` and `v:` name every word) nor the share of words
 * outside the vocabulary (`oov:`, alone and in pairs). Without them the reader scores the same on
 * authors it never saw (out of fold on the `strangers` rows, corrections' average precision 0.686 →
 * 0.681, friction 0.527 → 0.517, approvals 0.611 → 0.615; on the older sets 0.786 → 0.788, 0.506 →
 * 0.531, 0.743 → 0.750, with the reply's last 300 characters read) at less cost: only a turn's first
 * two words are looked up in the vocabulary. `partsHashes` filters the tail of `baseParts` with it too.
 *
 * @example
 * ```ts
 * ['f:no', 'w:still', 'oov:2', 'len:3'].filter(readsBase); // ['f:no', 'len:3']
 * ```
 */
export const readsBase = (name: string): boolean =>
  !name.startsWith('w:') && !name.startsWith('b:') && !name.includes('oov:');

/**
 * The reader's feature names of one turn (before hashing; `readerBuckets` hashes them).
 *
 * @example
 * ```ts
 * const signals = { correction: false, challenge: false, preference: false, approval: false, friction: false };
 * const turn = { text: 'That is still broken.', signals, interrupted: false, repeat: false, undo: false, first: false, reply: 'Fixed!' };
 * readerFeatures(turn).includes('r:claim'); // true
 * ```
 */
export function readerFeatures(e: TurnEvidence): string[] {
  const turn = readerTurn(e);
  const out = turnFeatures(turn).filter(readsBase);
  const p = readerParts(turn);
  if (p.pasted >= 0) out.push(`pr:${p.pasted}`);
  if (p.template) out.push('t:template');
  let previous = '^';
  for (const word of p.words) {
    if (!hasCjk(word)) {
      out.push(`u:${word}`);
      out.push(`v:${previous}_${word}`);
    }
    previous = word;
  }
  if (p.words.length > 0) out.push(`v:${previous}_$`);
  let cjk = 0;
  for (const run of p.runs) {
    for (let i = 0; i < run.length && cjk < MAX_WORDS; i++, cjk++) {
      out.push(`k:${run[i]}`);
      if (i + 1 < run.length) out.push(`k:${run[i]}${run[i + 1]}`);
    }
  }
  if (cjk > 0) out.push('script:cjk');
  if (p.claim) out.push('r:claim');
  if (p.error) out.push('r:error');
  if (p.asked) out.push('r:asked');
  // The agent's next reply owns a mistake (read when the transcript holds it).
  if (turn.acknowledged) out.push('r:ack');
  return out;
}

/**
 * The hashed buckets of a turn's features, each once.
 *
 * @example
 * ```ts
 * readerBuckets(turn).every((b) => b >= 0 && b < BUCKETS); // true
 * ```
 */
export function readerBuckets(e: TurnEvidence): number[] {
  return [...new Set(readerFeatures(e).map(hashFeature))];
}
