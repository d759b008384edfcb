/**
 * `npx tsx eval/learn/authors.ts`: what `learn` proposes for each author of `../shared/data`, run on
 * that author's files alone (as the author would run `rearview learn` on their own folder): files,
 * sessions, human turns, rules proposed (default `minSessions` 2), rules with evidence from at least two
 * sessions, and the one-session candidates (`minSessions` 1). A table on stdout; `--json` prints rows.
 *
 * An author is a repository of the many-author folders (`aider/`, `specstory/`, `claude-code-jsonl-more/`,
 * `codex/`, `cline/`, `other-agents/`: the `owner+repo` prefix of each file), or the whole folder for
 * the single-author ones (`claude-code-console/`, `claude-code-jsonl/`). ShareGPT conversations (no
 * author, no coding agent) and the agent-only folders (SWE-agent, mini-swe-agent: no person typed
 * anything) are left out. The `held-out` column marks the `strangers-final` authors, whose turns no
 * reader rule, weight or threshold was chosen on (eval/heuristic/sets/strangers/README.md).
 *
 * Rules are written as `rearview learn` writes them, typos repaired with its dictionary (`--no-spelling`:
 * as typed); `--detector reader|reader-recall` reads people's turns with the learned reader, as
 * `rearview learn --detector` does.
 *
 * `--sample OUT.jsonl` writes every rule and one-session candidate of every author, with its evidence
 * references (file, line or message, the redacted quote learn keeps), for a blind judge, in a shuffled
 * order that does not group authors; `OUT.key.jsonl` beside it says which rows are held out (the judge
 * never opens it). Both quote or name third-party text: write them outside the repository.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadDictionary } from '../../cli/spelling';
import { type LearnedRule, type LearnSource, learn } from '../../lib/learn/index';
import { sharedDataDir } from '../../tools/shared/data';

const MANY = new Set(['aider', 'specstory', 'claude-code-jsonl-more', 'codex', 'cline', 'other-agents']);
const SINGLE = new Set(['claude-code-console', 'claude-code-jsonl']);
const META = /^(?:SOURCES?\.(?:jsonl|txt)|LICENSE(?:\.md)?|README\.md)$/;

const dir = sharedDataDir();
// The dictionary `rearview learn` repairs typos with (`--no-spelling`: the person's spelling).
const isWord = process.argv.includes('--no-spelling') ? undefined : await loadDictionary();
// `--detector reader|reader-recall`: people's turns read by the learned reader, as `rearview learn --detector`.
const detectorAt = process.argv.indexOf('--detector');
const DETECTOR = detectorAt > 0 ? process.argv[detectorAt + 1] : undefined;
if (DETECTOR !== undefined && DETECTOR !== 'reader' && DETECTOR !== 'reader-recall')
  throw new Error('--detector: reader or reader-recall');
const reader = DETECTOR ? await import('../../lib/heuristic-model/index') : undefined;
const scorer = reader
  ? {
      scorer: reader.readerModel,
      minScore: DETECTOR === 'reader' ? reader.READER_MIN_SCORE : reader.READER_RECALL_MIN_SCORE,
    }
  : {};
const spelling = { ...(isWord ? { isWord } : {}), ...scorer };
if (!dir) throw new Error('authors.ts needs ../shared/data');
const JSON_OUT = process.argv.includes('--json');
const sampleAt = process.argv.indexOf('--sample');
const SAMPLE = sampleAt > 0 ? process.argv[sampleAt + 1] : undefined;

/** Files under `d`, each folder's entries in name order, depth first (the CLI's order). */
function walk(d: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(d).sort()) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (!META.test(name)) out.push(p);
  }
  return out;
}

/** The author of a file (see above), or undefined for a folder that is left out. */
function authorOf(rel: string): string | undefined {
  const [folder, second] = rel.split('/');
  if (SINGLE.has(folder!)) return folder;
  if (!MANY.has(folder!) || !second) return undefined;
  return `${folder}/${second.replace(/\.md$/, '').split('#')[0]}`;
}

/** `owner/name` of the `strangers-final` authors (the labels file names each row's author). */
function heldOut(): Set<string> {
  const labels = readFileSync(
    new URL('../heuristic/sets/strangers/labels.jsonl', import.meta.url),
    'utf8',
  ).split('\n');
  const out = new Set<string>();
  for (const line of labels) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { author: string; split: string };
    if (r.split === 'strangers-final') out.add(r.author.replace('/', '+'));
  }
  return out;
}

const byAuthor = new Map<string, string[]>();
for (const p of walk(dir)) {
  const a = authorOf(relative(dir, p));
  if (!a) continue;
  const list = byAuthor.get(a) ?? [];
  list.push(p);
  byAuthor.set(a, list);
}
const finals = heldOut();
const isHeldOut = (a: string) => finals.has(a.split('/')[1] ?? '');

interface Row {
  author: string;
  heldOut: boolean;
  files: number;
  sessions: number;
  humanTurns: number;
  rules: number;
  multiSession: number;
  candidates: number;
}
const rows: Row[] = [];
const sample: object[] = [];
for (const [author, files] of [...byAuthor].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const sources = (): LearnSource[] =>
    files.map((p) => ({
      name: relative(dir, p),
      text: readFileSync(p, 'utf8'),
      modified: statSync(p).mtime,
    }));
  const strict = await learn(sources(), spelling);
  const loose = await learn(sources(), { ...spelling, minSessions: 1 });
  rows.push({
    author,
    heldOut: isHeldOut(author),
    files: strict.stats.files,
    sessions: strict.stats.sessions,
    humanTurns: strict.stats.humanTurns,
    rules: strict.rules.length,
    multiSession: strict.rules.filter((r) => r.sessions >= 2).length,
    candidates: loose.rules.length,
  });
  if (SAMPLE)
    for (const r of loose.rules as LearnedRule[])
      sample.push({
        id: `${author}#${r.id}`,
        author,
        heldOut: isHeldOut(author),
        kind: r.kind,
        rule: r.text,
        sessions: r.sessions,
        evidence: r.evidence
          .slice(0, 3)
          .map((e) => ({ file: e.session, line: e.line, message: e.message, quote: e.quote })),
      });
}

if (SAMPLE) {
  // A fixed shuffle (by a hash of the id), so that the judge meets no author's rules in a row.
  const hash = (t: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193) >>> 0;
    return h;
  };
  const rowsOut = (sample as { id: string; author: string; heldOut: boolean }[])
    .map((s, i) => ({ ...s, n: `L${String(i + 1).padStart(3, '0')}`, h: hash(s.id) }))
    .sort((a, b) => a.h - b.h);
  writeFileSync(
    SAMPLE,
    `${rowsOut.map(({ id: _, author: __, heldOut: ___, h: ____, ...rest }) => JSON.stringify(rest)).join('\n')}\n`,
  );
  writeFileSync(
    SAMPLE.replace(/\.jsonl$/, '.key.jsonl'),
    `${rowsOut.map((r) => JSON.stringify({ n: r.n, author: r.author, heldOut: r.heldOut })).join('\n')}\n`,
  );
}
if (JSON_OUT) console.log(JSON.stringify(rows, null, 1));
else {
  console.log(
    '| author | held out | files | sessions | human turns | rules | from ≥ 2 sessions | one-session candidates |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.author} | ${r.heldOut ? 'yes' : ''} | ${r.files} | ${r.sessions} | ${r.humanTurns} | ${r.rules} | ${r.multiSession} | ${r.candidates} |`,
    );
  const sum = (k: keyof Row, f: (r: Row) => boolean = () => true) =>
    rows.filter(f).reduce((s, r) => s + (r[k] as number), 0);
  for (const [name, f] of [
    ['all', () => true],
    ['held out', (r: Row) => r.heldOut],
  ] as const)
    console.log(
      `\n${name}: ${rows.filter(f).length} authors, ${sum('sessions', f)} sessions, ${sum('humanTurns', f)} human turns, ${sum('rules', f)} rules (${sum('multiSession', f)} from ≥ 2 sessions), ${sum('candidates', f)} candidates at minSessions 1; authors with a rule: ${rows.filter((r) => f(r) && r.rules > 0).length}`,
    );
  if (SAMPLE) console.error(`${sample.length} candidates written to ${SAMPLE}`);
}
