/**
 * Claude Code session JSONL as a trajectory: every assistant `tool_use` is a step (`tool` = the tool
 * name, `action` = its input JSON, `thought` = the assistant text since the previous step), and the
 * matching `tool_result` (paired by id through a Map) gives the observation, and the error when
 * `is_error` is set. Sidechain and non-message events are ignored, as in transcripts.
 */
import { parseClaudeCode } from '../formats/jsonl.js';
import type { ParseState } from '../formats/result.js';
import type { Prepared } from '../input.js';
import type { Sink } from '../sink.js';
import type { Message, Step } from '../types.js';

/**
 * The steps of a Claude Code session, and its session id when the events carry one.
 *
 * @example
 * ```ts
 * claudeCodeSteps({ kind: 'text', text: jsonl }, sink);
 * ```
 */
export function claudeCodeSteps(prepared: Prepared, sink: Sink): { steps: Step[]; sessionId?: string } {
  const state: ParseState = { sink, messages: [], tools: new Map(), includeSidechains: false };
  parseClaudeCode(prepared, state);
  const steps = stepsFromMessages(state.messages, sink);
  const result: { steps: Step[]; sessionId?: string } = { steps };
  const sessionId = findSessionId(prepared);
  if (sessionId !== undefined) result.sessionId = sessionId;
  return result;
}

/** The first `"sessionId":"…"` of a JSONL text (looked up in the first 64 KB only). */
function findSessionId(prepared: Prepared): string | undefined {
  if (prepared.kind === 'value') {
    const items = Array.isArray(prepared.value) ? prepared.value : [prepared.value];
    for (const item of items) {
      const id = (item as { sessionId?: unknown } | null)?.sessionId;
      if (typeof id === 'string') return id;
    }
    return undefined;
  }
  const key = '"sessionId":"';
  const head = prepared.text.length > 64 * 1024 ? prepared.text.slice(0, 64 * 1024) : prepared.text;
  const at = head.indexOf(key);
  if (at < 0) return undefined;
  const end = head.indexOf('"', at + key.length);
  return end < 0 ? undefined : head.slice(at + key.length, end);
}

/**
 * Steps from a transcript's messages: every assistant tool call is a step (`tool`, `action`, and the
 * assistant text since the previous step as `thought`); the tool result with the same id gives the
 * observation, `error` when it is marked failed, and `exitCode` where the format recorded one. Used
 * by every session format whose tool calls are messages (Claude Code, Codex, Antigravity).
 *
 * @example
 * ```ts
 * stepsFromMessages(parseTranscript(text).messages, sink);
 * ```
 */
export function stepsFromMessages(
  messages: readonly Message[],
  sink: Sink,
  exitCodes?: ReadonlyMap<Message, number>,
): Step[] {
  const steps: Step[] = [];
  const byToolUseId = new Map<string, Step>();
  let thought: string[] = [];
  for (const m of messages) {
    if (m.role === 'assistant' && m.toolName !== undefined) {
      const step: Step = { index: steps.length, tool: m.toolName, action: m.content, source: m.source };
      if (thought.length > 0) step.thought = thought.join('\n');
      thought = [];
      if (m.toolUseId !== undefined) byToolUseId.set(m.toolUseId, step);
      steps.push(step);
    } else if (m.role === 'assistant') {
      if (m.content.trim().length > 0) thought.push(m.content);
    } else if (m.role === 'tool') {
      const step = m.toolUseId === undefined ? undefined : byToolUseId.get(m.toolUseId);
      if (!step || step.observation !== undefined) {
        sink.ignore('unpaired-tool-result');
        continue;
      }
      step.observation = m.content;
      if (m.isError) step.error = m.content;
      const code = exitCodes?.get(m);
      if (code !== undefined) step.exitCode = code;
    } else {
      thought = [];
      sink.ignore(`${m.role}-message`);
    }
  }
  if (thought.length > 0) sink.ignore('assistant-text', thought.length);
  return steps;
}
