/**
 * `npx tsx eval/snapshot/notes-reader-context.ts [--final]` (issue 39): does where a sentence sits
 * lift the notes reader on authors it never saw? Today's categoriser reads a sentence alone; a reader
 * sees the reply around it. Context here is what a transcript gives without reading words: the
 * sentence's place in its reply (first, last, the only one; how many the reply holds), whether it is
 * a list item or follows a line ending in ":", what came after the reply (a tool call, the person, more
 * of the agent's words, nothing), and each of these crossed with the rules' answer, so that a model can
 * learn "the rules say hypothesis, but this is item 7 of a 12-sentence reply".
 *
 * Design, fixed before any figure:
 * - Pool: the strangers' notes sets 1-5 (64 authors, blind labels; sets 3-5 were scored once each and
 *   are spent), each row's context read from its source file. Five folds by
 *   `fnv1a32('notes-reader-context#' + author) % 5`; each fold predicted by a model trained on the older
 *   labelled sets (no context: their rows carry the rules' features only) plus the other four folds.
 * - Settings: `rules` (the shipped feature set) against `rules+context`, L2 in {0.01, 0.03, 0.1, 0.3},
 *   10 epochs; the setting is chosen by pooled out-of-fold accuracy. Today's rules and keywords beside.
 * - `--final`: the chosen setting (and `rules` at its best L2), trained on the older sets and the whole
 *   pool, scored once on `sharegpt-notes` (ChatGPT's replies, a source nothing was chosen on).
 *   `--write` writes that `rules` model to lib/categorise-model/weights.ts (the shipped notes reader:
 *   its `notesReader` reads a sentence alone, so a context model cannot ship through it).
 *
 * Results (5 December 2026; 12 s, each feature row built once):
 * - Pool out of fold (n 2190, hard 649; 5 rows' context not found): today's rules 79.2 / hard 48.8;
 *   keywords 60.4 / 29.3; `rules` best at L2 0.03: 79.4 / 50.2 (79.2-79.4 over the grid);
 *   `rules+context` best at L2 0.3: 79.9 / 52.1 (78.6-79.9). With `--neighbours` (the rules' answers for
 *   the sentences before and after): 78.2-79.8. Context is worth half a point where it was chosen.
 * - `sharegpt-notes`, scored once (n 342, hard 136): today 71.9 / 53.7; keywords 69.9 / 50.7; `rules`
 *   74.0 / 58.8 (right on 8 entries the rules miss, wrong on 1 they get: sign test p = 0.039);
 *   `rules+context` 72.2 / 54.4. Context does not carry to another source; the refit does, by two points.
 * - 6 December, after the rules read an expected resolution ("This should resolve the error.") as no
 *   blocker: today 79.3 / 49.2; `rules` best at L2 0.01: 79.4 / 50.5 (0.03 the same, rounded, and a
 *   little lower unrounded); the shipped weights follow the folds' choice. `sharegpt-notes`, a second look: today 71.9, `rules` 74.3 / 58.1.
 * Verdict: no context features. The `rules` model refit on the strangers' draws is shipped as the opt-in
 * notes reader (decided after the ShareGPT score; its setting was chosen on the folds before). It is not
 * the default: two points on one source, nothing on the folds, far from the issue's 88 %.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { noteFeatures } from '../../lib/categorise-model/index.js';
import { fnv1a32 } from '../../lib/core/index.js';
import { type Message, parseTranscript } from '../../lib/transcript/index.js';
import {
  type GroupedEntry,
  labelledDraw,
  loadGrouped,
  type StrangerEntry,
  strangersPool,
} from './notes-reader-data.js';
import { type IntModel, predict } from './notes-reader-model.js';
import { encodeWeights, type Row, summarise, table } from './notes-reader-report.js';
import { fitRows, fitShipped, rowOf, shippedTraining } from './notes-reader-ship.js';
import { DATA } from './sample.js';
import { keywordCategorizer, LABELS, type Label, snapshotCategorizer } from './score.js';
import { SHAREGPT_ENTRIES } from './sets/sharegpt-notes/sample.js';
import { type NoteRaw, notesOf } from './sets/strangers-notes/sample.js';

interface Entry extends StrangerEntry {
  context: string[];
}

const FINAL = process.argv.includes('--final');
/** `--write` (with `--final`): write the chosen `rules` model to lib/categorise-model/weights.ts. */
const WRITE = process.argv.includes('--write');
/** `--neighbours`: the rules' answers for the sentences before and after it, as context too (measured after the first run). */
const NEIGHBOURS = process.argv.includes('--neighbours');
const L2S = [0.01, 0.03, 0.1, 0.3];
const EPOCHS = 10;
const pct = (x: number) => (x * 100).toFixed(1);

/** Per file: its sentences by message index, and its messages. */
const files = new Map<string, { byMessage: Map<number, NoteRaw[]>; messages: readonly Message[] }>();
const messageOf = (pos: string) => Number(/^messages\[(\d+)\]/.exec(pos)?.[1] ?? -1);

function fileOf(file: string, author: string) {
  let f = files.get(file);
  if (f) return f;
  const byMessage = new Map<number, NoteRaw[]>();
  for (const n of notesOf(file, author)) {
    const k = messageOf(n.pos);
    byMessage.set(k, [...(byMessage.get(k) ?? []), n]);
  }
  const messages = parseTranscript(readFileSync(join(DATA, file), 'utf8'), { lenient: true }).messages;
  f = { byMessage, messages };
  files.set(file, f);
  return f;
}

const sizeBin = (n: number) => (n === 1 ? '1' : n <= 3 ? '3' : n <= 8 ? '8' : 'more');

/** The context features of the sentence at `pos` of `file` (none when it is not found). */
export function contextOf(file: string, author: string, pos: string, text: string): string[] {
  const f = fileOf(file, author);
  let k = messageOf(pos);
  let inMessage = f.byMessage.get(k) ?? [];
  let j = inMessage.findIndex((n) => n.pos === pos && n.text === text);
  // A reader change since the draw renumbered the messages: the same text, first place it occurs.
  if (j < 0)
    for (const [m, ns] of f.byMessage) {
      j = ns.findIndex((n) => n.text === text);
      if (j >= 0) {
        k = m;
        inMessage = ns;
        break;
      }
    }
  if (j < 0) return ['c:lost'];
  const out = [`c:size:${sizeBin(inMessage.length)}`];
  if (inMessage.length === 1) out.push('c:only');
  else if (j === 0) out.push('c:first');
  else if (j === inMessage.length - 1) out.push('c:last');
  else out.push('c:middle');
  if (j > 0 && /:\s*\**$/.test(inMessage[j - 1]!.text)) out.push('c:afterColon');
  if (NEIGHBOURS) {
    out.push(`c:prev:${j > 0 ? snapshotCategorizer(inMessage[j - 1]!.text) : 'start'}`);
    out.push(`c:after:${j + 1 < inMessage.length ? snapshotCategorizer(inMessage[j + 1]!.text) : 'end'}`);
  }
  const content = f.messages[k]?.content ?? '';
  const at = content.indexOf(text.slice(0, 40));
  if (at >= 0) {
    const lineStart = content.lastIndexOf('\n', at) + 1;
    const lead = content.slice(lineStart, at);
    if (/^\s*(?:[-*+•]|\d+[.)])\s/.test(lead)) out.push('c:item');
    if (/^\s*\d+[.)]\s/.test(lead)) out.push('c:numbered');
  }
  // What came after the reply: the agent's call, the person, more words of the agent, or nothing.
  let next = 'end';
  for (let i = k + 1; i < f.messages.length; i++) {
    const m = f.messages[i]!;
    if (m.synthetic !== undefined) continue;
    next = m.toolName !== undefined || m.role === 'tool' ? 'tool' : m.role === 'user' ? 'user' : 'agent';
    break;
  }
  out.push(`c:next:${next}`);
  return out;
}

/** Context features and their crossings with the rules' answer. */
function withRule(context: readonly string[], text: string): string[] {
  const rule = snapshotCategorizer(text);
  return context.flatMap((c) => [c, `${c}&${rule}`]);
}

const older = loadGrouped().filter((e) => !e.keptApart);
const pool: Entry[] = strangersPool().map((e) => ({
  ...e,
  context: contextOf(e.file, e.author, e.pos, e.text),
}));
const foldOf = (e: Entry) => fnv1a32(`notes-reader-context#${e.author}`) % 5;

type Setting = 'rules' | 'rules+context';
/** Each entry's feature row per setting, built once: every fold and L2 of the grid reads the same rows. */
const rows: Record<Setting, WeakMap<object, Int32Array>> = {
  rules: new WeakMap(),
  'rules+context': new WeakMap(),
};
function featuresOf(e: GroupedEntry & { context?: string[] }, s: Setting): Int32Array {
  let r = rows[s].get(e);
  if (!r) {
    r = rowOf([
      ...noteFeatures(e.text, 'rules'),
      ...(s === 'rules+context' && e.context ? withRule(e.context, e.text) : []),
    ]);
    rows[s].set(e, r);
  }
  return r;
}

function fitSetting(
  trainSet: readonly (GroupedEntry & { context?: string[] })[],
  s: Setting,
  l2: number,
): IntModel {
  return fitRows(trainSet, (e) => featuresOf(e, s), l2, EPOCHS);
}

function outOfFold(s: Setting, l2: number): Label[] {
  const pred = new Array<Label>(pool.length);
  for (let f = 0; f < 5; f++) {
    const m = fitSetting([...older, ...pool.filter((e) => foldOf(e) !== f)], s, l2);
    pool.forEach((e, i) => {
      if (foldOf(e) === f) pred[i] = LABELS[predict(m, featuresOf(e, s))]!;
    });
  }
  return pred;
}

const rowsOf = (es: readonly Entry[], pred: readonly Label[], group: (e: Entry) => string): Row[] =>
  es.map((e, i) => ({ label: e.label, pred: pred[i]!, hard: e.hard, group: group(e) }));
const byKind = (e: Entry) => e.kind;

console.log(
  `pool ${pool.length} entries of ${new Set(pool.map((e) => e.author)).size} authors; older sets ${older.length}; ` +
    `context not found for ${pool.filter((e) => e.context[0] === 'c:lost').length}`,
);
const summaries: Record<string, ReturnType<typeof summarise>> = {
  today: summarise(
    rowsOf(
      pool,
      pool.map((e) => snapshotCategorizer(e.text)),
      byKind,
    ),
  ),
  keyword: summarise(
    rowsOf(
      pool,
      pool.map((e) => keywordCategorizer(e.text)),
      byKind,
    ),
  ),
};
const best: Record<Setting, { l2: number; acc: number }> = {
  rules: { l2: 0, acc: -1 },
  'rules+context': { l2: 0, acc: -1 },
};
for (const s of ['rules', 'rules+context'] as const)
  for (const l2 of L2S) {
    const sum = summarise(rowsOf(pool, outOfFold(s, l2), byKind));
    summaries[`${s} l2 ${l2}`] = sum;
    console.log(`  ${s} l2 ${l2}: ${pct(sum.accuracy)} / hard ${pct(sum.hardAccuracy)}`);
    if (sum.accuracy > best[s].acc) best[s] = { l2, acc: sum.accuracy };
  }
const shown = [
  'today',
  'keyword',
  `rules l2 ${best.rules.l2}`,
  `rules+context l2 ${best['rules+context'].l2}`,
];
console.log('\n## pool, out of fold (by source kind)\n');
console.log(
  table(Object.fromEntries(shown.map((n) => [n, summaries[n]!])), [...new Set(pool.map(byKind))].sort()),
);

if (FINAL) {
  const test: Entry[] = labelledDraw('sharegpt-notes', SHAREGPT_ENTRIES).map((e) => ({
    ...e,
    set: 'sharegpt-notes',
    group: e.author,
    keptApart: true,
    context: contextOf(e.file, e.author, e.pos, e.text),
  }));
  const finals: Record<string, ReturnType<typeof summarise>> = {
    today: summarise(
      rowsOf(
        test,
        test.map((e) => snapshotCategorizer(e.text)),
        (e) => e.stratum,
      ),
    ),
    keyword: summarise(
      rowsOf(
        test,
        test.map((e) => keywordCategorizer(e.text)),
        (e) => e.stratum,
      ),
    ),
  };
  const today = test.map((e) => snapshotCategorizer(e.text));
  for (const s of ['rules', 'rules+context'] as const) {
    // The `rules` model is the shipped one: the same rows, order and setting as notes-reader-ship.ts.
    const m =
      s === 'rules'
        ? fitShipped(shippedTraining(), { featureSet: 'rules', l2: best[s].l2, epochs: EPOCHS })
        : fitSetting([...older, ...pool], s, best[s].l2);
    if (s === 'rules' && WRITE) {
      const file = resolve(import.meta.dirname, '../../lib/categorise-model/weights.ts');
      const n = older.length + pool.length;
      writeFileSync(file, encodeWeights(m, { featureSet: 'rules', l2: best[s].l2, epochs: EPOCHS, n }));
      console.log(`wrote ${file}: ${m.w.size} buckets`);
    }
    const pred = test.map((e) => LABELS[predict(m, featuresOf(e, s))]!);
    finals[`${s} l2 ${best[s].l2}`] = summarise(rowsOf(test, pred, (e) => e.stratum));
    // Paired with today's rules: entries only one of the two gets right (an exact sign test on them).
    const won = test.filter((e, i) => pred[i] === e.label && today[i] !== e.label).length;
    const lost = test.filter((e, i) => pred[i] !== e.label && today[i] === e.label).length;
    console.log(`${s}: right where the rules are wrong ${won}, wrong where they are right ${lost}`);
  }
  console.log(`\n## sharegpt-notes, scored once (n ${test.length})\n`);
  console.log(table(finals, ['cue', 'pos']));
}
