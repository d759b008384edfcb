/**
 * Labelled rows of console copies drawn before the console reader joined what the terminal wrapped
 * (7 December 2026) name their entry by the SHA-256 of a wrapped line's fragment. This maps such a
 * hash to today's entry of the same message that holds the fragment's words, for the sets that find
 * entries by hash (eval/snapshot/pending-rows.ts, test/unit/snapshot-*.test.ts).
 */
import { createHash } from 'node:crypto';
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
