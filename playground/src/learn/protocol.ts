/** Messages between the Learn tab and its worker (learn-worker.ts). */
import type { LearnProgress, LearnResult } from 'rearview/learn';

export type ToLearnWorker =
  | { type: 'run'; files: File[]; minSessions: number; budget?: number; against?: string }
  | { type: 'cancel' };

export type FromLearnWorker =
  | { type: 'progress'; progress: LearnProgress }
  | { type: 'done'; result: LearnResult }
  | { type: 'error'; message: string };
