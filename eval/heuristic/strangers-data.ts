/**
 * The `strangers` labels (sets/strangers/labels.jsonl) read with their turns: every row is located in the
 * shared data by parsing its file with `parseTranscript` (as rearview reads it in use) and matching the
 * SHA-256 of each user message's trimmed text against the row's. No text is stored in the repository:
 * it is re-read from `../shared/data` on every run.
 *
 * Each file is read once through `scoreTurns` with a scorer that records what `heuristicReflect`
 * gives a scorer for each person's turn (`TurnEvidence` and the marker scores): what a learned model
 * sees in use, with the whole conversation before the turn.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compileMarkers,
  DEFAULT_MARKERS,
  type MessageLike,
  scoreTurns,
  type TurnEvidence,
  type TurnScores,
} from '../../lib/heuristic/index';
import { withLanguages } from '../../lib/heuristic/languages';
import { acknowledgedBy } from '../../lib/heuristic-model/index';
import { parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';
import type { Category } from './data';
import { sha256 } from './data';
import { readRows } from './rows';

export interface StrangerLabel {
  n: number;
  source: string;
  line?: number;
  turn?: number;
  part?: number;
  index: number;
  author: string;
  sha256: string;
  lang: string;
  split: 'strangers' | 'strangers-final' | 'unseen' | 'rest' | 'rest-final';
  label: string;
  labels: Category[];
  standing: boolean | null;
  instruction: string | null;
  first: boolean;
  stratum: string;
  command?: string;
  duplicate_of?: number;
  /** The message's id in the parse (`sets/rest` rows): located by it, its text checked against `sha256`. */
  messageId?: string;
}

/** One labelled turn with what the library reads of it. */
export interface StrangerRow extends StrangerLabel {
  /** The turn's index in the parsed messages. */
  message: number;
  /** What the scorer is told (undefined when the library skips the turn: a synthetic message). */
  evidence: TurnEvidence | undefined;
  /** The marker detector's scores (default markers), and with the language lists. */
  markers: TurnScores | undefined;
  markersLang: TurnScores | undefined;
  /** What the scorer is told when the eight languages' markers are read too (`loadLanguageMarkers`). */
  evidenceLang: TurnEvidence | undefined;
  /** Why the parsed message is skipped by `heuristicReflect`, when it is (`synthetic` kind). */
  synthetic?: string;
}

export interface Unmapped {
  row: StrangerLabel;
  reason: string;
}

const textOf = (content: unknown): string | undefined => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const b of content)
    if (b && typeof b === 'object' && (b as { type?: unknown }).type === 'text') {
      const t = (b as { text?: unknown }).text;
      if (typeof t === 'string') parts.push(t);
    }
  return parts.length > 0 ? parts.join('\n') : undefined;
};

/** Variants of a user message's text the labeller may have hashed (reminder blocks stripped). */
function variants(text: string): string[] {
  const out = [text.trim()];
  const stripped = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
  if (stripped !== out[0]) out.push(stripped);
  return out;
}

interface FileRead {
  messages: MessageLike[];
  evidence: Map<number, TurnEvidence>;
  markers: Map<number, TurnScores>;
  markersLang: Map<number, TurnScores>;
  evidenceLang: Map<number, TurnEvidence>;
  /** SHA-256 of each user message's text (and variants) → message indexes, in order. */
  byHash: Map<string, number[]>;
  format: string;
}

const defaultCompiled = compileMarkers(DEFAULT_MARKERS);
/** The default markers with the eight languages' (`loadLanguageMarkers`), compiled once. */
export const languageCompiled = compileMarkers(withLanguages(DEFAULT_MARKERS));

/**
 * `e` as the reader is told it once the agent has replied: `acknowledged` when that reply owns a
 * mistake (what `observe` sets for a scorer with `acknowledges`, `readerModel`'s).
 */
export function acknowledged(e: TurnEvidence, messages: readonly MessageLike[], index: number): TurnEvidence {
  return acknowledgedBy(messages, index) >= 0 ? { ...e, acknowledged: true } : e;
}

function readFile(source: string, root: string | undefined): FileRead {
  if (!root) throw new Error('the shared data (../shared/data) is needed to read the strangers labels');
  const t = parseTranscript(readFileSync(join(root, source), 'utf8'), { lenient: true });
  const messages = t.messages as MessageLike[];
  const evidence = new Map<number, TurnEvidence>();
  const markers = new Map<number, TurnScores>();
  const markersLang = new Map<number, TurnScores>();
  const evidenceLang = new Map<number, TurnEvidence>();
  let last: { e: TurnEvidence; s: TurnScores } | undefined;
  scoreTurns(
    messages,
    {
      markers: defaultCompiled,
      scorer: (e, s) => {
        last = { e, s };
        return s;
      },
    },
    (turn) => {
      if (last) {
        evidence.set(turn.index, acknowledged(last.e, messages, turn.index));
        markers.set(turn.index, last.s);
      }
      last = undefined;
    },
  );
  scoreTurns(
    messages,
    {
      markers: languageCompiled,
      scorer: (e, s) => {
        last = { e, s };
        return s;
      },
    },
    (turn) => {
      if (last) {
        markersLang.set(turn.index, last.s);
        evidenceLang.set(turn.index, acknowledged(last.e, messages, turn.index));
      }
      last = undefined;
    },
  );
  const byHash = new Map<string, number[]>();
  messages.forEach((m, i) => {
    if (m.role !== 'user') return;
    const text = textOf(m.content);
    if (text === undefined) return;
    for (const v of new Set(variants(text))) {
      const h = sha256(v);
      const list = byHash.get(h) ?? [];
      list.push(i);
      byHash.set(h, list);
    }
  });
  return { messages, evidence, markers, markersLang, evidenceLang, byHash, format: t.format };
}

/**
 * aider: the labeller joined a run of prompts that the parser splits (a `/ask X` that aider logs again
 * as `X`, a `<blank>` before a prompt). Such a row maps to the run's one prompt the library reads (the
 * non-synthetic one), or the last of the run; -1 when no run starting at the row's line matches.
 */
function joined(file: FileRead, row: StrangerLabel): number {
  if (row.line === undefined) return -1;
  const start = file.messages.findIndex((m) => m.id === `m${row.line}`);
  if (start < 0) return -1;
  const texts: string[] = [];
  for (let j = start; j < Math.min(file.messages.length, start + 4); j++) {
    const m = file.messages[j]!;
    if (m.role !== 'user') break;
    texts.push(textOf(m.content) ?? '');
    if (sha256(texts.join('\n').trim()) === row.sha256) {
      for (let k = start; k <= j; k++) if (!file.messages[k]!.synthetic) return k;
      return j;
    }
  }
  return -1;
}

/**
 * Every row of sets/strangers/labels.jsonl with its turn located and read; rows whose text is found in no
 * user message of the parsed file are returned apart with the reason.
 */
export function loadStrangers(): { rows: StrangerRow[]; unmapped: Unmapped[]; formats: Map<string, string> } {
  return locateRows(readRows<StrangerLabel>('sets/strangers/labels.jsonl'), sharedDataDir());
}

/**
 * Labelled rows located in the files under `root` (their `source` is relative to it) and read as the
 * library reads them; rows whose text no user message of the parsed file has are returned apart.
 */
export function locateRows<L extends StrangerLabel>(
  labels: readonly L[],
  root: string | undefined,
): { rows: (L & StrangerRow)[]; unmapped: Unmapped[]; formats: Map<string, string> } {
  const bySource = new Map<string, L[]>();
  for (const r of labels) {
    const list = bySource.get(r.source) ?? [];
    list.push(r);
    bySource.set(r.source, list);
  }
  const rows: (L & StrangerRow)[] = [];
  const unmapped: Unmapped[] = [];
  const formats = new Map<string, string>();
  for (const [source, list] of [...bySource].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    let file: FileRead;
    try {
      file = readFile(source, root);
    } catch (e) {
      for (const row of list)
        unmapped.push({ row, reason: `parse failed: ${(e as Error).message.slice(0, 80)}` });
      continue;
    }
    formats.set(source, file.format);
    // Rows with the same text in one file take the parsed messages with that text in order.
    const ordered = [...list].sort((a, b) => a.index - b.index);
    const used = new Map<string, number>();
    for (const row of ordered) {
      const at = file.byHash.get(row.sha256);
      const k = used.get(row.sha256) ?? 0;
      used.set(row.sha256, k + 1);
      // A row that names its message (`messageId`) is that message, when its text is the row's: equal
      // texts of one file paired by order would land on another set's row of the same text.
      const named = row.messageId === undefined ? -1 : file.messages.findIndex((m) => m.id === row.messageId);
      // A row that names its line is the message of that line (the Markdown formats' ids are `m<line>`)
      // when one of the text's messages is: a text the file holds more often than the rows label it
      // would otherwise be paired with an earlier occurrence.
      const atLine =
        row.line === undefined || !at ? -1 : at.findIndex((j) => file.messages[j]!.id === `m${row.line}`);
      const i =
        row.messageId !== undefined
          ? at?.includes(named)
            ? named
            : -1
          : at && at.length > 0
            ? at[atLine >= 0 ? atLine : Math.min(k, at.length - 1)]!
            : joined(file, row);
      if (i < 0) {
        unmapped.push({ row, reason: `no user message of the ${file.format} parse has this text` });
        continue;
      }
      const m = file.messages[i]!;
      const syn = m.synthetic;
      rows.push({
        ...row,
        message: i,
        evidence: file.evidence.get(i),
        markers: file.markers.get(i),
        markersLang: file.markersLang.get(i),
        evidenceLang: file.evidenceLang.get(i),
        ...(syn ? { synthetic: typeof syn === 'string' ? syn : 'synthetic' } : {}),
      });
    }
  }
  return { rows, unmapped, formats };
}

/** The folder a row's file is in: specstory, codex, cline, aider, claude-code-jsonl-more, other-agents. */
export const sourceOf = (r: Pick<StrangerLabel, 'source'>): string => r.source.split('/')[0]!;
