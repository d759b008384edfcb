/**
 * The labelled sets, read with their context: every row's turn is located in `../shared/data` with
 * `parseTranscript`, so the detector sees what `heuristicReflect` would (the messages before the turn:
 * interrupted tool calls, `/undo`, earlier requests). Aider rows store no text (the histories state no
 * licence): the text is re-read from the shared file and checked against the stored SHA-256.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageLike } from '../../lib/heuristic/index';
import { parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';
import { readRows } from './rows';

export type Category = 'correction' | 'preference' | 'approval' | 'friction';
export const CATEGORIES: Category[] = ['correction', 'preference', 'approval', 'friction'];
export type Family = 'console' | 'sharegpt' | 'aider';
export type Split = 'tune' | 'test' | 'fresh' | 'final' | 'aider' | 'aider-final' | 'more' | 'last';

export interface Row {
  n: number;
  source: string;
  messageId: string;
  split: Split;
  label: string;
  labels: Category[];
  /** Stored for the console and ShareGPT sets; re-read from the shared data for aider rows. */
  text: string;
  /** Aider rows: the repository; else derived by {@link authorOf}. */
  author?: string;
  lang?: string;
  sha256?: string;
  turn?: number;
}

/**
 * Sets no fold trains or calibrates on: `final` and `aider-final` (held out since they were labelled),
 * `more` (400 ShareGPT turns, 195 authors, labelled blind and scored once; see LABELLING.md for why
 * it stayed out of the pool) and `last` (189 untouched ShareGPT turns, scored once).
 */
export const HELD_OUT: ReadonlySet<string> = new Set(['final', 'aider-final', 'more', 'last']);

/** The turn's own text as the labels describe it: trimmed, cut to 600 characters. */
export const storedText = (content: string) => content.trim().slice(0, 600);

export function familyOf(r: Pick<Row, 'source'>): Family {
  return r.source.startsWith('claude-code-console/')
    ? 'console'
    : r.source.startsWith('aider/')
      ? 'aider'
      : 'sharegpt';
}

/** The person who wrote the turn: the aider repository, the one console developer, the ShareGPT conversation. */
export function authorOf(r: Pick<Row, 'source' | 'author'>): string {
  if (r.author) return `aider:${r.author}`;
  return familyOf(r) === 'console' ? 'console' : `sharegpt:${r.source}`;
}

const parsed = new Map<string, MessageLike[]>();

/** The messages of one shared file, as `parseTranscript` reads them (console days forced to their format). */
export function messagesOf(source: string): MessageLike[] {
  let messages = parsed.get(source);
  if (!messages) {
    const dir = sharedDataDir();
    if (!dir) throw new Error('the shared data (../shared/data) is needed to read the labelled turns');
    const text = readFileSync(join(dir, source), 'utf8');
    const format = source.startsWith('claude-code-console/') ? 'claude-code-console' : undefined;
    messages = parseTranscript(text, { lenient: true, ...(format ? { format } : {}) })
      .messages as MessageLike[];
    parsed.set(source, messages);
  }
  return messages;
}

/** The index of a row's turn in {@link messagesOf}, or -1. */
export function indexOf(r: Row): number {
  return messagesOf(r.source).findIndex((m) => m.id === r.messageId);
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Whether the shared data is here (the aider rows need it for their text). */
export function haveSharedData(): boolean {
  const dir = sharedDataDir();
  return !!dir && existsSync(join(dir, 'aider'));
}

/**
 * Every labelled set of turns: each folder of `sets/` holding a `turns.jsonl`, in name order (the
 * folds and the training read the rows in this order); aider rows get their text from the shared data
 * (checked against the stored hash: a mismatch throws, naming the row).
 */
export function loadLabelledSets(): Row[] {
  const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'sets');
  const rows = readdirSync(dir)
    .filter((set) => existsSync(join(dir, set, 'turns.jsonl')))
    .sort()
    .flatMap((set) => readRows<Row>(`sets/${set}/turns.jsonl`));
  for (const r of rows) {
    if (r.text !== undefined) continue;
    // By id (the turn's line): a reader change that drops a message before it (a reply that was all
    // reasoning) moves its index, not its id.
    const m = messagesOf(r.source)[indexOf(r)];
    const text = m && typeof m.content === 'string' ? storedText(m.content) : '';
    if (sha256(text) !== r.sha256)
      throw new Error(`#${r.n}: ${r.source} message ${r.turn} is not the labelled turn`);
    r.text = text;
  }
  return rows;
}

/**
 * The conversation up to and including the row's turn (at most `window` messages before it), with the
 * turn's text replaced by the stored text the labels describe.
 */
export function contextOf(r: Row, window = 40): MessageLike[] {
  return contextAround(r, window, false).messages;
}

/**
 * {@link contextOf}, and with `after` the messages that follow the turn up to the person's next turn
 * (the agent's reply, which may own a mistake); `at` is the turn's index in `messages`.
 */
export function contextAround(r: Row, window = 40, after = true): { messages: MessageLike[]; at: number } {
  const messages = messagesOf(r.source);
  const i = indexOf(r);
  if (i < 0) return { messages: [{ role: 'user', content: r.text, id: r.messageId }], at: 0 };
  const before = messages.slice(Math.max(0, i - window), i);
  let end = i + 1;
  if (after) while (end < messages.length && messages[end]!.role !== 'user') end++;
  return {
    messages: [...before, { ...messages[i]!, content: r.text }, ...messages.slice(i + 1, end)],
    at: before.length,
  };
}
