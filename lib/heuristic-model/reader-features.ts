/**
 * The features of the reader (`readerModel`): the closed-vocabulary, shape and context features of the
 * correction model (`turnFeatures`), plus the open words of the person's own prose (lower-cased,
 * apostrophes dropped, composed accents), their pairs, characters pairs of Chinese, Japanese and
 * Korean text (no spaces to split words on), what the reply being answered did (claimed a fix, showed
 * an error, asked), text no person typed (command templates, IDE boilerplate) and how much of the turn
 * is pasted. Each feature name is hashed (FNV-1a, 32 bits, `Math.imul`) to one of 2^20 buckets: the
 * model stores weights by bucket, never a word. Pure string work: the same buckets in every runtime.
 */
import { fnv1a32 } from '../core/index.js';
import type { TurnEvidence } from '../heuristic/index.js';
import { turnFeatures } from './features.js';

/**
 * Buckets of the hashed features: 2^20, few collisions among the features a model keeps.
 *
 * @example
 * ```ts
 * hashFeature('u:no') < BUCKETS; // true
 * ```
 */
export const BUCKETS = 1 << 20;
/** How much of a turn is read: bounded work per turn, and what the labels were read from. */
const READ = 600;
const MAX_WORDS = 120;

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

/** Command templates and IDE boilerplate sent in the person's seat: no person typed them. */
const TEMPLATE =
  /## User Input|You \*\*MUST\*\*|For the code present, we get this error|Implement the plan as specified|<USER_REQUEST>|\$ARGUMENTS|^---\n(?:description|name):/m;
/** The reply claims the work is done or fixed: a complaint after it is a correction. */
const CLAIM =
  /\b(?:fixed|i(?:'ve| have) (?:updated|fixed|changed|added|implemented|made|removed|created)|should (?:now )?work|now (?:works|working)|successfully|is now|are now|all set|done)\b/i;
const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal)\b|\w+Error\b/i;
/** Han, kana and Hangul: scripts written without spaces between words. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
const CJK_RUNS = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+/g;
const PASTED = /^(?:\s{4}|\t|\s*(?:>|\$ |File "|Traceback|[{}[\]<|])|\s+at \S)/;

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
  const out = turnFeatures(e);
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
  if (lines > 0) out.push(`pr:${Math.min(4, Math.floor((pasted * 5) / lines))}`);
  if (TEMPLATE.test(raw)) out.push('t:template');
  let text = prose.join('\n').replace(/`[^`\n]*`/g, ' ');
  if (/[\u0300-\u036f]/.test(text)) text = text.normalize('NFC');
  text = text.toLowerCase().replace(/['’]/g, '');
  const words = (text.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, MAX_WORDS);
  let previous = '^';
  for (const w of words) {
    // Numbers and long tokens (hashes, paths) carry a topic, not how the person speaks.
    const word = /^\d+$/.test(w) ? '0' : w.length > 20 ? '~' : w;
    if (!CJK.test(word)) {
      out.push(`u:${word}`);
      out.push(`v:${previous}_${word}`);
    }
    previous = word;
  }
  if (words.length > 0) out.push(`v:${previous}_$`);
  let cjk = 0;
  for (const run of text.match(CJK_RUNS) ?? []) {
    for (let i = 0; i < run.length && cjk < MAX_WORDS; i++, cjk++) {
      out.push(`k:${run[i]}`);
      if (i + 1 < run.length) out.push(`k:${run[i]}${run[i + 1]}`);
    }
  }
  if (cjk > 0) out.push('script:cjk');
  const reply = typeof e.reply === 'string' ? e.reply.slice(-600) : '';
  if (reply !== '') {
    if (CLAIM.test(reply)) out.push('r:claim');
    if (ERROR.test(reply)) out.push('r:error');
    if (/\?\s*\S{0,3}$/.test(reply.trimEnd())) out.push('r:asked');
  }
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
