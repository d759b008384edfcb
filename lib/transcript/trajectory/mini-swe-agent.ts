/**
 * mini-swe-agent `.traj.json`: `{info: {exit_status, submission}, messages: [{role, content}],
 * instance_id}`. After the system prompt and the task, each assistant message holds a THOUGHT and
 * one ```bash block (the action); the user message after it holds `<returncode>N</returncode>` and
 * `<output>…</output>` (or `<output_head>`/`<output_tail>` for long outputs). A non-zero return code
 * makes the step an error carrying the output text; a reply without a return code (format error,
 * timeout) is an error too, except the final submission output.
 */
import { isRecord, type Sink, typeName } from '../sink.js';
import type { Step } from '../types.js';
import { contentText } from './common.js';

const SUBMIT_SENTINELS = ['COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', 'MINI_SWE_AGENT_FINAL_OUTPUT'];
const FENCE = '```';

/**
 * The steps of a mini-swe-agent trajectory value.
 *
 * @example
 * ```ts
 * miniSweAgentSteps({ messages: [sys, task, { role: 'assistant', content: 'THOUGHT: look\n\n```bash\nls\n```' }, { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' }] }, sink);
 * ```
 */
export function miniSweAgentSteps(value: Record<string, unknown>, sink: Sink): Step[] {
  const messages = value.messages;
  if (!Array.isArray(messages)) throw sink.error(`Expected a "messages" array, got ${typeName(messages)}`);
  const steps: Step[] = [];
  let current: Step | undefined;
  let started = false;
  for (let index = 0; index < messages.length; index++) {
    const msg = messages[index];
    if (!isRecord(msg)) {
      sink.invalid(`Message is not an object, got ${typeName(msg)}`, { index });
      continue;
    }
    if (typeof msg.role !== 'string') {
      sink.invalid(
        msg.role === undefined
          ? 'Message has no role'
          : `Message role must be a string, got ${typeName(msg.role)}`,
        {
          index,
        },
      );
      continue;
    }
    const text = contentText(msg.content);
    if (text === undefined) {
      sink.invalid(
        `Message content must be a string or an array of text blocks, got ${typeName(msg.content)}`,
        { index },
      );
      continue;
    }
    if (msg.role === 'assistant') {
      started = true;
      current = assistantStep(text, steps.length, index);
      steps.push(current);
    } else if (
      started &&
      current &&
      current.observation === undefined &&
      (msg.role === 'user' || msg.role === 'tool')
    ) {
      applyObservation(current, text);
    } else {
      // The system prompt, the task, and anything else that is not an action/observation pair.
      sink.ignore(started ? msg.role : 'prompt');
    }
  }
  return steps;
}

function assistantStep(text: string, stepIndex: number, index: number): Step {
  const step: Step = { index: stepIndex, tool: 'bash', source: { index } };
  const open = text.indexOf(FENCE);
  const thought = stripThought(open < 0 ? text : text.slice(0, open));
  if (thought.length > 0) step.thought = thought;
  if (open >= 0) {
    let bodyStart = text.indexOf('\n', open + FENCE.length);
    if (bodyStart < 0) bodyStart = open + FENCE.length;
    else bodyStart++;
    const close = text.indexOf(FENCE, bodyStart);
    step.action = text.slice(bodyStart, close < 0 ? text.length : close).trim();
  }
  return step;
}

function stripThought(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith('THOUGHT:') ? trimmed.slice('THOUGHT:'.length).trim() : trimmed;
}

function applyObservation(step: Step, text: string): void {
  const rcOpen = text.indexOf('<returncode>');
  const rcClose = rcOpen < 0 ? -1 : text.indexOf('</returncode>', rcOpen);
  if (rcOpen < 0 || rcClose < 0) {
    step.observation = text;
    const submitted = step.action !== undefined && SUBMIT_SENTINELS.some((s) => step.action!.includes(s));
    if (!submitted) step.error = text;
    return;
  }
  const code = Number.parseInt(text.slice(rcOpen + '<returncode>'.length, rcClose).trim(), 10);
  const output = outputText(text, rcClose + '</returncode>'.length);
  step.observation = output;
  if (Number.isFinite(code)) {
    step.exitCode = code;
    if (code !== 0) step.error = output.trim().length > 0 ? output : `Command exited with code ${code}`;
  }
}

/** The text inside `<output>…</output>`, or everything after the return code for long outputs. */
function outputText(text: string, from: number): string {
  const open = text.indexOf('<output>', from);
  if (open >= 0) {
    let start = open + '<output>'.length;
    if (text.charCodeAt(start) === 0x0a) start++;
    const close = text.lastIndexOf('</output>');
    return text.slice(start, close >= start ? close : text.length);
  }
  return text.slice(from).trim();
}
