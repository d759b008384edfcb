/**
 * `npx tsx eval/heuristic/unseen.ts --dir <folder> [--set unseen|unseen-specstory|fresh-specstory|fresh-specstory-2|fresh-console|fresh-gemini|fresh-console-2|fresh-console-3|fresh-console-4|fresh-console-5]`: issue 38's
 * detectors and key-point writer on people's turns from public repositories whose authors are in no
 * folder of `../shared/data`, so no rule, weight or threshold of rearview was chosen from them:
 * `unseen` (aider histories, sets/unseen/README.md) or `unseen-specstory` (SpecStory exports,
 * sets/unseen-specstory/README.md). Each set is scored once, with what is shipped; nothing is fitted.
 *
 * The copies are not in the repository (they state no licence): `<folder>` holds them as
 * `aider/<owner>__<name>.md` and `specstory/<owner>__<name>.md`. Each copy is checked against the
 * set's `files.jsonl` (SHA-256 of the
 * copied text) before anything is scored, so a figure is always on the copies that were labelled.
 * `--rebuilt` is for copies rebuilt from the index after the first ones were lost: a copy whose hash
 * differs (a character changed in transcription) is reported and read all the same, since each
 * labelled row is found by the SHA-256 of its own turn's text; a row whose text no longer matches
 * is left out and counted, never guessed.
 *
 * Prints, over distinct readings: precision / recall per category for the seed's substrings, the markers
 * (with and without the language lists), the learned correction scorer and the reader
 * (`rearview/heuristic-model`), overall, by language and for first turns; then the standing decision and
 * key-point writer (`writeKeyPoint`) against the readers' `standing` labels. `--keypoints <file>`
 * writes the key points `lessons` proposes for every copied history (what a user gets) as JSON lines
 * for a blind judge (the file holds no turn text, only the key points and where they came from; keep
 * it outside the repository all the same).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isStandingTurn, writeKeyPoints } from '../../lib/playbook/index';
import { lessons } from '../../lib/session/index';
import { parseTranscript } from '../../lib/transcript/index';
import { distinctTexts, type Example, fromStranger } from './reader-data';
import { readRows } from './rows';
import {
  markersLang,
  markersOnly,
  oldModel,
  type Predictor,
  printTables,
  readerPredictor,
  seedSubstrings,
  table,
} from './strangers';
import { locateRows, type StrangerLabel } from './strangers-data';

/** One copied history: where it came from and the SHA-256 of the copy that was labelled. */
interface CopiedFile {
  file: string;
  repo: string;
  path: string;
  commit: string;
  sha256: string;
  complete: boolean;
}

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

/**
 * The sets of authors no rule was written from: `unseen` (aider histories, scored once at 1f4a201)
 * and `unseen-specstory` (SpecStory exports of Cursor, Copilot and Claude Code sessions, scored once at
 * the commit its README names). Each names the folder of `--dir` that holds its copies.
 */
export const UNSEEN_SETS = {
  unseen: { folder: 'aider' },
  'unseen-specstory': { folder: 'specstory' },
  'fresh-specstory': { folder: 'specstory' },
  'fresh-specstory-2': { folder: 'specstory' },
  'fresh-console': { folder: 'console' },
  'fresh-gemini': { folder: 'gemini' },
  'fresh-console-2': { folder: 'console' },
  'fresh-console-3': { folder: 'console' },
  'fresh-console-4': { folder: 'console' },
  'fresh-console-5': { folder: 'console' },
} as const;
export type UnseenSet = keyof typeof UNSEEN_SETS;

/**
 * Checks every copy of `set` under `dir` against its manifest; throws on a missing or changed copy.
 * A copy holding no labelled turn (many aider copies are a launch and an error) may be absent: it
 * has nothing to score, and rebuilding it from the index costs pages for nothing.
 */
export function checkCopies(dir: string, set: UnseenSet = 'unseen', changed?: string[]): CopiedFile[] {
  const labelled = new Set(readRows<StrangerLabel>(`sets/${set}/labels.jsonl`).map((l) => l.source));
  const files = readRows<CopiedFile>(`sets/${set}/files.jsonl`).filter(
    (f) => labelled.has(f.file) || existsSync(join(dir, UNSEEN_SETS[set].folder, f.file)),
  );
  for (const f of files) {
    const text = readFileSync(join(dir, UNSEEN_SETS[set].folder, f.file), 'utf8');
    const h = createHash('sha256').update(text).digest('hex');
    if (h === f.sha256) continue;
    // A rebuilt copy may differ by a transcribed character: said, and its rows checked one by one.
    if (changed) changed.push(f.file);
    else throw new Error(`${f.file}: the copy differs from the one labelled (sha256 ${h})`);
  }
  return files;
}

/**
 * The `n` of a set's labelled rows that are no person's turn as the console reader reads copies today
 * (`sets/<set>/excluded.jsonl`, each with its reason): left out of every score, kept in `labels.jsonl`
 * as labelled.
 */
export function excludedTurns(set: UnseenSet): Set<number> {
  const file = join(import.meta.dirname, 'sets', set, 'excluded.jsonl');
  if (!existsSync(file)) return new Set();
  return new Set(readRows<{ n: number }>(`sets/${set}/excluded.jsonl`).map((r) => r.n));
}

/** The 95 % Wilson score interval of `k` successes in `n`, as `[lo, hi]` to three places. */
export function wilson(k: number, n: number): string {
  if (n === 0) return '[—]';
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return `[${Math.max(0, mid - half).toFixed(3)}, ${Math.min(1, mid + half).toFixed(3)}]`;
}

async function main() {
  const dir = arg('--dir');
  const set = (arg('--set') ?? 'unseen') as UnseenSet;
  if (!dir || !(set in UNSEEN_SETS))
    throw new Error(
      `usage: unseen.ts --dir <folder holding aider/ and specstory/<owner>__<name>.md> [--set ${Object.keys(UNSEEN_SETS).join('|')}]`,
    );
  const folder = UNSEEN_SETS[set].folder;
  const rebuilt = process.argv.includes('--rebuilt');
  const changed: string[] = [];
  const files = checkCopies(dir, set, rebuilt ? changed : undefined);
  const excluded = excludedTurns(set);
  const labels = readRows<StrangerLabel>(`sets/${set}/labels.jsonl`).filter((r) => !excluded.has(r.n));
  if (excluded.size > 0) console.log(`${excluded.size} labelled rows left out (sets/${set}/excluded.jsonl)`);
  const { rows, unmapped } = locateRows(labels, join(dir, folder));
  if (unmapped.length > 0) {
    for (const u of unmapped) console.error(`#${u.row.n} ${u.row.source}: ${u.reason}`);
    if (!rebuilt) throw new Error(`${unmapped.length} unseen rows did not map to a parsed message`);
  }
  if (rebuilt)
    console.log(
      `rebuilt copies: ${changed.length} of ${files.length} differ from the labelled ones; ${unmapped.length} of ${labels.length} rows left out (their turn's text differs or its file is missing)`,
    );
  const examples = rows.map(fromStranger).filter((e) => !e.duplicate);
  const predictors: Record<string, Predictor> = {
    seed: seedSubstrings,
    markers: markersOnly,
    'markers+lang': markersLang,
    correctionModel: oldModel,
    reader: await readerPredictor(),
    'reader-recall': await readerPredictor(true),
  };
  console.log(
    `${files.length} copies checked; ${rows.length} rows mapped (${unmapped.length} unmapped), ${examples.length} distinct readings, ${new Set(examples.map((e) => e.author)).size} authors\n`,
  );
  const rowOf = new Map(rows.map((r) => [`s:${r.n}`, r]));
  console.log(
    printTables(set, examples, predictors, {
      lang: (e) => (e.lang === 'en' ? 'en' : 'other'),
      first: (e) => (rowOf.get(e.id)?.first ? 'first turn' : 'later turn'),
    }),
  );

  // The support is small: each proportion with its 95 % Wilson interval.
  const t = table(examples, predictors);
  console.log('\n95 % Wilson intervals (right / said, right / support):');
  for (const c of ['correction', 'approval', 'preference', 'friction'] as const)
    for (const [name, cell] of Object.entries(t))
      if (cell[c].tp + cell[c].fp > 0)
        console.log(
          `  ${c} ${name}: P ${cell[c].tp}/${cell[c].tp + cell[c].fp} ${wilson(cell[c].tp, cell[c].tp + cell[c].fp)}, R ${cell[c].tp}/${cell[c].support} ${wilson(cell[c].tp, cell[c].support)}`,
        );

  // Standing or one-off, then the writer, on the rows the readers labelled correction or preference.
  const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(3));
  const cp = distinctTexts(examples.filter((e) => e.standing !== null));
  const pos = cp.filter((e) => e.standing).length;
  const text = (e: Example) => e.evidence!.text;
  // What the writer makes of each turn, once (`writeKeyPoint` is the first of them).
  const keyPointsOf = new Map(examples.map((e) => [e, e.evidence ? writeKeyPoints(text(e)) : []]));
  const hasKeyPoint = (e: Example) => (keyPointsOf.get(e) ?? []).length > 0;
  const saidStanding = cp.filter((e) => isStandingTurn(text(e)));
  const right = saidStanding.filter((e) => e.standing).length;
  console.log(
    `\n${cp.length} corrections/preferences (distinct), ${pos} standing. isStandingTurn: said ${saidStanding.length}, right ${right}: precision ${f(right / saidStanding.length)}, recall ${f(right / pos)}`,
  );
  const written = cp.filter(hasKeyPoint);
  const wRight = written.filter((e) => e.standing).length;
  console.log(
    `writeKeyPoint: a key point for ${written.length} rows, ${wRight} standing: precision ${f(wRight / written.length)}, recall ${f(wRight / pos)}`,
  );
  const anyK = examples.filter(hasKeyPoint);
  console.log(
    `writer over all ${examples.length} distinct turns: ${anyK.length} key points, ${anyK.filter((e) => e.standing).length} on turns labelled standing, ${anyK.filter((e) => e.standing === null).length} on turns labelled neither correction nor preference`,
  );

  const out = arg('--keypoints');
  if (out) {
    const lines: string[] = [];
    for (const { file: name } of files) {
      let t: ReturnType<typeof parseTranscript>;
      try {
        t = parseTranscript(readFileSync(join(dir, folder, name), 'utf8'), { lenient: true });
      } catch {
        // A copy with no turn at all (a header only): nothing to propose, as the CLI would say.
        continue;
      }
      const { proposed } = lessons({ messages: t.messages });
      for (const k of proposed)
        lines.push(
          JSON.stringify({
            file: name,
            keyPoint: k.text,
            section: k.section,
            category: k.category,
            from: k.traceRefs[0],
            by: 'lessons',
          }),
        );
    }
    // The writer alone, as if the detector had flagged every person's turn (its own decision still applies).
    for (const e of examples) {
      const r = rowOf.get(e.id)!;
      for (const k of keyPointsOf.get(e) ?? [])
        lines.push(JSON.stringify({ file: r.source, keyPoint: k, from: `line:${r.line}`, by: 'writer' }));
    }
    writeFileSync(out, `${lines.join('\n')}\n`);
    console.log(
      `\n${lines.length} key points (lessons over ${files.length} histories, then the writer on every turn) → ${out}`,
    );
  }
}

if (process.argv[1]?.endsWith('unseen.ts')) await main();
