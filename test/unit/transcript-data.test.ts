/**
 * Walks every file of the shared real data set and parses it, checking the counts against an
 * independent count computed here with plain JSON.parse / line prefixes. Codex and Antigravity logs
 * have their own walk (transcript-data-agents.test.ts); aider histories and the turns no person wrote
 * have theirs (transcript-data-synthetic.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTrajectory, parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { claudeMore, dir, files, kind, present, rel } from './shared-data';

/**
 * Independent count: messages a Claude Code line should give (text runs, tool_use and tool_result
 * blocks), the events that give none (other types, sidechains), the blocks that give none (thinking,
 * images, a ToolSearch result's `tool_reference` parts…), and the user events Claude Code marks `isMeta`.
 */
function claudeCounts(text: string) {
  let events = 0;
  let messages = 0;
  let toolUses = 0;
  let toolResults = 0;
  let ignored = 0;
  let ignoredBlocks = 0;
  let queuedPrompts = 0;
  const metaLines = new Set<number>();
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    if (!line.trim()) continue;
    const o = JSON.parse(line);
    // A prompt typed while the agent was busy is logged only as a queued_command attachment.
    const queued = o.type === 'attachment' && o.attachment?.type === 'queued_command' && !o.isSidechain;
    if (queued && (o.attachment.commandMode ?? 'prompt') === 'prompt') {
      events++;
      messages++;
      queuedPrompts++;
      continue;
    }
    if ((o.type !== 'user' && o.type !== 'assistant') || o.isSidechain) {
      ignored++;
      continue;
    }
    events++;
    if (o.type === 'user' && o.isMeta === true) metaLines.add(lineNo);
    const c = o.message.content;
    if (typeof c === 'string') {
      messages++;
      continue;
    }
    let inText = false;
    for (const b of c) {
      if (b.type === 'text') {
        if (!inText) messages++;
        inText = true;
      } else {
        inText = false;
        if (b.type === 'tool_use') {
          messages++;
          toolUses++;
        } else if (b.type === 'tool_result') {
          messages++;
          toolResults++;
          if (Array.isArray(b.content))
            for (const part of b.content)
              if (typeof part !== 'string' && typeof part?.text !== 'string') ignoredBlocks++;
        } else ignoredBlocks++;
      }
    }
  }
  return { events, messages, toolUses, toolResults, ignored, ignoredBlocks, metaLines, queuedPrompts };
}

describe.skipIf(!present)('real data in ../shared/data', () => {
  it('finds every expected kind of file', () => {
    const kinds = files.map(kind);
    for (const k of [
      'claude-code',
      'codex',
      'antigravity',
      'swe-agent',
      'mini-swe-agent',
      'sharegpt',
      'console',
      'aider',
    ])
      expect(kinds).toContain(k);
  });

  it.each(files.filter((f) => kind(f) === 'claude-code').map((f) => [rel(f), f]))(
    'Claude Code session %s',
    (_, path) => {
      const text = readFileSync(path, 'utf8');
      const expected = claudeCounts(text);
      const t = parseTranscript(text);
      expect(t.format).toBe('claude-code-jsonl');
      expect(t.skipped).toEqual([]);
      expect(t.messages.length).toBe(expected.messages);
      expect(t.messages.filter((m) => m.toolName !== undefined && m.role === 'assistant').length).toBe(
        expected.toolUses,
      );
      expect(t.messages.filter((m) => m.role === 'tool').length).toBe(expected.toolResults);
      // Every non-message or sidechain line, and every block that gives no message, is counted as
      // ignored, never dropped silently.
      expect(t.ignored).toBe(expected.ignored + expected.ignoredBlocks);
      // Human turns against SOURCES.jsonl's count: that count also took background-task notices, shell
      // mode's command and output and the notice of an unknown skill for turns (flagged `notification`
      // and `command` here) and missed the prompts queued while the agent worked.
      const declared = claudeMore.get(rel(path).slice('claude-code-jsonl-more/'.length))?.human_turns;
      if (typeof declared === 'number') {
        const users = t.messages.filter((m) => m.role === 'user');
        const human = users.filter((m) => !m.synthetic && !m.content.startsWith('[Request interrupted'));
        const notices = users.filter(
          (m) =>
            m.synthetic === 'notification' ||
            (m.synthetic === 'command' && /^(?:<bash-|Unknown skill: )/.test(m.content)),
        ).length;
        expect(human.length).toBe(declared + expected.queuedPrompts - notices);
      }
      // What Claude Code injected itself (isMeta: skill bodies, caveats) is never a person's turn.
      for (const m of t.messages)
        if (m.role === 'user' && expected.metaLines.has(m.source.line!)) expect(m.synthetic).toBe('meta');
      // Distinct source lines of messages = user/assistant non-sidechain events that produced a message.
      expect(new Set(t.messages.map((m) => m.source.line)).size).toBeLessThanOrEqual(expected.events);
      // Every tool result is paired with its call.
      const callIds = new Set(
        t.messages.filter((m) => m.role === 'assistant' && m.toolUseId).map((m) => m.toolUseId),
      );
      for (const m of t.messages.filter((m) => m.role === 'tool'))
        expect(callIds.has(m.toolUseId)).toBe(true);

      const traj = parseTrajectory(text);
      expect(traj.format).toBe('claude-code-jsonl');
      expect(traj.steps.length).toBe(expected.toolUses);
      expect(traj.steps.filter((s) => s.observation !== undefined).length).toBe(expected.toolResults);

      // Sidechain files are all sidechain: with includeSidechains they do give messages.
      if (path.includes('/subagents/')) {
        expect(t.messages.length).toBe(0);
        expect(parseTranscript(text, { includeSidechains: true }).messages.length).toBeGreaterThan(0);
      }
    },
  );

  it.each(files.filter((f) => kind(f) === 'console').map((f) => [rel(f), f]))(
    'console transcript %s',
    (_, path) => {
      const text = readFileSync(path, 'utf8');
      const prompts = text.split('\n').filter((l) => l.startsWith('> ')).length;
      const t = parseTranscript(text, { format: 'claude-code-console' });
      expect(t.messages.filter((m) => m.role === 'user').length).toBe(prompts);
      if (prompts > 0) {
        expect(parseTranscript(text).format).toBe('claude-code-console');
        const agentLines = text.split('\n').filter((l) => l.startsWith('⏺')).length;
        expect(t.messages.filter((m) => m.role === 'assistant').length).toBe(agentLines);
      }
    },
  );

  it('ShareGPT conversations (every file)', () => {
    const sharegpt = files.filter((f) => kind(f) === 'sharegpt');
    expect(sharegpt.length).toBeGreaterThan(0);
    let total = 0;
    for (const path of sharegpt) {
      const text = readFileSync(path, 'utf8');
      const expected = JSON.parse(text).conversations.length;
      const t = parseTranscript(text);
      expect(t.format, rel(path)).toBe('sharegpt');
      expect(t.messages.length, rel(path)).toBe(expected);
      total += expected;
    }
    expect(total).toBeGreaterThan(sharegpt.length);
  });

  it.each(files.filter((f) => kind(f) === 'swe-agent').map((f) => [rel(f), f]))(
    'SWE-agent trajectory %s',
    (_, path) => {
      const text = readFileSync(path, 'utf8');
      const o = JSON.parse(text);
      const traj = parseTrajectory(text);
      expect(traj.format).toBe('swe-agent');
      expect(traj.skipped).toEqual([]);
      if (Array.isArray(o.trajectory)) {
        expect(traj.steps.length).toBe(o.trajectory.length);
        expect(traj.outcome?.status).toBe(o.info.exit_status);
        expect(traj.outcome?.failed).toBe(!(o.info.exit_status === 'submitted' && o.info.submission));
      } else {
        expect(traj.steps.length).toBe(
          o.history.filter((m: { role: string }) => m.role === 'assistant').length,
        );
      }
      // The history also reads as an OpenAI-style transcript.
      const t = parseTranscript(text);
      expect(t.messages.filter((m) => m.role === 'user' || m.role === 'system').length).toBe(
        o.history.filter((m: { role: string }) => m.role === 'user' || m.role === 'system').length,
      );
    },
  );

  const results =
    present && existsSync(join(dir, 'mini-swe-agent/results_summary.json'))
      ? (JSON.parse(readFileSync(join(dir, 'mini-swe-agent/results_summary.json'), 'utf8')).instances as {
          instance_id: string;
          resolved: boolean;
        }[])
      : [];
  const resolvedById = new Map(results.map((r) => [r.instance_id, r.resolved]));

  it.each(files.filter((f) => kind(f) === 'mini-swe-agent').map((f) => [rel(f), f]))(
    'mini-swe-agent trajectory %s',
    (_, path) => {
      const text = readFileSync(path, 'utf8');
      const o = JSON.parse(text);
      const assistants = o.messages.slice(2).filter((m: { role: string }) => m.role === 'assistant').length;
      const nonZero = o.messages
        .slice(2)
        .map((m: { role: string; content: string }) =>
          m.role === 'user' ? /<returncode>(-?\d+)<\/returncode>/.exec(m.content) : null,
        )
        .filter((r: RegExpExecArray | null) => r && r[1] !== '0').length;
      const resolved = resolvedById.get(o.instance_id);
      const traj = parseTrajectory(text, resolved === undefined ? {} : { resolved });
      expect(traj.format).toBe('mini-swe-agent');
      expect(traj.id).toBe(o.instance_id);
      expect(traj.steps.length).toBe(assistants);
      expect(traj.steps.filter((s) => s.exitCode !== undefined && s.exitCode !== 0).length).toBe(nonZero);
      expect(traj.steps.filter((s) => s.action !== undefined).length).toBe(assistants);
      expect(traj.outcome?.status).toBe(o.info.exit_status);
      if (resolved !== undefined) expect(traj.outcome).toMatchObject({ resolved, failed: !resolved });
      // As a transcript the same file is an OpenAI-style chat.
      expect(parseTranscript(text).messages.length).toBe(o.messages.length);
    },
  );

  it.each(files.filter((f) => kind(f) === 'other').map((f) => [rel(f), f]))(
    'non-transcript file %s is rejected cleanly',
    (_, path) => {
      const r = safeParseTranscript(readFileSync(path));
      if (!r.ok) {
        expect(r.error.code).toMatch(/^transcript_/);
        expect(r.error.message).toMatch(/^\[[a-z-]+\] /);
      }
    },
  );
});
