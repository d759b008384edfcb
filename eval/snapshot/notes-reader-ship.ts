/**
 * The notes reader's own feature sets and the fit of the shipped model (issue 39): what
 * notes-reader.ts chooses between, and what notes-reader-context.ts `--final --write` trains and writes
 * to lib/categorise-model/weights.ts. The unit test refits from here and compares with the shipped data.
 */
import { type NoteFeatureSet, noteBucket, noteFeatures } from '../../lib/categorise-model/index.js';
import { type GroupedEntry, loadGrouped, strangersPool } from './notes-reader-data.js';
import { type IntModel, quantise, train } from './notes-reader-model.js';
import { LABELS } from './score.js';

/** The library-free feature sets (lib/categorise-model's `NoteFeatureSet`). */
export const OWN_SETS: readonly NoteFeatureSet[] = ['rules', 'words', 'all'];

/**
 * The rules' own answer carries no L2: the model starts from the rules and moves off them only as far
 * as the other features earn across folds (a first grid with L2 1e-4 and 1e-3 on every weight fell
 * 9-12 points below the rules in cv).
 */
export const FREE: ReadonlySet<number> = new Set(
  LABELS.map((l) => noteBucket(`r:${l === 'irrelevant' ? 'none' : l}`)),
);

/** Sorted unique buckets of feature names. */
export const rowOf = (names: readonly string[]): Int32Array =>
  Int32Array.from(new Set(names.map(noteBucket))).sort();

export interface Setting {
  featureSet: NoteFeatureSet;
  l2: number;
  epochs: number;
}

/** Trains `setting` on `entries` (all of them); integer weights. */
export function fitOn(entries: readonly GroupedEntry[], setting: Setting): IntModel {
  const m = train(
    entries.map((e) => rowOf(noteFeatures(e.text, setting.featureSet))),
    entries.map((e) => LABELS.indexOf(e.label)),
    entries.map((e) => e.id),
    LABELS.length,
    { l2: setting.l2, epochs: [setting.epochs], free: FREE },
  );
  return quantise(m.get(setting.epochs)!);
}

/**
 * What the shipped model trains on: every labelled entry outside the kept-apart groups of the older
 * sets (6,076) and the five draws of the strangers' notes (2,190), in that order.
 */
export function shippedTraining(): GroupedEntry[] {
  return [...loadGrouped().filter((e) => !e.keptApart), ...strangersPool()];
}

/**
 * A model trained on `entries` with each entry's feature row from `row`: epochs ordered by a hash of
 * `<id>#<row>` (ids of different sets may meet), the rules' own answer free of L2; integer weights.
 */
export function fitRows<E extends GroupedEntry>(
  entries: readonly E[],
  row: (e: E) => Int32Array,
  l2: number,
  epochs: number,
): IntModel {
  const m = train(
    entries.map(row),
    entries.map((e) => LABELS.indexOf(e.label)),
    entries.map((e, i) => `${e.id}#${i}`),
    LABELS.length,
    { l2, epochs: [epochs], free: FREE },
  );
  return quantise(m.get(epochs)!);
}

/** The model `setting` trained on `entries` as notes-reader-context.ts chose it (see {@link fitRows}). */
export function fitShipped(entries: readonly GroupedEntry[], setting: Setting): IntModel {
  return fitRows(entries, (e) => rowOf(noteFeatures(e.text, setting.featureSet)), setting.l2, setting.epochs);
}

/** The shipped model: `setting` trained on {@link shippedTraining}. */
export function shippedModel(setting: Setting): IntModel {
  return fitShipped(shippedTraining(), setting);
}
