/**
 * Labelled rows of console copies drawn before the console reader joined what the terminal wrapped
 * (7 December 2026) name their entry by the SHA-256 of a wrapped line's fragment. This maps such a
 * hash to today's entry of the same message that holds the fragment's words, for the sets that find
 * entries by hash (eval/snapshot/pending-rows.ts, test/unit/snapshot-*.test.ts). And the two readings
 * of a copy, with the test of a judged break, for `eval/transcript/console-wrap.ts`, its test and
 * `eval/heuristic/console-rekey.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { entriesFromMessages } from '../../lib/snapshot/index.js';
import { parseTranscript } from '../../lib/transcript/index.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * A console copy's entries as labelled before the reader joined what the terminal wrapped (7 December
 * 2026), each mapped to today's entry of the same message that holds its words: the hash of the
 * fragment → the hash of today's entry. Undefined for other formats and where nothing was joined.
 *
 * @example
 * ```ts
 * keptBreakAliases(readFileSync('day-009.md', 'utf8'))?.get(row.sha256);
 * ```
 */
export function keptBreakAliases(text: string): Map<string, string> | undefined {
  let kept: ReturnType<typeof parseTranscript>;
  try {
    kept = parseTranscript(text, { keepLineBreaks: true });
  } catch {
    return undefined;
  }
  if (kept.format !== 'claude-code-console') return undefined;
  const before = entriesFromMessages(kept.messages, { root: kept.meta?.cwd }).entries;
  const now = entriesFromMessages(parseTranscript(text).messages, { root: kept.meta?.cwd }).entries;
  const today = new Set(now.map((e) => sha(String(e.value).trim())));
  const byMessage = new Map<number, string[]>();
  for (const e of now) {
    const list = byMessage.get(e.sourceIteration) ?? [];
    list.push(String(e.value));
    byMessage.set(e.sourceIteration, list);
  }
  const alias = new Map<string, string>();
  for (const e of before) {
    const key = sha(String(e.value).trim());
    if (today.has(key)) continue;
    const words = squeeze(String(e.value));
    const holder = byMessage.get(e.sourceIteration)?.find((v) => squeeze(v).includes(words));
    if (holder !== undefined) alias.set(key, sha(holder.trim()));
  }
  return alias.size > 0 ? alias : undefined;
}

/** A console copy read twice: keeping every break the terminal made, and as rearview reads it. */
export interface BothReadings {
  /** Each message's id and first line, the same in both readings. */
  ids: string[];
  lines: number[];
  /** Each message's content in the reading that keeps the breaks, and in today's. */
  kept: string[];
  joined: string[];
}

const readings = new Map<string, BothReadings>();

/**
 * The two readings of the console copy at `path` (read once per path). Throws when they differ in
 * their messages: the joins change contents only.
 *
 * @example
 * ```ts
 * const { kept, joined } = bothReadings('/data/day-001.md', 'claude-code-console');
 * ```
 */
export function bothReadings(
  path: string,
  format: 'claude-code-console' | 'gemini-cli-console',
): BothReadings {
  let r = readings.get(path);
  if (!r) {
    const raw = readFileSync(path, 'utf8');
    const kept = parseTranscript(raw, { format, lenient: true, keepLineBreaks: true }).messages;
    const joined = parseTranscript(raw, { format, lenient: true }).messages;
    if (kept.length !== joined.length || kept.some((m, i) => m.id !== joined[i]!.id))
      throw new Error(`${path}: the two readings differ in their messages`);
    r = {
      ids: kept.map((m) => m.id),
      lines: kept.map((m) => m.source?.line ?? -1),
      kept: kept.map((m) => m.content),
      joined: joined.map((m) => m.content),
    };
    readings.set(path, r);
  }
  return r;
}

/**
 * Whether today's reading joins the break between the two lines (found by their SHA-256 in the
 * reading that keeps the breaks) of the message starting at `messageLine`: undefined when the
 * message or the lines are not there. A join is with a space or without one (CJK, a cut word).
 *
 * @example
 * ```ts
 * breakJoined(bothReadings(path, 'claude-code-console'), 84, row.shaA, row.shaB); // true
 * ```
 */
export function breakJoined(
  r: BothReadings,
  messageLine: number,
  shaA: string,
  shaB: string,
): boolean | undefined {
  const i = r.lines.indexOf(messageLine);
  if (i < 0) return undefined;
  const lines = r.kept[i]!.split('\n');
  for (let k = 0; k + 1 < lines.length; k++) {
    const a = lines[k]!;
    const b = lines[k + 1]!;
    if (sha(a) !== shaA || sha(b) !== shaB) continue;
    const text = r.joined[i]!;
    return text.includes(`${a.trimEnd()} ${b.trim()}`) || text.includes(`${a.trimEnd()}${b.trim()}`);
  }
  return undefined;
}
