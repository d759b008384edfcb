/**
 * Draws `foreign-notes` (issues 38 and 39): the agent's own sentences written in Chinese, Japanese,
 * Korean or Russian, by the authors of the five newer shared folders who write in them — sentences of
 * no earlier set. The snapshot reads such sentences with the language table of
 * lib/categorise/languages.ts, which no labelled non-English sentence of these authors outside the
 * `strangers-notes` draws had checked.
 *
 * A sentence counts as one of these languages when it holds two Han, kana or Hangul characters, or
 * three Cyrillic letters. Per author: `PER_AUTHOR` sentences round-robin over 4 stretches of their
 * sessions, salt `foreign-notes` (see `drawMore`), none of the texts of `strangers-notes` … `-5`.
 * Authors kept apart (scored once, after the rules are written from the others): `APART`, fixed by a
 * hash of the author's name before any sentence was read. No text is stored: rows carry `sha256`.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/foreign-notes/sample.ts`;
 * `--sheets <dir>` also writes the readers' sheets (with context) outside the repository.
 */
import { resolve } from 'node:path';
import { fnv1a32 } from '../../../../lib/core/index.js';
import { entriesOf } from '../strangers-notes/apart';
import {
  drawMore,
  loadStrangersNotes,
  type NoteRaw,
  type NoteRow,
  notesByAuthor,
  writeDraw,
} from '../strangers-notes/sample';
import { writeSheets } from '../strangers-notes/sheets';

export const FOREIGN_NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
const PER_AUTHOR = 28;

/** Two Han / kana / Hangul characters, or three Cyrillic letters. */
export const FOREIGN =
  /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af].*[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]|(?:[\u0400-\u04ff].*){3}/s;

/** The sentence's language by script: `ja` (kana), `ko`, `zh` (Han without kana), `ru`. */
export function scriptOf(text: string): 'ja' | 'ko' | 'zh' | 'ru' {
  if (/[\u3040-\u30ff]/.test(text)) return 'ja';
  if (/[\uac00-\ud7af]/.test(text)) return 'ko';
  if (/[\u4e00-\u9fff]/.test(text)) return 'zh';
  return 'ru';
}

/** Kept apart: a third of the authors by hash of their name (chosen before any sentence was read). */
export const isApart = (author: string): boolean => fnv1a32(`foreign-notes-apart#${author}`) % 3 === 0;

/** Each author's sentences in one of the languages, for authors with at least 8 of them. */
export function foreignByAuthor(): Map<string, NoteRaw[]> {
  const out = new Map<string, NoteRaw[]>();
  for (const [author, list] of notesByAuthor()) {
    const foreign = list.filter((r) => FOREIGN.test(r.text));
    if (foreign.length >= 8) out.set(author, foreign);
  }
  return out;
}

export function drawForeign(): NoteRow[] {
  const taken = new Set<string>();
  for (const n of [1, 2, 3, 4, 5]) for (const r of loadStrangersNotes(entriesOf(n))) taken.add(r.text);
  return drawMore(foreignByAuthor(), {
    prefix: 'foreign-',
    salt: 'foreign-notes',
    perAuthor: PER_AUTHOR,
    bins: 4,
    taken,
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = drawForeign();
  writeDraw(FOREIGN_NOTES_ENTRIES, rows);
  const at = process.argv.indexOf('--sheets');
  if (at > 0) writeSheets(process.argv[at + 1]!, rows, notesByAuthor(), 2);
}
