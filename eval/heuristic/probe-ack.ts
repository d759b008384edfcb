/**
 * Probe (issue 38): does the agent's next reply tell that the turn corrected it? A reply that opens by
 * owning a mistake ("You're right", "I apologize", "My mistake", "Good catch", "I see the issue") is a
 * cue in the agent's words, not the person's (in English only: an agent answering in the person's
 * language, as the Chinese sessions of claude-code-jsonl-more do, says it otherwise). Not shipped: a
 * turn's scores in `observe()` are final when the turn arrives, before the reply that would confirm it.
 *
 * `npx tsx eval/heuristic/probe-ack.ts [--dir <folder>]`: over the labelled turns of the shared data
 * (`strangers` and `strangers-final`) and, with `--dir`, both unseen sets, precision / recall of
 * corrections for the cue alone, the markers, the correction model and the reader, each alone and
 * joined with the cue (said by either). The reader's answers are out of fold (five folds by author over
 * every row here and the older sets; the shipped recipe). The cue was written before any reply of these
 * sets was read; the false cues of the first run were read afterwards, and the cue was not changed.
 *
 * Result (3 December 2026, 2,815 distinct turns, 881 corrections; 40 s). Corrections, P / R:
 * - all: the cue alone 0.882 / 0.127; markers 0.694 / 0.227 → with the cue 0.732 / 0.316; correction
 *   model 0.731 / 0.289 → 0.753 / 0.363; reader (out of fold) 0.878 / 0.163 → 0.866 / 0.258.
 * - by source, reader → reader or cue: specstory (582) 0.922 / 0.184 → 0.915 / 0.316; other-agents (134)
 *   0.840 / 0.157 → 0.788 / 0.194; aider (34) 0.600 / 0.176 → 0.583 / 0.206; claude-code-jsonl-more,
 *   codex, cline: no change; unseen-specstory (48): the cue finds 1, unchanged 0.600 / 0.063; unseen
 *   aider (12): the cue finds none.
 * - other languages (213): the cue finds 4.
 * Verdict: a strong cue where the agent's model owns its mistakes in words (SpecStory's Cursor and
 * Claude sessions of the shared data: +13 points of recall at the same precision), and almost none on
 * the 116 unseen authors or in other languages.
 *
 * Shipped (7 December 2026) as one of the reader's features, not as a marker: alone, a reply that owns
 * a mistake follows a labelled correction 0.52 of the time on the older sets' pool and 0.69 on the
 * `strangers` pool (shrunk towards 0.5; "You're right, let's also…" answers suggestions and questions
 * the labels do not call corrections), below the markers' threshold. The reader weighs it with the
 * turn's words (`TurnEvidence.acknowledged`, `ownsMistake` in lib/heuristic-model/acknowledge.ts; the
 * training rows get it from `acknowledgedBy`, strangers-data.ts): out of fold, corrections at its
 * lower thresholds 0.805 / 0.320 → 0.793 / 0.344 (`strangers`) and 0.842 / 0.444 → 0.834 / 0.538
 * (older sets). The session (`observe`, lib/session/acknowledge.ts) scores a turn again when the reply
 * comes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';
import { CATEGORIES, type Category } from './data';
import type { Example } from './reader-data';
import { unseenExamples } from './reader-more';
import { crossAuthor, loadPool, memoFeats, syntheticTraining } from './reader-train';
import { readRows } from './rows';
import { markersOnly, oldModel, type Predictor, printTables } from './strangers';
import { locateRows, type StrangerLabel } from './strangers-data';
import { UNSEEN_SETS, type UnseenSet } from './unseen';

/** The opening of a reply that owns a mistake. */
const ACK =
  /^\W*(?:you(?:'re| are) (?:absolutely |completely |totally )?(?:right|correct)|i apologi[sz]e|apologies|my (?:apologies|mistake|bad)|sorry|good catch|thanks for (?:catching|pointing)|ah,? (?:i see|you're right)|i see the (?:issue|problem)|great catch)/i;

const text = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? c.map((b: { type?: string; text?: string }) => (b?.type === 'text' ? (b.text ?? '') : '')).join(' ')
      : '';

interface Msg {
  role: string;
  content: unknown;
  synthetic?: unknown;
}

/** Per source file, the parsed messages (read once). */
const files = new Map<string, Msg[]>();
function messagesOf(root: string, source: string): Msg[] {
  let m = files.get(`${root}|${source}`);
  if (!m) {
    m = parseTranscript(readFileSync(join(root, source), 'utf8'), { lenient: true }).messages as Msg[];
    files.set(`${root}|${source}`, m);
  }
  return m;
}

/** Whether the first reply with text after message `i`, before the person's next turn, owns a mistake. */
function acknowledged(messages: readonly Msg[], i: number): boolean {
  for (let k = i + 1; k < messages.length; k++) {
    const m = messages[k]!;
    const t = text(m.content).trim();
    if (m.role === 'assistant' && t) return ACK.test(t);
    if (m.role === 'user' && !m.synthetic && t) return false;
  }
  return false;
}

/** Each row's cue, by example id, for a labelled set located under `root`. */
function cues(
  labels: readonly StrangerLabel[],
  root: string,
  id: (n: number) => string,
): Map<string, boolean> {
  const { rows } = locateRows(labels, root);
  return new Map(rows.map((r) => [id(r.n), acknowledged(messagesOf(root, r.source), r.message)]));
}

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

async function main() {
  const dir = arg('--dir');
  const { pool, strangers, final } = loadPool();
  const shared = sharedDataDir()!;
  const acked = cues(readRows<StrangerLabel>('sets/strangers/labels.jsonl'), shared, (n) => `s:${n}`);
  const unseen: Example[] = [];
  if (dir)
    for (const set of Object.keys(UNSEEN_SETS) as UnseenSet[]) {
      const rows = unseenExamples(dir, set);
      unseen.push(...rows);
      const folder = join(dir, UNSEEN_SETS[set].folder);
      for (const [k, v] of cues(
        readRows<StrangerLabel>(`sets/${set}/labels.jsonl`),
        folder,
        (n) => `${set}:s:${n}`,
      ))
        acked.set(k, v);
    }
  const scored = [...strangers, ...final, ...unseen].filter((e) => e.evidence !== undefined);
  const oof = crossAuthor(
    [...pool, ...final.filter((e) => e.evidence), ...unseen],
    memoFeats(),
    1,
    syntheticTraining(),
  );
  const none = Object.fromEntries(CATEGORIES.map((c) => [c, false])) as Record<Category, boolean>;
  const reader: Predictor = (e) => oof.get(e) ?? none;
  const ack: Predictor = (e) => ({ ...none, correction: acked.get(e.id) === true });
  const or =
    (a: Predictor, b: Predictor): Predictor =>
    (e) => {
      const x = a(e);
      const y = b(e);
      return Object.fromEntries(CATEGORIES.map((c) => [c, x[c] || y[c]])) as Record<Category, boolean>;
    };
  const predictors: Record<string, Predictor> = {
    'next reply owns a mistake': ack,
    markers: markersOnly,
    'markers or cue': or(markersOnly, ack),
    correctionModel: oldModel,
    'correctionModel or cue': or(oldModel, ack),
    reader,
    'reader or cue': or(reader, ack),
  };
  console.log(
    printTables('corrections, with the next reply as a cue', scored, predictors, {
      set: (e) => e.split,
      // An unseen copy's source is its file name: those are grouped by set above.
      source: (e) => (e.split.startsWith('unseen') ? e.split : e.source),
      lang: (e) => (e.lang === 'en' ? 'en' : 'other'),
    })
      .split('\n')
      .filter((l) => !/\| (?:preference|approval|friction) \|/.test(l))
      .join('\n'),
  );
}

if (process.argv[1]?.endsWith('probe-ack.ts')) await main();
