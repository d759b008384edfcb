/**
 * The page's side of the worker (worker.ts): created on first use; answers to requests (steps, line
 * windows) are matched by their own ids; a view sent in parts is put back together before the page
 * sees it. Everything else is handed to `onMessage`.
 */
import type { Step } from 'rearview/transcript';
import type { View } from './analyze';
import type { FromWorker, LineWindow, ToWorker } from './worker-protocol';

/** What the page receives: the worker's messages, with a view whole again. */
export type WorkerEvent =
  | Exclude<FromWorker, { type: 'steps' } | { type: 'lines' } | { type: 'part' } | { type: 'view' }>
  | (Omit<Extract<FromWorker, { type: 'view' }>, 'view'> & { view: View });

interface Parts {
  id: number;
  turns: View['turns'];
  snapshot?: View['snapshot'];
  compaction?: View['compaction'];
  input?: View['input'];
}

export function createWorkerClient(onMessage: (m: WorkerEvent) => void) {
  let worker: Worker | undefined;
  let requestSeq = 0;
  const pendingSteps = new Map<number, (steps: Step[]) => void>();
  const pendingLines = new Map<number, (window: LineWindow) => void>();
  /** The large parts of the view being received (worker.ts sends them first, one message each). */
  let parts: Parts = { id: 0, turns: [] };

  function receive(m: FromWorker) {
    switch (m.type) {
      case 'steps':
        pendingSteps.get(m.id)?.(m.steps);
        pendingSteps.delete(m.id);
        return;
      case 'lines':
        pendingLines.get(m.id)?.(m.window);
        pendingLines.delete(m.id);
        return;
      case 'part':
        if (parts.id !== m.id) parts = { id: m.id, turns: [] };
        if (m.key === 'turns') for (const t of m.value) parts.turns.push(t);
        else if (m.key === 'snapshot') parts.snapshot = m.value;
        else if (m.key === 'compaction') parts.compaction = m.value;
        else parts.input = m.value;
        return;
      case 'view': {
        const p: Parts = parts.id === m.id ? parts : { id: m.id, turns: [] };
        parts = { id: 0, turns: [] };
        const view: View = {
          ...m.view,
          turns: p.turns,
          snapshot: p.snapshot!,
          compaction: p.compaction ?? null,
          input: p.input!,
        };
        onMessage({ ...m, view });
        return;
      }
      default:
        onMessage(m);
    }
  }

  function post(msg: ToWorker, transfer: Transferable[] = []) {
    if (!worker) {
      worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (e: MessageEvent<FromWorker>) => receive(e.data);
    }
    worker.postMessage(msg, transfer);
  }

  /** The parsed trajectory's steps (for AgentDiet on a large input). */
  function requestSteps(): Promise<Step[]> {
    return new Promise((resolve) => {
      const id = ++requestSeq;
      pendingSteps.set(id, resolve);
      post({ type: 'steps', id });
    });
  }

  /** Lines `from`… of the worker's text, each clipped to `clip` characters. */
  function requestLines(from: number, count: number, clip: number): Promise<LineWindow> {
    return new Promise((resolve) => {
      const id = ++requestSeq;
      pendingLines.set(id, resolve);
      post({ type: 'lines', id, from, count, clip });
    });
  }

  return { post, requestSteps, requestLines };
}
