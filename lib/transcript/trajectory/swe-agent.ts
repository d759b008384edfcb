/**
 * SWE-agent `.traj` files: `{trajectory: [{action, observation, response, thought, state}], history,
 * info: {exit_status, submission}}`. Files that only hold `history` (some function-calling demos) are
 * read from the history: each assistant message is a step, the next tool or user message its
 * observation. SWE-agent records no exit codes, so steps carry no `error` or `exitCode`.
 */
import { ItemError, isRecord, type Sink, typeName } from '../sink.js';
import type { Step } from '../types.js';
import { contentText, firstWord } from './common.js';

/**
 * The steps of a SWE-agent trajectory value.
 *
 * @example
 * ```ts
 * sweAgentSteps({ trajectory: [{ action: 'ls\n', observation: 'a.py', thought: 'Look' }] }, sink);
 * ```
 */
export function sweAgentSteps(value: Record<string, unknown>, sink: Sink): Step[] {
  const steps: Step[] = [];
  const trajectory = value.trajectory;
  if (Array.isArray(trajectory)) {
    for (let index = 0; index < trajectory.length; index++) {
      try {
        steps.push(fromEntry(trajectory[index], index, steps.length));
      } catch (err) {
        if (err instanceof ItemError) sink.invalid(err.message, { index });
        else throw err;
      }
    }
    return steps;
  }
  const history = value.history;
  if (!Array.isArray(history)) {
    throw sink.error(`Expected a "trajectory" array (or a "history" array), got ${typeName(trajectory)}`);
  }
  let current: Step | undefined;
  for (let index = 0; index < history.length; index++) {
    const msg = history[index];
    if (!isRecord(msg) || typeof msg.role !== 'string') {
      sink.invalid(
        isRecord(msg) ? 'History message has no role' : `History item is not an object, got ${typeName(msg)}`,
        { index },
      );
      continue;
    }
    const text = contentText(msg.content);
    if (msg.role === 'assistant') {
      const call = firstToolCall(msg.tool_calls);
      const action = typeof msg.action === 'string' ? msg.action.trimEnd() : call?.args;
      const thought = typeof msg.thought === 'string' ? msg.thought : text;
      current = { index: steps.length, source: { index } };
      if (thought !== undefined) current.thought = thought;
      if (action !== undefined) current.action = action;
      const tool = call?.name ?? (action === undefined ? undefined : firstWord(action));
      if (tool !== undefined) current.tool = tool;
      steps.push(current);
    } else if (current && current.observation === undefined && (msg.role === 'tool' || msg.role === 'user')) {
      current.observation = text ?? '';
    } else {
      sink.ignore(msg.role);
    }
  }
  return steps;
}

function fromEntry(entry: unknown, index: number, stepIndex: number): Step {
  if (!isRecord(entry)) throw new ItemError(`Trajectory entry is not an object, got ${typeName(entry)}`);
  const step: Step = { index: stepIndex, source: { index } };
  const { action, observation, thought } = entry;
  if (action !== undefined && action !== null) {
    if (typeof action !== 'string')
      throw new ItemError(`Trajectory entry action must be a string, got ${typeName(action)}`);
    step.action = action.trimEnd();
    const tool = firstWord(action);
    if (tool !== undefined) step.tool = tool;
  }
  if (thought !== undefined && thought !== null) {
    if (typeof thought !== 'string')
      throw new ItemError(`Trajectory entry thought must be a string, got ${typeName(thought)}`);
    step.thought = thought;
  } else if (typeof entry.response === 'string') step.thought = entry.response;
  if (observation !== undefined && observation !== null) {
    if (typeof observation !== 'string') {
      throw new ItemError(`Trajectory entry observation must be a string, got ${typeName(observation)}`);
    }
    step.observation = observation;
  }
  if (step.action === undefined && step.observation === undefined && step.thought === undefined) {
    throw new ItemError('Trajectory entry has no action, thought or observation');
  }
  return step;
}

function firstToolCall(calls: unknown): { name: string; args?: string } | undefined {
  if (!Array.isArray(calls) || !isRecord(calls[0])) return undefined;
  const fn = calls[0].function;
  if (!isRecord(fn) || typeof fn.name !== 'string') return undefined;
  return typeof fn.arguments === 'string' ? { name: fn.name, args: fn.arguments } : { name: fn.name };
}
