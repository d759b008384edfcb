/**
 * Draws `aider-apart-notes` (issue 39): sentences of the aider agent's replies in the aider histories of
 * ../shared/data/aider whose authors no notes set ever drew from (nine of them; six hold reply prose), a
 * source no categoriser rule, weight or threshold was written from. Same prose filter and sentence
 * splitter as `../strangers-notes/sample.ts` (imported); the author is the history.
 *
 * Deterministic, no randomness: up to PER_AUTHOR sentences per author, spread over POS_BINS equal parts
 * of the history, each part's sentences in order of `fnv1a32('aider-apart-notes|' + file + '|' + pos)`
 * (`drawPositional`). No text is stored: rows carry `sha256`; `loadStrangersNotes(AIDER_APART_ENTRIES)`
 * re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/aider-apart-notes/sample.ts`.
 */
import { resolve } from 'node:path';
import { DATA } from '../../sample';
import { aiderOutputAsReply, reasoningAsReply } from '../strangers-notes/earlier';
import {
  drawPositional,
  type NoteRaw,
  type NoteRow,
  noteRow,
  notesOf,
  writeDraw,
} from '../strangers-notes/sample';

export const AIDER_APART_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
/**
 * The aider histories of ../shared/data no notes set drew from (checked against every set's rows when
 * this set was drawn: the unit test holds the list to that).
 */
export const AIDER_APART_FILES: readonly string[] = [
  'aider/0xRickx+Kangaroo_2.2.5.md',
  'aider/123pescao+Prototipo.md',
  'aider/AReid987+aigency.md',
  'aider/Aye-basota+se-toolkit-lab-5.md',
  'aider/BartoshMaxim+TradePirates.md',
  'aider/BeehiveInnovations+zen-mcp-server.md',
  'aider/MarcVilaseca+fantasy-betting-backend.md',
  'aider/SuperKMan+stock-monitor-ai.md',
  'aider/sebbacon+ehrql_aider_demo.md',
];
const PER_AUTHOR = 60;
const POS_BINS = 4;

/**
 * Up to {@link PER_AUTHOR} sentences of the aider agent's replies per history of `files` (the author is
 * the history), over {@link POS_BINS} parts of it, in `salt`'s hash order, numbered `<prefix>001`…;
 * `earlier` and `earlierMessages` read a history as an earlier reader did (see `notesOf`).
 */
export function drawAiderReplies(
  files: readonly string[],
  o: {
    salt: string;
    prefix: string;
    earlier?: Parameters<typeof notesOf>[4];
    earlierMessages?: Parameters<typeof notesOf>[5];
  },
  root: string = DATA,
): NoteRow[] {
  const byAuthor = new Map<string, NoteRaw[]>();
  for (const file of files) {
    const author = file.slice('aider/'.length).replace(/\.md$/, '');
    const notes = notesOf(file, author, root, false, o.earlier, o.earlierMessages);
    if (notes.length) byAuthor.set(author, notes);
  }
  const picked = drawPositional(byAuthor, {
    perAuthor: PER_AUTHOR,
    bins: POS_BINS,
    salt: o.salt,
    seen: new Set(),
  });
  return picked.map(({ r, bin }, j) => ({
    ...noteRow(`${o.prefix}${String(j + 1).padStart(3, '0')}`, r, bin),
    split: 'unseen' as const,
  }));
}

export function drawAiderApart(root: string = DATA): NoteRow[] {
  // Drawn when the reader still read a reasoning block, and aider's output before a session's first
  // prompt, as reply: drawn again the same way.
  return drawAiderReplies(
    AIDER_APART_FILES,
    {
      salt: 'aider-apart-notes',
      prefix: 'aa-',
      earlier: reasoningAsReply,
      earlierMessages: aiderOutputAsReply,
    },
    root,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename))
  writeDraw(AIDER_APART_ENTRIES, drawAiderApart());
