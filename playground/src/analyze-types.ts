/**
 * The shapes the playground's analysis produces: the parsed input, the turn list, the counts, the
 * snapshot and compaction views and the whole View, shared by the main thread, the worker and the
 * panels (types only, so a panel importing them loads no analysis code).
 */

import type { LessonsResult } from 'rearview/session';
import type {
  ActiveContextSnapshot,
  RetiredTrajectoryRecord,
  SnapshotInput,
  SnapshotTrace,
} from 'rearview/snapshot';
import type { Trajectory, Transcript } from 'rearview/transcript';
import type { Insight } from './heuristics';
import type { Detector } from './settings';

/** A transcript message or a trajectory step, as the turn list shows it. */
export interface Turn {
  /** `message:<id>` or `trajectory:<id>:event:<index>`: what insights' traceRefs point at. */
  ref: string;
  role: string;
  label: string;
  preview: string;
  isError: boolean;
  /** Where it is in the input: `line 12`, `index 3`. */
  where: string;
  /**
   * The full text of a user turn and of the agent message just before it (what a correction
   * corrected), so key points are proposed from the same text as everywhere else; absent otherwise.
   */
  content?: string;
  toolName?: string;
}

export interface Parsed {
  kind: 'transcript' | 'trajectory';
  /** The transcript format, or the trajectory format for trajectories. */
  format: string;
  transcript: Transcript | null;
  trajectory: Trajectory | null;
  input: SnapshotInput;
  /** Where `input.root` came from (`SnapshotSource.rootFrom`). */
  rootFrom?: 'transcript' | 'paths';
  chars: number;
}

export interface ParseFailure {
  message: string;
  code: string;
  format?: string;
  line?: number;
  /** 1-based column on `line`, where a JSON text broke. */
  column?: number;
  index?: number;
}

export type ParseOutcome = { ok: true; value: Parsed } | { ok: false; error: ParseFailure };

export interface Counts {
  messages: number;
  user: number;
  assistant: number;
  toolCalls: number;
  /** Tool results that failed; a call the person declined is counted in `declinedCalls` instead. */
  toolErrors: number;
  declinedCalls: number;
  ignored: number;
  skipped: number;
  steps: number | null;
  /** Steps whose call failed; a call the person declined is counted in `declinedSteps` instead. */
  failedSteps: number | null;
  declinedSteps: number | null;
  entries: number;
  chars: number;
  tokens: number;
}

export interface CompactionStepView {
  index: number;
  tool: string;
  action: string;
  tokensBefore: number;
  tokensAfter: number;
  rules: string[];
  removedLines: number;
  before: string;
  after: string;
}

export interface CompactionView {
  tokensBefore: number;
  tokensAfter: number;
  savedPercent: number;
  steps: CompactionStepView[];
}

export interface SnapshotView {
  trace: SnapshotTrace;
  tokens: number;
  retired: RetiredTrajectoryRecord[];
  previous: ActiveContextSnapshot | null;
}

/** What the UI renders for one input; the same whether computed here or in the worker. */
export interface View {
  kind: Parsed['kind'];
  format: string;
  trajectoryId: string | null;
  objective: string;
  counts: Counts;
  turns: Turn[];
  insights: Insight[];
  /**
   * The key points the file proposes, one per lesson (`lessons` of rearview/session, near-duplicates
   * merged): the very list the CLI prints for the same file.
   */
  keyPoints: LessonsResult['proposed'];
  /** The learned scorer that read people's turns for these insights (false or absent: the markers). */
  learned?: Exclude<Detector, 'markers'> | false;
  /** Why the learned scorer could not be used (the insights are then the markers'). */
  scorerError?: string;
  snapshot: SnapshotView;
  compaction: CompactionView | null;
  /** The snapshot input, for the reflected path (entries are small). */
  input: SnapshotInput;
  /** Where `input.root` came from (`SnapshotSource.rootFrom`): the transcript's record, or its paths. */
  rootFrom?: 'transcript' | 'paths';
  ms: number;
}

/** The parts of a View computed separately (the main thread memoizes them; the worker reports progress). */
export type ViewParts = Pick<
  View,
  'counts' | 'turns' | 'insights' | 'keyPoints' | 'learned' | 'scorerError' | 'snapshot' | 'compaction'
>;
