/**
 * The tool calls of a transcript as a run: what `groupFailures` and `fixedFailures` read when the
 * session is a conversation (Claude Code, Codex CLI, Cline…) rather than an agent's trajectory.
 */
import { contentText, declinedCall, defaultRef } from '../core/index.js';
import type { MessageLike } from '../heuristic/index.js';
import type { CallRun, CallStep } from './failures.js';

/** Tool calls and results of a transcript (`toolName`, `toolUseId`, `isError` of `rearview/transcript`). */
export interface ToolMessageLike extends MessageLike {
  toolName?: string;
  toolUseId?: string;
  isError?: boolean;
}

/**
 * The tool calls of a transcript as a run: each assistant message with a `toolName` and its result
 * (matched by `toolUseId`, else the latest open call of that tool), the result's text as `error` when it
 * is marked `isError` or says the person declined the call, referenced as `message:{id of the result}`.
 * Calls without a result are left out. `root`, the folder the calls ran in (`TranscriptMeta.cwd`), is
 * the run's `root` when it is a string.
 *
 * @example
 * ```ts
 * const { messages, meta } = parseTranscript(claudeCodeJsonl);
 * groupFailures([stepsFromMessages(messages, 'conversation', meta?.cwd)]);
 * ```
 */
export function stepsFromMessages(
  messages: readonly ToolMessageLike[],
  id = 'conversation',
  root?: string,
): CallRun {
  const calls: { tool: string; action: string; step?: CallStep }[] = [];
  // Open calls by id, and the latest open call per tool for results without an id.
  const byId = new Map<string, number>();
  const byTool = new Map<string, number[]>();
  if (Array.isArray(messages)) {
    messages.forEach((m, i) => {
      if (m === null || typeof m !== 'object' || typeof m.toolName !== 'string') return;
      const useId = typeof m.toolUseId === 'string' ? m.toolUseId : undefined;
      if (m.role === 'assistant') {
        calls.push({ tool: m.toolName, action: contentText(m.content) ?? '' });
        if (useId !== undefined) byId.set(useId, calls.length - 1);
        else {
          const open = byTool.get(m.toolName);
          if (open) open.push(calls.length - 1);
          else byTool.set(m.toolName, [calls.length - 1]);
        }
        return;
      }
      if (m.role !== 'tool') return;
      let index = useId !== undefined ? byId.get(useId) : undefined;
      if (index !== undefined) byId.delete(useId!);
      else index = byTool.get(m.toolName)?.pop();
      const call = index !== undefined ? calls[index] : undefined;
      if (!call || call.step) return;
      const text = contentText(m.content) ?? '';
      call.step = {
        index: index!,
        tool: call.tool,
        action: call.action,
        ref: defaultRef(m, i),
        // A declined call is kept as an error so that it is never taken for the call that worked;
        // `groupFailures` does not count it as a failure either.
        ...(m.isError || declinedCall(text) ? { error: text } : {}),
      };
    });
  }
  const run: CallRun = { id, steps: calls.flatMap((c) => (c.step ? [c.step] : [])) };
  if (typeof root === 'string') run.root = root;
  return run;
}
