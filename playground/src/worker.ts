/**
 * The Web Worker for large inputs: parses, runs the heuristics, builds the deterministic snapshot and
 * the compaction off the main thread, posting progress; keeps the parsed input for later slider changes.
 */
import { pickParams } from 'rearview/snapshot';
import {
  assembleView,
  compactionOf,
  countsOf,
  insightsOf,
  type Parsed,
  parseInput,
  type Settings,
  snapshotOf,
  turnsOf,
} from './analyze';
import type { FromWorker, ToWorker } from './worker-protocol';

let parsed: Parsed | null = null;
const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);

let last: Settings | null = null;
const capsKey = (s: Settings) => JSON.stringify(pickParams(s, 'caps'));

/** Recomputes only what a settings change affects, and sends only that. */
function partial(id: number, s: Settings) {
  if (!parsed) return;
  const prev = last;
  last = s;
  const markersChanged = !prev || JSON.stringify(prev.markers) !== JSON.stringify(s.markers);
  const capsChanged = !prev || capsKey(prev) !== capsKey(s);
  const aChanged = !prev || prev.a !== s.a;
  if (!markersChanged && !capsChanged && !aChanged) return;
  post({
    type: 'update',
    id,
    ...(markersChanged ? { insights: insightsOf(parsed, s.markers) } : {}),
    ...(capsChanged ? { snapshot: snapshotOf(parsed, s) } : {}),
    ...(aChanged ? { compaction: compactionOf(parsed, s) } : {}),
  });
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const msg = e.data;
  if (msg.type === 'analyze') {
    const t0 = performance.now();
    post({ type: 'progress', id: msg.id, phase: 'Reading', fraction: 0.05 });
    const text = typeof msg.text === 'string' ? msg.text : new TextDecoder().decode(msg.buffer);
    post({ type: 'progress', id: msg.id, phase: 'Parsing', fraction: 0.2 });
    const r = parseInput(text);
    if (!r.ok) {
      parsed = null;
      post({ type: 'error', id: msg.id, error: r.error, head: text.slice(0, 100_000) });
      return;
    }
    parsed = r.value;
    const s = msg.settings;
    last = s;
    post({ type: 'progress', id: msg.id, phase: 'Finding insights', fraction: 0.55 });
    const counts = countsOf(parsed);
    const turns = turnsOf(parsed);
    const insights = insightsOf(parsed, s.markers);
    post({ type: 'progress', id: msg.id, phase: 'Building the snapshot', fraction: 0.7 });
    const snapshot = snapshotOf(parsed, s);
    post({ type: 'progress', id: msg.id, phase: 'Compacting the trajectory', fraction: 0.85 });
    const compaction = compactionOf(parsed, s);
    const view = assembleView(
      parsed,
      { counts, turns, insights, snapshot, compaction },
      performance.now() - t0,
    );
    post({ type: 'view', id: msg.id, view, head: text.slice(0, 100_000) });
    return;
  }
  if (msg.type === 'settings') partial(msg.id, msg.settings);
  if (msg.type === 'steps') post({ type: 'steps', id: msg.id, steps: parsed?.trajectory?.steps ?? [] });
};
