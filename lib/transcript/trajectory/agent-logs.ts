/**
 * Codex CLI rollouts and Antigravity step logs as trajectories: the transcript is read once (tool
 * calls paired with their outputs there) and every tool call becomes a step, as for Claude Code.
 * A failed call (non-zero exit code, a failure report, an ERROR step) carries `error`, and `exitCode`
 * where the log recorded one.
 */
import { parseAntigravity } from '../formats/antigravity.js';
import { codexSessionId, parseCodex } from '../formats/codex.js';
import type { ParseState } from '../formats/result.js';
import { firstLine, type Prepared, tryJson } from '../input.js';
import { isRecord, type Sink } from '../sink.js';
import type { Step } from '../types.js';
import { stepsFromMessages } from './claude-code.js';

/**
 * The steps of a Codex rollout or an Antigravity log, and the Codex session id when it has one.
 *
 * @example
 * ```ts
 * agentLogSteps('codex', { kind: 'text', text: rollout }, sink).steps.filter((s) => s.error);
 * ```
 */
export function agentLogSteps(
  format: 'codex' | 'antigravity',
  prepared: Prepared,
  sink: Sink,
): { steps: Step[]; sessionId?: string } {
  const state: ParseState = {
    sink,
    messages: [],
    tools: new Map(),
    includeSidechains: false,
    exitCodes: new Map(),
  };
  if (format === 'codex') parseCodex(prepared, state);
  else parseAntigravity(prepared, state);
  const steps = stepsFromMessages(state.messages, sink, state.exitCodes);
  const sessionId = format === 'codex' ? firstSessionId(prepared) : undefined;
  return sessionId === undefined ? { steps } : { steps, sessionId };
}

/** The id of a rollout's first line (`session_meta`, or the older header). */
function firstSessionId(prepared: Prepared): string | undefined {
  let first: unknown;
  if (prepared.kind === 'value') {
    first = Array.isArray(prepared.value) ? prepared.value[0] : prepared.value;
  } else {
    const line = firstLine(prepared.text);
    const parsed = line ? tryJson(line.line) : undefined;
    first = parsed?.ok ? parsed.value : undefined;
  }
  return isRecord(first) ? codexSessionId(first) : undefined;
}
