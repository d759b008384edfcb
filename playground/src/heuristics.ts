/**
 * Shapes and helpers of the playground's insights. The insights themselves come from the library's
 * lesson pipeline (`lessons` of rearview/session, called in analyze.ts): corrections, preferences,
 * friction and approvals in user turns (markers editable in the Tune panel), and one failure lesson per
 * tool and error class from a transcript's failed tool results or a trajectory's failed steps — the
 * same insights the CLI, the session facade and the edge examples give for the same file.
 */
import { DEFAULT_MARKERS as LIB_MARKERS, type MarkerSet, type ReflectionInsight } from 'rearview/heuristic';

export type Insight = ReflectionInsight;
export type Markers = MarkerSet;
export const DEFAULT_MARKERS: Markers = LIB_MARKERS;

export function truncate(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

export const stepRef = (trajectoryId: string, index: number) => `trajectory:${trajectoryId}:event:${index}`;
