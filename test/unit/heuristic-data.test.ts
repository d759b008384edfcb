/**
 * rearview/heuristic on recorded runs: trajectories from every format, the whole shared data set
 * (skipped when ../shared/data is absent), and the conformance cases in Node.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorClass, reflectFromTrajectories } from '../../lib/failures/index';
import { heuristicReflect } from '../../lib/heuristic/index';
import { parseTrajectory, parseTranscript } from '../../lib/transcript/index';

describe('trajectories from every format', () => {
  const data = resolve(import.meta.dirname, '../../../shared/data');
  const has = existsSync(data);

  it.skipIf(!has)(
    'mini-swe-agent: one insight per failure class of a failed run, every occurrence referenced',
    () => {
      const text = readFileSync(join(data, 'mini-swe-agent/psf__requests-2317.traj.json'), 'utf8');
      const run = parseTrajectory(text, { resolved: false });
      const failedSteps = run.steps.filter((s) => s.error !== undefined);
      const insights = reflectFromTrajectories([run]);
      // One lesson per tool and error class (test/unit/failures-groups.test.ts), not one per step.
      expect(insights.length).toBeLessThanOrEqual(failedSteps.length);
      const refs = insights.flatMap((i) => i.traceRefs);
      for (const s of failedSteps) expect(refs).toContain(`trajectory:${run.id}:event:${s.index}`);
      for (const insight of insights) expect(Buffer.byteLength(insight.fact)).toBeLessThan(400);
      expect(reflectFromTrajectories([parseTrajectory(text, { resolved: true })])).toEqual([]);
    },
  );

  it('Claude Code: is_error tool results, when the run failed or its outcome is unknown and asked for', () => {
    const lines = [
      { type: 'user', uuid: 'u1', sessionId: 's1', message: { role: 'user', content: 'run the tests' } },
      {
        type: 'assistant',
        uuid: 'a1',
        sessionId: 's1',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'npm test' } }],
        },
      },
      {
        type: 'user',
        uuid: 'u2',
        sessionId: 's1',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'tu1',
              is_error: true,
              content: 'Error: café ☕ '.repeat(40),
            },
          ],
        },
      },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    const failed = reflectFromTrajectories([parseTrajectory(text, { resolved: false })]);
    expect(failed).toHaveLength(1);
    // The insight is the failure class (the error text normalised, one line, bounded).
    expect(failed[0]!.tags).toEqual(['tool_failure', 'tool:Bash', 'no_fix']);
    expect(failed[0]!.traceRefs).toEqual(['trajectory:s1:event:0']);
    expect(failed[0]!.fact).toBe(
      `Tool \`Bash\` failed once with "${errorClass('Error: café ☕ '.repeat(40))}"`,
    );
    expect(failed[0]!.fact).not.toContain('\ufffd');
    const unknown = parseTrajectory(text);
    expect(reflectFromTrajectories([unknown])).toEqual([]);
    expect(reflectFromTrajectories([unknown], { includeUnknownOutcome: true })).toHaveLength(1);
  });

  it('never throws on junk', () => {
    expect(
      reflectFromTrajectories([
        null,
        { id: 1, steps: 'x' },
        { id: 'a', steps: [null, { error: 5 }], outcome: { failed: true } },
      ] as never),
    ).toEqual([]);
    expect(reflectFromTrajectories('nope' as never)).toEqual([]);
  });
});

describe('the shared data set', () => {
  const data = resolve(import.meta.dirname, '../../../shared/data');
  const has = existsSync(data);
  if (!has) console.warn(`heuristic: ${data} is absent, skipping the shared-data walk`);

  it.skipIf(!has)('every transcript gives insights without error, deterministically', () => {
    let files = 0;
    let insights = 0;
    const byCategory: Record<string, number> = {};
    const read = (dir: string, filter: (f: string) => boolean, format?: 'claude-code-console') => {
      for (const f of readdirSync(join(data, dir)).filter(filter).sort()) {
        const text = readFileSync(join(data, dir, f), 'utf8');
        const { messages } = parseTranscript(text, { lenient: true, ...(format ? { format } : {}) });
        const out = heuristicReflect(messages);
        expect(heuristicReflect(messages)).toEqual(out);
        for (const i of out) {
          expect(i.traceRefs[0]).toMatch(/^message:/);
          byCategory[i.category] = (byCategory[i.category] ?? 0) + 1;
        }
        files++;
        insights += out.length;
      }
    };
    read('claude-code-console', (f) => f.endsWith('.md'), 'claude-code-console');
    read('claude-code-jsonl', (f) => f.endsWith('.jsonl'));
    read('sharegpt/conversations', (f) => f.endsWith('.json'));
    expect(files).toBeGreaterThan(300);
    expect(byCategory.correction).toBeGreaterThan(50);
    expect(insights).toBeGreaterThan(100);
  });

  it.skipIf(!has)('every trajectory gives insights without error', () => {
    let total = 0;
    for (const dir of ['swe-agent', 'mini-swe-agent']) {
      for (const f of readdirSync(join(data, dir))
        .filter((x) => x.endsWith('.traj') || x.endsWith('.traj.json'))
        .sort()) {
        const run = parseTrajectory(readFileSync(join(data, dir, f), 'utf8'), { lenient: true });
        const out = reflectFromTrajectories([run]);
        if (run.outcome && !run.outcome.failed) expect(out).toEqual([]);
        for (const i of out)
          expect(i.traceRefs[0]).toMatch(
            new RegExp(`^trajectory:${run.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:event:\\d+$`),
          );
        total += out.length;
      }
    }
    for (const f of readdirSync(join(data, 'claude-code-jsonl')).filter((x) => x.endsWith('.jsonl'))) {
      const run = parseTrajectory(readFileSync(join(data, 'claude-code-jsonl', f), 'utf8'), {
        lenient: true,
        resolved: false,
      });
      total += reflectFromTrajectories([run]).length;
    }
    expect(total).toBeGreaterThan(0);
  });
});

describe('conformance cases (also run by the six-runtime matrix once wired)', () => {
  it('all pass in Node and are deterministic', async () => {
    const { heuristicCases } = await import('../conformance/cases/heuristic');
    for (const c of heuristicCases) {
      const a = JSON.stringify(await c.run());
      expect(JSON.stringify(await c.run()), c.name).toBe(a);
    }
  });
});
