/**
 * Codex CLI rollouts and Antigravity step logs: parsing arbitrary lines of these shapes never throws
 * anything but a TranscriptError, and both parsers stay linear on adversarial input (growth ratios).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../../lib/core/index';
import {
  parseTrajectory,
  parseTranscript,
  safeParseTrajectory,
  safeParseTranscript,
} from '../../lib/transcript/index';
import { at, step, userText, wrap } from './agent-log-fixtures';
import { describeGrowth, doublings, type Growth, measureGrowth } from './linear-time';

describe('never throws anything but a TranscriptError', () => {
  const formats = [undefined, 'codex', 'antigravity'] as const;
  const check = (input: unknown) => {
    for (const format of formats) {
      for (const lenient of [false, true]) {
        const r = safeParseTranscript(input, format ? { format, lenient } : { lenient });
        if (!r.ok) {
          expect(r.error).toBeInstanceOf(TranscriptError);
          expect(r.error.message).toMatch(/^\[[a-z-]+\] /);
        }
        const s = safeParseTrajectory(input, format ? { format, lenient } : { lenient });
        if (!s.ok) expect(s.error).toBeInstanceOf(TranscriptError);
      }
    }
  };
  const anyish = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.constant(null),
    fc.array(fc.anything(), { maxLength: 3 }),
    fc.object({ maxDepth: 2 }),
  );
  const item = fc.record(
    {
      type: fc.oneof(
        fc.constantFrom(
          'message',
          'function_call',
          'function_call_output',
          'custom_tool_call',
          'reasoning',
          'web_search_call',
        ),
        anyish,
      ),
      role: fc.oneof(fc.constantFrom('user', 'assistant', 'developer'), anyish),
      content: anyish,
      name: anyish,
      arguments: anyish,
      call_id: anyish,
      output: fc.oneof(
        anyish,
        fc.constant('{"output":"x","metadata":{"exit_code":3}}'),
        fc.constant('Exit code: 9'),
      ),
    },
    { requiredKeys: [] },
  );
  const codexLine = fc.oneof(
    fc.record({
      timestamp: fc.constant(at(1)),
      type: fc.constantFrom('session_meta', 'response_item', 'event_msg', 'turn_context'),
      payload: fc.oneof(item, anyish),
    }),
    item,
    fc.constant({ record_type: 'state' }),
  );
  const stepLine = fc.record(
    {
      step_index: fc.oneof(fc.integer(), anyish),
      source: fc.oneof(fc.constantFrom('USER_EXPLICIT', 'MODEL', 'SYSTEM'), anyish),
      type: fc.oneof(
        fc.constantFrom('USER_INPUT', 'PLANNER_RESPONSE', 'VIEW_FILE', 'ERROR_MESSAGE', 'CHECKPOINT'),
        anyish,
      ),
      status: fc.oneof(fc.constantFrom('DONE', 'ERROR'), anyish),
      content: fc.oneof(fc.constantFrom('<USER_REQUEST>a', '<USER_REQUEST>a</USER_REQUEST>b'), anyish),
      tool_calls: fc.oneof(
        fc.array(fc.record({ name: anyish, args: anyish }, { requiredKeys: [] }), { maxLength: 3 }),
        anyish,
      ),
      exit_code: anyish,
      error: anyish,
    },
    { requiredKeys: ['step_index', 'source', 'type'] },
  );

  it('over Codex-like and Antigravity-like lines, with fragments, as text and as values', () => {
    const line = fc.oneof(
      codexLine.map((o) => JSON.stringify(o)),
      stepLine.map((o) => JSON.stringify(o)),
      fc.constantFrom('', '{', 'ng. a fragment', '[1]', 'null', '{"timestamp":"t","type":"event_msg"}'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (lines) => {
        check(lines.join('\n'));
        const values = lines.flatMap((l) => {
          try {
            return [JSON.parse(l) as unknown];
          } catch {
            return [];
          }
        });
        check(values);
      }),
      { numRuns: 200 },
    );
  });
});

describe('linear time on adversarial input', () => {
  /** How the time grows from n/4 to 2n (test/unit/linear-time.ts: three doublings, one step allowed). */
  const growth = (make: (n: number) => string, run: (text: string) => unknown, n: number): Growth =>
    measureGrowth(run, make, doublings(n / 4));

  it('Codex: long outputs full of near-miss headers, wrappers that fail to parse, one call id reused', () => {
    const make = (n: number) => {
      const lines = [JSON.stringify(wrap(0, 'session_meta', { id: 's' }))];
      for (let i = 0; i < n; i++) {
        lines.push(
          JSON.stringify(
            wrap(1, 'response_item', {
              type: 'function_call',
              name: 'shell',
              arguments: '{',
              call_id: 'same',
            }),
          ),
        );
        const output =
          i % 2 === 0
            ? `{"metadata"${'{"output":'.repeat(200)}`
            : `${'Exit code: x\nProcess exited with code '.repeat(100)}${'<environment_context>'.repeat(50)}`;
        lines.push(
          JSON.stringify(wrap(2, 'response_item', { type: 'function_call_output', call_id: 'same', output })),
        );
        lines.push(JSON.stringify(wrap(3, 'response_item', userText('<'.repeat(300)))));
      }
      return lines.join('\n');
    };
    const g = growth(
      make,
      (text) => {
        parseTranscript(text);
        parseTrajectory(text);
      },
      600,
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('Antigravity: unclosed requests, many calls with encoded arguments, near-miss status lines', () => {
    const make = (n: number) => {
      const lines: string[] = [];
      for (let i = 0; i < n; i++) {
        lines.push(
          JSON.stringify(
            step(i, 'USER_EXPLICIT', 'USER_INPUT', { content: `${'<USER_REQUEST>'.repeat(100)}x` }),
          ),
        );
        lines.push(
          JSON.stringify(
            step(i, 'MODEL', 'PLANNER_RESPONSE', {
              tool_calls: Array.from({ length: 10 }, () => ({
                name: 'view_file',
                args: { a: `"${'\\"'.repeat(50)}`, b: '[[[[' },
              })),
            }),
          ),
        );
        for (let k = 0; k < 12; k++)
          lines.push(
            JSON.stringify(
              step(i, 'MODEL', 'RUN_COMMAND', { content: 'The command failed with exit code: '.repeat(20) }),
            ),
          );
        lines.push('ng. a fragment');
      }
      return lines.join('\n');
    };
    const g = growth(
      make,
      (text) => {
        parseTranscript(text);
        parseTrajectory(text);
      },
      120,
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});
