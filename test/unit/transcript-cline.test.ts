/**
 * Cline task histories, both layouts: detection, who typed what, tool calls and outputs, located
 * errors, never-throw property, linear growth, and the three real histories in ../shared/data/cline
 * against an independent count.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declinedCall, errorLine, TranscriptError } from '../../lib/core/index';
import { detectFormat, parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth, OBJECT_STEP, thrown } from './linear-time';

const T0 = 1_700_000_000_000;
const model = { providerId: 'anthropic', modelId: 'claude-sonnet-4', mode: 'act' };
const UI = [
  { ts: T0, type: 'say', say: 'text', text: 'Add a login page', modelInfo: model },
  { ts: T0 + 1, type: 'say', say: 'api_req_started', text: '{"request":"<task>Add a login page</task>"}' },
  { ts: T0 + 2, type: 'say', say: 'reasoning', text: 'The user wants a page.' },
  { ts: T0 + 3, type: 'say', say: 'text', text: 'I will create the page.' },
  {
    ts: T0 + 4,
    type: 'say',
    say: 'tool',
    text: '{"tool":"newFileCreated","path":"login.tsx","content":"x"}',
  },
  { ts: T0 + 5, type: 'ask', ask: 'command', text: 'npm test' },
  { ts: T0 + 6, type: 'ask', ask: 'command_output', text: '1 failed' },
  { ts: T0 + 7, type: 'say', say: 'error', text: 'Cline tried to use write_to_file without a path' },
  { ts: T0 + 8, type: 'say', say: 'completion_result', text: 'Created the login page.' },
  { ts: T0 + 9, type: 'ask', ask: 'completion_result', text: '' },
  { ts: T0 + 10, type: 'say', say: 'user_feedback', text: 'Use the existing Button component.' },
  { ts: `${T0 + 11}`, type: 'say', say: 'checkpoint_created' },
];

const API = [
  {
    role: 'user',
    ts: T0,
    content: [
      { type: 'text', text: '<task>\nAdd a login page\n</task>' },
      { type: 'text', text: '<environment_details>\n# Open Tabs\n</environment_details>' },
    ],
  },
  {
    role: 'assistant',
    ts: T0 + 1,
    content: [
      { type: 'text', text: 'Creating it.' },
      { type: 'tool_use', id: 't1', name: 'execute_command', input: { command: 'ls [a]' } },
    ],
  },
  {
    role: 'user',
    ts: T0 + 2,
    content: [
      { type: 'text', text: "[execute_command for 'ls [a]'] Result:" },
      { type: 'text', text: 'Command failed with exit code 2.' },
      { type: 'text', text: '<environment_details>\n</environment_details>' },
    ],
  },
  { role: 'assistant', ts: T0 + 3, content: [{ type: 'text', text: 'Done.' }] },
  {
    role: 'user',
    ts: T0 + 4,
    content: [
      { type: 'text', text: '[attempt_completion] Result:' },
      {
        type: 'text',
        text: 'The user has provided feedback on the results.\n<feedback>\nNo, use pnpm.\n</feedback>',
      },
      { type: 'text', text: '[TASK RESUMPTION] This task was interrupted 3 minutes ago.' },
    ],
  },
];

/**
 * The tool results Cline's API history gives for one task: the assistant's calls (`[id, name,
 * input]`), then one user item holding `blocks` (the `[name] Result:` texts) as text blocks.
 */
function toolResults(calls: [string, string, Record<string, string>][], blocks: string[]) {
  return parseTranscript([
    { role: 'user', ts: T0, content: [{ type: 'text', text: '<task>\nFix it\n</task>' }] },
    {
      role: 'assistant',
      ts: T0 + 1,
      content: calls.map(([id, name, input]) => ({ type: 'tool_use', id, name, input })),
    },
    { role: 'user', ts: T0 + 2, content: blocks.map((text) => ({ type: 'text', text })) },
  ]).messages.filter((m) => m.role === 'tool');
}

describe('cline', () => {
  it('detects both layouts by content', () => {
    expect(detectFormat(JSON.stringify(UI))).toBe('cline');
    expect(detectFormat(API)).toBe('cline');
    // An Anthropic array without Cline's wrappers stays anthropic.
    expect(
      detectFormat([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] }]),
    ).toBe('anthropic');
  });

  it('ui_messages: the task and each user_feedback are the person; tools, outputs, errors are events', () => {
    const t = parseTranscript(UI);
    expect(t.format).toBe('cline');
    expect(t.messages.map((m) => [m.role, m.toolName ?? '', m.isError ?? false])).toEqual([
      ['user', '', false],
      ['assistant', '', false],
      ['assistant', 'newFileCreated', false],
      ['assistant', 'execute_command', false],
      ['tool', 'execute_command', false],
      ['tool', 'cline', true],
      ['assistant', '', false],
      ['user', '', false],
    ]);
    expect(t.messages[0]).toMatchObject({ content: 'Add a login page', ts: new Date(T0).toISOString() });
    expect(t.messages[4]!.toolUseId).toBe(t.messages[3]!.toolUseId);
    expect(t.meta).toEqual({ agent: 'cline', models: ['claude-sonnet-4'] });
    expect(t.ignoredKinds).toMatchObject({ api_req_started: 1, reasoning: 1, checkpoint_created: 1 });
  });

  it("ui_messages: a followup is the agent's question, a plan-mode answer its response; options are buttons", () => {
    const ask = (text: string) =>
      parseTranscript(
        JSON.stringify([
          { ts: T0, type: 'say', say: 'text', text: 'Add a login page' },
          { ts: T0 + 1, type: 'ask', ask: 'followup', text },
        ]),
      ).messages[1]!;
    const json = ask(JSON.stringify({ question: 'Which auth provider?', options: ['GitHub', 'Google'] }));
    expect([json.role, json.content]).toEqual(['assistant', 'Which auth provider?']);
    // Older versions wrote the question itself; text that only looks like JSON stays as written.
    expect(ask('Which auth provider should I use?').content).toBe('Which auth provider should I use?');
    expect(ask('{not json, but a brace} which provider?').content).toBe(
      '{not json, but a brace} which provider?',
    );
    expect(ask(JSON.stringify({ options: ['a'] })).content).toBe('{"options":["a"]}');
    // A plan-mode answer in the same shape: its response.
    const plan = parseTranscript(
      JSON.stringify([
        { ts: T0, type: 'say', say: 'text', text: 'Plan the login page' },
        {
          ts: T0 + 1,
          type: 'ask',
          ask: 'plan_mode_respond',
          text: JSON.stringify({ response: 'First add the route, then the form.', options: ['Go'] }),
        },
      ]),
    ).messages[1]!;
    expect([plan.role, plan.content]).toEqual(['assistant', 'First add the route, then the form.']);
  });

  it('api history: tagged text is the person, the rest is flagged or ignored', () => {
    const t = parseTranscript(API);
    const users = t.messages.filter((m) => m.role === 'user');
    expect(users.filter((m) => !m.synthetic).map((m) => m.content)).toEqual([
      'Add a login page',
      'No, use pnpm.',
    ]);
    // The feedback wrapper shares its block with the tag (only the tagged text is kept); the
    // resumption notice is all harness.
    expect(users.filter((m) => m.synthetic).map((m) => m.content)).toEqual([
      '[TASK RESUMPTION] This task was interrupted 3 minutes ago.',
    ]);
    expect(users.find((m) => m.synthetic)!.synthetic).toBe('hook');
    const tools = t.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => [m.toolName, m.content])).toEqual([
      ['execute_command', "[execute_command for 'ls [a]'] Result:"],
      ['execute_command', 'Command failed with exit code 2.'],
      ['attempt_completion', '[attempt_completion] Result:'],
    ]);
    expect(t.messages.find((m) => m.toolName === 'execute_command' && m.role === 'assistant')).toBeDefined();
    expect(t.ignoredKinds.environment).toBe(2);
  });

  it('api history: each result answers the call of its name before it; a denied call failed', () => {
    const t = parseTranscript(API);
    const tools = t.messages.filter((m) => m.role === 'tool');
    // The header block and the body after it answer the call `t1`; attempt_completion made no call.
    expect(tools.map((m) => m.toolUseId ?? null)).toEqual(['t1', 't1', null]);
    const results = toolResults(
      [
        ['r1', 'read_file', { path: '.env' }],
        ['w1', 'write_to_file', { path: '.env', content: 'A=1' }],
        ['w2', 'write_to_file', { path: 'b', content: 'B=1' }],
      ],
      [
        "[read_file for '.env'] Result:\n1 | A=0",
        "[write_to_file for '.env'] Result:\nThe user denied this operation. The file was not updated, and maintains its original contents.",
        "[write_to_file for 'b'] Result:\nThe content was successfully saved to b.",
      ],
    );
    expect(results.map((m) => [m.toolUseId, m.isError ?? false])).toEqual([
      ['r1', false],
      ['w1', true],
      ['w2', false],
    ]);
    // A declined call is the person's feedback, not a failure for the snapshot to list.
    expect(declinedCall(results[1]!.content)).toBe(true);
    expect(declinedCall(results[2]!.content)).toBe(false);
  });

  it('api history: a command that exited non-zero failed, in the header block or the one after', () => {
    const run = (blocks: string[]) =>
      toolResults([['c1', 'execute_command', { command: 'npm run build' }]], blocks);
    const head = "[execute_command for 'npm run build'] Result:";
    const failed = run([
      `${head}\nCommand failed with exit code 2.\nOutput:\nsrc/a.ts(1,2): error TS2304: x`,
    ]);
    expect(failed.map((m) => [m.toolUseId, m.isError])).toEqual([['c1', true]]);
    expect(declinedCall(failed[0]!.content)).toBe(false);
    // What the snapshot shows is the compiler's line, not Cline's header (which names the command).
    expect(errorLine(failed[0]!.content).line).toBe('src/a.ts(1,2): error TS2304: x');
    const split = run([head, 'Command failed with exit code 1.']);
    expect(split.map((m) => m.isError ?? false)).toEqual([false, true]);
    const ok = run([`${head}\nCommand executed successfully (exit code 0).\nOutput:\nno errors`]);
    expect(ok.map((m) => m.isError ?? false)).toEqual([false]);
  });

  it('malformed input throws a located TranscriptError', () => {
    const broken = '[\n  {"ts": 1, "type": "say", "say": "text", "text": "hi"},\n  {"ts": 2,, }\n]';
    const err = thrown<TranscriptError>(() => parseTranscript(broken, { format: 'cline' }));
    expect(err).toBeInstanceOf(TranscriptError);
    expect(err.message).toMatch(/^\[cline\] Input is not valid JSON: .+ \(line 3, column 12\)$/);
    const item = thrown<TranscriptError>(() =>
      parseTranscript([UI[0], { ts: 1, type: 'note', text: 'x' }], { format: 'cline' }),
    );
    expect(item.message).toBe('[cline] Item is not a Cline message ({ts, type: say|ask}) (index 1)');
    const lenient = parseTranscript([UI[0], 7], { format: 'cline', lenient: true });
    expect(lenient.skipped).toEqual([{ index: 1, reason: 'Item is not an object, got number' }]);
  });

  it('never throws anything but a TranscriptError (property)', () => {
    const uiItem = fc.record({
      ts: fc.oneof(fc.integer(), fc.string({ maxLength: 5 })),
      type: fc.constantFrom('say', 'ask', 'other'),
      say: fc.constantFrom('text', 'user_feedback', 'tool', 'command_output', 'error', 'x'),
      ask: fc.constantFrom('command', 'followup', 'resume_task'),
      text: fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(null)),
    });
    const apiItem = fc.record({
      role: fc.constantFrom('user', 'assistant', 'x'),
      content: fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.array(
          fc.record({
            type: fc.constantFrom('text', 'tool_use', 'tool_result', 'image'),
            text: fc.oneof(
              fc.constantFrom('<task>a</task>', '[x for y] Result:', '<environment_details>', '<feedback>'),
              fc.string({ maxLength: 20 }),
            ),
          }),
          { maxLength: 4 },
        ),
      ),
    });
    fc.assert(
      fc.property(
        fc.oneof(fc.array(uiItem, { maxLength: 8 }), fc.array(apiItem, { maxLength: 8 }), fc.string()),
        (v) => {
          const r = safeParseTranscript(v, { format: 'cline' });
          if (!r.ok) expect(r.error).toBeInstanceOf(TranscriptError);
        },
      ),
      { numRuns: 400 },
    );
  });

  it.each([
    ['unclosed <task> tags', (n: number) => `<task>${'<task> '.repeat(n)}`],
    ['a result header with brackets and no close', (n: number) => `[x for '${'['.repeat(n)}`],
  ])('stays linear on %s (time at 2x / time at 1x ≤ 3)', (_, make) => {
    const input = (n: number) => [
      {
        role: 'user',
        content: [
          { type: 'text', text: make(n) },
          { type: 'text', text: make(n) },
        ],
      },
      { role: 'assistant', content: 'ok' },
    ];
    const parse = (v: unknown) => safeParseTranscript(v, { format: 'cline' });
    const g = measureGrowth(parse, input, { ...doublings(12_500), sizeOf: (v) => JSON.stringify(v).length });
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ ts: i, type: 'say', say: 'user_feedback', text: 'x' }));
    // 500 to 8,000 messages: under OBJECT_STEP (linear-time.ts), where the output array's own step lies.
    const h = measureGrowth((v: unknown) => parseTranscript(v), many, doublings(OBJECT_STEP / 16, 4));
    expect(h.excess, describeGrowth(h)).toBeLessThanOrEqual(1);
  });
});

const DIR = resolve(import.meta.dirname, '../../../shared/data/cline');
const present = existsSync(DIR);
if (!present) console.warn(`transcript-cline: ${DIR} is absent, skipping the real-data walk`);

/** Independent count of what a person typed, from the raw JSON. */
function humanCount(value: unknown[]): number {
  const first = value[0] as Record<string, unknown>;
  if ('role' in first) {
    let n = 0;
    for (const m of value as { role: string; content: { type: string; text?: string }[] }[]) {
      if (m.role !== 'user') continue;
      for (const b of m.content) {
        if (b.type !== 'text' || b.text!.trimStart().startsWith('<environment_details>')) continue;
        n += (b.text!.match(/<(task|feedback|answer|user_message)>[\s\S]*?<\/\1>/g) ?? []).filter(
          (s) => s.replace(/<\/?[a-z_]+>/g, '').trim() !== '',
        ).length;
      }
    }
    return n;
  }
  const items = value as { type: string; say?: string }[];
  const task = items.findIndex((m) => m.type === 'say' && (m.say === 'text' || m.say === 'task'));
  return (task >= 0 ? 1 : 0) + items.filter((m) => m.type === 'say' && m.say === 'user_feedback').length;
}

describe.skipIf(!present)('real Cline histories in ../shared/data/cline', () => {
  it('every history parses; human turns match the independent count and SOURCES.jsonl', () => {
    const rows = readFileSync(join(DIR, 'SOURCES.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; human_turns: number });
    expect(rows.length).toBe(3);
    const totals = { files: 0, sessions: 0, human: 0, synthetic: 0, toolCalls: 0, toolOutputs: 0 };
    for (const row of rows) {
      const text = readFileSync(join(DIR, row.file), 'utf8');
      const t = parseTranscript(text);
      expect(t.format, row.file).toBe('cline');
      const human = t.messages.filter((m) => m.role === 'user' && !m.synthetic).length;
      expect(human, row.file).toBe(humanCount(JSON.parse(text)));
      if (row.file.endsWith('api_conversation_history.json')) {
        // SOURCES.jsonl says 31; the tags hold 34 spans (1 task, 11 feedback, 10 user_message,
        // 12 answer). The answers include option buttons the person clicked ("Approved - Proceed to
        // Phase 2") and one message sent twice; which three the curator left out is not recorded.
        expect(human - row.human_turns).toBe(3);
      } else expect(human, row.file).toBe(row.human_turns);
      totals.files++;
      totals.sessions++;
      totals.human += human;
      totals.synthetic += t.messages.filter((m) => m.role === 'user' && m.synthetic).length;
      totals.toolCalls += t.messages.filter((m) => m.role === 'assistant' && m.toolName).length;
      totals.toolOutputs += t.messages.filter((m) => m.role === 'tool').length;
    }
    console.log(`cline totals: ${JSON.stringify(totals)}`);
  });
});
