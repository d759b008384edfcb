/**
 * The learned correction model's fit: logistic regression over a turn's features in sixteenths, the
 * threshold chosen on out-of-fold logits of inner author splits, and the score table that maps a
 * logit onto the library's one `minScore`. Used by learned.ts and the probes beside it.
 */
import { fnv1a32 } from '../../lib/core/index';
import { DEFAULT_MIN_SCORE, type TurnEvidence } from '../../lib/heuristic/index';
import { scoreTurns } from '../../lib/heuristic/reflect';
import { authorOf, contextOf, type Row } from './data';

const L2 = 0.005;
const STEPS = 400;
const RATE = 1;
const SCALE = 16;
const TARGET = 0.88;
/**
 * Inner author splits whose out-of-fold logits are pooled to choose the threshold: three give a
 * steadier precision curve than one (probe-threshold.ts; chosen on the outer folds' figures).
 */
const INNER_REPEATS = 3;
/** Author folds of the leave-authors-out evaluation (and of each inner split). */
export const FOLDS = 5;

const evidenceMemo = new Map<Row, TurnEvidence | undefined>();

/**
 * The evidence `heuristicReflect` gives a scorer for the row's turn, read with the whole conversation
 * before it (as the library reads it: `first` and `reply` need all of it), or undefined when the
 * library does not score that turn at all (a synthetic turn: a continuation summary, a command).
 */
export function evidenceOf(r: Row): TurnEvidence | undefined {
  if (evidenceMemo.has(r)) return evidenceMemo.get(r);
  const messages = contextOf(r, Number.MAX_SAFE_INTEGER);
  let last: TurnEvidence | undefined;
  let found: TurnEvidence | undefined;
  scoreTurns(
    messages,
    {
      scorer: (e, s) => {
        last = e;
        return s;
      },
    },
    (turn) => {
      // Only the row's own turn (the last message of its context), never an earlier one.
      if (turn.index === messages.length - 1) found = last;
    },
  );
  evidenceMemo.set(r, found);
  return found;
}

type Weights = Map<string, number>;

/** Logistic regression, full batch, deterministic. Returns float weights by feature name. */
export function train(x: string[][], y: number[], l2 = L2): Weights {
  const index = new Map<string, number>();
  for (const fs of x) for (const f of fs) if (!index.has(f)) index.set(f, index.size);
  const ids = x.map((fs) => Int32Array.from(fs, (f) => index.get(f)!));
  const w = new Float64Array(index.size);
  const g = new Float64Array(index.size);
  const bias = index.get('bias')!;
  for (let step = 0; step < STEPS; step++) {
    g.fill(0);
    for (let i = 0; i < ids.length; i++) {
      let z = 0;
      for (const k of ids[i]!) z += w[k]!;
      const d = 1 / (1 + Math.exp(-z)) - y[i]!;
      for (const k of ids[i]!) g[k]! += d;
    }
    for (let k = 0; k < w.length; k++) {
      const reg = k === bias ? 0 : l2 * w[k]!;
      w[k]! -= RATE * (g[k]! / ids.length + reg);
    }
  }
  const out: Weights = new Map();
  for (const [f, k] of index) {
    const q = Math.round(w[k]! * SCALE);
    if (q !== 0) out.set(f, q);
  }
  return out;
}

/** The integer logit of a turn's features (sixteenths). */
export const logit = (w: Weights, fs: readonly string[]): number => {
  let z = 0;
  for (const f of fs) z += w.get(f) ?? 0;
  return z;
};

/** The lowest logit whose turns at or above it have precision ≥ TARGET (and at least 5 of them). */
export function chooseThreshold(z: number[], y: number[], target = TARGET): number {
  const order = z.map((v, i) => [v, y[i]!] as const).sort((a, b) => b[0] - a[0]);
  let tp = 0;
  let n = 0;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < order.length; i++) {
    n++;
    tp += order[i]![1];
    // Only at a boundary between distinct logits.
    if (i + 1 < order.length && order[i + 1]![0] === order[i]![0]) continue;
    if (n >= 5 && tp / n >= target) best = order[i]![0];
  }
  return best;
}

const foldOf = (author: string, salt: string) => fnv1a32(`${salt}#${author}`) % FOLDS;

/** Train on `rows` and choose the threshold on their out-of-fold logits (inner split by author). */
export function fitModel(
  all: Row[],
  feats: (r: Row) => string[],
  fit: {
    /** The inner out-of-fold precision the threshold must reach. */
    target?: number;
    l2?: number;
    /** Which turns' out-of-fold logits choose the threshold (default: all the training turns). */
    calibrateOn?: (r: Row) => boolean;
    /**
     * `'full'` (default): the returned weights are a model trained on every row. `'average'`: the mean
     * of the inner models whose out-of-fold logits chose the threshold (rounded to sixteenths), so
     * the threshold is applied to models of the scale it was chosen on (probe-threshold.ts).
     */
    ship?: 'full' | 'average';
    /** How many inner author splits (different salts) pool their out-of-fold logits (default `INNER_REPEATS`). */
    innerRepeats?: number;
  } = {},
): { weights: Weights; threshold: number } {
  const {
    target = TARGET,
    l2 = L2,
    calibrateOn = () => true,
    ship = 'full',
    innerRepeats = INNER_REPEATS,
  } = fit;
  // Turns the library never scores (synthetic ones) teach the model nothing.
  const rows = all.filter((r) => evidenceOf(r) !== undefined);
  const y = (r: Row) => (r.labels.includes('correction') ? 1 : 0);
  const oofZ: number[] = [];
  const oofY: number[] = [];
  const inner: Weights[] = [];
  for (let rep = 0; rep < innerRepeats; rep++) {
    // The first split is the one every earlier figure used; repeats change only the salt.
    const salt = rep === 0 ? 'inner' : `inner${rep}`;
    for (let k = 0; k < FOLDS; k++) {
      const inTest = (r: Row) => foldOf(authorOf(r), salt) === k;
      const tr = rows.filter((r) => !inTest(r));
      const te = rows.filter(inTest);
      if (te.length === 0 || tr.length === 0) continue;
      const w = train(tr.map(feats), tr.map(y), l2);
      inner.push(w);
      for (const r of te.filter(calibrateOn)) {
        oofZ.push(logit(w, feats(r)));
        oofY.push(y(r));
      }
    }
  }
  return {
    weights: ship === 'average' ? averageWeights(inner) : train(rows.map(feats), rows.map(y), l2),
    threshold: chooseThreshold(oofZ, oofY, target),
  };
}

/** The mean of several models' weights, rounded to sixteenths (a missing weight counts as 0). */
function averageWeights(models: readonly Weights[]): Weights {
  const sum = new Map<string, number>();
  for (const w of models) for (const [f, v] of w) sum.set(f, (sum.get(f) ?? 0) + v);
  const out: Weights = new Map();
  for (const [f, v] of sum) {
    const mean = Math.round(v / models.length);
    if (mean !== 0) out.set(f, mean);
  }
  return out;
}

/**
 * The score table: logit (sixteenths, clamped to ±LIMIT) → score with two decimals, placed so that the
 * chosen threshold lands on `DEFAULT_MIN_SCORE` (the library's one threshold means "the point chosen
 * for precision on unseen authors" for markers and model alike).
 */
export const LIMIT = 160;
export function scoreTable(threshold: number): number[] {
  const p = (z: number) => 1 / (1 + Math.exp(-z / SCALE));
  const t = Math.max(-LIMIT, Math.min(LIMIT, threshold));
  const pt = p(t);
  const out: number[] = [];
  for (let z = -LIMIT; z <= LIMIT; z++) {
    const s =
      z >= t
        ? DEFAULT_MIN_SCORE + ((1 - DEFAULT_MIN_SCORE) * (p(z) - pt)) / (1 - pt)
        : (DEFAULT_MIN_SCORE * p(z)) / pt;
    // Just under the threshold must stay under it after rounding.
    const r = Math.round(s * 100) / 100;
    out.push(z < t && r >= DEFAULT_MIN_SCORE ? DEFAULT_MIN_SCORE - 0.01 : r);
  }
  return out;
}
