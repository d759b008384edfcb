/**
 * `npx tsx eval/heuristic/strangers.ts`: the detectors on the `strangers` labels (76 authors no rule
 * was written from; sets/strangers/README.md), per category, per source folder and per language.
 *
 * Scored: the markers (`DEFAULT_MARKERS`, and with `loadLanguageMarkers()`'s lists), the learned
 * correction scorer `correctionModel` (`rearview/heuristic-model`), the seed's substring markers, and
 * the reader (`rearview/reader`) when `--reader` is given. Only distinct readings count (rows with
 * `duplicate_of` repeat a row's text and labels). Every row must map to a parsed message: an unmapped
 * row fails the run.
 *
 * `--final` scores the `strangers-final` split instead (kept apart: once, at the very end).
 */
import { DEFAULT_MIN_SCORE, type TurnScores } from '../../lib/heuristic/index';
import { correctionModel } from '../../lib/heuristic-model/index';
import { seedClassify } from '../../tools/shared/seed-naive';
import { CATEGORIES, type Category } from './data';
import type { Example } from './reader-data';
import { strangerExamples } from './reader-data';
import { score } from './run';

export type Predictor = (e: Example) => Record<Category, boolean>;

const NONE: Record<Category, boolean> = {
  correction: false,
  preference: false,
  approval: false,
  friction: false,
};

/** Scores at or above per-category thresholds; a turn the library never scores says nothing. */
export const atScores = (
  s: TurnScores | undefined,
  min: number | Record<Category, number> = DEFAULT_MIN_SCORE,
) =>
  s === undefined
    ? NONE
    : (Object.fromEntries(
        CATEGORIES.map((c) => [c, s[c] > 0 && s[c] >= (typeof min === 'number' ? min : min[c])]),
      ) as Record<Category, boolean>);

export const markersOnly: Predictor = (e) => atScores(e.markers);
export const markersLang: Predictor = (e) => atScores(e.markersLang ?? e.markers);
export const oldModel: Predictor = (e) =>
  e.evidence && e.markers ? atScores(correctionModel(e.evidence, { ...e.markers })) : NONE;
/**
 * The shipped reader at its thresholds (`READER_RECALL_MIN_SCORE` with `recall`), loaded on first call
 * (its weights stay out of runs without it).
 */
export async function readerPredictor(recall = false, languages = false): Promise<Predictor> {
  const { readerModel, READER_MIN_SCORE, READER_RECALL_MIN_SCORE } = await import(
    '../../lib/heuristic-model/index'
  );
  const min = recall ? READER_RECALL_MIN_SCORE : READER_MIN_SCORE;
  return (e) => {
    // With `languages`, what the scorer is told when the eight languages' markers are read too.
    const evidence = languages ? (e.evidenceLang ?? e.evidence) : e.evidence;
    const markers = languages ? (e.markersLang ?? e.markers) : e.markers;
    return evidence && markers ? atScores(readerModel(evidence, { ...markers }), min) : NONE;
  };
}
export const seedSubstrings: Predictor = (e) => {
  if (!e.evidence) return NONE;
  const s = seedClassify(e.evidence.text);
  return { correction: s.correction, preference: s.preference, approval: false, friction: s.friction };
};

interface Cell {
  support: number;
  tp: number;
  fp: number;
  precision: number;
  recall: number;
}

/** P/R per category of each predictor over `rows` (distinct readings). */
export function table(rows: readonly Example[], predictors: Record<string, Predictor>) {
  const asRows = rows.map((e) => ({ e, labels: e.labels }));
  const out: Record<string, Record<Category, Cell>> = {};
  for (const [name, p] of Object.entries(predictors)) {
    const memo = new Map<Example, Record<Category, boolean>>();
    const predict = (r: { e: Example }) => {
      let v = memo.get(r.e);
      if (!v) {
        v = p(r.e);
        memo.set(r.e, v);
      }
      return v;
    };
    out[name] = Object.fromEntries(
      CATEGORIES.map((c) => {
        const s = score(asRows as never, predict as never, c);
        return [c, { support: s.support, tp: s.tp, fp: s.fp, precision: s.precision, recall: s.recall }];
      }),
    ) as Record<Category, Cell>;
  }
  return out;
}

// A recall over no support is undefined, not 1: shown as a dash like a precision over nothing said.
const f = (c: Cell) =>
  `${c.tp + c.fp === 0 ? '  —  ' : c.precision.toFixed(3)} / ${c.support === 0 ? '  —  ' : c.recall.toFixed(3)}`;

/** A text table: one line per group × category, one column per predictor. */
export function printTables(
  title: string,
  rows: readonly Example[],
  predictors: Record<string, Predictor>,
  groupBy: Record<string, (e: Example) => string>,
) {
  const lines: string[] = [`## ${title}`];
  const names = Object.keys(predictors);
  lines.push(`| group | category | support | ${names.join(' P / R | ')} P / R |`);
  const emit = (label: string, subset: readonly Example[]) => {
    const t = table(subset, predictors);
    for (const c of CATEGORIES) {
      const support = t[names[0]!]![c].support;
      if (support === 0 && !names.some((n) => t[n]![c].fp > 0)) continue;
      lines.push(`| ${label} | ${c} | ${support} | ${names.map((n) => f(t[n]![c])).join(' | ')} |`);
    }
  };
  emit(`all (${rows.length})`, rows);
  for (const [gname, key] of Object.entries(groupBy)) {
    const groups = new Map<string, Example[]>();
    for (const e of rows) {
      const k = key(e);
      groups.set(k, [...(groups.get(k) ?? []), e]);
    }
    for (const [k, sub] of [...groups].sort((a, b) => b[1].length - a[1].length))
      emit(`${gname} ${k} (${sub.length})`, sub);
  }
  return lines.join('\n');
}

/** The language group: the few turns of rare languages pooled. */
export const langGroup = (e: Example) =>
  ['en', 'zh', 'es', 'und', 'ja'].includes(e.lang) ? e.lang : 'other';

async function main() {
  const final = process.argv.includes('--final');
  const { examples, unmapped } = strangerExamples();
  if (unmapped.length > 0) {
    for (const u of unmapped) console.error(`#${u.row.n} ${u.row.source}: ${u.reason}`);
    throw new Error(`${unmapped.length} strangers rows did not map to a parsed message`);
  }
  const split = final ? 'strangers-final' : 'strangers';
  const rows = examples.filter((e) => e.split === split && !e.duplicate);
  const predictors: Record<string, Predictor> = {
    seed: seedSubstrings,
    markers: markersOnly,
    'markers+lang': markersLang,
    correctionModel: oldModel,
  };
  if (process.argv.includes('--reader')) {
    // The shipped reader (trained on the older sets and the `strangers` split), at its thresholds.
    predictors.reader = await readerPredictor();
    predictors['reader (recall)'] = await readerPredictor(true);
    predictors['reader (recall) +lang'] = await readerPredictor(true, true);
  }
  console.log(
    `${examples.length} rows mapped (0 unmapped); scored: ${split}, ${rows.length} distinct readings\n`,
  );
  console.log(printTables(split, rows, predictors, { source: (e) => e.source, lang: langGroup }));
}

if (process.argv[1]?.endsWith('strangers.ts')) await main();
