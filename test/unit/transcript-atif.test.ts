/**
 * ATIF trajectories (Harbor, Terminus-2, computer-use agents) read as transcripts and as trajectories,
 * and the mini-swe-agent run on another model that sits beside them in ../shared/data/other-agents.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../../lib/core/index';
import {
  agentRunFormat,
  detectFormat,
  detectTrajectoryFormat,
  parseTrajectory,
  parseTranscript,
  safeParseTrajectory,
  safeParseTranscript,
} from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth, OBJECT_STEP, thrown } from './linear-time';

const RUN = {
  schema_version: 'ATIF-v1.6',
  session_id: 'run-1',
  agent: { name: 'terminus-2', version: '2.0.0', model_name: 'provider/model-a' },
  steps: [
    { step_id: 1, timestamp: '2026-01-01T00:00:00Z', source: 'user', message: 'Make the tests pass.' },
    {
      step_id: 2,
      source: 'agent',
      model_name: 'provider/model-a',
      message: 'Analysis: start by listing.',
      reasoning_content: 'hidden',
      tool_calls: [
        {
          tool_call_id: 'c1',
          function_name: 'bash_command',
          arguments: { keystrokes: 'ls\n', duration: 0.1 },
        },
        { tool_call_id: 'c2', function_name: 'bash_command', arguments: { keystrokes: 'pytest\n' } },
      ],
      observation: {
        results: [
          { source_call_id: 'c2', content: '1 failed' },
          { source_call_id: 'c1', content: 'a.py' },
        ],
      },
    },
    {
      step_id: 3,
      source: 'agent',
      message: '',
      tool_calls: [{ tool_call_id: 'c3', function_name: 'screenshot', arguments: {} }],
      observation: { results: [{ content: [{ type: 'image', source: { path: 'a.png' } }] }] },
    },
    { step_id: 4, source: 'agent', message: 'Done: the test passes.' },
  ],
};

describe('atif', () => {
  it('is detected as a transcript, a trajectory and an agent run', () => {
    expect(detectFormat(RUN)).toBe('atif');
    expect(detectTrajectoryFormat(JSON.stringify(RUN))).toBe('atif');
    expect(agentRunFormat(RUN)).toBe('atif');
  });

  it('reads as a transcript: task flagged, calls paired with their results, images, metadata', () => {
    const t = parseTranscript(RUN);
    expect(t.messages.map((m) => [m.role, m.toolName ?? '', m.toolUseId ?? '', m.content])).toEqual([
      ['user', '', '', 'Make the tests pass.'],
      ['assistant', '', '', 'Analysis: start by listing.'],
      ['assistant', 'bash_command', 'c1', '{"keystrokes":"ls\\n","duration":0.1}'],
      ['tool', 'bash_command', 'c1', 'a.py'],
      ['assistant', 'bash_command', 'c2', '{"keystrokes":"pytest\\n"}'],
      ['tool', 'bash_command', 'c2', '1 failed'],
      ['assistant', 'screenshot', 'c3', '{}'],
      ['tool', 'screenshot', 'c3', '[image]'],
      ['assistant', '', '', 'Done: the test passes.'],
    ]);
    expect(t.messages[0]!.synthetic).toBe('task');
    expect(t.meta).toEqual({ agent: 'terminus-2', sessionId: 'run-1', models: ['provider/model-a'] });
    expect(t.ignoredKinds.thinking).toBe(1);
  });

  it('reads as a trajectory: one step per call, the command as action', () => {
    const run = parseTrajectory(RUN);
    expect(run).toMatchObject({ id: 'run-1', format: 'atif' });
    expect(run.steps.map((s) => [s.tool, s.action, s.observation, s.thought])).toEqual([
      ['bash_command', 'ls', 'a.py', 'Analysis: start by listing.'],
      ['bash_command', 'pytest', '1 failed', undefined],
      ['screenshot', '{}', '[image]', undefined],
    ]);
    expect(run.outcome).toBeUndefined();
    expect(parseTrajectory(RUN, { resolved: false }).outcome).toEqual({ resolved: false, failed: true });
  });

  it('malformed input throws a located TranscriptError', () => {
    const text = JSON.stringify(RUN, null, 2).replace('"agent",', '"agent"');
    const err = thrown<TranscriptError>(() => parseTranscript(text, { format: 'atif' }));
    expect(err).toBeInstanceOf(TranscriptError);
    expect(err.message).toMatch(/^\[atif\] Input is not valid JSON: .+ \(line \d+, column \d+\)$/);
    const bad = { ...RUN, steps: [RUN.steps[0], { step_id: 2, source: 'robot' }] };
    expect(thrown<TranscriptError>(() => parseTranscript(bad)).message).toBe(
      '[atif] Step source must be user, agent or system, got string (index 1)',
    );
    const badCall = { ...RUN, steps: [{ source: 'agent', tool_calls: [{ arguments: {} }] }] };
    expect(thrown<TranscriptError>(() => parseTrajectory(badCall)).message).toBe(
      '[atif] A tool call has no function_name (index 0)',
    );
  });

  it('never throws anything but a TranscriptError, as transcript or trajectory (property)', () => {
    const step = fc.record({
      source: fc.constantFrom('user', 'agent', 'system', 'x'),
      message: fc.oneof(fc.string({ maxLength: 10 }), fc.anything()),
      tool_calls: fc.oneof(
        fc.constant(undefined),
        fc.array(
          fc.record({
            tool_call_id: fc.string(),
            function_name: fc.oneof(fc.string(), fc.integer()),
            arguments: fc.anything(),
          }),
        ),
      ),
      observation: fc.oneof(
        fc.anything(),
        fc.record({ results: fc.array(fc.record({ source_call_id: fc.string(), content: fc.anything() })) }),
      ),
    });
    fc.assert(
      fc.property(
        fc.record({ schema_version: fc.constant('ATIF-v1.6'), steps: fc.array(step, { maxLength: 6 }) }),
        (v) => {
          const a = safeParseTranscript(v, { format: 'atif' });
          if (!a.ok) expect(a.error).toBeInstanceOf(TranscriptError);
          const b = safeParseTrajectory(v, { format: 'atif' });
          if (!b.ok) expect(b.error).toBeInstanceOf(TranscriptError);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays linear in results without calls and calls without results (time at 2x / time at 1x ≤ 3)', () => {
    const make = (n: number) => ({
      schema_version: 'ATIF-v1.6',
      steps: [
        {
          source: 'agent',
          tool_calls: Array.from({ length: n }, (_, i) => ({
            tool_call_id: `c${i}`,
            function_name: 'f',
            arguments: {},
          })),
          observation: {
            results: Array.from({ length: n }, (_, i) => ({ source_call_id: `x${i}`, content: 'o' })),
          },
        },
      ],
    });
    // 200 to 3,200 calls: a few thousand messages, under OBJECT_STEP (linear-time.ts).
    for (const parse of [parseTranscript, parseTrajectory]) {
      const g = measureGrowth((v: unknown) => parse(v), make, {
        ...doublings(OBJECT_STEP / 40, 4),
        rounds: 6,
      });
      expect(g.excess, `${parse.name}: ${describeGrowth(g)}`).toBeLessThanOrEqual(1);
    }
  });
});

const DIR = resolve(
  import.meta.dirname,
  '../../../shared/data/other-agents/refreshdotdev+harbor-trajectories',
);
const present = existsSync(DIR);
if (!present) console.warn(`transcript-atif: ${DIR} is absent, skipping the real-data walk`);

describe.skipIf(!present)(
  'real runs in ../shared/data/other-agents/refreshdotdev+harbor-trajectories',
  () => {
    const files = present ? readdirSync(DIR).sort() : [];

    it('the ATIF runs: steps and calls match an independent count; no human turn (SOURCES.jsonl: 0)', () => {
      const atif = files.filter((f) => f.endsWith('__trajectory.json'));
      expect(atif.length).toBe(2);
      const totals = { files: 0, sessions: 0, human: 0, toolCalls: 0, observations: 0, steps: 0 };
      for (const f of atif) {
        const text = readFileSync(join(DIR, f), 'utf8');
        const raw = JSON.parse(text) as { steps: { source: string; tool_calls?: unknown[] }[] };
        const calls = raw.steps.reduce(
          (n, s) => n + (s.source === 'agent' ? (s.tool_calls?.length ?? 0) : 0),
          0,
        );
        const t = parseTranscript(text);
        expect(t.format).toBe('atif');
        // The one user step is the harness's task statement: no person typed in these runs.
        expect(t.messages.filter((m) => m.role === 'user' && !m.synthetic).length).toBe(0);
        expect(t.messages.filter((m) => m.role === 'user').length).toBe(
          raw.steps.filter((s) => s.source === 'user').length,
        );
        expect(t.messages.filter((m) => m.role === 'assistant' && m.toolName).length).toBe(calls);
        const run = parseTrajectory(text);
        expect(run.format).toBe('atif');
        expect(run.steps.length).toBe(calls);
        totals.files++;
        totals.sessions++;
        totals.toolCalls += calls;
        totals.observations += t.messages.filter((m) => m.role === 'tool').length;
        totals.steps += raw.steps.length;
      }
      console.log(`atif totals: ${JSON.stringify(totals)}`);
    });

    it('the mini-swe-agent run on another model reads with the mini-swe-agent reader', () => {
      const f = files.find((x) => x.endsWith('mini-swe-agent.trajectory.json'))!;
      const text = readFileSync(join(DIR, f), 'utf8');
      const raw = JSON.parse(text) as { messages: { role: string; content: string }[] };
      const run = parseTrajectory(text);
      expect(run.format).toBe('mini-swe-agent');
      expect(run.steps.length).toBe(raw.messages.filter((m) => m.role === 'assistant').length);
      // This model answered with several bash blocks every time; each reply got mini-swe-agent's
      // format error back ("found N actions") instead of a return code, so every step is an error.
      const formatErrors = raw.messages.filter(
        (m) => m.role === 'user' && m.content.includes('EXACTLY ONE action'),
      ).length;
      expect(run.steps.filter((s) => s.error).length).toBe(formatErrors);
      expect(run.outcome?.failed).toBe(true);
    });
  },
);
