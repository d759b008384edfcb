import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTrajectoryFormat, parseTrajectory } from '../../lib/transcript/index';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../fixtures/transcripts', name), 'utf8');

describe('swe-agent', () => {
  it('reads trajectory entries and the outcome', () => {
    const t = parseTrajectory(fixture('swe-agent-flash.traj'));
    expect(t.format).toBe('swe-agent');
    expect(t.steps.map((s) => [s.index, s.tool, s.action])).toEqual([
      [0, 'strings', 'strings flash_c8429a430278283c0e571baebca3d139.img | grep flag'],
      [1, 'unzip', 'unzip flash_c8429a430278283c0e571baebca3d139.zip'],
      [2, 'strings', 'strings flash_c8429a430278283c0e571baebca3d139.img | grep flag'],
      [3, 'submit', 'submit flag{b3l0w_th3_r4dar}'],
    ]);
    expect(t.steps[0]).toMatchObject({
      thought: "let's just try running strings on the provided files\n",
      source: { index: 0 },
    });
    expect(t.outcome).toEqual({ status: 'submitted', submission: 'flag{b3l0w_th3_r4dar}', failed: false });
    expect(t.id).toMatch(/^swe-agent:[0-9a-f]{8}$/);
    expect(parseTrajectory(fixture('swe-agent-flash.traj')).id).toBe(t.id);
    expect(
      parseTrajectory(fixture('swe-agent-flash.traj'), { id: 'flash', resolved: false }).outcome,
    ).toMatchObject({
      resolved: false,
      failed: true,
    });
  });

  it('fails runs that did not submit', () => {
    const t = parseTrajectory({
      trajectory: [{ action: 'ls', observation: '' }],
      info: { exit_status: 'exit_cost' },
    });
    expect(t.outcome).toEqual({ status: 'exit_cost', failed: true });
  });

  it('derives steps from history when there is no trajectory array', () => {
    const t = parseTrajectory({
      history: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'task' },
        {
          role: 'assistant',
          content: 'Find it.',
          thought: 'Find it.',
          action: 'find_file a.py',
          tool_calls: [{ id: 'c1', function: { name: 'find_file', arguments: '{"file_name":"a.py"}' } }],
        },
        { role: 'tool', content: 'Found 1 match', tool_call_ids: ['c1'] },
      ],
    });
    expect(t.format).toBe('swe-agent');
    expect(t.steps).toEqual([
      {
        index: 0,
        thought: 'Find it.',
        action: 'find_file a.py',
        tool: 'find_file',
        observation: 'Found 1 match',
        source: { index: 2 },
      },
    ]);
    expect(t.outcome).toBeUndefined();
    expect(t.ignored).toBe(2);
  });
});

describe('mini-swe-agent', () => {
  it('reads thought, bash action, return code and output; errors on non-zero codes and format errors', () => {
    const t = parseTrajectory(fixture('mini-swe-agent.traj.json'));
    expect(t.format).toBe('mini-swe-agent');
    expect(t.id).toBe('astropy__astropy-13398');
    expect(t.steps).toHaveLength(4);
    const [first, failing, badFormat, submit] = t.steps;
    expect(first).toMatchObject({
      tool: 'bash',
      action: 'ls -R astropy/coordinates',
      exitCode: 0,
      source: { index: 2 },
    });
    expect(first!.thought).toMatch(/^I need to explore the codebase/);
    expect(first!.observation).toMatch(/^astropy\/coordinates:\n__init__.py/);
    expect(first!.error).toBeUndefined();
    expect(failing!.exitCode).toBe(1);
    expect(failing!.error).toBe(failing!.observation);
    expect(badFormat!.exitCode).toBeUndefined();
    expect(badFormat!.error).toMatch(/^Please always provide EXACTLY ONE action/);
    expect(submit!.action).toContain('COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
    expect(submit!.error).toBeUndefined();
    expect(submit!.observation).toMatch(/^diff --git/);
    expect(t.outcome).toMatchObject({ status: 'Submitted', failed: false });
    expect(parseTrajectory(fixture('mini-swe-agent.traj.json'), { resolved: false }).outcome).toMatchObject({
      resolved: false,
      failed: true,
    });
    expect(t.ignored).toBe(2); // system prompt and task
  });

  it('reports an empty-output failure with its code', () => {
    const t = parseTrajectory({
      trajectory_format: 'mini-swe-agent-1',
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'task' },
        { role: 'assistant', content: 'THOUGHT: check\n\n```bash\nfalse\n```' },
        { role: 'user', content: '<returncode>1</returncode>\n<output>\n</output>' },
      ],
      info: { exit_status: 'LimitsExceeded', submission: '' },
    });
    expect(t.steps[0]).toMatchObject({
      thought: 'check',
      action: 'false',
      exitCode: 1,
      error: 'Command exited with code 1',
    });
    expect(t.outcome).toEqual({ status: 'LimitsExceeded', submission: '', failed: true });
  });
});

describe('claude-code-jsonl', () => {
  it('turns tool_use into steps paired with their results', () => {
    const t = parseTrajectory(fixture('claude-code-session.jsonl'));
    expect(t.format).toBe('claude-code-jsonl');
    expect(t.id).toBe('sess-1');
    expect(t.steps).toEqual([
      {
        index: 0,
        tool: 'Bash',
        action: '{"command":"mix phx.server 2>&1 | head -80","timeout":30000}',
        thought: 'Let me try running the server to see the error.',
        observation: 'Exit code 1\n** (Mix) Could not start application spotter: port 4000 in use',
        error: 'Exit code 1\n** (Mix) Could not start application spotter: port 4000 in use',
        source: { line: 6 },
      },
      {
        index: 1,
        tool: 'Bash',
        action: '{"command":"lsof -i :4000"}',
        thought: 'Port 4000 is taken. Let me find the process.',
        observation: 'beam.smp 4242 dev',
        source: { line: 10 },
      },
    ]);
    expect(t.outcome).toBeUndefined();
    expect(parseTrajectory(fixture('claude-code-session.jsonl'), { resolved: true }).outcome).toEqual({
      resolved: true,
      failed: false,
    });
  });

  it('pairs results that arrive out of order', () => {
    const ev = (type: string, content: unknown, uuid: string) =>
      JSON.stringify({ type, uuid, message: { role: type, content } });
    const text = [
      ev(
        'assistant',
        [
          { type: 'tool_use', id: 'a', name: 'Read', input: {} },
          { type: 'tool_use', id: 'b', name: 'Grep', input: {} },
        ],
        'x1',
      ),
      ev(
        'user',
        [
          { type: 'tool_result', tool_use_id: 'b', content: 'B' },
          { type: 'tool_result', tool_use_id: 'a', content: 'A' },
        ],
        'x2',
      ),
      ev('user', [{ type: 'tool_result', tool_use_id: 'zzz', content: 'orphan' }], 'x3'),
    ].join('\n');
    const t = parseTrajectory(text);
    expect(t.steps.map((s) => [s.tool, s.observation])).toEqual([
      ['Read', 'A'],
      ['Grep', 'B'],
    ]);
    expect(t.ignored).toBe(1);
  });
});

describe('detectTrajectoryFormat', () => {
  it('detects each format and rejects others', () => {
    expect(detectTrajectoryFormat(fixture('swe-agent-flash.traj'))).toBe('swe-agent');
    expect(detectTrajectoryFormat(fixture('mini-swe-agent.traj.json'))).toBe('mini-swe-agent');
    expect(detectTrajectoryFormat(fixture('claude-code-session.jsonl'))).toBe('claude-code-jsonl');
    expect(detectTrajectoryFormat(fixture('sharegpt.json'))).toBeUndefined();
    expect(detectTrajectoryFormat('User: hi')).toBeUndefined();
    expect(detectTrajectoryFormat('')).toBeUndefined();
  });
});
