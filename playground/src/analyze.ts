/**
 * Everything the playground computes without a model, as pure functions shared by the main thread
 * (small inputs, instant feedback) and the Web Worker (large inputs):
 *
 * - `parseInput`: detect and parse a transcript or an agent trajectory;
 * - `toSnapshotInput` (the adapter): a parsed input → memory entries, objective and previous snapshot
 *   for `rearview/snapshot` (documented in the UI's "How the snapshot input is built");
 * - `computeView`: insights, the deterministic snapshot with its trace, and the compaction steps.
 */

import { compactTrajectory } from 'rearview/compress';
import { declinedCall, estimateTokens } from 'rearview/core';
import {
  type LessonsInput,
  type LessonsResult,
  lessons,
  lessonsInputOf as sessionLessonsInput,
} from 'rearview/session';
import {
  computeRetirements,
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  entriesFromSteps,
  type MemoryEntry,
  pickParams,
  readSnapshotSource,
  type SnapshotInput,
  type SnapshotMemo,
  snapshotInputFrom,
  snapshotJson,
} from 'rearview/snapshot';
import type {
  CompactionView,
  Counts,
  Parsed,
  ParseFailure,
  ParseOutcome,
  SnapshotView,
  Turn,
  View,
  ViewParts,
} from './analyze-types';
import { DEFAULT_MARKERS, type Insight, type Markers, stepRef, truncate } from './heuristics';
import type { LearnedScorer } from './scorers';
import type { Settings } from './settings';

export type {
  CompactionStepView,
  CompactionView,
  Counts,
  Parsed,
  ParseFailure,
  ParseOutcome,
  SnapshotView,
  Turn,
  View,
  ViewParts,
} from './analyze-types';
export { type LearnedDetector, type LearnedScorer, loadScorer } from './scorers';
export { DEFAULT_SETTINGS, type Settings } from './settings';

function failure(err: unknown): ParseFailure {
  const e = err as {
    message?: string;
    code?: string;
    format?: string;
    location?: { line?: number; column?: number; index?: number };
  };
  return {
    message: String(e?.message ?? err),
    code: String(e?.code ?? 'transcript_invalid'),
    format: e?.format,
    line: e?.location?.line,
    column: e?.location?.column,
    index: e?.location?.index,
  };
}

/** The transcript → snapshot adapters live in rearview/snapshot, shared with the CLI. */
export { entriesFromMessages, entriesFromSteps };
/** The previous snapshot is the deterministic snapshot of the first half of the entries. */
export const toSnapshotInput: (objective: string, entries: MemoryEntry[]) => SnapshotInput =
  snapshotInputFrom;

/** Reads `text` with the library's one reader (`readSnapshotSource`, as the CLI and the eval do). */
export function parseInput(text: string): ParseOutcome {
  if (!text.trim()) return { ok: false, error: { message: 'The input is empty.', code: 'transcript_empty' } };
  try {
    return { ok: true, value: { ...readSnapshotSource(text), chars: text.length } };
  } catch (err) {
    return { ok: false, error: failure(err) };
  }
}

function where(source: { line?: number; index?: number }): string {
  return source.line != null ? `line ${source.line}` : source.index != null ? `index ${source.index}` : '';
}

export function turnsOf(p: Parsed): Turn[] {
  if (p.kind === 'trajectory' && p.trajectory) {
    return p.trajectory.steps.map((s) => ({
      ref: stepRef(p.trajectory!.id, s.index),
      role: 'step',
      label: `Step ${s.index + 1}${s.tool ? ` · ${s.tool}` : ''}`,
      preview: truncate(
        [s.thought, s.action && `$ ${s.action}`, s.error ?? s.observation].filter(Boolean).join('\n'),
        600,
      ),
      isError: Boolean(s.error),
      where: where(s.source),
    }));
  }
  const messages = p.transcript?.messages ?? [];
  const full = policyTurns(messages);
  return messages.map((m, i) => ({
    ref: `message:${m.id}`,
    role: m.role,
    label: m.toolName ? `${m.role} · ${m.toolName}` : m.role,
    preview: truncate(m.content, 600),
    isError: Boolean(m.isError),
    where: where(m.source),
    ...(full.has(i) ? { content: m.content, ...(m.toolName ? { toolName: m.toolName } : {}) } : {}),
  }));
}

/**
 * Indices of the messages the key point policy reads (`turnContexts` of rearview/playbook): each user
 * turn a person wrote, and the last agent message before it.
 */
function policyTurns(messages: readonly { role: string; synthetic?: unknown }[]): Set<number> {
  const out = new Set<number>();
  let agent = -1;
  messages.forEach((m, i) => {
    if (m.synthetic) return;
    if (m.role === 'assistant') agent = i;
    else if (m.role === 'user') {
      out.add(i);
      if (agent >= 0) out.add(agent);
      agent = -1;
    }
  });
  return out;
}

export function countsOf(p: Parsed, text?: string): Counts {
  const ms = p.transcript?.messages ?? [];
  let user = 0;
  let assistant = 0;
  let toolCalls = 0;
  let toolErrors = 0;
  let declined = 0;
  for (const m of ms) {
    if (m.toolName && m.role === 'assistant') toolCalls++;
    else if (m.role === 'user') user++;
    else if (m.role === 'assistant') assistant++;
    // A call the person declined is their decision, not a failed tool.
    if (m.role === 'tool' && m.isError) {
      if (declinedCall(m.content)) declined++;
      else toolErrors++;
    }
  }
  const steps = p.trajectory?.steps ?? null;
  return {
    messages: ms.length,
    user,
    assistant,
    toolCalls,
    toolErrors,
    declinedCalls: declined,
    ignored: p.transcript?.ignored ?? p.trajectory?.ignored ?? 0,
    skipped: p.transcript?.skipped.length ?? 0,
    steps: steps ? steps.length : null,
    failedSteps: steps ? steps.filter((s) => s.error && !declinedCall(s.error)).length : null,
    declinedSteps: steps ? steps.filter((s) => s.error && declinedCall(s.error)).length : null,
    entries: p.input.entries.length,
    chars: p.chars,
    tokens: text != null && text.length < 400_000 ? estimateTokens(text) : Math.round(p.chars / 3.6),
  };
}

/** What the lesson pipeline reads (`lessonsInputOf` of rearview/session, as the CLI builds it). */
export function lessonsInputOf(p: Parsed): LessonsInput {
  return sessionLessonsInput(p);
}

/**
 * The library's lesson pipeline (`lessons` of rearview/session, as the CLI, the session facade and the
 * edge examples run it): user-turn insights with the Tune panel's markers (and a learned scorer with
 * its thresholds when given), one failure lesson per tool and error class, and one key point per lesson.
 */
export function lessonsOfParsed(
  p: Parsed,
  markers: Markers = DEFAULT_MARKERS,
  learned?: LearnedScorer,
  isWord?: (word: string) => boolean,
): LessonsResult {
  return lessons(lessonsInputOf(p), { markers, ...learned, ...(isWord ? { isWord } : {}) });
}

/**
 * The insights and the key points of a parsed input, from one run of the lesson pipeline; with
 * `isWord` (spelling.ts's dictionary), typos in key points repaired as the CLI repairs them.
 */
export function lessonParts(
  p: Parsed,
  markers: Markers,
  learned?: LearnedScorer,
  isWord?: (word: string) => boolean,
): { insights: Insight[]; keyPoints: LessonsResult['proposed'] } {
  const result = lessonsOfParsed(p, markers, learned, isWord);
  return { insights: result.insights, keyPoints: result.proposed };
}

/** Whether a key point was written from a person's turn: the only kind a dictionary repairs. */
export function fromPeople(keyPoints: LessonsResult['proposed']): boolean {
  return keyPoints.some((k) => k.category === 'correction' || k.category === 'preference');
}

export function insightsOf(p: Parsed, markers: Markers, learned?: LearnedScorer): Insight[] {
  return lessonParts(p, markers, learned).insights;
}

/**
 * The deterministic snapshot of a parsed input. `memo` (the worker keeps one, for the large inputs it
 * is given) lets a slider moved over the same transcript, or an edited one, read only the texts it
 * has not read yet; the snapshot is the same without it.
 */
export function snapshotOf(p: Parsed, s: Settings, memo?: SnapshotMemo): SnapshotView {
  const trace = deterministicSnapshotWithTrace(p.input, { ...pickParams(s, 'caps'), memo });
  const previous = p.input.previous ?? null;
  return {
    trace,
    tokens: estimateTokens(snapshotJson(trace.snapshot)),
    retired: computeRetirements(previous, trace.snapshot, p.input),
    previous,
  };
}

/** At most `max` characters of a step's text, saying how much was left out. */
export function clipText(text: string | undefined, max = 1500): string {
  if (!text) return '';
  return text.length <= max
    ? text
    : `${text.slice(0, max)}\n… (${(text.length - max).toLocaleString('en-US')} more characters)`;
}

export function compactionOf(p: Parsed, s: Settings): CompactionView | null {
  const steps = p.trajectory?.steps;
  if (!steps?.length) return null;
  const r = compactTrajectory(steps, { keepRecent: s.a });
  return {
    tokensBefore: r.diagnostics.tokensBefore,
    tokensAfter: r.diagnostics.tokensAfter,
    savedPercent: r.diagnostics.savedPercent,
    steps: r.steps.map((c, i) => {
      const d = r.diagnostics.steps[i]!;
      const orig = steps[i]!;
      return {
        index: c.index,
        tool: c.tool ?? '',
        action: truncate(c.action ?? '', 160),
        tokensBefore: d.tokensBefore,
        tokensAfter: d.tokensAfter,
        rules: d.rules,
        removedLines: c.compacted?.removedLines ?? 0,
        before: c.compacted ? clipText(orig.error ?? orig.observation) : '',
        after: c.compacted ? clipText(c.error ?? c.observation) : '',
      };
    }),
  };
}

export function assembleView(p: Parsed, parts: ViewParts, ms = 0): View {
  return {
    kind: p.kind,
    format: p.format,
    trajectoryId: p.trajectory?.id ?? null,
    objective: p.input.objective,
    counts: parts.counts,
    turns: parts.turns,
    insights: parts.insights,
    keyPoints: parts.keyPoints,
    ...(parts.learned ? { learned: parts.learned } : {}),
    ...(parts.scorerError ? { scorerError: parts.scorerError } : {}),
    snapshot: parts.snapshot,
    compaction: parts.compaction,
    input: p.input,
    ...(p.rootFrom ? { rootFrom: p.rootFrom } : {}),
    ms,
  };
}

/** `scorer`: the chosen learned scorer (`await loadScorer(s.detector)`), used unless `s.detector` is the markers. */
export function computeView(p: Parsed, s: Settings, text?: string, scorer?: LearnedScorer): View {
  const t0 = performance.now();
  const by = s.detector === 'markers' || !scorer ? false : s.detector;
  const learned = by ? scorer : undefined;
  const view = assembleView(p, {
    counts: countsOf(p, text),
    turns: turnsOf(p),
    ...lessonParts(p, s.markers, learned),
    learned: by,
    snapshot: snapshotOf(p, s),
    compaction: compactionOf(p, s),
  });
  view.ms = performance.now() - t0;
  return view;
}
