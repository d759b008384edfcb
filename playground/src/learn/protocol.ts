/** Messages between the Learn tab and its worker (learn-worker.ts). */
import type { MarkerSet } from 'rearview/heuristic';
import type { LearnedRule, LearnProgress, LearnResult } from 'rearview/learn';
import type { LearnedDetector } from '../scorers';
import type { DirHandle, FileHandle } from './files';

export type ToLearnWorker =
  /**
   * Either `handles`, a picked or dropped folder (or dropped files) the worker walks itself, or `port`,
   * on which the folder input's frame (or the page, for a drop read from entries) posts the `total`
   * chosen files in batches ({@link FileBatch}).
   */
  | {
      type: 'run';
      handles?: (DirHandle | FileHandle)[];
      port?: MessagePort;
      total: number;
      minSessions: number;
      /** Epoch milliseconds: only evidence from then on counts (the local midnight of the day picked). */
      since?: number;
      budget?: number;
      against?: string;
      /** A learned scorer of people's turns, imported by the worker (absent: the markers). */
      detector?: LearnedDetector;
      /** The page's marker lists (the Tune panel's; absent: the defaults). */
      markers?: MarkerSet;
    }
  | { type: 'cancel' }
  | { type: 'export'; rules: LearnedRule[]; as: 'markdown' | 'diff'; against: string };

/** Files per {@link FileBatch}: small batches keep the thread that posts them responsive. */
export const FILE_BATCH = 50;

/**
 * A batch of chosen files on the run's port, in path order; `more` until the last. `names` gives their
 * paths when the files carry none (a drop read from entries); else each is named by its
 * `webkitRelativePath`.
 */
export interface FileBatch {
  files: File[];
  names?: string[];
  more: boolean;
}

/** What the worker has been given so far: `complete` once the listing (or the last batch) is in. */
export interface LearnTotal {
  files: number;
  bytes: number;
  complete: boolean;
}

export type FromLearnWorker =
  | { type: 'progress'; progress: LearnProgress }
  | { type: 'total'; total: LearnTotal }
  | { type: 'done'; result: LearnResult }
  | { type: 'exported'; text: string }
  | { type: 'error'; message: string };
