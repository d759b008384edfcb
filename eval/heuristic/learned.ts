/**
 * The learned correction model: how it is trained, how it is measured on people it never saw, and the
 * data `rearview/heuristic-model` ships.
 *
 * `npx tsx eval/heuristic/learned.ts` prints the leave-authors-out evaluation (JSON; `--table` adds a
 * text summary on stderr). `--write` also trains on every author of the pool and rewrites
 * `lib/heuristic-model/weights.ts`.
 *
 * The model is a logistic regression over `turnFeatures` (closed vocabulary, punctuation, shape,
 * position, marker signals, context): full-batch gradient descent, L2 0.005, 400 steps, rate 1, weights
 * rounded to sixteenths. Every setting here, including the threshold policy (the lowest logit whose
 * inner out-of-fold precision is ≥ 0.88, a margin over the 0.85 target), was fixed before the first
 * evaluation ran. Changed after reading its figures, and reported as such (LABELLING.md): a bare
 * `/undo` keeps the markers' score; and, after a review, two reading bugs (prose lines starting with
 * "at" or "#" were taken for pasted output; the context was cut at 40 messages, so `first` and
 * `reply` could differ from the library's).
 *
 * Evaluation: the same 5 author folds as `run.ts` over every author outside the held-out sets
 * (`final`, `aider-final`, `more`). Turns the library never scores (synthetic ones) are left out of
 * training and never predicted. In each outer fold the model is trained on the other
 * folds' authors, its threshold is chosen on *their* out-of-fold logits (an inner 5-fold split by
 * author; three such splits, pooled, as probe-threshold.ts chose), and the fold's own authors are
 * scored once with both.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fnv1a32 } from '../../lib/core/index';
import { DEFAULT_ESCALATION_BAND, DEFAULT_MIN_SCORE, type TurnEvidence } from '../../lib/heuristic/index';
import { turnScores } from '../../lib/heuristic/score';
import { turnFeatures } from '../../lib/heuristic-model/features';
import { correctionModel } from '../../lib/heuristic-model/index';
import { authorOf, familyOf, HELD_OUT, loadLabelledSets, type Row } from './data';
import { chooseThreshold, evidenceOf, FOLDS, fitModel, LIMIT, logit, scoreTable, train } from './learned-fit';
import { calibrate, chooseMinScore, type Scores, score, signalsOf } from './run';

export { chooseThreshold, evidenceOf, fitModel, LIMIT, logit, scoreTable, train };

type Counts = Scores;
/** Precision, recall and F1 of a correction predictor, as run.ts scores every category. */
const counts = (rows: Row[], said: (r: Row) => boolean): Counts =>
  score(
    rows,
    (r) => ({ correction: said(r), preference: false, approval: false, friction: false }),
    'correction',
  );
const r3 = (x: number) => Math.round(x * 1000) / 1000;

const signalMemo = new Map<Row, ReturnType<typeof signalsOf>>();
const markerSignals = (r: Row) => {
  let s = signalMemo.get(r);
  if (!s) {
    s = signalsOf(r);
    signalMemo.set(r, s);
  }
  return s;
};

export function evaluate(
  rows: Row[],
  options: {
    /** Also score `aider-final` (once, at the end). */
    final?: boolean;
    /** Also score `last` (the untouched ShareGPT turns; once, at the end). */
    last?: boolean;
    /** The features (default: the shipped `turnFeatures`), for probes. */
    features?: (e: TurnEvidence) => string[];
    /** Which of a fold's training turns it trains on (default: all), for learning curves. */
    trainOn?: (r: Row) => boolean;
    /** The sets left out of the folds (default `HELD_OUT`). */
    heldOut?: ReadonlySet<string>;
    /** The inner out-of-fold precision the threshold must reach (default `TARGET`, 0.88). */
    target?: number;
    /** Splits added to every fold's training turns (never tested), for "would more data help". */
    trainExtra?: ReadonlySet<string>;
    /** `false`: the `trainExtra` turns train but do not choose the threshold (the pool's turns do). */
    calibrateExtra?: boolean;
    /** The L2 strength (default `L2`, 0.005), for probes. */
    l2?: number;
    /** `fitModel`'s `ship` and `innerRepeats`, for probe-threshold.ts. */
    ship?: 'full' | 'average';
    innerRepeats?: number;
  } = {},
) {
  const heldOutSplits = options.heldOut ?? HELD_OUT;
  const featuresOf = options.features ?? turnFeatures;
  const memo = new Map<Row, string[]>();
  const feats = (r: Row) => {
    let f = memo.get(r);
    if (!f) {
      const e = evidenceOf(r);
      f = e ? featuresOf(e) : [];
      memo.set(r, f);
    }
    return f;
  };
  const pool = rows.filter((r) => !heldOutSplits.has(r.split));
  const said = new Map<Row, boolean>();
  // Each turn's out-of-fold logit over its fold's chosen threshold, for the precision/recall curve.
  const margin = new Map<Row, number>();
  // …and its raw logit: comparable across folds only as far as their scales agree, but defined when a
  // fold found no threshold (its margins are then all -Infinity).
  const raw = new Map<Row, number>();
  const saidModelOnly = new Map<Row, boolean>();
  const saidEither = new Map<Row, boolean>();
  const folds = [];
  for (let k = 0; k < FOLDS; k++) {
    const test = pool.filter((r) => fnv1a32(`fold#${authorOf(r)}`) % FOLDS === k);
    const trainRows = pool.filter(
      (r) => fnv1a32(`fold#${authorOf(r)}`) % FOLDS !== k && (options.trainOn?.(r) ?? true),
    );
    // Extra training turns whose authors are not the fold's own (aider-final's repositories, the
    // ShareGPT conversations of `final` and `more` are disjoint from the pool's authors).
    if (options.trainExtra) {
      const testAuthors = new Set(test.map(authorOf));
      trainRows.push(
        ...rows.filter((r) => options.trainExtra!.has(r.split) && !testAuthors.has(authorOf(r))),
      );
    }
    const { weights, threshold } = fitModel(trainRows, feats, {
      ...(options.target !== undefined ? { target: options.target } : {}),
      ...(options.l2 !== undefined ? { l2: options.l2 } : {}),
      ...(options.ship !== undefined ? { ship: options.ship } : {}),
      ...(options.innerRepeats !== undefined ? { innerRepeats: options.innerRepeats } : {}),
      ...(options.calibrateExtra === false
        ? { calibrateOn: (r: Row) => !options.trainExtra?.has(r.split) }
        : {}),
    });
    // Markers with their per-fold calibrated scores and threshold, as run.ts does.
    const table = calibrate(trainRows, markerSignals);
    const markerScore = (r: Row) => {
      const { bits, context } = markerSignals(r);
      return turnScores(bits, context, table).correction;
    };
    const t = chooseMinScore(trainRows, (r) => {
      const { bits, context } = markerSignals(r);
      return turnScores(bits, context, table);
    });
    for (const r of test) {
      const z = logit(weights, feats(r));
      if (evidenceOf(r)) {
        margin.set(r, z - threshold);
        raw.set(r, z);
      }
      const model = z >= threshold;
      const m = markerScore(r);
      // As `correctionModel` does: a bare `/undo` keeps the markers' score.
      said.set(r, model || (!!evidenceOf(r)?.undo && m >= t));
      saidModelOnly.set(r, model);
      saidEither.set(r, model || (m > 0 && m >= t));
    }
    folds.push({ fold: k, threshold, features: weights.size, testTurns: test.length });
  }
  const heldOut = (r: Row) => said.get(r) ?? false;
  const modelOnly = (r: Row) => saidModelOnly.get(r) ?? false;
  const either = (r: Row) => saidEither.get(r) ?? false;
  const family = (f: string) => pool.filter((r) => familyOf(r) === f);
  const aider = family('aider');
  const languages: Record<string, Counts> = {};
  for (const lang of [...new Set(aider.map((r) => r.lang ?? 'en'))].sort())
    languages[lang] = counts(
      aider.filter((r) => (r.lang ?? 'en') === lang),
      heldOut,
    );
  // The shipped scorer (trained on every pool author: the test keeps lib/ in step) on the held-out
  // sets, and the escalation rate it gives, exactly as the library computes them.
  const scoreOf = (r: Row) => {
    const { bits, context } = markerSignals(r);
    const e = evidenceOf(r);
    return e ? correctionModel(e, turnScores(bits, context)).correction : 0;
  };
  const heldOutSets: Record<string, Counts> = {
    final: counts(
      rows.filter((r) => r.split === 'final'),
      (r) => scoreOf(r) >= DEFAULT_MIN_SCORE,
    ),
    more: counts(
      rows.filter((r) => r.split === 'more'),
      (r) => scoreOf(r) >= DEFAULT_MIN_SCORE,
    ),
  };
  if (options.final)
    heldOutSets['aider-final'] = counts(
      rows.filter((r) => r.split === 'aider-final'),
      (r) => scoreOf(r) >= DEFAULT_MIN_SCORE,
    );
  if (options.last)
    heldOutSets.last = counts(
      rows.filter((r) => r.split === 'last'),
      (r) => scoreOf(r) >= DEFAULT_MIN_SCORE,
    );
  const readable = rows.filter(
    (r) => (options.final || r.split !== 'aider-final') && (options.last || r.split !== 'last'),
  );
  const [lo, hi] = DEFAULT_ESCALATION_BAND;
  const inBand = (r: Row) => {
    const s = scoreOf(r);
    return s >= lo && s < hi;
  };
  const escalated = readable.filter(inBand).length;
  const table: Record<string, Counts> = {
    'cross-author aider (headline)': counts(aider, heldOut),
    'cross-author all': counts(pool, heldOut),
    'cross-author console': counts(family('console'), heldOut),
    'cross-author sharegpt': counts(family('sharegpt'), heldOut),
    'model alone (no /undo rule), aider': counts(aider, modelOnly),
    'model alone (no /undo rule), all': counts(pool, modelOnly),
    'model or markers, cross-author aider': counts(aider, either),
    'model or markers, cross-author all': counts(pool, either),
    ...Object.fromEntries(Object.entries(heldOutSets).map(([k, v]) => [`shipped model, held-out ${k}`, v])),
  };
  return {
    table,
    heldOutSets,
    escalation: {
      band: DEFAULT_ESCALATION_BAND,
      turns: readable.length,
      escalated,
      fraction: r3(escalated / readable.length),
      // The same on turns the shipped weights were not trained on (the held-out sets read here).
      heldOutFraction: r3(
        readable.filter((r) => HELD_OUT.has(r.split) && inBand(r)).length /
          readable.filter((r) => HELD_OUT.has(r.split)).length,
      ),
    },
    pool: pool.length,
    authors: new Set(pool.map(authorOf)).size,
    headlineAider: counts(aider, heldOut),
    all: counts(pool, heldOut),
    eitherAider: counts(aider, either),
    eitherAll: counts(pool, either),
    byFamily: {
      console: counts(family('console'), heldOut),
      sharegpt: counts(family('sharegpt'), heldOut),
      aider: counts(aider, heldOut),
    },
    byLanguage: languages,
    // What the model could reach on people it never saw if the threshold were moved: the precision at
    // the first cut of the pooled out-of-fold ranking (margins over each fold's threshold) that reaches
    // each recall. An oracle cut, read from the test turns: it bounds, it does not choose.
    precisionAtRecall: {
      all: precisionAtRecall(pool, margin),
      aider: precisionAtRecall(aider, margin),
    },
    precisionAtRecallRaw: { all: precisionAtRecall(pool, raw), aider: precisionAtRecall(aider, raw) },
    folds,
  };
}

/** {@link evaluate}'s `precisionAtRecall`: the model alone (no `/undo` rule), turns it scores. */
function precisionAtRecall(rows: Row[], margin: Map<Row, number>): Record<string, number | null> {
  const ranked = rows
    .filter((r) => margin.has(r))
    .sort((a, b) => margin.get(b)! - margin.get(a)!)
    .map((r) => r.labels.includes('correction'));
  const positives = ranked.filter(Boolean).length;
  const out: Record<string, number | null> = {};
  for (const target of [0.3, 0.4, 0.5, 0.6]) {
    let tp = 0;
    out[`R${target}`] = null;
    for (let i = 0; i < ranked.length; i++) {
      if (ranked[i]) tp++;
      if (tp >= target * positives) {
        out[`R${target}`] = r3(tp / (i + 1));
        break;
      }
    }
  }
  return out;
}

/** The shipped model: trained on every author of the pool, threshold from their out-of-fold logits. */
export function shippedModel(rows: Row[]) {
  const pool = rows.filter((r) => !HELD_OUT.has(r.split));
  const feats = (r: Row) => {
    const e = evidenceOf(r);
    return e ? turnFeatures(e) : [];
  };
  const { weights, threshold } = fitModel(pool, feats);
  return { weights, threshold, table: scoreTable(threshold) };
}

function writeWeights(model: ReturnType<typeof shippedModel>): void {
  const entries = [...model.weights].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const body = `/**
 * @internal The learned correction model's data, written by \`npx tsx eval/heuristic/learned.ts --write\`
 * (do not edit): integer weights (sixteenths of a logit) by feature name, and the score of each logit
 * from -${LIMIT} to ${LIMIT}. Trained on every labelled author outside the held-out sets; threshold logit ${model.threshold}.
 */
export const WEIGHTS: string = ${JSON.stringify(entries.map(([f, w]) => `${f}=${w}`).join(' '))};

/** @internal */
export const LIMIT = ${LIMIT};

/** @internal Score by logit + LIMIT. */
export const TABLE: readonly number[] = ${JSON.stringify(model.table)};
`;
  const file = resolve(import.meta.dirname, '../../lib/heuristic-model/weights.ts');
  writeFileSync(file, body);
  // Formatted as the linter wants it, so a rewrite with the same data is byte-identical.
  execFileSync(resolve(import.meta.dirname, '../../node_modules/.bin/biome'), ['format', '--write', file], {
    stdio: 'ignore',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = loadLabelledSets();
  const report = evaluate(rows, {
    final: process.argv.includes('--final'),
    last: process.argv.includes('--last'),
  });
  console.log(JSON.stringify(report, null, 2));
  if (process.argv.includes('--write')) {
    const model = shippedModel(rows);
    writeWeights(model);
    console.error(`wrote ${model.weights.size} weights, threshold ${model.threshold}`);
  }
}
