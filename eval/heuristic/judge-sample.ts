/**
 * `npx tsx eval/heuristic/judge-sample.ts OUT.jsonl`: up to 100 key points the shipped pipeline
 * (`lessons()` of `rearview/session`, as `createRearview` proposes them) proposes from user turns of
 * authors never used to tune the standing decision or the key-point writer: first the `strangers-final`
 * authors, then the shared files of no `strangers` author (older sets, other folders). Each line is
 * `{id, keyPoint, source, line}` (`line` = the turn's line in the file, or its message index when the
 * format has no lines), redacted; no label and no score, so that a blind judge reads each key point in
 * its context. The output is not committed: it quotes third-party text. Deterministic.
 *
 * `--all-turns`: the writer (`writeKeyPoint`) over every human turn, as if the detector had flagged
 * each one: a larger sample of the writer alone, for the detector's recall limits the pipeline's.
 * `--detector reader|reader-recall`: the pipeline with the learned reader instead of the markers (its
 * training folds held every `strangers` author and the older sets, not the `strangers-final` ones).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { contentText, fnv1a32 } from '../../lib/core/index';
import { READER_MIN_SCORE, READER_RECALL_MIN_SCORE, readerModel } from '../../lib/heuristic-model/index';
import { writeKeyPoint } from '../../lib/playbook/index';
import { redactText } from '../../lib/redact/index';
import { lessons } from '../../lib/session/index';
import { parseTranscript } from '../../lib/transcript/index';

const OUT = process.argv.slice(2).find((a, i, args) => !a.startsWith('--') && args[i - 1] !== '--detector');
const ALL_TURNS = process.argv.includes('--all-turns');
/** `--detector reader|reader-recall`: the pipeline with the learned reader of `rearview/heuristic-model`, as the CLI's flag. */
const DETECTOR = process.argv[process.argv.indexOf('--detector') + 1];
const DETECTOR_OPTIONS =
  process.argv.includes('--detector') && DETECTOR === 'reader'
    ? { scorer: readerModel, minScore: READER_MIN_SCORE }
    : process.argv.includes('--detector') && DETECTOR === 'reader-recall'
      ? { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE }
      : {};
if (process.argv.includes('--detector') && !['reader', 'reader-recall'].includes(DETECTOR ?? ''))
  throw new Error('--detector: reader or reader-recall');
if (!OUT) throw new Error('usage: judge-sample.ts OUT.jsonl');
const DATA = resolve(import.meta.dirname, '../../../shared/data');
const LIMIT = 100;

interface Label {
  source: string;
  author: string;
  split: string;
}
const labels = readFileSync(resolve(import.meta.dirname, 'sets/strangers/labels.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Label);
const tuned = new Set(labels.filter((l) => l.split === 'strangers').map((l) => l.source));
const final = new Set(labels.filter((l) => l.split === 'strangers-final').map((l) => l.source));

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(?:md|jsonl|json|txt)$/.test(name) && !/^(?:README|SOURCE|LICENSE)/i.test(name)) out.push(p);
  }
  return out;
}

interface Row {
  id: string;
  keyPoint: string;
  source: string;
  line: number;
}

function keyPointsOf(path: string): Row[] {
  const source = relative(DATA, path);
  let messages: ReturnType<typeof parseTranscript>['messages'];
  try {
    ({ messages } = parseTranscript(readFileSync(path, 'utf8'), { lenient: true }));
  } catch {
    return [];
  }
  const byId = new Map(messages.map((m, i) => [m.id, { m, i }]));
  const out: Row[] = [];
  const row = (text: string, m: (typeof messages)[number], i: number): Row => {
    const line = typeof m.source?.line === 'number' ? m.source.line : i;
    return {
      id: fnv1a32(`${source}#${line}#${text}`).toString(16),
      keyPoint: redactText(text),
      source,
      line,
    };
  };
  if (ALL_TURNS) {
    messages.forEach((m, i) => {
      const text = m.role === 'user' && !m.synthetic ? contentText(m.content) : undefined;
      const k = text ? writeKeyPoint(text) : undefined;
      if (k) out.push(row(k, m, i));
    });
    return out;
  }
  for (const p of lessons({ messages }, DETECTOR_OPTIONS).proposed) {
    if (p.category === 'anti_pattern') continue; // failure lessons are not the writer's
    const ref = p.traceRefs[0] ?? '';
    const at = byId.get(ref.startsWith('message:') ? ref.slice('message:'.length) : ref);
    if (!at) continue;
    out.push(row(p.text, at.m, at.i));
  }
  return out;
}

const all = files(DATA);
const pools = [
  all.filter((f) => final.has(relative(DATA, f))),
  all.filter((f) => !final.has(relative(DATA, f)) && !tuned.has(relative(DATA, f))),
];
const picked: Row[] = [];
const seen = new Set<string>();
for (const pool of pools) {
  // Round robin over files (in a fixed, shuffled order) so that no one author fills the sample.
  const perFile = pool
    .map((f) => keyPointsOf(f))
    .filter((r) => r.length)
    .sort((a, b) => fnv1a32(a[0]!.source) - fnv1a32(b[0]!.source));
  for (let round = 0; picked.length < LIMIT && perFile.some((r) => r.length > round); round++) {
    for (const rows of perFile) {
      const r = rows[round];
      if (!r || picked.length >= LIMIT) continue;
      const key = r.keyPoint.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      picked.push(r);
    }
  }
  console.log(`after pool ${pools.indexOf(pool) + 1} (${pool.length} files): ${picked.length} key points`);
}
writeFileSync(OUT, picked.map((r) => JSON.stringify(r)).join('\n') + (picked.length ? '\n' : ''));
console.log(`wrote ${picked.length} key points to ${OUT}`);
