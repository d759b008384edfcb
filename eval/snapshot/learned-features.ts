/**
 * Named, non-topical features of one labelled entry for eval/snapshot/learned.ts. Every
 * feature is a readable string `group:value`; nothing is hashed. Groups:
 * - `rule`: the snapshot's own answer (score.ts `snapshotCategorizer`, one-hot over the six labels) and
 *   the `resolved` bit of lib/snapshot/classify.ts `classify` (done-report / problem gone).
 * - `cue`: which of the cue sets of lib/snapshot/cues.ts (`SETS`, plus the `-ed` participle and
 *   error-type bits of `wordFlags`) any word of the entry hits: 24 named bits.
 * - `word`: presence of each word of a closed list: the words of `SETS` and `CODES` in cues.ts
 *   (status, negation, hedge, modal, plan, question, discourse words) plus {@link FUNCTION_WORDS}
 *   (pronouns, determiners, auxiliaries, prepositions, conjunctions). No other word can be a feature.
 * - `pos`: the first and second token: the word itself when it is in the closed list, else a shape
 *   class (Cap, lower, code, path, url, number, other).
 * - `suffix`: `-ed` / `-ing` / `-s` endings of the first two words, and any `-ed` / `-ing` word among
 *   the first four (the "first verbs").
 * - `punct`: ends with `?` `:` `!` `.`; has a `?` inside; backticks; share of the text in backticks
 *   and in paths/URLs (bins); a URL; a file:line; non-ASCII letters; parentheses.
 * - `len`: word-count bins.
 */
import { classify, wordFlags } from '../../lib/categorise/classify.js';
import {
  AUX,
  BENIGN,
  CLAUSE,
  CODES,
  COND,
  DIAG,
  DISC,
  ED,
  ERRTYPE,
  FINITE,
  FUNC,
  HEDGE,
  IMP,
  IRR,
  NEG,
  PART,
  PASS,
  PLANC,
  PROBLEM,
  QSTART,
  RES,
  RQ,
  SETS,
  STILL,
  SUBJ,
  WEAK,
} from '../../lib/categorise/cues.js';
import { findLinks, squash, words } from '../../lib/categorise/index.js';
import { type Label, snapshotCategorizer } from './score.js';

export const GROUPS = ['rule', 'cue', 'word', 'pos', 'suffix', 'punct', 'len'] as const;
export type Group = (typeof GROUPS)[number];

/** Function words beside the cue lists (closed classes only). */
export const FUNCTION_WORDS = (
  'a an the this that these those it its they them their there here my our your he she his her ' +
  'am is are was were be been being do does did have has had shall must may might can could ' +
  'and or so because since although though while for from with into onto about of on in at by ' +
  "like after before during please here's it's that's there's i'm we're let's already yet also just"
).split(' ');

/** The closed word list: cue sets, word codes and function words. */
export const CLOSED = new Set<string>([...SETS.flatMap(([, ws]) => ws), ...CODES, ...FUNCTION_WORDS]);

const CUE_NAMES: [number, string][] = [
  [PROBLEM, 'problem'],
  [NEG, 'negator'],
  [RES, 'resolved'],
  [PASS, 'passing'],
  [IRR, 'irrealis'],
  [STILL, 'still'],
  [HEDGE, 'hedge'],
  [RQ, 'reportedQuestion'],
  [WEAK, 'weakAction'],
  [IMP, 'imperative'],
  [QSTART, 'questionStart'],
  [DISC, 'discourse'],
  [SUBJ, 'subject'],
  [BENIGN, 'benign'],
  [FUNC, 'function'],
  [AUX, 'doneAux'],
  [PART, 'participle'],
  [COND, 'condition'],
  [PLANC, 'planContraction'],
  [DIAG, 'diagnosisNoun'],
  [ED, 'edEnding'],
  [ERRTYPE, 'errorType'],
  [FINITE, 'finite'],
  [CLAUSE, 'clause'],
];

/** A raw token's shape, or the word itself when it is in the closed list. */
function tokenClass(tok: string | undefined): string {
  if (tok === undefined) return 'none';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(tok)) return 'url';
  if (tok.startsWith('`') || /_|[a-z][A-Z]|\(\)/.test(tok)) return 'code';
  if (/[/\\]/.test(tok) || /\w\.[a-z]{1,5}(:\d+)?[.,:;)]*$/i.test(tok)) return 'path';
  const w = tok.replace(/^[("'*[]+|[)"'*.,:;!?\]]+$/g, '');
  if (/^\d/.test(w)) return 'number';
  const lower = w.toLowerCase().replace(/’/g, "'");
  if (CLOSED.has(lower)) return lower;
  if (/^\p{Lu}/u.test(w)) return 'Cap';
  if (/^\p{Ll}/u.test(w)) return 'lower';
  return 'other';
}

/** Raw tokens after list markers (`- `, `* `, `1. `, `#`, `>`, bold `**`). */
function rawTokens(text: string): string[] {
  const t = text.replace(/^\s*(?:(?:[-*•>#]+|\d+[.)])\s+)*/, '').replace(/^\*\*/, '');
  return t.split(/\s+/).filter(Boolean);
}

const bin = (x: number, edges: number[], name: string) => {
  let i = 0;
  while (i < edges.length && x > edges[i]!) i++;
  return `${name}${i === 0 ? `<=${edges[0]}` : i === edges.length ? `>${edges[i - 1]}` : `<=${edges[i]}`}`;
};

/** The named features of one entry, by group. */
export function featuresOf(text: string): Record<Group, string[]> {
  const own = squash(text);
  const ws = words(own);
  const rule: Label = snapshotCategorizer(text);
  const out: Record<Group, string[]> = {
    rule: [`rule:${rule}`],
    cue: [],
    word: [],
    pos: [],
    suffix: [],
    punct: [],
    len: [],
  };
  if (classify(ws, own).resolved) out.rule.push('rule:resolved');
  let flags = 0;
  for (const w of ws) flags |= wordFlags(w);
  // CLAUSE is set by the classifier's punctuation reading; here: some `,` `;` `:` opens a clause.
  if (/[,;:] \w/.test(own)) flags |= CLAUSE;
  for (const [bit, name] of CUE_NAMES) if (flags & bit) out.cue.push(`cue:${name}`);
  for (const w of new Set(ws)) if (CLOSED.has(w)) out.word.push(`word:${w}`);
  const toks = rawTokens(own);
  out.pos.push(`pos1:${tokenClass(toks[0])}`, `pos2:${tokenClass(toks[1])}`);
  const suf = (w: string | undefined) =>
    w === undefined || w.length < 4
      ? 'none'
      : w.endsWith('ed')
        ? 'ed'
        : w.endsWith('ing')
          ? 'ing'
          : w.endsWith('s') && !w.endsWith('ss')
            ? 's'
            : 'other';
  out.suffix.push(`suf1:${suf(ws[0])}`, `suf2:${suf(ws[1])}`);
  const early = ws.slice(0, 4).map(suf);
  if (early.includes('ed')) out.suffix.push('sufEarly:ed');
  if (early.includes('ing')) out.suffix.push('sufEarly:ing');
  const end = own.replace(/[\s*_)"'`]+$/, '');
  const last = end.charAt(end.length - 1);
  out.punct.push(
    `end:${last === '?' ? '?' : last === ':' ? ':' : last === '!' ? '!' : last === '.' ? '.' : 'other'}`,
  );
  if (own.slice(0, -1).includes('?')) out.punct.push('punct:innerQuestion');
  const ticks = own.match(/`[^`]*`/g) ?? [];
  if (own.includes('`')) out.punct.push('punct:backtick');
  const tickShare = ticks.reduce((s, t) => s + t.length, 0) / Math.max(1, own.length);
  out.punct.push(bin(tickShare, [0, 0.25, 0.5], 'tickShare'));
  const links = findLinks(own);
  const linkShare = links.reduce((s, t) => s + t.length, 0) / Math.max(1, own.length);
  out.punct.push(bin(linkShare, [0, 0.25, 0.5], 'linkShare'));
  if (/\b[a-z][a-z0-9+.-]*:\/\//i.test(own)) out.punct.push('punct:url');
  if (/\w\.[a-z]{1,5}:\d+/i.test(own)) out.punct.push('punct:fileLine');
  if (/\p{L}/u.test(own.replace(/[a-z]/gi, ''))) out.punct.push('punct:nonAscii');
  if (own.includes('(')) out.punct.push('punct:paren');
  out.len.push(bin(ws.length, [2, 5, 10, 20, 40], 'words'));
  return out;
}
