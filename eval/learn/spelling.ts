/**
 * `npx tsx eval/learn/spelling.ts [--dir <folder>] [--sheet OUT.jsonl] [--verdicts V.jsonl]`: what `repairSpelling` (rearview/playbook) would
 * change if it ran on every person's turn of `../shared/data`, not only on the few sentences that become
 * rules: a far larger sample of its decisions than `learn` shows, for a blind judge. `--dir` reads
 * another folder of sessions instead (copies of public aider histories by authors in no folder of the
 * shared data: sets/spelling/README.md). Each turn is
 * repaired against its own session's word counts with the dictionary the CLI uses (`nspell` with
 * `dictionary-en`), as `learn` does.
 *
 * Turns not read as English (`guessLanguage` of rearview/language) are left out: rules are written
 * from English sentences only. Prints the turns read, the words the dictionary does not know, the repairs made and the words left
 * as typed, by reason. `--sheet` writes one row per repair (file, message index, the word, the repair,
 * the turn's text around it) in a hashed order for a judge who decides, from the turn, whether the
 * person meant the repair; it quotes third-party text, so write it outside the repository.
 * `--verdicts V.jsonl` (rows `{id, verdict: "right" | "wrong" | "unsure"}`) prints the judge's counts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { loadDictionary } from '../../cli/spelling';
import { fnv1a32 } from '../../lib/core/index';
import { guessLanguage } from '../../lib/language/index';
import { repairSpelling, wordCounts } from '../../lib/playbook/index';
import { parseTranscript } from '../../lib/transcript/index';
import { METADATA_FILE, sharedDataDir, walkFiles } from '../../tools/shared/data';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const dir = arg('--dir') ?? sharedDataDir();
if (!dir) throw new Error('spelling.ts needs ../shared/data (or --dir <folder>)');

const isWord = await loadDictionary();
if (!isWord) throw new Error('spelling.ts needs nspell and dictionary-en (npm install)');

interface Row {
  id: string;
  file: string;
  message: number;
  from: string;
  to: string;
  context: string;
}
const rows: Row[] = [];
let files = 0;
let turns = 0;
let unknown = 0;
let other = 0;
for (const path of walkFiles(dir, (name) => !METADATA_FILE.test(name))) {
  let messages: ReturnType<typeof parseTranscript>['messages'];
  try {
    messages = parseTranscript(readFileSync(path, 'utf8'), { lenient: true }).messages;
  } catch {
    continue;
  }
  files++;
  const counts = wordCounts(messages.map((m) => m.content));
  messages.forEach((m, i) => {
    if (m.role !== 'user' || m.synthetic) return;
    // Rules are written from English sentences only (learn's note says so): other turns are not asked.
    if (guessLanguage(m.content) !== 'en') {
      other++;
      return;
    }
    turns++;
    // Counts the unknown words the same way repairSpelling skips names: plain lower-case or capitalised.
    for (const w of m.content.match(/(?<![\w'’./\\-])[A-Za-z]{4,24}(?![\w'’/\\-])/g) ?? [])
      if ((w === w.toLowerCase() || w.slice(1) === w.slice(1).toLowerCase()) && !isWord(w)) unknown++;
    const { repairs } = repairSpelling(m.content, { isWord, counts });
    for (const r of repairs) {
      const at = m.content.indexOf(r.from);
      const context = m.content.slice(Math.max(0, at - 160), at + r.from.length + 160).replace(/\s+/g, ' ');
      const file = relative(dir, path);
      rows.push({
        id: `${fnv1a32(`${file}|${i}|${r.from}|${r.to}`)}`,
        file,
        message: i,
        from: r.from,
        to: r.to,
        context,
      });
    }
  });
}
console.log(
  `${files} files, ${turns} person turns in English (${other} others left out), ${unknown} words the dictionary does not know`,
);
console.log(`${rows.length} repairs (${new Set(rows.map((r) => `${r.from}→${r.to}`)).size} distinct)`);
const sheet = arg('--sheet');
if (sheet) {
  const shuffled = rows.slice().sort((a, b) => Number(a.id) - Number(b.id));
  writeFileSync(sheet, `${shuffled.map((r) => JSON.stringify(r)).join('\n')}\n`);
  console.log(`sheet: ${sheet}`);
}
const verdictsAt = arg('--verdicts');
if (verdictsAt) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const tally = new Map<string, number>();
  for (const line of readFileSync(verdictsAt, 'utf8').trim().split('\n')) {
    const v = JSON.parse(line) as { id: string; verdict: string };
    if (!byId.has(v.id)) continue;
    tally.set(v.verdict, (tally.get(v.verdict) ?? 0) + 1);
  }
  console.log(`verdicts: ${[...tally].map(([k, n]) => `${k} ${n}`).join(', ')}`);
}
