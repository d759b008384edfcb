/** Messages between the page and the worker (worker.ts). */
import type { Step } from 'rearview/transcript';
import type { CompactionView, ParseFailure, Settings, SnapshotView, View } from './analyze';
import type { Insight } from './heuristics';

export type ToWorker =
  | { type: 'analyze'; id: number; text?: string; buffer?: ArrayBuffer; settings: Settings }
  | { type: 'settings'; id: number; settings: Settings }
  | { type: 'steps'; id: number };

export type FromWorker =
  | { type: 'progress'; id: number; phase: string; fraction: number }
  | { type: 'view'; id: number; view: View; head: string }
  | { type: 'error'; id: number; error: ParseFailure; head: string }
  | {
      type: 'update';
      id: number;
      insights?: Insight[];
      snapshot?: SnapshotView;
      compaction?: CompactionView | null;
    }
  | { type: 'steps'; id: number; steps: Step[] };
