/**
 * `agentRunFormat`: the one rule every front end uses to read an input as an agent run beside its
 * messages (SWE-agent and mini-swe-agent), and nothing else — a Claude Code session's tool calls are
 * messages already.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { agentRunFormat, detectTrajectoryFormat } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/transcripts', name), 'utf8');

describe('agentRunFormat', () => {
  it('names SWE-agent and mini-swe-agent runs, and nothing else', () => {
    expect(agentRunFormat(fixture('swe-agent-flash.traj'))).toBe('swe-agent');
    expect(agentRunFormat(fixture('mini-swe-agent.traj.json'))).toBe('mini-swe-agent');
    const session = fixture('claude-code-session.jsonl');
    expect(detectTrajectoryFormat(session)).toBe('claude-code-jsonl');
    expect(agentRunFormat(session)).toBeUndefined();
    expect(agentRunFormat('User: hi\nAssistant: hello')).toBeUndefined();
    expect(agentRunFormat('{"broken": ')).toBeUndefined();
  });

  it('never throws, and agrees with detectTrajectoryFormat (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue(), fc.anything()), (input) => {
        const f = detectTrajectoryFormat(input);
        expect(agentRunFormat(input)).toBe(
          f === 'swe-agent' || f === 'mini-swe-agent' || f === 'atif' ? f : undefined,
        );
      }),
    );
  });
});
