/**
 * Heuristic insights for the playground, from `rearview/heuristic`: corrections, preferences and
 * friction in user turns (heuristicReflect, markers editable in the Tune panel), failed tool calls
 * from trajectories (reflectFromTrajectories) and from transcripts' failed tool results.
 */
import {
  heuristicReflect,
  DEFAULT_MARKERS as LIB_MARKERS,
  type MarkerSet,
  type ReflectionInsight,
  reflectFromTrajectories,
} from 'rearview/heuristic';
import type { Message, Trajectory } from 'rearview/transcript';

export type Insight = ReflectionInsight;
export type Markers = MarkerSet;
export const DEFAULT_MARKERS: Markers = LIB_MARKERS;

export function truncate(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

export const stepRef = (trajectoryId: string, index: number) => `trajectory:${trajectoryId}:event:${index}`;

/** Insights from a transcript: user turns through the library detector, plus failed tool results. */
export function markerReflect(messages: readonly Message[], markers: Markers = DEFAULT_MARKERS): Insight[] {
  const out = heuristicReflect(messages, { markers });
  for (const m of messages) {
    if (m.role !== 'tool' || !m.isError) continue;
    const tool = m.toolName ?? 'tool';
    const ref = `message:${m.id}`;
    out.push({
      fact: `Tool \`${tool}\` failed: ${truncate(m.content, 200)}`,
      recommendation: `Inspect the raw output (${ref}) before retrying \`${tool}\`.`,
      category: 'anti_pattern',
      confidence: 'high',
      tags: ['tool_failure', `tool:${tool}`],
      traceRefs: [ref],
    });
  }
  return out;
}

/**
 * One insight per failed step. The library reports failed steps of failed runs only (seed 004); the
 * playground lists them for every run, so the outcome is left out.
 */
export function stepInsights(trajectory: Trajectory | null): Insight[] {
  if (!trajectory) return [];
  return reflectFromTrajectories([{ id: trajectory.id, steps: trajectory.steps }], {
    includeUnknownOutcome: true,
  });
}
