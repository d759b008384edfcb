/**
 * The playground state's limits and shapes: when an input goes to the worker or skips the editor, where
 * the input came from, the worker's progress, a sample's manifest entry and the learned scorer's status.
 */

/** Inputs above this many characters go to the worker. */
export const LARGE_INPUT = 200_000;
/**
 * A paste or a file above this many characters skips the editor: a live textarea holding megabytes
 * froze the page for seconds and crashed the renderer at 2.9 MB.
 */
export const EDITOR_LIMIT = 100_000;

/** Where the editor should scroll to and highlight (a parse error's line and column). */
export interface Jump {
  line: number;
  column?: number;
  /** Changes on every request, so the same place can be asked for twice. */
  seq: number;
}

export type Source =
  | { kind: 'none' }
  | { kind: 'sample'; id: string }
  | { kind: 'paste' }
  | { kind: 'file'; name: string; size: number };

export interface Progress {
  phase: string;
  fraction: number;
  done: boolean;
  phases: string[];
  bytes: number;
  ms?: number;
}

export interface SampleMeta {
  id: string;
  title: string;
  format: string;
  file: string;
  description: string;
  source: string;
  licence: string;
  redactions: number;
}

/** The learned correction scorer as the Tune panel reports it (null while it is off). */
export type ScorerStatus = { kind: 'loading' } | { kind: 'on' } | { kind: 'failed'; message: string };
