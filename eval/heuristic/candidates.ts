/**
 * What the samplers of the labelled sets share (`sample-fresh.ts`, `sample-more.ts`): a seeded
 * shuffle and the ShareGPT user turns as candidates, read with `parseTranscript`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTranscript } from '../../lib/transcript/index';

/** A user turn that may be drawn. */
export interface Candidate {
  source: string;
  line?: number;
  conversation?: string;
  turn?: number;
  messageId: string;
  firstUserTurn: boolean;
  text: string;
}

/** Fisher–Yates with the given generator (a copy; the input is not changed). */
export function shuffle<T>(xs: readonly T[], rnd: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Every non-empty user turn of the ShareGPT conversations under `data`, in file and message order. */
export function sharegptTurns(data: string): Candidate[] {
  const out: Candidate[] = [];
  const convDir = join(data, 'sharegpt/conversations');
  for (const f of readdirSync(convDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const { messages } = parseTranscript(readFileSync(join(convDir, f), 'utf8'), { lenient: true });
    let first = true;
    messages.forEach((m, i) => {
      if (m.role !== 'user' || m.content.trim() === '') return;
      out.push({
        source: `sharegpt/conversations/${f}`,
        conversation: f.replace(/\.json$/, ''),
        turn: i,
        messageId: m.id,
        firstUserTurn: first,
        text: m.content.trim().slice(0, 600),
      });
      first = false;
    });
  }
  return out;
}

/**
 * A seeded drawer over candidates: it skips every message and text in `seen` (the labelled sets) and
 * every text it already drew, so strata drawn one after the other never overlap.
 */
export function drawer(
  seen: readonly { source: string; messageId: string; text: string }[],
  rnd: () => number,
) {
  const seenKeys = new Set(seen.map((r) => `${r.source}#${r.messageId}`));
  const seenTexts = new Set(seen.map((r) => r.text));
  const fresh = (c: Candidate) => !seenKeys.has(`${c.source}#${c.messageId}`) && !seenTexts.has(c.text);
  const taken = new Set<string>();
  return (pool: Candidate[], k: number, stratum: string) =>
    shuffle(pool.filter(fresh), rnd)
      .filter((c) => {
        if (taken.has(c.text)) return false;
        taken.add(c.text);
        return true;
      })
      .slice(0, k)
      .map((c) => ({ ...c, stratum }));
}
