/** The sheets blind readers label a notes set from (written outside the repository). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NoteRaw, NoteRow } from './sample';

/**
 * Sheets for blind readers, outside the repository: each entry of `rows` with up to three sentences
 * before and two after it in its reply (from `all`, every author's sentences in order), in `sheets`
 * files `sheet-<n>.txt` under `dir`.
 */
export function writeSheets(
  dir: string,
  rows: readonly NoteRow[],
  all: ReadonlyMap<string, readonly NoteRaw[]>,
  sheets: number,
): void {
  mkdirSync(dir, { recursive: true });
  const lines = rows.map((row) => {
    const list = all.get(row.author)!;
    const i = list.findIndex((r) => r.file === row.file && r.pos === row.pos);
    const reply = row.pos.split('#')[0];
    const same = (r: NoteRaw | undefined) =>
      r !== undefined && r.file === row.file && r.pos.split('#')[0] === reply;
    const before = list
      .slice(Math.max(0, i - 3), i)
      .filter(same)
      .map((r) => r.text);
    const after = list
      .slice(i + 1, i + 3)
      .filter(same)
      .map((r) => r.text);
    return [
      `### ${row.id}`,
      ...before.map((t) => `  (before) ${t}`),
      `>>> ${list[i]!.text}`,
      ...after.map((t) => `  (after) ${t}`),
      '',
    ].join('\n');
  });
  const per = Math.ceil(lines.length / sheets);
  for (let s = 0; s < sheets; s++)
    writeFileSync(join(dir, `sheet-${s + 1}.txt`), lines.slice(s * per, (s + 1) * per).join('\n'));
}
