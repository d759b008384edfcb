/**
 * Everything the playground computes without a model, as pure functions shared by the main thread
 * (small inputs, instant feedback) and the Web Worker (large inputs):
 *
 * - `parseInput`: detect and parse a transcript or an agent trajectory;
 * - `toSnapshotInput` (the adapter): a parsed input → memory entries, objective and previous snapshot
 *   for `rearview/snapshot` (documented in the UI's "How the snapshot input is built");
 * - `computeView`: insights, the deterministic snapshot with its trace, and the compaction steps.
 */
import { estimateTokens } from 'rearview/core';
import {
  type ActiveContextSnapshot,
  compactTrajectory,
  computeRetirements,
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  findLinks,
  isErrorLine,
  type MemoryEntry,
  type RetiredTrajectoryRecord,
  type SnapshotInput,
  type SnapshotTrace,
  snapshotJson,
} from 'rearview/snapshot';
import {
  detectTrajectoryFormat,
  type Message,
  parseTrajectory,
  parseTranscript,
  type Step,
  type Trajectory,
  type Transcript,
} from 'rearview/transcript';
import {
  DEFAULT_MARKERS,
  type Insight,
  type Markers,
  markerReflect,
  stepInsights,
  stepRef,
  truncate,
} from './heuristics';

export interface Settings {
  minSnapshotTokens: number;
  minSavingsTokens: number;
  maxCategoryItems: number;
  maxTextLength: number;
  nearDuplicateThreshold: number;
  /** AgentDiet delay, context and threshold. */
  a: number;
  b: number;
  theta: number;
  markers: Markers;
}

export const DEFAULT_SETTINGS: Settings = {
  minSnapshotTokens: 400,
  minSavingsTokens: 100,
  maxCategoryItems: 25,
  maxTextLength: 260,
  nearDuplicateThreshold: 0.6,
  a: 2,
  b: 1,
  theta: 500,
  markers: DEFAULT_MARKERS,
};

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
}

export interface Parsed {
  kind: 'transcript' | 'trajectory';
  /** The transcript format, or the trajectory format for trajectories. */
  format: string;
  transcript: Transcript | null;
  trajectory: Trajectory | null;
  input: SnapshotInput;
  chars: number;
}

export interface ParseFailure {
  message: string;
  code: string;
  format?: string;
  line?: number;
  index?: number;
}

export type ParseOutcome = { ok: true; value: Parsed } | { ok: false; error: ParseFailure };

export interface Counts {
  messages: number;
  user: number;
  assistant: number;
  toolCalls: number;
  toolErrors: number;
  ignored: number;
  skipped: number;
  steps: number | null;
  failedSteps: number | null;
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
  snapshot: SnapshotView;
  compaction: CompactionView | null;
  /** The snapshot input, for the reflected path (entries are small). */
  input: SnapshotInput;
  ms: number;
}

function failure(err: unknown): ParseFailure {
  const e = err as {
    message?: string;
    code?: string;
    format?: string;
    location?: { line?: number; index?: number };
  };
  return {
    message: String(e?.message ?? err),
    code: String(e?.code ?? 'transcript_invalid'),
    format: e?.format,
    line: e?.location?.line,
    index: e?.location?.index,
  };
}

const SENTENCE = /\n+|(?<=[.!?])\s+(?=[A-Z`"'(])/;

function sentences(text: string, max: number): string[] {
  const out: string[] = [];
  let fence = false;
  for (const raw of text.split(SENTENCE)) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      fence = !fence;
      continue;
    }
    if (fence || line.length < 12) continue;
    out.push(line.length > 300 ? `${line.slice(0, 300).replace(/\s\S*$/, '')}` : line);
    if (out.length >= max) break;
  }
  return out;
}

function objectiveOf(text: string): string {
  const pr = /<pr_description>\s*([\s\S]*?)<\/pr_description>/.exec(text);
  const issue = /ISSUE:\s*([\s\S]*?)(?:\n\s*\n|INSTRUCTIONS:|$)/.exec(text);
  const body = (pr?.[1] ?? issue?.[1] ?? text).replace(/\s+/g, ' ').trim();
  return body.length <= 240 ? body : body.slice(0, 240).replace(/\s\S*$/, '');
}

function firstErrorLine(text: string): string | undefined {
  const lines = text.split('\n');
  return (lines.find((l) => isErrorLine(l)) ?? lines.find((l) => l.trim()))?.trim().slice(0, 300);
}

/**
 * The adapter: transcript messages → memory entries. Each user or assistant message gives up to three
 * sentences (scope = its role, sourceIteration = the message's position), each failed tool result its
 * first error line (scope `observation`), each tool call the files and URLs it names (scope
 * `evidence`). The first user message is the objective.
 */
export function entriesFromMessages(messages: readonly Message[]): {
  objective: string;
  entries: MemoryEntry[];
} {
  const entries: MemoryEntry[] = [];
  let objective = '';
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (m.isError) {
        const line = firstErrorLine(m.content);
        if (line) entries.push({ scope: 'observation', key: `${m.id}.err`, value: line, sourceIteration: i });
      }
      return;
    }
    if (m.toolName) {
      findLinks(m.content)
        .slice(0, 3)
        .forEach((link, j) => {
          entries.push({ scope: 'evidence', key: `${m.id}.l${j}`, value: link, sourceIteration: i });
        });
      return;
    }
    if (m.role !== 'user' && m.role !== 'assistant') return;
    if (m.role === 'user' && !objective && m.content.trim().length > 8) objective = objectiveOf(m.content);
    sentences(m.content, 3).forEach((value, j) => {
      entries.push({ scope: m.role, key: `${m.id}.${j}`, value, sourceIteration: i });
    });
  });
  return { objective, entries };
}

/** The adapter for trajectories: each step's thought sentences and its first error line. */
export function entriesFromSteps(steps: readonly Step[]): MemoryEntry[] {
  const entries: MemoryEntry[] = [];
  for (const s of steps) {
    sentences(s.thought ?? '', 3).forEach((value, j) => {
      entries.push({ scope: 'thought', key: `s${s.index}.t${j}`, value, sourceIteration: s.index });
    });
    const err = s.error ? firstErrorLine(s.error) : undefined;
    if (err)
      entries.push({ scope: 'observation', key: `s${s.index}.err`, value: err, sourceIteration: s.index });
  }
  return entries;
}

/**
 * Builds the snapshot input. The previous snapshot (for "retired since the previous run") is the
 * deterministic snapshot of the first half of the entries with default options: the state at the
 * previous iteration boundary. It never depends on the sliders, so recorded answers stay valid.
 */
export function toSnapshotInput(objective: string, entries: MemoryEntry[]): SnapshotInput {
  const last = entries.reduce((m, e) => Math.max(m, e.sourceIteration), 0);
  const half = last / 2;
  const early = entries.filter((e) => e.sourceIteration < half);
  const previous = early.length ? deterministicSnapshot({ objective, entries: early }) : null;
  return { objective: objective || '(no objective found)', entries, previous, iteration: last + 1 };
}

/** Detects and parses; trajectories (SWE-agent, mini-swe-agent) are also read as conversations. */
export function parseInput(text: string): ParseOutcome {
  if (!text.trim()) return { ok: false, error: { message: 'The input is empty.', code: 'transcript_empty' } };
  let trajFormat: string | undefined;
  try {
    trajFormat = detectTrajectoryFormat(text);
  } catch {
    trajFormat = undefined;
  }
  try {
    if (trajFormat === 'swe-agent' || trajFormat === 'mini-swe-agent') {
      const trajectory = parseTrajectory(text);
      let transcript: Transcript | null = null;
      try {
        transcript = parseTranscript(text);
      } catch {
        transcript = null;
      }
      const firstUser = transcript?.messages.find((m) => m.role === 'user' && m.content.trim().length > 8);
      const objective = firstUser ? objectiveOf(firstUser.content) : trajectory.id;
      const input = toSnapshotInput(objective, entriesFromSteps(trajectory.steps));
      return {
        ok: true,
        value: {
          kind: 'trajectory',
          format: trajectory.format,
          transcript,
          trajectory,
          input,
          chars: text.length,
        },
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
    const { objective, entries } = entriesFromMessages(transcript.messages);
    return {
      ok: true,
      value: {
        kind: 'transcript',
        format: transcript.format,
        transcript,
        trajectory,
        input: toSnapshotInput(objective, entries),
        chars: text.length,
      },
    };
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
  return (p.transcript?.messages ?? []).map((m) => ({
    ref: `message:${m.id}`,
    role: m.role,
    label: m.toolName ? `${m.role} · ${m.toolName}` : m.role,
    preview: truncate(m.content, 600),
    isError: Boolean(m.isError),
    where: where(m.source),
  }));
}

export function countsOf(p: Parsed, text?: string): Counts {
  const ms = p.transcript?.messages ?? [];
  let user = 0;
  let assistant = 0;
  let toolCalls = 0;
  let toolErrors = 0;
  for (const m of ms) {
    if (m.toolName && m.role === 'assistant') toolCalls++;
    else if (m.role === 'user') user++;
    else if (m.role === 'assistant') assistant++;
    if (m.role === 'tool' && m.isError) toolErrors++;
  }
  const steps = p.trajectory?.steps ?? null;
  return {
    messages: ms.length,
    user,
    assistant,
    toolCalls,
    toolErrors,
    ignored: p.transcript?.ignored ?? p.trajectory?.ignored ?? 0,
    skipped: p.transcript?.skipped.length ?? 0,
    steps: steps ? steps.length : null,
    failedSteps: steps ? steps.filter((s) => s.error).length : null,
    entries: p.input.entries.length,
    chars: p.chars,
    tokens: text != null && text.length < 400_000 ? estimateTokens(text) : Math.round(p.chars / 3.6),
  };
}

export function insightsOf(p: Parsed, markers: Markers, reflect = markerReflect): Insight[] {
  if (p.kind === 'trajectory') return stepInsights(p.trajectory);
  return reflect(p.transcript?.messages ?? [], markers);
}

export function snapshotOf(p: Parsed, s: Settings): SnapshotView {
  const trace = deterministicSnapshotWithTrace(p.input, {
    maxCategoryItems: s.maxCategoryItems,
    maxTextLength: s.maxTextLength,
    nearDuplicateThreshold: s.nearDuplicateThreshold,
  });
  const previous = p.input.previous ?? null;
  return {
    trace,
    tokens: estimateTokens(snapshotJson(trace.snapshot)),
    retired: computeRetirements(previous, trace.snapshot, p.input),
    previous,
  };
}

function clipText(text: string | undefined, max = 1500): string {
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

export function computeView(p: Parsed, s: Settings, text?: string, reflect = markerReflect): View {
  const t0 = performance.now();
  const view: View = {
    kind: p.kind,
    format: p.format,
    trajectoryId: p.trajectory?.id ?? null,
    objective: p.input.objective,
    counts: countsOf(p, text),
    turns: turnsOf(p),
    insights: insightsOf(p, s.markers, reflect),
    snapshot: snapshotOf(p, s),
    compaction: compactionOf(p, s),
    input: p.input,
    ms: 0,
  };
  view.ms = performance.now() - t0;
  return view;
}
