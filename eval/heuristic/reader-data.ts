/**
 * One shape for every labelled turn the reader trains and is measured on: the older sets
 * (sets/<name>/turns.jsonl, read by data.ts) and the `strangers` labels (strangers-data.ts), each with
 * what `heuristicReflect` tells a scorer (`TurnEvidence`) and the marker detector's scores.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  type CompiledMarkers,
  compileMarkers,
  DEFAULT_MARKERS,
  scoreTurns,
  type TurnEvidence,
  type TurnScores,
} from '../../lib/heuristic/index';
import { sharedDataDir } from '../../tools/shared/data';
import {
  authorOf,
  CATEGORIES,
  type Category,
  contextAround,
  familyOf,
  loadLabelledSets,
  type Row,
} from './data';
import { readRows } from './rows';
import {
  acknowledged,
  languageCompiled,
  loadStrangers,
  locateRows,
  type StrangerLabel,
  type StrangerRow,
  sourceOf,
} from './strangers-data';

export interface Example {
  id: string;
  /** The person (fold groups never split one). */
  author: string;
  /** console, sharegpt, aider (older sets) or the strangers folder (specstory, codex, …). */
  source: string;
  lang: string;
  split: string;
  labels: Category[];
  standing: boolean | null;
  instruction: string | null;
  /** Undefined when the library never scores the turn (a synthetic message). */
  evidence: TurnEvidence | undefined;
  markers: TurnScores | undefined;
  markersLang: TurnScores | undefined;
  /** What the scorer is told with the eight languages' markers read too. */
  evidenceLang: TurnEvidence | undefined;
  /** A row that repeats an earlier row's text by the same author (strangers `duplicate_of`). */
  duplicate: boolean;
  /**
   * The reader's buckets, stored for a row whose text is not in the repository (a spent held-out
   * set's turn, spent-features.ts); such a row has no evidence and only trains the reader.
   */
  buckets?: readonly number[];
}

const DEFAULT_COMPILED = compileMarkers(DEFAULT_MARKERS);

/**
 * What the library tells a scorer about the last message of `messages` (a person's turn), read with
 * the default markers and (`evidenceLang`) with the eight languages' markers too.
 */
function readLast(
  messages: Parameters<typeof scoreTurns>[0],
  at = messages.length - 1,
): Pick<Example, 'evidence' | 'markers' | 'evidenceLang'> {
  const read = (markers: CompiledMarkers) => {
    let last: { e: TurnEvidence; s: TurnScores } | undefined;
    let found: { evidence: TurnEvidence | undefined; markers: TurnScores | undefined } = {
      evidence: undefined,
      markers: undefined,
    };
    scoreTurns(
      messages,
      {
        markers,
        scorer: (e, s) => {
          last = { e, s };
          return s;
        },
      },
      (turn) => {
        if (turn.index === at && last)
          found = { evidence: acknowledged(last.e, messages, at), markers: last.s };
        last = undefined;
      },
    );
    return found;
  };
  const found = read(DEFAULT_COMPILED);
  return { ...found, evidenceLang: read(languageCompiled).evidence };
}

/** An older row's turn read with the whole conversation before it and the messages up to the next turn. */
const readOld = (r: Row) => {
  const { messages, at } = contextAround(r, Number.MAX_SAFE_INTEGER);
  return readLast(messages, at);
};

/**
 * The standing labels of the older sets' corrections and preferences (sets/standing/README.md), by
 * row number: `standing` and the reader's wording of the rule.
 */
function oldStanding(): Map<number, { standing: boolean; instruction: string | null }> {
  const rows = readRows<{ n: number; standing: boolean; instruction: string | null }>(
    'sets/standing/labels.jsonl',
  );
  return new Map(rows.map((r) => [r.n, { standing: r.standing, instruction: r.instruction }]));
}

export function oldExamples(): Example[] {
  const standing = oldStanding();
  return loadLabelledSets().map((r) => {
    const read = readOld(r);
    return {
      id: `old:${r.n}`,
      author: authorOf(r),
      source: familyOf(r),
      lang: r.lang ?? 'en',
      split: r.split,
      labels: r.labels,
      standing: standing.get(r.n)?.standing ?? null,
      instruction: standing.get(r.n)?.instruction ?? null,
      evidence: read.evidence,
      markers: read.markers,
      markersLang: undefined,
      evidenceLang: read.evidenceLang,
      duplicate: false,
    };
  });
}

export const fromStranger = (r: StrangerRow): Example => ({
  id: `s:${r.n}`,
  author: `strangers:${r.author}`,
  source: sourceOf(r),
  lang: r.lang,
  split: r.split,
  labels: r.labels,
  standing: r.standing,
  instruction: r.instruction,
  evidence: r.evidence,
  markers: r.markers,
  markersLang: r.markersLang,
  evidenceLang: r.evidenceLang,
  duplicate: r.duplicate_of !== undefined,
});

/** The strangers rows as examples, and the rows that could not be located (none expected). */
export function strangerExamples() {
  const { rows, unmapped } = loadStrangers();
  return { examples: rows.map(fromStranger), unmapped };
}

/**
 * The rows of `sets/rest/` (the shared data's people's turns no earlier set held; sets/rest/README.md)
 * as examples: their `author` is already the pool's key (`console`, `sharegpt:<file>`,
 * `strangers:<owner/name>`). `rest-final` rows (authors of `strangers-final`) are returned too: the
 * pool leaves them out.
 */
export function restExamples() {
  const { rows, unmapped } = locateRows(readRows<StrangerLabel>('sets/rest/labels.jsonl'), sharedDataDir());
  return { examples: rows.map((r) => ({ ...fromStranger(r), id: `r:${r.n}`, author: r.author })), unmapped };
}

/** One invented turn of `sets/synthetic/*.jsonl` (training only: sets/synthetic/README.md). */
interface SyntheticRow {
  id: string;
  lang: string;
  first: boolean;
  reply: string;
  text: string;
  labels: Category[];
  standing: boolean | null;
}

/** The earlier turn a synthetic turn that is not the first follows: a plain request, no signal. */
const EARLIER = 'Let us work on the project.';

/**
 * The synthetic turns of `files` as examples, read as the library reads a conversation: the earlier
 * turn (unless the row is a first turn), the agent's reply, then the turn. Their `split` is
 * `synthetic`: they may train a model, never score one. Each file is one author, so that a fold
 * never holds half of one writer's rows.
 */
export function syntheticExamples(files: readonly string[]): Example[] {
  const out: Example[] = [];
  for (const file of files) {
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as SyntheticRow);
    for (const r of rows) {
      const messages = [
        ...(r.first ? [] : [{ role: 'user', content: EARLIER }]),
        ...(r.first || !r.reply ? [] : [{ role: 'assistant', content: r.reply }]),
        { role: 'user', content: r.text },
      ];
      const found = readLast(messages);
      out.push({
        id: `syn:${r.id}`,
        author: `synthetic:${basename(file)}`,
        source: 'synthetic',
        lang: r.lang,
        split: 'synthetic',
        labels: r.labels.filter((c) => CATEGORIES.includes(c)),
        standing: r.standing ?? null,
        instruction: null,
        ...found,
        markersLang: undefined,
        duplicate: false,
      });
    }
  }
  return out;
}

/** The older sets' splits that tune (their held-out ones: `final`, `aider-final`, `more`, `last`). */
export const OLD_TUNE: ReadonlySet<string> = new Set(['tune', 'test', 'fresh', 'aider']);
export const OLD_HELD: ReadonlySet<string> = new Set(['final', 'aider-final', 'more', 'last']);

/**
 * The first example of each text per author (the older sets repeat a text: aider's scripted prompts).
 * Examples without evidence are dropped.
 */
export function distinctTexts(examples: readonly Example[]): Example[] {
  const seen = new Set<string>();
  return examples.filter((e) => {
    if (e.evidence === undefined) return false;
    const k = `${e.author}\n${e.evidence.text.trim().toLowerCase()}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The person's own prose in a turn, for features of language libraries and word vectors: its first 600
 * characters without code blocks, inline code and quoted, indented or markup lines.
 */
export const proseOf = (e: Example): string =>
  (e.evidence?.text ?? '')
    .slice(0, 600)
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .split('\n')
    .filter((l) => !/^(?:\s{4}|\t|\s*[>$|{}[\]<])/.test(l))
    .join('\n');
