/**
 * The page's side of the worker (worker.ts): created on first use; answers to requests (steps, line
 * windows) are matched by their own ids; a view or an update whose long lists came in pieces is put
 * back together before the page sees it; a large text goes to the worker in pieces. Everything else is
 * handed to `onMessage`.
 */
import type { Step } from 'rearview/transcript';
import { putLists } from './lists';
import type { Settings } from './settings';
import type { FromWorker, LineWindow, ToWorker } from './worker-protocol';

/** What the page receives: the worker's messages, a view or an update whole again. */
export type WorkerEvent = Exclude<FromWorker, { type: 'steps' } | { type: 'lines' } | { type: 'items' }>;

/** Characters of text per message to the worker: each piece is copied in its own main-thread task. */
export const TEXT_PIECE = 500_000;

/** A new task, so the page can paint and answer input between two pieces of work. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createWorkerClient(onMessage: (m: WorkerEvent) => void) {
  let worker: Worker | undefined;
  let requestSeq = 0;
  const pendingSteps = new Map<number, (steps: Step[]) => void>();
  const pendingLines = new Map<number, (window: LineWindow) => void>();
  /** The long lists of the view or update being received (worker.ts sends them first, in pieces). */
  let lists = { id: 0, byPath: new Map<string, unknown[]>() };

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
      case 'items': {
        if (lists.id !== m.id) lists = { id: m.id, byPath: new Map() };
        const list = lists.byPath.get(m.path);
        if (list) for (const item of m.items) list.push(item);
        else lists.byPath.set(m.path, m.items);
        return;
      }
      case 'view':
      case 'update':
        if (lists.id === m.id) putLists(m.type === 'view' ? m.view : m, lists.byPath);
        lists = { id: 0, byPath: new Map() };
        onMessage(m);
        return;
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

  /**
   * Sends `text` for analysis `id` in pieces of {@link TEXT_PIECE} characters, one task each (10 MB in
   * one message was a 280 ms copy on the main thread), then asks for its analysis with the settings of
   * that moment; stops as soon as `current` says a newer input superseded it.
   */
  async function analyzeText(id: number, text: string, settings: () => Settings, current: () => boolean) {
    for (let at = 0; at < text.length; at += TEXT_PIECE) {
      if (at > 0) await nextTask();
      if (!current()) return;
      post({ type: 'text', id, text: text.slice(at, at + TEXT_PIECE) });
    }
    if (text.length > TEXT_PIECE) await nextTask();
    if (current()) post({ type: 'analyze', id, settings: settings() });
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

  return { post, analyzeText, requestSteps, requestLines };
}
