/**
 * `npx tsx eval/heuristic/reader-acted.ts` (issue 38, "context features the formats carry: the agent's
 * previous action and its outcome"): would the reader gain from what the agent *did* between the
 * person's previous turn and this one — tool calls, a file edit that worked, a command run, a failed
 * call — beside what its reply *said* (the reader's `reply` features)? Many missed corrections read like
 * a fresh problem report ("now it is the right bar showing on top", "回到了默认问题"), and the labelling
 * rules count a report that the agent's last change fails as a correction; an edit just before such a
 * turn could be what tells the two apart.
 *
 * Design, fixed before any figure: the `strangers` rows (their transcripts record tool calls; the
 * older sets' console, ShareGPT and aider turns get no such feature), the 5 author folds of
 * reader-train.ts, the trainer's settings, no synthetic turns (as reader-probe.ts). Per turn, from the
 * messages since the person's previous turn: whether the transcript records tool calls at all; no
 * call, 1-3, 4 or more; an edit that worked (`isFileEditCall` / `isAppliedEditReport` of
 * `rearview/transcript`, the pairing of the snapshot's `editsAfter`); a shell command; a failed call;
 * the last result a failure. Variants: the reader's features (`reader`), plus those flags (`acted`),
 * plus each of the turn's first 40 words crossed with "edited" / "not edited" (`acted × words`).
 * Out-of-fold average precision and the best recall at precision 0.85 / 0.80 (a bound: the cut is
 * chosen on the scored rows), per category, on all strangers rows and on those whose transcript has
 * tool calls. Never reads `strangers-final`.
 *
 * Result (5 December 2026, 1,378 strangers rows, 1,273 with tool calls; corrections 425, friction
 * 101): corrections AP 0.640 → 0.647 (`acted`) / 0.634 (`acted × words`), recall at P 0.85 0.186 →
 * 0.212 / 0.202, at P 0.80 0.247 → 0.278 / 0.235; friction AP 0.402 → 0.375 / 0.380; approvals and
 * preferences within a point. Under a point of average precision on corrections, three lost on
 * friction, and the turn's evidence would need a new field in `rearview/heuristic` (whose entry is at
 * its size limit): not shipped. What the agent did adds little to what its reply already says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAppliedEditReport, isFileEditCall, parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';
import { foldLogits, rankingCurve } from './curve';
import { CATEGORIES } from './data';
import type { Example } from './reader-data';
import { type Features, loadPool, memoFeats } from './reader-train';
import { loadStrangers } from './strangers-data';

interface Call {
  role: string;
  content: unknown;
  toolName?: string;
  toolUseId?: string;
  isError?: boolean;
  synthetic?: unknown;
}

/** The flags of what the agent did since the person's previous turn, for the turn at `i`. */
function actedFlags(ms: readonly Call[], i: number, worked: Set<string>, answered: Set<string>): string[] {
  let calls = 0;
  let edited = false;
  let failed = false;
  let ran = false;
  let lastError: boolean | undefined;
  for (let j = i - 1; j >= 0; j--) {
    const m = ms[j]!;
    if (m.role === 'user' && m.synthetic === undefined) break;
    const text = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'tool') {
      lastError ??= m.isError === true;
      if (m.isError) failed = true;
      else if (m.toolName && isAppliedEditReport(m.toolName, text)) edited = true;
    } else if (m.role === 'assistant' && m.toolName) {
      calls++;
      const ok = m.toolUseId ? worked.has(m.toolUseId) || !answered.has(m.toolUseId) : true;
      if (ok && isFileEditCall(m.toolName, text)) edited = true;
      if (/bash|shell|command|terminal|exec/i.test(m.toolName)) ran = true;
    }
  }
  const out = ['acted:tools', calls === 0 ? 'acted:none' : calls < 4 ? 'acted:few' : 'acted:many'];
  out.push(edited ? 'acted:edited' : 'acted:not-edited');
  if (failed) out.push('acted:failed');
  if (ran) out.push('acted:ran');
  if (lastError) out.push('acted:last-failed');
  return out;
}

/** The flags of every strangers row, by example id (`s:<n>`). */
function flagsByRow(): Map<string, string[]> {
  const root = sharedDataDir();
  if (!root) throw new Error('the shared data (../shared/data) is needed');
  const bySource = new Map<string, ReturnType<typeof loadStrangers>['rows']>();
  for (const r of loadStrangers().rows) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
  const out = new Map<string, string[]>();
  for (const [source, rows] of bySource) {
    const ms = parseTranscript(readFileSync(join(root, source), 'utf8'), { lenient: true })
      .messages as Call[];
    const tools = ms.some((m) => m.role === 'tool' || (m.role === 'assistant' && m.toolName));
    const worked = new Set<string>();
    const answered = new Set<string>();
    for (const m of ms)
      if (m.role === 'tool' && m.toolUseId) {
        answered.add(m.toolUseId);
        if (!m.isError) worked.add(m.toolUseId);
      }
    for (const r of rows) out.set(`s:${r.n}`, tools ? actedFlags(ms, r.message, worked, answered) : []);
  }
  return out;
}

const { pool } = loadPool();
const flags = flagsByRow();
const firstWords = (e: Example) => (e.evidence!.text.toLowerCase().match(/[\p{L}']+/gu) ?? []).slice(0, 40);
const variants: Record<string, Features> = {
  reader: memoFeats(),
  acted: memoFeats((e) => flags.get(e.id) ?? []),
  'acted × words': memoFeats((e) => {
    const f = flags.get(e.id) ?? [];
    const crossed = f.includes('acted:edited') ? 'E' : f.includes('acted:not-edited') ? 'N' : '';
    return [...f, ...(crossed ? firstWords(e).map((w) => `acted${crossed}:${w}`) : [])];
  }),
};

for (const [name, feats] of Object.entries(variants)) {
  const z = foldLogits(pool, feats);
  for (const withTools of [false, true]) {
    const rows = pool.filter((e) => e.id.startsWith('s:') && (!withTools || flags.get(e.id)?.length));
    const cells = CATEGORIES.map((c, ci) => {
      const { positives, ap, recallAt } = rankingCurve(
        rows.map((e) => ({ s: z.get(e)![ci]!, y: e.labels.includes(c) })),
        ['0.85', '0.80'],
      );
      const at = (t: string) => recallAt[t]!.toFixed(3);
      return `${c} AP ${ap.toFixed(3)} R@P.85 ${at('0.85')} R@P.80 ${at('0.80')} (${positives})`;
    });
    console.log(`${name}, ${withTools ? 'with tool calls' : 'all'} (${rows.length}): ${cells.join(' | ')}`);
  }
}
