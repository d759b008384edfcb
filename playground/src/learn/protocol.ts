/** Messages between the Learn tab and its worker (learn-worker.ts). */
import type { LearnedRule, LearnProgress, LearnResult } from 'rearview/learn';

export type ToLearnWorker =
  | { type: 'run'; files: File[]; minSessions: number; budget?: number; against?: string }
  | { type: 'cancel' }
  | { type: 'export'; rules: LearnedRule[]; as: 'markdown' | 'diff'; against: string };

export type FromLearnWorker =
  | { type: 'progress'; progress: LearnProgress }
  | { type: 'done'; result: LearnResult }
  | { type: 'exported'; text: string }
  | { type: 'error'; message: string };
