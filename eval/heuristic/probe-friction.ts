/**
 * Probe: can friction (a person's impatience or complaint that a fix did not hold) be found at issue
 * 38's precision (≥ 0.8) on authors the reader never trained on, by the markers or by the reader with
 * words written for it?
 *
 * Written down before the first run, with what each part should show if its idea is right:
 *
 * 1. `markers`: the default friction markers fire on few friction turns, and their precision is under
 *    the default `minScore` (score 0.71); a friction marker in a turn that also corrects should be
 *    more precise. If so, "friction marker + correction marker" reaches 0.8 on the pool.
 * 2. `words`: the reader (`readerModel`'s features, 5 author folds over the pool, as
 *    `reader-curve.ts`) with three word classes added as features: persistence ("still", "again",
 *    "same", "no change", "doesn't work", and their Chinese, Japanese, Korean, Spanish, German,
 *    French, Portuguese and Russian counterparts), reminders ("as I said", "we already discussed")
 *    and anger (interjections, angry emoji, `!!!`, a turn in capitals). If friction is a matter of
 *    these words, its out-of-fold average precision rises and a threshold reaches precision 0.8 with
 *    recall well above today's.
 * 3. `words + claim`: the same, plus persistence after a reply that claimed a fix (`replyParts`'s
 *    `claim`), the labelling rule's own case ("the agent claimed a fix → correction + friction").
 *
 * The word classes were written after reading the pool's friction turns, so the pool figures are
 * tuned; none of this ships unless it wins there, and then it is scored on `strangers-final`.
 * Never reads `strangers-final` otherwise.
 *
 * `npx tsx eval/heuristic/probe-friction.ts` (about 2 min: three variants, each with its inner folds).
 */
import { replyParts } from '../../lib/heuristic-model/reader-features';
import { rankingCurve } from './curve';
import type { Example } from './reader-data';
import { type Features, loadPool, logits, memoFeats, outOfFold, saidOf } from './reader-train';

const { pool } = loadPool();
const strangers = pool.filter((e) => e.id.startsWith('s:'));
const older = pool.filter((e) => !e.id.startsWith('s:'));
const isFriction = (e: Example) => e.labels.includes('friction');

// 1. The markers' friction bit, split by the correction bit (and a repeated request).
const groups = new Map<string, { turns: number; friction: number }>();
for (const e of pool) {
  const s = e.evidence!.signals;
  if (!s.friction) continue;
  const key = s.correction || s.challenge ? 'friction marker + correction marker' : 'friction marker alone';
  const g = groups.get(key) ?? { turns: 0, friction: 0 };
  g.turns++;
  if (isFriction(e)) g.friction++;
  groups.set(key, g);
}
const labelled = pool.filter(isFriction);
console.log(
  JSON.stringify({
    part: 'markers',
    frictionTurns: labelled.length,
    withFrictionMarker: labelled.filter((e) => e.evidence!.signals.friction).length,
    groups: Object.fromEntries(groups),
  }),
);

// 2-3. The reader with friction words.
const PERSIST =
  /\b(?:still|again|same|persists?|persisting|anymore|keeps?|kept|no change|nothing (?:happened|changed)|(?:did ?n[o']?t|does ?n[o']?t|not) (?:change|work|fix|solve|help))\b|还是|仍然|依然|又|还没|変わって(?:ない|いない)|相変わらず|まだ|여전히|아직|todav[ií]a|sigue|otra vez|de nuevo|immer noch|wieder|toujours|ainda|de novo|опять|снова|всё ещё|все еще/i;
const REMINDER =
  /\b(?:as i (?:told|said|mentioned|asked)|i (?:already |just )?(?:told|said|asked) you|we (?:already |just )?(?:talked|discussed|agreed|went over)|like i said|how many times|once again)\b/i;
const ANGER =
  /\b(?:ugh+|wtf|tf|damn|frustrat\w*|annoy\w*|angry|tired|nerves|seriously|come on|ridiculous|useless|stupid)\b|[😑🤬😡😤🙄😠]|[!?]{3,}/iu;
const inCapitals = (t: string) => {
  const letters = t.replace(/[^A-Za-z]/g, '');
  return letters.length >= 8 && letters.replace(/[^A-Z]/g, '').length / letters.length > 0.7;
};
const words =
  (claim: boolean) =>
  (e: Example): string[] => {
    const text = e.evidence!.text.slice(0, 600);
    const out: string[] = [];
    const persists = PERSIST.test(text);
    if (persists) out.push('fr:persist');
    if (REMINDER.test(text)) out.push('fr:told');
    if (ANGER.test(text) || inCapitals(text)) out.push('fr:anger');
    if (claim && persists && replyParts(e.evidence!.reply).claim) out.push('fr:persist&claim');
    return out;
  };

/** Average precision and the best recall at precision 0.80 / 0.85 of `rows`' out-of-fold friction logits. */
function curve(rows: readonly Example[], z: Map<Example, number[]>) {
  const { positives, ap, recallAt } = rankingCurve(
    rows.map((e) => ({ s: z.get(e)![3]!, y: isFriction(e) })),
    ['0.80', '0.85'],
  );
  const round = (x: number) => Number(x.toFixed(3));
  return {
    positives,
    ap: round(ap),
    recallAt: Object.fromEntries(Object.entries(recallAt).map(([k, v]) => [k, round(v)])),
  };
}

/** Precision and recall at each fold's own thresholds (what a shipped reader would report). */
function thresholded(
  rows: readonly Example[],
  scored: ReturnType<typeof outOfFold>,
  category: 'correction' | 'friction',
) {
  let tp = 0;
  let said = 0;
  let positives = 0;
  for (const e of rows) {
    const y = e.labels.includes(category);
    const s = saidOf(scored.get(e)!)[category];
    if (y) positives++;
    if (s) said++;
    if (s && y) tp++;
  }
  return `${tp} of ${said} said, ${positives} labelled`;
}

const variants: [string, Features][] = [
  ['reader', memoFeats()],
  ['reader + friction words', memoFeats(words(false))],
  ['reader + friction words + after a claimed fix', memoFeats(words(true))],
];
for (const [variant, feats] of variants) {
  // Each fold's reader is trained on the other folds' authors: its model's logits are the curve's.
  const scored = outOfFold(pool, pool, feats);
  const z = new Map<Example, number[]>([...scored].map(([e, x]) => [e, logits(x.fitted.model, feats(e))]));
  console.log(
    JSON.stringify({
      part: variant,
      strangers: curve(strangers, z),
      older: curve(older, z),
      atThresholds: {
        strangersFriction: thresholded(strangers, scored, 'friction'),
        olderFriction: thresholded(older, scored, 'friction'),
        strangersCorrection: thresholded(strangers, scored, 'correction'),
        olderCorrection: thresholded(older, scored, 'correction'),
      },
    }),
  );
}
