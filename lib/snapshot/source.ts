/**
 * One reading of a text for everything downstream (the lesson pipeline, the snapshot, step
 * compaction): a transcript, an agent trajectory, or both, and the snapshot input built from it. The
 * CLI, the playground and the snapshot evaluation all read their inputs here, so the same text gives
 * the same messages, steps, objective and entries everywhere.
 */

import { findLinks } from '../categorise/index.js';
import {
  agentRunFormat,
  parseTrajectory,
  parseTranscript,
  type Trajectory,
  type Transcript,
} from '../transcript/index.js';
import { entriesFromMessages, entriesFromSteps, snapshotInputFrom } from './adapters.js';
import { inferRoot } from './infer-root.js';
import { objectiveFromText } from './objective.js';
import type { MemoryEntry, SnapshotInput } from './types.js';

/** What {@link readSnapshotSource} read. */
export interface SnapshotSource {
  /** `trajectory` for an agent run (SWE-agent, mini-swe-agent); `transcript` for every other format. */
  kind: 'transcript' | 'trajectory';
  /** The trajectory's format for agent runs, else the transcript's. */
  format: string;
  /** The messages; null for an agent run whose text no transcript parser reads. */
  transcript: Transcript | null;
  /** The steps of an agent run, or of a Claude Code session's tool calls; else null. */
  trajectory: Trajectory | null;
  /** Objective, memory entries and previous snapshot for `rearview/snapshot`. */
  input: SnapshotInput;
  /**
   * Where `input.root` came from: `transcript`, the folder the export records (`meta.cwd`); `paths`,
   * read from the session's paths when it records none (`inferRoot`). Absent when there is no root.
   */
  rootFrom?: 'transcript' | 'paths';
}

/**
 * A user turn long enough to state a task: a bare "ok" or "go on" before the task message must not
 * become an agent run's objective.
 */
const MIN_OBJECTIVE_CHARS = 8;

/**
 * Reads `text` in any format `rearview/transcript` accepts. An agent run is read as a trajectory (its
 * steps are the entries; the objective is its first real user turn, else its id) and, where a
 * transcript parser reads it too, as messages; any other text is read as a transcript (a Claude Code
 * session also as the trajectory of its tool calls). Throws the parser's typed, located error.
 *
 * @example
 * ```ts
 * const { kind, format, transcript, trajectory, input } = readSnapshotSource(text);
 * const snapshot = deterministicSnapshot(input);
 * ```
 */
export function readSnapshotSource(text: string): SnapshotSource {
  if (agentRunFormat(text)) {
    const trajectory = parseTrajectory(text);
    let transcript: Transcript | null = null;
    try {
      transcript = parseTranscript(text);
    } catch {
      transcript = null;
    }
    const firstUser = transcript?.messages.find(
      (m) => m.role === 'user' && m.content.trim().length > MIN_OBJECTIVE_CHARS,
    );
    const objective = firstUser ? objectiveFromText(firstUser.content) : trajectory.id;
    return {
      kind: 'trajectory',
      format: trajectory.format,
      transcript,
      trajectory,
      input: snapshotInputFrom(objective, entriesFromSteps(trajectory.steps, trajectory.outcome)),
    };
  }
  const transcript = parseTranscript(text);
  let trajectory: Trajectory | null = null;
  if (transcript.format === 'claude-code-jsonl') {
    try {
      trajectory = parseTrajectory(text, { format: 'claude-code-jsonl' });
    } catch {
      trajectory = null;
    }
  }
  const cwd = transcript.meta?.cwd;
  const { objective, entries } = entriesFromMessages(transcript.messages, { root: cwd });
  // An export that records no folder: the folder its relative paths start in, when its paths say so.
  // The notes' links are read here once more than the snapshot reads them (about 1.05x the reading
  // time over the shared sessions): the folder must be known before the entries are listed.
  const root = cwd ?? inferRoot(entryLinks(entries));
  return {
    kind: 'transcript',
    format: transcript.format,
    transcript,
    trajectory,
    input: snapshotInputFrom(objective, entries, root),
    ...(root === undefined
      ? {}
      : { rootFrom: cwd === undefined ? ('paths' as const) : ('transcript' as const) }),
  };
}

/** The links of a session's entries: a tool call's path as it is, the links a note's text holds. */
function* entryLinks(entries: readonly MemoryEntry[]): Generator<string> {
  for (const e of entries) {
    const value = typeof e.value === 'string' ? e.value : '';
    if (e.scope === 'evidence') yield value;
    else yield* findLinks(value);
  }
}
