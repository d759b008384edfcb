/**
 * Features from two language libraries, for the comparison in reader-train.ts `--teachers`: what
 * `compromise` and `wink-nlp` (with `wink-eng-lite-web-model`) say about the person's own prose
 * (part-of-speech of the first words, imperative mood, questions, negation, tense), added to the
 * reader's own features on the same author folds. Speed is measured here (ms per turn over the pool).
 * Training-time only: neither library is shipped.
 */
import winkModel from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import { compromiseFeatures as compromiseFeaturesOf } from '../../tools/shared/compromise-features';
import { type Example, proseOf } from './reader-data';

const COMPROMISE_TAGS = [
  'Imperative',
  'Modal',
  'Negative',
  'PastTense',
  'Question',
  'Conditional',
  'Comparative',
  'Pronoun',
  'Adverb',
];

export function compromiseFeatures(e: Example): string[] {
  return compromiseFeaturesOf(proseOf(e), COMPROMISE_TAGS, true);
}

let wink: ReturnType<typeof winkNLP> | undefined;
export function winkFeatures(e: Example): string[] {
  wink ??= winkNLP(winkModel);
  const its = wink.its;
  const doc = wink.readDoc(proseOf(e));
  const out: string[] = [];
  const pos = doc.tokens().out(its.pos) as string[];
  const neg = doc.tokens().out(its.negationFlag) as unknown as boolean[];
  pos.slice(0, 2).forEach((p, i) => {
    out.push(`wk:t${i}:${p}`);
  });
  for (const p of new Set(pos)) out.push(`wk:pos:${p}`);
  if (neg.some(Boolean)) out.push('wk:neg');
  doc.sentences().each((s: { tokens(): { out(f: unknown): unknown } }) => {
    const first = s.tokens().out(its.pos) as string[];
    if (first[0]) out.push(`wk:s0:${first[0]}`);
  });
  return out;
}

/** Both libraries' features over the pool (memoised by the caller), with their speed. */
export async function teacherFeatures(pool: readonly Example[]) {
  const out: Record<string, (e: Example) => string[]> = {};
  for (const [name, fn] of [
    ['compromise', compromiseFeatures],
    ['wink', winkFeatures],
  ] as const) {
    const memo = new Map<Example, string[]>();
    const t0 = performance.now();
    for (const e of pool) memo.set(e, fn(e));
    const ms = performance.now() - t0;
    console.error(`${name}: ${(ms / pool.length).toFixed(3)} ms per turn over ${pool.length} turns`);
    out[name] = (e) => memo.get(e) ?? [];
  }
  return out;
}
