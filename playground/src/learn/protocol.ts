/** Messages between the Learn tab and its worker (learn-worker.ts). */
import type { LearnedRule, LearnProgress, LearnResult } from 'rearview/learn';

export type ToLearnWorker =
  /**
   * `files` is the first batch of `total`; the rest follow in `files` messages (`more` until the last):
   * cloning thousands of File handles in one message held the page's main thread for seconds.
   */
  | {
      type: 'run';
      files: File[];
      total: number;
      more: boolean;
      minSessions: number;
      budget?: number;
      against?: string;
    }
  | { type: 'files'; files: File[]; more: boolean }
  | { type: 'cancel' }
  | { type: 'export'; rules: LearnedRule[]; as: 'markdown' | 'diff'; against: string };

export type FromLearnWorker =
  | { type: 'progress'; progress: LearnProgress }
  | { type: 'done'; result: LearnResult }
  | { type: 'exported'; text: string }
  | { type: 'error'; message: string };
