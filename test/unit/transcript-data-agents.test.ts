/**
 * Walks the Codex CLI rollouts (codex/) and the Antigravity step logs (other-agents/, agent
 * "antigravity" in SOURCES.jsonl) of the shared data, checking each against an independent count
 * computed here from the raw lines, and the human turns against SOURCES.jsonl.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heuristicReflect } from '../../lib/heuristic/index';
import { parseTrajectory, parseTranscript } from '../../lib/transcript/index';
import { codexSources, files, kind, otherAgents, present, rel } from './shared-data';

describe.skipIf(!present)('Codex and Antigravity logs in ../shared/data', () => {
  const measured: Record<
    string,
    { files: number; sessions: number; human: number; calls: number; failed: number }
  > = {};
  let commandTurns = 0;
  const tally = (format: string, human: number, calls: number, failed: number) => {
    measured[format] ??= { files: 0, sessions: 0, human: 0, calls: 0, failed: 0 };
    const m = measured[format];
    m.files++;
    m.sessions++;
    m.human += human;
    m.calls += calls;
    m.failed += failed;
  };

  it.each(files.filter((f) => kind(f) === 'codex').map((f) => [rel(f), f]))(
    'Codex CLI rollout %s',
    (_, path) => {
      const text = readFileSync(path, 'utf8');
      // Independent count from the raw lines: Codex wraps items as {timestamp, type, payload}; the
      // older layout writes them bare after an {id, timestamp, instructions, git} header.
      let messages = 0;
      let calls = 0;
      let results = 0;
      let userMessageEvents = 0;
      let aborts = 0;
      let exitFailures = 0;
      let sessionId: string | undefined;
      const injected = new Set<number>();
      let expansions = 0;
      text.split('\n').forEach((line, i) => {
        if (!line.trim()) return;
        const o = JSON.parse(line);
        if (i === 0) sessionId = o.type === 'session_meta' ? o.payload.id : o.id;
        const item = o.payload && typeof o.type === 'string' ? o.payload : o;
        if (o.type === 'event_msg') {
          if (item.type === 'user_message') userMessageEvents++;
          if (item.type === 'turn_aborted') {
            aborts++;
            messages++;
          }
          return;
        }
        if (o.payload && o.type !== 'response_item') return;
        if (item.type === 'message') {
          const texts = item.content.filter((b: { type: string }) => b.type.endsWith('_text'));
          if (texts.length > 0 || item.content.length === 0) messages++;
          const first: string = texts[0]?.text ?? '';
          if (
            item.role === 'user' &&
            /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions for |<turn_aborted>)/.test(
              first,
            )
          )
            injected.add(i + 1);
          // A spec-kit slash command (/speckit.specify <text>…) sent as its prompt file's template.
          if (item.role === 'user' && /^\s*## User Input\n\n```text\n/.test(first)) {
            injected.add(i + 1);
            expansions++;
          }
        } else if (/_call$/.test(item.type)) {
          calls++;
          messages++;
        } else if (/_call_output$/.test(item.type)) {
          results++;
          messages++;
          const out =
            typeof item.output === 'string' && item.output.startsWith('{') ? JSON.parse(item.output) : null;
          if (typeof out?.metadata?.exit_code === 'number' && out.metadata.exit_code !== 0) exitFailures++;
        }
      });
      const t = parseTranscript(text);
      expect(t.format).toBe('codex');
      expect(t.skipped).toEqual([]);
      expect(t.messages.length).toBe(messages);
      const toolCalls = t.messages.filter((m) => m.role === 'assistant' && m.toolName !== undefined);
      const toolResults = t.messages.filter((m) => m.role === 'tool');
      expect(toolCalls.length).toBe(calls);
      expect(toolResults.length).toBe(results);
      // Every output is paired with its call by call_id, and names its tool.
      const byId = new Map(toolCalls.map((m) => [m.toolUseId, m.toolName]));
      for (const m of toolResults) expect(m.toolName).toBe(byId.get(m.toolUseId));
      // Injected context is synthetic; the person's prompts are not; each abort is a marker.
      const users = t.messages.filter((m) => m.role === 'user');
      for (const m of users)
        expect(m.synthetic !== undefined, `line ${m.source.line}`).toBe(injected.has(m.source.line!));
      expect(users.filter((m) => m.content === '[Request interrupted by user]').length).toBe(aborts);
      const human = users.filter((m) => !m.synthetic && m.content !== '[Request interrupted by user]');
      // The IDE extension's context (open tabs, active file) is not part of what the person typed.
      for (const m of human) expect(m.content.startsWith('# Context from my IDE setup:')).toBe(false);
      // The person's turns: one per user_message event where Codex writes them, and what SOURCES.jsonl
      // counted (every human turn, in the older layout too). Both count a slash command's expanded
      // template as a turn; here it is flagged `command` (the person typed the command, not the
      // template), so those are added back to compare.
      expect(users.filter((m) => m.synthetic === 'command').length).toBe(expansions);
      if (userMessageEvents > 0) expect(human.length + expansions).toBe(userMessageEvents);
      const declared = codexSources.get(rel(path).slice('codex/'.length))?.human_turns;
      expect(human.length + expansions).toBe(declared);
      for (const insight of heuristicReflect(t.messages, { minScore: 0 })) {
        const m = t.messages.find((x) => `message:${x.id}` === insight.traceRefs[0]);
        expect(m?.synthetic, insight.traceRefs[0]).toBeUndefined();
      }

      const traj = parseTrajectory(text);
      expect(traj.format).toBe('codex');
      expect(traj.id).toBe(sessionId);
      expect(traj.steps.length).toBe(calls);
      expect(traj.steps.filter((s) => s.observation !== undefined).length).toBe(results);
      const failed = traj.steps.filter((s) => s.error !== undefined);
      expect(failed.length).toBeGreaterThanOrEqual(exitFailures);
      expect(
        traj.steps.filter((s) => s.exitCode !== undefined && s.exitCode !== 0).length,
      ).toBeGreaterThanOrEqual(exitFailures);
      tally('codex', human.length, calls, failed.length);
      commandTurns += expansions;
    },
  );

  it.each(files.filter((f) => kind(f) === 'antigravity').map((f) => [rel(f), f]))(
    'Antigravity step log %s',
    (_, path) => {
      const text = readFileSync(path, 'utf8');
      // Independent count from the raw lines.
      const broken: number[] = [];
      let inputs = 0;
      let prose = 0;
      let calls = 0;
      let modelSteps = 0;
      let userActions = 0;
      let errorSteps = 0;
      let reminders = 0;
      let others = 0;
      text.split('\n').forEach((line, i) => {
        if (!line.trim()) return;
        let o: Record<string, unknown>;
        try {
          o = JSON.parse(line);
        } catch {
          broken.push(i + 1);
          return;
        }
        if (o.type === 'USER_INPUT') inputs++;
        else if (o.type === 'PLANNER_RESPONSE') {
          if (typeof o.content === 'string' && o.content.trim()) prose++;
          calls += Array.isArray(o.tool_calls) ? o.tool_calls.length : 0;
        } else if (o.source === 'MODEL') modelSteps++;
        else if (o.source === 'USER_EXPLICIT') userActions++;
        else if (o.type === 'ERROR_MESSAGE') errorSteps++;
        else if (
          /^(EPHEMERAL_MESSAGE|SYSTEM_MESSAGE|CONVERSATION_HISTORY|KNOWLEDGE_ARTIFACTS)$/.test(String(o.type))
        )
          reminders++;
        else others++;
      });
      // Strict mode: a spliced fragment is reported, not thrown, and nothing else is lost.
      const t = parseTranscript(text);
      expect(t.format).toBe('antigravity');
      expect(t.skipped.map((s) => s.line)).toEqual(broken);
      expect(t.messages.length).toBe(inputs + prose + calls + modelSteps + userActions + errorSteps + others);
      const toolCalls = t.messages.filter((m) => m.role === 'assistant' && m.toolName !== undefined);
      expect(toolCalls.length).toBe(calls);
      const toolResults = t.messages.filter((m) => m.role === 'tool');
      // ERROR_MESSAGE steps answer a waiting call (a tool message) or stand alone (a system message).
      expect(toolResults.length).toBeGreaterThanOrEqual(modelSteps + userActions);
      expect(toolResults.length).toBeLessThanOrEqual(modelSteps + userActions + errorSteps);
      const callIds = new Set(toolCalls.map((m) => m.toolUseId));
      for (const m of toolResults) if (m.toolUseId !== undefined) expect(callIds.has(m.toolUseId)).toBe(true);
      const reminderKinds = [
        'ephemeral_message',
        'system_message',
        'conversation_history',
        'knowledge_artifacts',
      ];
      expect(reminderKinds.reduce((n, k) => n + (t.ignoredKinds[k] ?? 0), 0)).toBe(reminders);
      const users = t.messages.filter((m) => m.role === 'user');
      expect(users.length).toBe(inputs);
      // Only the text inside <USER_REQUEST> is the person's: the IDE's metadata blocks are gone.
      for (const m of users) {
        expect(m.content).not.toContain('<USER_REQUEST>');
        expect(m.content).not.toContain('<ADDITIONAL_METADATA>');
      }
      expect(users.length).toBe(otherAgents.get(rel(path).slice('other-agents/'.length))?.human_turns);

      const traj = parseTrajectory(text);
      expect(traj.format).toBe('antigravity');
      expect(traj.skipped.map((s) => s.line)).toEqual(broken);
      expect(traj.steps.length).toBe(calls);
      const failed = traj.steps.filter((s) => s.error !== undefined);
      tally('antigravity', users.length, calls, failed.length);
    },
  );

  it.skipIf(files.every((f) => kind(f) !== 'codex'))('Codex and Antigravity totals', () => {
    console.log(`session formats measured: ${JSON.stringify(measured)}`);
    // Every file of both folders was read above (it.each runs before this test, in file order).
    expect(measured.codex?.files).toBe(files.filter((f) => kind(f) === 'codex').length);
    expect(measured.antigravity?.files).toBe(files.filter((f) => kind(f) === 'antigravity').length);
    // ../shared/data/README.md: 91 human turns in the 7 Codex rollouts (SOURCES.jsonl, per file, above),
    // the slash-command expansions among them.
    console.log(`codex: ${commandTurns} slash-command expansions flagged 'command'`);
    expect(measured.codex!.human + commandTurns).toBe(91);
  });

  it.skipIf(files.every((f) => kind(f) !== 'antigravity'))(
    'every message of an Antigravity log has its own id, rewinds included',
    () => {
      let repeated = 0;
      for (const path of files.filter((f) => kind(f) === 'antigravity')) {
        const text = readFileSync(path, 'utf8');
        // Independent count: step indices met again after the log went back to an earlier one.
        const seen = new Set<number>();
        for (const line of text.split('\n')) {
          let o: { step_index?: unknown };
          try {
            o = JSON.parse(line);
          } catch {
            continue;
          }
          if (typeof o.step_index !== 'number') continue;
          if (seen.has(o.step_index)) repeated++;
          seen.add(o.step_index);
        }
        const ids = parseTranscript(text).messages.map((m) => m.id);
        expect(new Set(ids).size, rel(path)).toBe(ids.length);
      }
      // Measured: 165 steps repeat an index, all in one log that goes back and resends (68 of its
      // messages had shared ids before rewinds were counted).
      expect(repeated).toBe(165);
    },
  );
});
