/** Messages between the page and the worker (worker.ts). */
import type { Step } from 'rearview/transcript';
import type { CompactionView, ParseFailure, Settings, SnapshotView, View } from './analyze';
import type { Insight } from './heuristics';

/** What the page knows of a large input that lives in the worker: its size and its start. */
export interface TextMeta {
  chars: number;
  lines: number;
  /** The first characters, for the read-only preview. */
  head: string;
}

/** A window of lines of the worker's text; long lines are clipped (`lengths` has the full sizes). */
export interface LineWindow {
  /** 1-based number of the first line. */
  from: number;
  lines: string[];
  lengths: number[];
  total: number;
}

export type ToWorker =
  /** A piece of the text of analysis `id` (a large text is sent in pieces, one task each). */
  | { type: 'text'; id: number; text: string }
  /** Analyse `file` (UTF-8, read by the worker), or else the pieces of text sent for `id`. */
  | { type: 'analyze'; id: number; file?: Blob; settings: Settings }
  | { type: 'settings'; id: number; settings: Settings }
  | { type: 'steps'; id: number }
  /** Lines `from` (1-based) to `from + count - 1`, each clipped to `clip` characters. */
  | { type: 'lines'; id: number; from: number; count: number; clip: number }
  /** Line `line` (1-based) replaced by `text` (which may hold newlines), then analysed again as `id`. */
  | { type: 'edit'; id: number; line: number; text: string; settings: Settings }
  | { type: 'clear' };

export type FromWorker =
  | { type: 'progress'; id: number; phase: string; fraction: number }
  /** The input's size and start, as soon as it is read (before the analysis). */
  | { type: 'meta'; id: number; meta: TextMeta }
  /** A piece of one of the long lists (lists.ts) of the view or update `id` that follows. */
  | { type: 'items'; id: number; path: string; items: unknown[] }
  /** The view, its long lists emptied: they came before in `items` messages. */
  | { type: 'view'; id: number; view: View; meta: TextMeta }
  | { type: 'error'; id: number; error: ParseFailure; meta: TextMeta }
  /** Its long lists (in `snapshot`, `compaction`, `insights`) came before in `items` messages. */
  | {
      type: 'update';
      id: number;
      /** With `learned` and `scorerError` as in View, whenever insights are sent. */
      insights?: Insight[];
      keyPoints?: View['keyPoints'];
      learned?: View['learned'];
      scorerError?: string;
      snapshot?: SnapshotView;
      compaction?: CompactionView | null;
    }
  | { type: 'steps'; id: number; steps: Step[] }
  | { type: 'lines'; id: number; window: LineWindow };
