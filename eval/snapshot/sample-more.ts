/**
 * Draws set 2, a held-out batch of snapshot entries, from ../shared/data,
 * deterministically, next to the 520 of set 1 (which it never repeats: same file+pos or
 * same text is excluded). Four strata, drawn in this order so the uniform one stays uniform:
 *
 * - `uniform`: 20 more entries per existing source kind, continuing `sample.ts`'s ranking
 *   (distinct texts, smallest FNV-1a hash of `file|pos`) after the ones set 1 took;
 * - `aider-reply`: sentences of the model's replies in the aider histories, at most 10 per
 *   repository, smallest hash first;
 * - `question-enriched`: sentences of every source ending with `?` or reporting a question
 *   (`whether`, `wonder`, `not sure`, `unclear`), smallest hash first;
 * - `evidence-enriched`: sentences holding a path, a URL, a `file:line`, or mostly a command in
 *   backticks, smallest hash first.
 *
 * Ids (`more-001` …) follow the brief's order: aider-reply, question, evidence, uniform. Aider
 * files may not be copied into the project, so aider rows keep no `text`: they store `sha256` of
 * the sentence and `textFrom: "data"`, and `loadMoreEntries()` re-reads them from the data folder.
 * Run once to (re)write eval/snapshot/sets/2/entries.jsonl: `npx tsx eval/snapshot/sample-more.ts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fnv1a32 } from '../../lib/core/index.js';
import { DATA, ENTRIES, type SampledEntry, SOURCES, sentences } from './sample';
import { setPath, shownPath } from './sets';

export const ENTRIES_MORE = setPath(2, 'entries.jsonl');

const AIDER_KIND = 'aider-reply';
const N_AIDER = 130;
const AIDER_PER_REPO = 10;
const N_QUESTION = 50;
const N_EVIDENCE = 50;
const N_UNIFORM = 20;

/** A sentence read from a source: its kind, file, position and text. */
export interface Raw {
  kind: string;
  file: string;
  pos: string;
  text: string;
}

/** One row of sets/2/entries.jsonl (aider rows carry `sha256` and `textFrom` instead of `text`). */
export interface MoreRow {
  id: string;
  kind: string;
  stratum: string;
  file: string;
  pos: string;
  text?: string;
  sha256?: string;
  textFrom?: 'data';
}

/** A loaded entry: the row with its text filled in. */
export interface MoreEntry {
  id: string;
  kind: string;
  stratum: string;
  file: string;
  pos: string;
  text: string;
  sha256?: string;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Commands whose answer is aider's own output (repo map, git help, model info), not a model reply. */
const NON_MODEL_COMMAND = /^####\s+\/(?:map|map-refresh|git|models?|tokens|ls|version|info|settings)\b/;
const FILE_NAME = /^[\w.@/\\-]+\.[A-Za-z][A-Za-z0-9]{0,5}$/;

/**
 * The model's reply sentences of every aider history: lines that are not a session header
 * (`# aider chat started at`), a user prompt (`#### `), aider's own output (`> `), inside a code
 * fence or a SEARCH/REPLACE block, a `<thinking-content-…>` tag, or the bare file name aider's edit
 * formats put right before a fence. Position: `line N#j` (1-based line, j-th sentence of it).
 */
export function aiderReplies(): Raw[] {
  const dir = join(DATA, 'aider');
  const out: Raw[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.md'))
    .sort()) {
    const lines = readFileSync(join(dir, f), 'utf8').split('\n');
    let fenceStart = 0;
    let fence = 0; // backticks of the open code fence, 0 outside one
    let block = false; // inside a SEARCH/REPLACE block
    let skipTurn = false; // the turn answers a command whose output is aider's, not the model's
    let prompt = false; // the previous line was a user prompt line
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i]!.replace(/\r$/, '');
      const l = raw.trim();
      if (/^####(\s|$)/.test(raw) || raw.startsWith('# aider chat started at')) {
        // a prompt or a new session always ends the model's reply
        if (!prompt) skipTurn = NON_MODEL_COMMAND.test(raw);
        prompt = raw.startsWith('####');
        fence = 0;
        block = false;
        continue;
      }
      prompt = false;
      const tick = /^(`{3,})/.exec(l)?.[1]?.length ?? 0;
      if (fence > 0) {
        if (tick >= fence && /^`+\s*$/.test(l)) {
          fence = 0;
          // a fence holding only a file name, then the file's text unfenced: skip up to the next fence
          const body = lines.slice(fenceStart + 1, i).filter((x) => x.trim() !== '');
          if (body.length === 1 && FILE_NAME.test(body[0]!.trim())) fence = 3;
        }
        continue;
      }
      if (tick > 0) {
        fence = tick;
        fenceStart = i;
        continue;
      }
      if (skipTurn || /^>(\s|$)/.test(raw)) continue;
      if (/^<{5,}\s*SEARCH/.test(l)) block = true;
      if (block) {
        if (/^>{5,}\s*REPLACE/.test(l)) block = false;
        continue;
      }
      if (/^<\/?thinking-content/.test(l) || /^[│⋮]/.test(l) || /^\(Y\)es\/\(n\)o/i.test(l)) continue;
      // the bare file name aider's edit formats put right before a fence
      if (l !== '' && !/\s/.test(l) && (lines[i + 1] ?? '').trim().startsWith('```')) continue;
      sentences(raw).forEach((text, j) => {
        out.push({ kind: AIDER_KIND, file: `aider/${f}`, pos: `line ${i + 1}#${j}`, text });
      });
    }
  }
  return out;
}

const QUESTION = /\?\s*$|\bwhether\b|\bwonder|\bnot sure\b|\bunclear\b/i;

const URL = /\bhttps?:\/\/\S+/i;
const ABS_PATH = /(?:^|[\s`'"(=])(?:~|\.{1,2})?\/[\w.@-]+\/[\w.@/-]*/;
const REL_PATH = /\b[\w.@-]+[/\\][\w.@/\\-]*\.[A-Za-z][A-Za-z0-9]{0,5}\b/;
const FILE_LINE = /\b[\w./\\-]+\.[A-Za-z][A-Za-z0-9]{0,5}:\d+\b/;

/** Mostly a command in backticks: the backticked spans make up at least half of the sentence. */
function mostlyBackticked(text: string): boolean {
  const spans = text.match(/`[^`]+`/g) ?? [];
  const inside = spans.reduce((n, s) => n + s.length, 0);
  return inside > 0 && inside >= 0.5 * text.length;
}

/** A URL, a path, a `file:line`, or mostly backticked: the evidence stratum's test. */
export function isEvidence(text: string): boolean {
  return (
    URL.test(text) ||
    ABS_PATH.test(text) ||
    REL_PATH.test(text) ||
    FILE_LINE.test(text) ||
    mostlyBackticked(text)
  );
}

/** Distinct texts (first occurrence), ranked by FNV-1a hash of `file|pos`, ties by source order. */
export function ranked(raws: Raw[]): Raw[] {
  const seen = new Set<string>();
  return raws
    .filter((r) => !seen.has(r.text) && seen.add(r.text))
    .map((r, i) => ({ r, i, h: fnv1a32(`${r.file}|${r.pos}`) }))
    .sort((a, b) => a.h - b.h || a.i - b.i)
    .map(({ r }) => r);
}

/** What earlier draws took, by position and by text. */
export class Taken {
  private readonly places = new Set<string>();
  private readonly texts = new Set<string>();
  has(r: { file: string; pos: string; text: string }): boolean {
    return this.places.has(`${r.file}|${r.pos}`) || this.texts.has(r.text);
  }
  add(r: { file: string; pos: string; text: string }): void {
    this.places.add(`${r.file}|${r.pos}`);
    this.texts.add(r.text);
  }
}

/** The first n of a ranked list not taken yet (and passing `ok`); marks them taken. */
export function take(list: Raw[], n: number, taken: Taken, ok: (r: Raw) => boolean = () => true): Raw[] {
  const out: Raw[] = [];
  for (const r of list) {
    if (out.length >= n) break;
    if (taken.has(r) || !ok(r)) continue;
    taken.add(r);
    out.push(r);
  }
  return out;
}

/** Draws all rows of sets/2/entries.jsonl. */
export function drawMore(): MoreRow[] {
  const existing = readFileSync(ENTRIES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SampledEntry);
  const taken = new Taken();
  for (const e of existing) taken.add(e);

  const perKind = SOURCES.map((s) => ({ kind: s.kind, raws: s.read().map((r) => ({ kind: s.kind, ...r })) }));
  const aider = aiderReplies();

  // 1. uniform, first: the continuation of sample.ts's ranking.
  const uniform = perKind.flatMap(({ raws }) => take(ranked(raws), N_UNIFORM, taken));
  // 2. aider replies, at most AIDER_PER_REPO per repository.
  const perRepo = new Map<string, number>();
  const aiderPicked = take(ranked(aider), N_AIDER, taken, (r) => {
    const n = perRepo.get(r.file) ?? 0;
    if (n >= AIDER_PER_REPO) return false;
    perRepo.set(r.file, n + 1);
    return true;
  });
  // 3. and 4. the enriched strata over every source.
  const all = ranked([...perKind.flatMap((k) => k.raws), ...aider]);
  const question = take(all, N_QUESTION, taken, (r) => QUESTION.test(r.text));
  const evidence = take(all, N_EVIDENCE, taken, (r) => isEvidence(r.text));

  const order = new Map<string, number>();
  for (const r of [...perKind.flatMap((k) => k.raws), ...aider]) order.set(`${r.file}|${r.pos}`, order.size);
  const bySource = (rs: Raw[]) => {
    return [...rs].sort((a, b) => order.get(`${a.file}|${a.pos}`)! - order.get(`${b.file}|${b.pos}`)!);
  };
  const strata: [string, Raw[]][] = [
    [AIDER_KIND, bySource(aiderPicked)],
    ['question-enriched', bySource(question)],
    ['evidence-enriched', bySource(evidence)],
    ['uniform', bySource(uniform)],
  ];
  let n = 0;
  return strata.flatMap(([stratum, rs]) =>
    rs.map((r): MoreRow => {
      const id = `more-${String(++n).padStart(3, '0')}`;
      const base = { id, kind: r.kind, stratum, file: r.file, pos: r.pos };
      return r.kind === AIDER_KIND
        ? { ...base, sha256: sha256Hex(r.text), textFrom: 'data' }
        : { ...base, text: r.text };
    }),
  );
}

/**
 * The rows of sets/2/entries.jsonl with their texts. Aider rows are re-read from ../shared/data and
 * checked against their SHA-256 (throws on a mismatch or a missing position); when the aider
 * folder is absent they are left out, with a note on stderr.
 */
export function loadMoreEntries(path: string = ENTRIES_MORE): MoreEntry[] {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as MoreRow);
  const needData = rows.filter((r) => r.textFrom === 'data');
  let texts: Map<string, string> | undefined;
  if (needData.length > 0) {
    if (existsSync(join(DATA, 'aider'))) {
      texts = new Map(aiderReplies().map((r) => [`${r.file}|${r.pos}`, r.text]));
    } else {
      process.stderr.write(
        `${shownPath(path)}: ${join(DATA, 'aider')} is absent; leaving out the ${needData.length} entries read from it\n`,
      );
    }
  }
  const out: MoreEntry[] = [];
  for (const r of rows) {
    if (r.textFrom !== 'data') {
      if (typeof r.text !== 'string')
        throw new Error(`${shownPath(path)}: ${r.id} has neither text nor textFrom`);
      out.push({ id: r.id, kind: r.kind, stratum: r.stratum, file: r.file, pos: r.pos, text: r.text });
      continue;
    }
    if (!texts) continue;
    const text = texts.get(`${r.file}|${r.pos}`);
    if (text === undefined) {
      throw new Error(
        `${shownPath(path)}: ${r.id} (${r.file} ${r.pos}) is not found in the data folder; has it changed?`,
      );
    }
    const sha = sha256Hex(text);
    if (sha !== r.sha256) {
      throw new Error(
        `${shownPath(path)}: ${r.id} (${r.file} ${r.pos}) text hash ${sha.slice(0, 12)}… does not match the stored ${String(r.sha256).slice(0, 12)}…; the data folder differs from the one sampled`,
      );
    }
    out.push({ id: r.id, kind: r.kind, stratum: r.stratum, file: r.file, pos: r.pos, text, sha256: sha });
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = drawMore();
  writeFileSync(ENTRIES_MORE, `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${ENTRIES_MORE}\n`);
}
