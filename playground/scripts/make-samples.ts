/**
 * Writes the bundled samples (public/samples/*) and their manifest: small excerpts of the real data in
 * ../shared/data (each with its upstream licence and source), run through rearview/redact so no email
 * address or token is committed, plus three hand-written examples. Run once, commit the output:
 *
 *   npx tsx --tsconfig tsconfig.test.json playground/scripts/make-samples.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { redact } from 'rearview/redact';
import type { SampleMeta } from '../src/state-types';

const ROOT = resolve(import.meta.dirname, '../..');
const DATA = resolve(ROOT, '../shared/data');
const OUT = join(ROOT, 'public/samples');

const samples: SampleMeta[] = [];

function licenceOf(dir: string, file = 'LICENSE'): string {
  const text = readFileSync(join(DATA, dir, file), 'utf8');
  const name = text.split('\n')[0]!.trim();
  const copyright = text.split('\n').find((l) => l.startsWith('Copyright')) ?? '';
  return `${name}, ${copyright.trim()}`;
}

function sourceOf(dir: string): string {
  return readFileSync(join(DATA, dir, 'SOURCE.txt'), 'utf8')
    .trim()
    .replace(/^source:\s*/, '');
}

function add(meta: Omit<SampleMeta, 'redactions'>, text: string, check?: (t: string) => void) {
  const r = redact(text);
  check?.(r.text);
  writeFileSync(join(OUT, meta.file), r.text);
  samples.push({ ...meta, redactions: r.count });
  process.stderr.write(`${meta.file}: ${r.text.length} chars, ${r.count} redactions\n`);
}

const lines = (text: string, from: number, to: number) =>
  text
    .split('\n')
    .slice(from - 1, to)
    .join('\n');

// Claude Code console: day 2 of BookMinder, the stretch with corrections and friction.
const day2 = readFileSync(join(DATA, 'claude-code-console/day-002.md'), 'utf8');
add(
  {
    id: 'console',
    title: 'Claude Code console: a day of corrections',
    format: 'claude-code-console',
    file: 'bookminder-day-002.md',
    description: 'A developer steering Claude Code through a TDD setup (lines 880–1800 of day 2).',
    source: `${sourceOf('claude-code-console')} — claude-dev-log-diary/day-002.md, lines 880–1800`,
    licence: licenceOf('claude-code-console'),
  },
  lines(day2, 880, 1800),
);

// Claude Code JSONL: the short session, whole.
add(
  {
    id: 'claude-jsonl',
    title: 'Claude Code session log (JSONL)',
    format: 'claude-code-jsonl',
    file: 'claude-code-short.jsonl',
    description: 'A short real ~/.claude/projects session: prompts, tool calls the user declined.',
    source: `${sourceOf('claude-code-jsonl')} — short.jsonl`,
    licence: licenceOf('claude-code-jsonl'),
  },
  readFileSync(join(DATA, 'claude-code-jsonl/short.jsonl'), 'utf8'),
);

// ShareGPT: a conversation where the user pushes back.
add(
  {
    id: 'sharegpt',
    title: 'ShareGPT conversation',
    format: 'sharegpt',
    file: 'sharegpt-8a6K0Ju_21.json',
    description:
      'A user-shared ChatGPT chat about a screenshot script, with a request to stop repeating advice.',
    source: `${sourceOf('sharegpt')} — sampled_enriched_data, segment 8a6K0Ju_21`,
    licence: licenceOf('sharegpt'),
  },
  readFileSync(join(DATA, 'sharegpt/conversations/8a6K0Ju_21.json'), 'utf8'),
  (t) => JSON.parse(t),
);

// SWE-agent: the function-calling demonstration, whole.
add(
  {
    id: 'swe-agent',
    title: 'SWE-agent trajectory (.traj)',
    format: 'swe-agent',
    file: 'swe-agent-function-calling.traj',
    description: 'SWE-agent fixing a test repository with function calls.',
    source: `${sourceOf('swe-agent')} — tests/test_data/trajectories/function_calling_simple.traj`,
    licence: licenceOf('swe-agent'),
  },
  readFileSync(join(DATA, 'swe-agent/function_calling_simple.traj'), 'utf8'),
  (t) => JSON.parse(t),
);

// mini-swe-agent: the first messages of a SWE-bench Verified run (system prompt and long outputs trimmed).
{
  const raw = JSON.parse(readFileSync(join(DATA, 'mini-swe-agent/psf__requests-1142.traj.json'), 'utf8'));
  // Long tool outputs keep their head and the closing tag, so the step still parses.
  const trimOutput = (s: string) =>
    s.length <= 1800 ? s : `${s.slice(0, 1500)}\n[… trimmed for the sample]\n${s.slice(-200)}`;
  const trim = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n)}\n[… trimmed for the sample]`);
  const messages = (raw.messages as { role: string; content: string }[]).slice(0, 22).map((m, i) => ({
    role: m.role,
    content: i === 0 ? trim(m.content, 600) : i === 1 ? trim(m.content, 1600) : trimOutput(m.content),
  }));
  const excerpt = {
    info: { exit_status: raw.info.exit_status, submission: '', mini_version: raw.info.mini_version },
    messages,
    trajectory_format: raw.trajectory_format,
    instance_id: raw.instance_id,
  };
  add(
    {
      id: 'mini-swe-agent',
      title: 'mini-swe-agent trajectory (.traj.json)',
      format: 'mini-swe-agent',
      file: 'psf__requests-1142.traj.json',
      description: 'Gemini 3 Pro on SWE-bench Verified psf/requests#1142: the first 10 steps.',
      source: `${sourceOf('mini-swe-agent')} — psf__requests-1142, first 22 messages (system prompt, task and long outputs trimmed)`,
      licence: licenceOf('mini-swe-agent', 'LICENSE.md'),
    },
    `${JSON.stringify(excerpt, null, 1)}\n`,
    (t) => JSON.parse(t),
  );
}

// Hand-written examples (no upstream licence: part of rearview, MIT).
const OWN = 'rearview (hand-written for the playground)';
add(
  {
    id: 'plain',
    title: 'Pasted plain text',
    format: 'plain',
    file: 'plain-chat.txt',
    description: 'A hand-written chat with a correction, a preference and a repeated instruction.',
    source: OWN,
    licence: 'MIT (this project)',
  },
  `User: Add a REST endpoint that lists the open invoices for a customer.
Assistant: I'll add a GraphQL query \`openInvoices(customerId)\` to schema.graphql and a resolver in src/resolvers/invoices.ts.
User: No, not GraphQL. I said REST endpoint. GET /customers/:id/invoices?status=open.
Assistant: Understood. I added the route in src/routes/invoices.ts and a handler that filters by status. The test in test/invoices.test.ts is failing: expected 200, got 500.
User: I prefer small handlers: put the query in src/db/invoices.ts and keep the route thin.
Assistant: Moved the query to src/db/invoices.ts. The test still fails with "TypeError: cannot read properties of undefined (reading 'rows')". Maybe the test database is not migrated.
User: As I mentioned, run the migrations before the tests. It's in the README again.
Assistant: Ran npm run migrate:test, then the suite: 14 passed. Next I should add pagination, and check whether open includes partially paid invoices?
User: Perfect. From now on always run the migrations before the test suite.
`,
);
add(
  {
    id: 'anthropic',
    title: 'Anthropic Messages JSON',
    format: 'anthropic',
    file: 'anthropic-messages.json',
    description: 'A hand-written Messages API conversation with a tool call that fails.',
    source: OWN,
    licence: 'MIT (this project)',
  },
  `${JSON.stringify(
    {
      system: 'You are a coding agent working in the repository at /srv/app.',
      messages: [
        { role: 'user', content: 'The nightly export job crashes. Find out why and fix it.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'I will look at the job log first.' },
            {
              type: 'tool_use',
              id: 'toolu_01',
              name: 'bash',
              input: { command: 'tail -n 20 logs/export.log' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01',
              is_error: true,
              content: 'Error: ENOENT: no such file or directory, open logs/export.log',
            },
          ],
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'text',
              text: 'The log is not where I expected. Maybe the job writes to /var/log/app/export.log.',
            },
            {
              type: 'tool_use',
              id: 'toolu_02',
              name: 'bash',
              input: { command: 'tail -n 20 /var/log/app/export.log' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_02',
              content: 'RangeError: Invalid time value at formatDate (src/export/csv.ts:42)',
            },
          ],
        },
        { role: 'user', content: "Actually, don't touch the date library. The bug is in csv.ts." },
        {
          role: 'assistant',
          content:
            'Fixed src/export/csv.ts:42 to skip rows without a date. Next: add a test for empty dates.',
        },
      ],
    },
    null,
    2,
  )}\n`,
);
add(
  {
    id: 'openai',
    title: 'OpenAI chat JSON',
    format: 'openai',
    file: 'openai-chat.json',
    description: 'A hand-written Chat Completions conversation with tool calls.',
    source: OWN,
    licence: 'MIT (this project)',
  },
  `${JSON.stringify(
    [
      { role: 'system', content: 'You help with spreadsheets.' },
      { role: 'user', content: 'Sum column B of report.xlsx, but skip the header row.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'read_sheet', arguments: '{"file":"report.xlsx"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"rows": 120, "columns": ["Region", "Revenue"]}' },
      { role: 'assistant', content: 'The sum of column B including the header is 1,204,330.' },
      {
        role: 'user',
        content: 'That is wrong, I said skip the header. And please always show the formula you used.',
      },
      {
        role: 'assistant',
        content: 'Sorry. =SUM(B2:B120) gives 1,204,330; the header is text, so it was not counted.',
      },
    ],
    null,
    2,
  )}\n`,
);

writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify({ samples }, null, 2)}\n`);
