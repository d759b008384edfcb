/**
 * What two language libraries say about a sentence, as extra features for the notes reader's
 * comparison (issue 39): `wink-nlp` with `wink-eng-lite-web-model` (part-of-speech tags, negation)
 * and `compromise` (tags, questions). Measured against the reader's own features on groups never
 * trained on; neither ships in lib/.
 */
import winkModel from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import { compromiseFeatures as compromiseFeaturesOf } from '../../tools/shared/compromise-features';

const COMPROMISE_TAGS = [
  'Modal',
  'Imperative',
  'Negative',
  'PastTense',
  'PresentTense',
  'FutureTense',
  'Gerund',
  'Question',
  'Conditional',
  'Pronoun',
  'Adverb',
  'Copula',
  'Auxiliary',
];

/** compromise's tags of a sentence: which tags occur, the first two terms' tags, a question. */
export function compromiseFeatures(text: string): string[] {
  return compromiseFeaturesOf(text, COMPROMISE_TAGS);
}

let wink: ReturnType<typeof winkNLP> | undefined;
/** wink's part-of-speech tags of a sentence: the first two, each tag and tag pair, negation. */
export function winkFeatures(text: string): string[] {
  wink ??= winkNLP(winkModel);
  const its = wink.its;
  const doc = wink.readDoc(text);
  const pos = (doc.tokens().out(its.pos) as string[]).filter((p) => p !== 'PUNCT' && p !== 'SPACE');
  const neg = doc.tokens().out(its.negationFlag) as unknown as boolean[];
  const out: string[] = [];
  pos.slice(0, 2).forEach((p, i) => {
    out.push(`wk:t${i}:${p}`);
  });
  let prev = '^';
  for (const p of pos.slice(0, 64)) {
    out.push(`wk:p:${p}`, `wk:pp:${prev}_${p}`);
    prev = p;
  }
  if (neg.some(Boolean)) out.push('wk:neg');
  return out;
}
