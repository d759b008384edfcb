/**
 * @internal The notes reader's data, written by
 * `npx tsx eval/snapshot/notes-reader-context.ts --final --write` (do not edit): the bias per category
 * and the integer weights (sixteenths of a logit) by hashed feature bucket (delta-coded, base 36), in
 * the order openHypotheses, blockers, nextActions, unresolvedQuestions, requiredEvidenceLinks, irrelevant;
 * `TRAINED` is the setting the strangers' author folds chose, trained on 8266 labelled entries:
 * the older sets outside their kept-apart groups and the five strangers' draws.
 */
export const TRAINED = { featureSet: 'rules', l2: 0.3, epochs: 10 } as const;
export const BIAS: readonly number[] = [-14, -6, -2, -12, -13, -4];
export const WEIGHTS: string =
  '2hb:-3:0:-1:2:0:2 3bc:-2:-2:2:0:1:1 2sr:1:3:-1:0:-1:-1 xl:1:1:-1:0:1:-2 70g:-8:-1t:-13:o:-36:-o 31l:-5:4:-2:-3:0:5 22k:-3:-6:3:1:0:4 19u:-3:5:-1:0:-1:0 b7:0:-1:2:0:0:-2 b7:3:-2:-2:1:-1:2 b7:0:-1:0:0:-1:2 b7:-1:-2:-3:2:-1:4 b1:-17:-w:w:-1a:-1f:-c 6:0:-2:2:-1:-2:3 b7:0:0:-1:0:5:-3 2r:1:0:0:0:0:-1 8g:0:1:0:0:0:-2 b7:0:0:-1:0:1:1 b7:-4:1:0:5:0:-3 9lo:-1:-2:-1:0:-1:3 b7:-1:-1:-1:1:0:2 iem:-j:c:-14:-23:-y:-8 1mk:1:1:0:0:0:-1 b7:0:-1:3:0:0:-2 1jz:1:-1:-1:0:0:1 b7:0:1:-1:1:-1:0 b7:1:0:0:0:0:0 b7:0:1:0:0:0:-1 b7:2:0:-1:1:-1:-1 b7:-1:1:0:1:1:-1 b7:0:1:-1:0:-1:1 b7:0:-1:0:0:-1:1 6c:0:1:0:0:-2:2 4nx:i:-2:-2:-2:-b:-7 1iu:a:1:-2:0:-5:-3 15:-1:0:-1:0:4:-1 b0:4:-3:-1:5:-1:-4 xl:-8:-4:-3:-1:2:e 368:2:-5:-4:a:0:-3 k4:-1:0:1:-1:0:0 3f5:-c:-7:-3:-1:-3:l 7gv:-1:-1:0:0:1:-1 15h:1:1:0:0:1:-1 5om:-2:2:0:-1:-3:2 78a:0:-1:-4:0:0:4 5x:0:0:-1:0:0:0 4nx:1:2:-2:0:-1:0 me:2:-1:-1:1:0:-1 xl:-1:-1:1:0:0:0 53r:7:-q:-12:-19:-u:-l 381:0:0:-1:0:1:0 u1:2:0:1:0:-1:-3 1va:-1:-2:-t:10:0:-8 xl:0:-1:1:0:0:-1 3qc:0:0:-1:0:0:1 4nx:0:-1:-9:2:0:8 13i:-1:-1:0:0:1:1 6n9:-3:1:2:3:0:-3 me:0:0:-2:0:-1:3 b7:-2:8:-1:0:-1:-5 kr1:-12:-18:-z:-1k:u:-h vu:2:-2:-1:1:-1:1 b7:-2:3:-2:0:-1:1 b7:1:-3:0:3:1:-4 b7:-4:0:-1:9:0:-5 b7:-2:3:4:0:-1:-5 b7:0:2:-1:0:-1:2 b7:-1:-3:-2:0:-1:6 b7:0:-1:-3:0:0:5 1jz:0:-1:0:0:0:1 b7:-1:-1:-1:0:0:2 7l8:-x:-h:-l:-1f:-q:l 82o:-1:0:1:0:3:-3 b7:-1:-1:2:0:3:-2 b7:0:0:-1:0:0:0 47:1:-1:-4:0:-1:5 ay:1:0:-1:0:0:0 9:0:-1:0:0:0:0 ay:0:-1:-2:0:2:1 1vf:1:1:-1:0:-1:0 at:-1:-1:1:0:1:0 e:0:3:-1:1:0:-2 b7:3:-1:0:-1:-1:-1 b7:-1:0:0:0:-1:1 b7:1:0:1:1:0:-1 b7:0:2:1:2:0:-3 b7:3:-1:-1:-1:0:-1 b7:-3:0:-1:-5:-1:9 c80:-1:-1:-1:0:-1:3 1rd:-1:-2:1:1:-1:1 67w:0:0:0:0:0:-1 xl:1:2:-1:0:-1:-1';
