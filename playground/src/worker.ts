/**
 * The Web Worker for large inputs: holds the text (the page never renders it whole), parses, runs the
 * heuristics, builds the deterministic snapshot and the compaction off the main thread, posting
 * progress; keeps the parsed input for later slider changes, serves windows of lines to the chunked
 * editor and applies its edits. With a learned scorer chosen, the worker imports its chunk itself
 * (once); messages are handled one after the other, so an answer never interleaves with that import.
 */
import { createSnapshotMemo, pickParams } from 'rearview/snapshot';
import {
  assembleView,
  compactionOf,
  countsOf,
  fromPeople,
  lessonParts,
  loadScorer,
  type Parsed,
  parseInput,
  type Settings,
  snapshotOf,
  turnsOf,
  type View,
  type ViewParts,
} from './analyze';
import { lineSpan, lineStarts, replaceLine } from './line-index';
import { pieces, takeLists } from './lists';
import type { LearnedScorer } from './scorers';
import type { FromWorker, TextMeta, ToWorker } from './worker-protocol';

/**
 * Kept across the worker's snapshots: a slider moved over a large input, or an edit to it, reads only
 * the entry texts it has not read yet (the same snapshot, much sooner). Started over past 20,000 texts.
 */
const memo = createSnapshotMemo({ maxTexts: 20_000 });

/** The preview shows this much of the start of the input. */
const HEAD_CHARS = 4000;
let parsed: Parsed | null = null;
let text = '';
/** The pieces of the text being received, for analysis `receiving`. */
let received: string[] = [];
let receiving = 0;
let starts: Uint32Array | null = null;
const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);

let last: Settings | null = null;
const capsKey = (s: Settings) => JSON.stringify(pickParams(s, 'caps'));

const index = () => {
  starts ??= lineStarts(text);
  return starts;
};
const meta = (): TextMeta => ({ chars: text.length, lines: index().length, head: text.slice(0, HEAD_CHARS) });

type Scored = Pick<ViewParts, 'insights' | 'keyPoints' | 'learned' | 'scorerError'>;

/** The dictionary, once fetched (spelling.ts). */
let isWord: ((word: string) => boolean) | undefined;

/**
 * The lesson parts, typos in key points repaired once one is written from a person's turn (the
 * dictionary is fetched then, once per worker; later inputs are read with it at once).
 */
async function spelt(p: Parsed, markers: Settings['markers'], learned?: LearnedScorer) {
  if (isWord) return lessonParts(p, markers, learned, isWord);
  const parts = lessonParts(p, markers, learned);
  if (!fromPeople(parts.keyPoints)) return parts;
  // Imported when first needed: the dictionary's assets stay out of the worker's first load.
  isWord = await import('./spelling').then(
    (m) => m.loadDictionary(),
    () => undefined,
  );
  return isWord ? lessonParts(p, markers, learned, isWord) : parts;
}

/** The insights with the settings' markers, and the chosen learned scorer when there is one and it loads. */
async function insightsFor(p: Parsed, s: Settings): Promise<Scored> {
  if (s.detector === 'markers') return { ...(await spelt(p, s.markers)), learned: false };
  let learned: LearnedScorer;
  try {
    learned = await loadScorer(s.detector);
  } catch (err) {
    return { ...(await spelt(p, s.markers)), learned: false, scorerError: String(err) };
  }
  return { ...(await spelt(p, s.markers, learned)), learned: s.detector };
}

/** Recomputes only what a settings change affects, and sends only that. */
async function partial(id: number, s: Settings) {
  if (!parsed) return;
  const prev = last;
  last = s;
  const markersChanged =
    !prev || prev.detector !== s.detector || JSON.stringify(prev.markers) !== JSON.stringify(s.markers);
  const capsChanged = !prev || capsKey(prev) !== capsKey(s);
  const aChanged = !prev || prev.a !== s.a;
  if (!markersChanged && !capsChanged && !aChanged) return;
  const scored = markersChanged ? await insightsFor(parsed, s) : undefined;
  const update = postLists(id, {
    ...scored,
    ...(capsChanged ? { snapshot: snapshotOf(parsed, s, memo) } : {}),
    ...(aChanged ? { compaction: compactionOf(parsed, s) } : {}),
  });
  post({ type: 'update', id, ...update });
}

/** Sends the long lists of `value` in pieces (lists.ts) and returns the rest, to be sent last. */
function postLists<T extends object>(id: number, value: T): T {
  const { shell, lists } = takeLists(value);
  for (const [path, list] of lists)
    for (const items of pieces(list)) post({ type: 'items', id, path, items });
  return shell;
}

async function analyze(id: number, s: Settings) {
  const t0 = performance.now();
  post({ type: 'progress', id, phase: 'Parsing', fraction: 0.2 });
  const r = parseInput(text);
  if (!r.ok) {
    parsed = null;
    post({ type: 'error', id, error: r.error, meta: meta() });
    return;
  }
  parsed = r.value;
  last = s;
  post({ type: 'progress', id, phase: 'Finding insights', fraction: 0.55 });
  const counts = countsOf(parsed);
  const turns = turnsOf(parsed);
  const scored = await insightsFor(parsed, s);
  post({ type: 'progress', id, phase: 'Building the snapshot', fraction: 0.7 });
  const snapshot = snapshotOf(parsed, s, memo);
  post({ type: 'progress', id, phase: 'Compacting the trajectory', fraction: 0.85 });
  const compaction = compactionOf(parsed, s);
  const view = assembleView(
    parsed,
    { counts, turns, ...scored, snapshot, compaction },
    performance.now() - t0,
  );
  postView(id, view);
}

/** The view: its long lists in pieces, then the rest, which completes it. */
function postView(id: number, view: View) {
  post({ type: 'view', id, view: postLists(id, view), meta: meta() });
}

async function handle(msg: ToWorker) {
  switch (msg.type) {
    case 'text':
      if (receiving !== msg.id) received = [];
      receiving = msg.id;
      received.push(msg.text);
      return;
    case 'analyze':
      post({ type: 'progress', id: msg.id, phase: 'Reading', fraction: 0.05 });
      text = msg.file ? await msg.file.text() : receiving === msg.id ? received.join('') : '';
      received = [];
      starts = null;
      post({ type: 'meta', id: msg.id, meta: meta() });
      await analyze(msg.id, msg.settings);
      return;
    case 'edit':
      text = replaceLine(text, index(), msg.line, msg.text);
      starts = null;
      await analyze(msg.id, msg.settings);
      return;
    case 'settings':
      await partial(msg.id, msg.settings);
      return;
    case 'steps':
      post({ type: 'steps', id: msg.id, steps: parsed?.trajectory?.steps ?? [] });
      return;
    case 'lines': {
      const all = index();
      const from = Math.max(1, Math.min(msg.from, all.length));
      const to = Math.min(all.length, from + msg.count - 1);
      const lines: string[] = [];
      const lengths: number[] = [];
      for (let n = from; n <= to; n++) {
        const [a, b] = lineSpan(text, all, n);
        lines.push(text.slice(a, Math.min(b, a + msg.clip)));
        lengths.push(b - a);
      }
      post({ type: 'lines', id: msg.id, window: { from, lines, lengths, total: all.length } });
      return;
    }
    case 'clear':
      text = '';
      starts = null;
      parsed = null;
      return;
  }
}

/** One message at a time: an analysis waiting for the scorer's import finishes before the next starts. */
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent<ToWorker>) => {
  const msg = e.data;
  queue = queue
    .then(() => handle(msg))
    .catch((err: unknown) => {
      // Reported as before (an uncaught error of the worker), without stopping the queue.
      setTimeout(() => {
        throw err;
      });
    });
};
