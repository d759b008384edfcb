/**
 * Draws the `strangers-notes` set (issue 39): sentences of the agent's own prose (replies, plans,
 * findings, status reports) by the authors added last to ../shared/data (`specstory/`,
 * `claude-code-jsonl-more/`, `codex/`, `cline/`, `other-agents/`), none of which an earlier snapshot
 * set drew from. Files are read with `rearview/transcript` (the importer, not the categoriser):
 * agent prose = `assistant` messages that are no tool call. Code fences, `<think>`/`<thinking>`
 * blocks, HTML/XML tag lines, tables, unfenced diff lines and Cursor's tool captions are dropped, then `sentences()` of sample.ts splits the rest
 * as for every other set.
 *
 * Stratified and deterministic: each author's prose sentences, in session order, are cut into
 * POS_BINS equal stretches (`pos-1` … `pos-5`, start to end of the author's sessions); the author's
 * quota is filled round-robin over the stretches, smallest FNV-1a hash of `strangers-notes|file|pos`
 * first, so every author gives plans from the start, findings from the middle and reports from the
 * end. Texts already taken (in this set) are skipped. Then a small `cue` stratum (ids after the positional
 * ones): per author, one more sentence holding a question or hedge cue (CUE), so that open questions and
 * guesses, rare in agent prose, get a chance; score it apart from `pos-*` when a keyword-free rate is wanted. No text is stored: rows carry `sha256` and
 * `textFrom: "data"`; `loadStrangersNotes()` re-reads and checks them.
 *
 * Run once to (re)write entries.jsonl: `npx tsx eval/snapshot/sets/strangers-notes/sample.ts`.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fnv1a32 } from '../../../../lib/core/index.js';
import { type Message, parseTranscript } from '../../../../lib/transcript/index.js';
import { DATA, sentences } from '../../sample';
import { sha256Hex } from '../../sample-more';
import {
  aiderOutputAsReply,
  followupsAsText,
  keptBreaks,
  reasoningAsReply,
  withEditsJoined,
} from './earlier';

export const NOTES_ENTRIES = resolve(import.meta.dirname, 'entries.jsonl');
export const FOLDERS = ['specstory', 'claude-code-jsonl-more', 'codex', 'cline', 'other-agents'] as const;
const PER_AUTHOR = 6;
const POS_BINS = 5;
/** At most this many `cue` entries per author (one), drawn after the positional ones. */
const CUE_PER_AUTHOR = 1;
/**
 * A question or hedge cue in any of the set's languages. Used only to *choose* the small `cue` stratum
 * (so that rare questions and guesses get a chance), never to label: many matches are plans or reports.
 */
const CUE =
  /[?？]\s*$|\b(?:might|may|maybe|perhaps|probably|likely|possibly|seems?|suspect|guess|hypothes\w*|not sure|unclear|wonder\w*|could be|presumably|appears? to)\b|可能|也许|似乎|好像|大概|похоже|возможно|видимо|наверное|quizás|tal vez|parece|probablemente|talvez|provavelmente|かもしれ|おそらく|多分|아마|것 같/i;

/** A prose sentence: author (`owner/repo`), kind (source folder), file, position and text. */
export interface NoteRaw {
  author: string;
  kind: string;
  file: string;
  pos: string;
  text: string;
}

/** One row of entries.jsonl. */
export interface NoteRow {
  id: string;
  kind: string;
  stratum: string;
  author: string;
  split: 'strangers' | 'strangers-final' | 'unseen';
  file: string;
  pos: string;
  sha256: string;
  textFrom: 'data';
}

/** The author split of eval/heuristic/strangers (fixed by author name only), so both tasks keep the same authors apart. */
export const splitOf = (author: string): NoteRow['split'] =>
  fnv1a32(`strangers-final#${author}`) % 5 === 0 ? 'strangers-final' : 'strangers';

/** Diff lines of an edit an export prints unfenced (`+   code`), not prose. */
const DIFF_LINE = /^[+-](?:\s{2,}|$)|^[+]\s*\S/;
/** Cursor's tool-call captions in SpecStory exports (`Read file: x`, `Tool use: **grep**`), written by the tool, not the agent. */
const TOOL_LINE =
  /^\s*(?:Tool use:|(?:Read file|Searched (?:codebase|web)|Grep search|Listed (?:current )?directory|Edit file|Deleted file|Could not find file|Cancelled|Model (?:failed|provided))\b)/;

function prose(content: string): string {
  return content
    .replace(/```[\s\S]*?(```|$)/g, '\n')
    .replace(/<(think|thinking)>[\s\S]*?(<\/\1>|$)/g, '\n')
    .replace(/<details>[\s\S]*?(<\/details>|$)/g, '\n')
    .split('\n')
    .filter(
      (l) =>
        !/^\s*<\/?[A-Za-z][\w-]*[^>]*>\s*$/.test(l) &&
        !/^\s*\|/.test(l) &&
        !DIFF_LINE.test(l) &&
        !TOOL_LINE.test(l),
    )
    .join('\n');
}

function filesOf(folder: string): { file: string; author: string }[] {
  const src = join(DATA, folder, 'SOURCES.jsonl');
  return readFileSync(src, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { repo: string; file: string })
    .map((r) => ({ file: `${folder}/${r.file}`, author: r.repo }))
    .filter((r) => existsSync(join(DATA, r.file)) && statSync(join(DATA, r.file)).isFile())
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * Every prose sentence of one data file (under `root`, by default the shared data), in order; `pos` =
 * `messages[<index>] <message id>#<sentence index>` (ids repeat in some formats). `joinEdits` reads a
 * SpecStory export as before edits rendered in prose were calls; `earlier` rewrites the file's text
 * first, to read it as an earlier reader did (sets drawn then: {@link reasoningAsReply},
 * {@link followupsAsText}).
 */
export function notesOf(
  file: string,
  author: string,
  root: string = DATA,
  joinEdits = false,
  earlier?: (text: string) => string,
  earlierMessages?: (raw: string, messages: readonly Message[]) => Message[],
): NoteRaw[] {
  const kind = file.split('/')[0]!;
  let t: ReturnType<typeof parseTranscript>;
  let raw: string;
  try {
    raw = readFileSync(join(root, file), 'utf8');
    t = parseTranscript(earlier ? earlier(raw) : raw, { lenient: true });
  } catch {
    return [];
  }
  const out: NoteRaw[] = [];
  const read = earlierMessages ? earlierMessages(raw, t.messages) : t.messages;
  const messages = joinEdits ? withEditsJoined(read) : read;
  for (const [k, m] of messages.entries()) {
    if (m.role !== 'assistant' || m.toolName !== undefined || m.synthetic !== undefined) continue;
    sentences(prose(m.content))
      .filter((text) => !TOOL_LINE.test(text))
      .forEach((text, j) => {
        out.push({ author, kind, file, pos: `messages[${k}] ${m.id}#${j}`, text });
      });
  }
  return out;
}

/** All prose sentences of the five folders, grouped by author in file order. */
export function allNotes(): NoteRaw[] {
  return FOLDERS.filter((f) => existsSync(join(DATA, f))).flatMap((folder) =>
    filesOf(folder).flatMap((f) => notesOf(f.file, f.author)),
  );
}

/** Every author's sentences, keyed by author (`owner/repo`), each list in file and session order. */
export function notesByAuthor(): Map<string, NoteRaw[]> {
  const byAuthor = new Map<string, NoteRaw[]>();
  for (const r of allNotes()) {
    const list = byAuthor.get(r.author) ?? [];
    list.push(r);
    byAuthor.set(r.author, list);
  }
  return byAuthor;
}

/**
 * The positional strata: per author (in name order), each author's sentences cut into `bins` equal
 * stretches, `perAuthor` taken round-robin over the stretches, smallest `fnv1a32(salt|file|pos)` first,
 * skipping texts in `seen` (which it fills). Each pick keeps its stretch; per author in session order.
 */
export function drawPositional(
  byAuthor: ReadonlyMap<string, readonly NoteRaw[]>,
  o: { perAuthor: number; bins: number; salt: string; seen: Set<string> },
): { r: NoteRaw; bin: number }[] {
  const picked: { r: NoteRaw; bin: number }[] = [];
  for (const author of [...byAuthor.keys()].sort()) {
    const list = byAuthor.get(author)!;
    const bins: { r: NoteRaw; i: number; h: number }[][] = Array.from({ length: o.bins }, () => []);
    list.forEach((r, i) => {
      bins[Math.min(o.bins - 1, Math.floor((i * o.bins) / list.length))]!.push({
        r,
        i,
        h: fnv1a32(`${o.salt}|${r.file}|${r.pos}`),
      });
    });
    for (const b of bins) b.sort((x, y) => x.h - y.h || x.i - y.i);
    const chosen: { r: NoteRaw; i: number; bin: number }[] = [];
    const cursor = bins.map(() => 0);
    for (let round = 0; chosen.length < o.perAuthor && round < list.length; round++) {
      for (let b = 0; b < o.bins && chosen.length < o.perAuthor; b++) {
        while (cursor[b]! < bins[b]!.length) {
          const c = bins[b]![cursor[b]!++]!;
          if (o.seen.has(c.r.text)) continue;
          o.seen.add(c.r.text);
          chosen.push({ r: c.r, i: c.i, bin: b });
          break;
        }
      }
    }
    chosen.sort((a, b) => a.i - b.i);
    for (const c of chosen) picked.push({ r: c.r, bin: c.bin });
  }
  return picked;
}

export function drawNotes(): NoteRow[] {
  const byAuthor = notesByAuthor();
  const seen = new Set<string>();
  const picked = drawPositional(byAuthor, {
    perAuthor: PER_AUTHOR,
    bins: POS_BINS,
    salt: 'strangers-notes',
    seen,
  });
  // The `cue` stratum: per author, the smallest-hash (own salt) untaken sentence with a question or hedge cue.
  for (const author of [...byAuthor.keys()].sort()) {
    const cands = byAuthor
      .get(author)!
      .map((r, i) => ({ r, i, h: fnv1a32(`strangers-notes-cue|${r.file}|${r.pos}`) }))
      .filter((c) => CUE.test(c.r.text) && !seen.has(c.r.text))
      .sort((x, y) => x.h - y.h || x.i - y.i)
      .slice(0, CUE_PER_AUTHOR)
      .sort((x, y) => x.i - y.i);
    for (const c of cands) {
      seen.add(c.r.text);
      picked.push({ r: c.r, bin: -1 });
    }
  }
  return picked.map(({ r, bin }, j) => noteRow(`notes-${String(j + 1).padStart(3, '0')}`, r, bin));
}

/** The stored row of a drawn sentence: references and hash, no text; `bin` < 0 is the `cue` stratum. */
export function noteRow(id: string, r: NoteRaw, bin: number): NoteRow {
  return {
    id,
    kind: r.kind,
    stratum: bin < 0 ? 'cue' : `pos-${bin + 1}`,
    author: r.author,
    split: splitOf(r.author),
    file: r.file,
    pos: r.pos,
    sha256: sha256Hex(r.text),
    textFrom: 'data',
  };
}

/**
 * A later draw (`strangers-notes-2`, `-3`): `perAuthor` sentences per author of `byAuthor` over `bins`
 * stretches (see {@link drawPositional}), none of the texts in `taken`, numbered `<prefix>001`….
 */
export function drawMore(
  byAuthor: ReadonlyMap<string, readonly NoteRaw[]>,
  o: { prefix: string; salt: string; perAuthor: number; bins: number; taken: ReadonlySet<string> },
): NoteRow[] {
  const picked = drawPositional(byAuthor, {
    perAuthor: o.perAuthor,
    bins: o.bins,
    salt: o.salt,
    seen: new Set(o.taken),
  });
  return picked.map(({ r, bin }, j) => noteRow(`${o.prefix}${String(j + 1).padStart(3, '0')}`, r, bin));
}

/** Writes a draw's rows to `path` (JSON lines) and says how many. */
export function writeDraw(path: string, rows: readonly NoteRow[]): void {
  writeFileSync(path, `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${path}\n`);
}

/** A row with its text, and the earlier reading that found it when today's does not. */
export type LoadedNote = NoteRow & { text: string; readAs?: EarlierReading['name'] };

/** How a file was read before a reader change: the sentences that reading gave, for rows drawn then. */
interface EarlierReading {
  name: 'edits-joined' | 'reasoning' | 'followup-json' | 'aider-output' | 'console-breaks';
  applies: (file: string) => boolean;
  sentences: (file: string, author: string, root: string) => string[];
}

/**
 * The earlier readings, tried in order: SpecStory's edits rendered in prose before they became calls
 * (5 rows of two sets), an aider reply's reasoning block before the reader passed over it (its
 * sentences no snapshot reads now), aider's own output before a session's first prompt read as a
 * reply, a console copy's prose with the breaks the terminal made when it wrapped, a newer Cline's
 * followup as raw JSON before the reader took its question out.
 */
const EARLIER_READINGS: readonly EarlierReading[] = [
  {
    name: 'edits-joined',
    applies: () => true,
    sentences: (file, author, root) => notesOf(file, author, root, true).map((n) => n.text),
  },
  {
    name: 'reasoning',
    applies: (file) => file.startsWith('aider/'),
    sentences: (file, author, root) =>
      notesOf(file, author, root, false, reasoningAsReply).map((n) => n.text),
  },
  {
    name: 'aider-output',
    applies: (file) => file.startsWith('aider/'),
    sentences: (file, author, root) =>
      notesOf(file, author, root, false, undefined, aiderOutputAsReply).map((n) => n.text),
  },
  {
    // Console copies before the reader joined what the terminal wrapped (7 December 2026): the
    // sentences labelled then are the wrapped lines' fragments, read as they were labelled.
    name: 'console-breaks',
    applies: (file) => file.startsWith('console/'),
    sentences: (file, author, root) =>
      notesOf(file, author, root, false, undefined, keptBreaks).map((n) => n.text),
  },
  {
    name: 'followup-json',
    applies: (file) => file.startsWith('cline/'),
    sentences: (file, author, root) => notesOf(file, author, root, false, followupsAsText).map((n) => n.text),
  },
];

/**
 * The rows with their texts, re-read from `root` (by default ../shared/data) and checked by SHA-256
 * (throws on a mismatch; a row whose file is absent is left out, and said so on stderr). `lenient`
 * (copies rebuilt from the index, which may differ by a transcribed character) leaves a row whose
 * text is not found out too, and says so, instead of throwing. A row today's reading of its file lacks is
 * looked for in the {@link EARLIER_READINGS}, and carries `readAs`, the reading that found it.
 */
export function loadStrangersNotes(
  path: string = NOTES_ENTRIES,
  root: string = DATA,
  lenient = false,
): LoadedNote[] {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as NoteRow);
  const cache = new Map<
    string,
    { byPos: Map<string, string>; byHash: Map<string, string[]>; earlier: Map<string, Map<string, string>> }
  >();
  const out: LoadedNote[] = [];
  for (const r of rows) {
    if (!existsSync(join(root, r.file))) {
      process.stderr.write(`${basename(path)}: ${r.file} is absent; leaving out ${r.id}\n`);
      continue;
    }
    let texts = cache.get(r.file);
    if (!texts) {
      const notes = notesOf(r.file, r.author, root);
      const byHash = new Map<string, string[]>();
      for (const n of notes) {
        const h = sha256Hex(n.text);
        byHash.set(h, [...(byHash.get(h) ?? []), n.text]);
      }
      texts = { byPos: new Map(notes.map((n) => [n.pos, n.text])), byHash, earlier: new Map() };
      cache.set(r.file, texts);
    }
    let text = texts.byPos.get(r.pos);
    // A parser change can move a sentence to another message index (a SpecStory `Read file:` line
    // read as a call of its own): the same text, found by its hash, is still the labelled sentence.
    if (text === undefined || sha256Hex(text) !== r.sha256) text = texts.byHash.get(r.sha256)?.[0];
    // Else a reading of the file before a reader change, read only when a row needs it.
    let readAs: EarlierReading['name'] | undefined;
    for (const reading of EARLIER_READINGS) {
      if (text !== undefined) break;
      if (!reading.applies(r.file)) continue;
      let byHash = texts.earlier.get(reading.name);
      if (!byHash) {
        byHash = new Map(reading.sentences(r.file, r.author, root).map((t) => [sha256Hex(t), t]));
        texts.earlier.set(reading.name, byHash);
      }
      text = byHash.get(r.sha256);
      if (text !== undefined) readAs = reading.name;
    }
    if (text === undefined && lenient) {
      process.stderr.write(`${basename(path)}: ${r.id} not found in ${r.file}; left out\n`);
      continue;
    }
    if (text === undefined)
      throw new Error(`${r.id} (${r.file} ${r.pos}): no sentence of the file has the stored text hash`);
    out.push(readAs ? { ...r, text, readAs } : { ...r, text });
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rows = drawNotes();
  writeFileSync(NOTES_ENTRIES, `${rows.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${rows.length} entries to ${NOTES_ENTRIES}\n`);
}
