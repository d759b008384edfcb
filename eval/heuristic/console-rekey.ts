/**
 * `npx tsx eval/heuristic/console-rekey.ts [--fresh-console <copies>] [--write]`: moves the labelled
 * people's turns of console transcripts to the reading that joins what the terminal wrapped
 * (`parseTranscript`'s default since the console reader reads the wrap width, 7 December 2026).
 *
 * A turn the terminal wrapped was stored (old sets: its text; `fresh-console`: the SHA-256 of its
 * text) with the terminal's line breaks. The words are the same and so is the label; only the stored
 * text or hash changes. Each row is first found in the reading that keeps the breaks
 * (`keepLineBreaks: true`), checked against what is stored, then given the same message's text in
 * today's reading. Without `--write` it only counts. Sentence-level sets (the snapshot's notes) are
 * not moved: a fragment's label need not hold for the whole sentence, so those are read as labelled
 * (`EARLIER_READINGS` in eval/snapshot/sets/strangers-notes/sample.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bothReadings } from '../../tools/shared/console-breaks';
import { sharedDataDir } from '../../tools/shared/data';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const write = process.argv.includes('--write');
const at = process.argv.indexOf('--fresh-console');
const copies = at > 0 ? process.argv[at + 1] : undefined;
const here = import.meta.dirname ?? '.';

/** The copy's two readings: keeping the terminal's breaks, and today's. */
const contents = (path: string) => bothReadings(path, 'claude-code-console');

/**
 * `line` with the JSON string `from` replaced by `to`, as the rows were written (Python's
 * `json.dumps`: non-ASCII escaped), so that the rest of the row stays byte-identical.
 */
function replaceString(line: string, from: string, to: string): string {
  for (const encode of [
    (s: string) =>
      JSON.stringify(s).replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    (s: string) => JSON.stringify(s),
  ]) {
    const at = line.indexOf(encode(from));
    if (at >= 0) return line.slice(0, at) + encode(to) + line.slice(at + encode(from).length);
  }
  throw new Error(`the stored text is not in its row: ${line.slice(0, 80)}`);
}

/** Old sets: `text` is the turn trimmed and cut to 600 characters, found by `messageId`. */
function oldSets(): void {
  const data = sharedDataDir();
  if (!data) throw new Error('the shared data is needed');
  for (const set of ['tune-test', 'fresh', 'final', 'more', 'last']) {
    const file = resolve(here, 'sets', set, 'turns.jsonl');
    let lines: string[];
    try {
      lines = readFileSync(file, 'utf8').split('\n');
    } catch {
      continue;
    }
    let moved = 0;
    const out = lines.map((line) => {
      if (line.trim() === '') return line;
      const r = JSON.parse(line) as { source: string; messageId: string; text?: string };
      if (!r.source.startsWith('claude-code-console/') || r.text === undefined) return line;
      const path = join(data, r.source);
      const { ids, kept, joined } = contents(path);
      const i = ids.indexOf(r.messageId);
      const was = kept[i]?.trim().slice(0, 600);
      const now = joined[i]?.trim().slice(0, 600);
      if (was !== r.text && now === r.text) return line;
      if (was !== r.text) throw new Error(`${set} #${JSON.stringify(r).slice(0, 80)}: not the stored text`);
      if (now === was) return line;
      moved++;
      return replaceString(line, was, now!);
    });
    console.log(`${set}: ${moved} console turns move to the joined reading`);
    if (write && moved > 0) writeFileSync(file, out.join('\n'));
  }
}

/** `fresh-console`: `sha256` of the turn's trimmed text, found by it in the reading that kept the breaks. */
function freshConsole(dir: string): void {
  const file = resolve(here, 'sets/fresh-console/labels.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  let moved = 0;
  const out = lines.map((line) => {
    if (line.trim() === '') return line;
    const r = JSON.parse(line) as { source: string; sha256: string; n: number };
    const { kept, joined } = contents(join(dir, r.source));
    if (joined.some((t) => sha256(t.trim()) === r.sha256)) return line;
    const i = kept.findIndex((t) => sha256(t.trim()) === r.sha256);
    if (i < 0) throw new Error(`fresh-console #${r.n}: no turn of ${r.source} has the stored hash`);
    moved++;
    // Written as the labelled rows are: `JSON.dumps` spacing, so that unchanged rows stay byte-identical.
    return line.replace(r.sha256, sha256(joined[i]!.trim()));
  });
  console.log(`fresh-console: ${moved} turns move to the joined reading`);
  if (write && moved > 0) writeFileSync(file, out.join('\n'));
}

oldSets();
if (copies) freshConsole(join(copies, 'console'));
