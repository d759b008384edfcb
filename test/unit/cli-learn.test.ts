/**
 * `rearview learn` (cli/learn.ts built to dist/cli, on the built dist/lib), in-process through the dispatcher's main():
 * folders walked, the section on stdout and the summary on stderr, --json, --diff (applied back with
 * patch), --against contradictions, --budget, --min-sessions, exit codes, redaction of everything
 * printed, and the progress line.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { startMockOpenAi } from '../llm/mock-openai';
import { builtCli } from './built-cli';
import { session } from './learn-helpers';

const root = join(import.meta.dirname, '../..');
type Main = (argv: string[], io?: Record<string, unknown>) => Promise<number>;
let main: Main;
let tmp: string;

const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz01234567-AbCdEf';

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/lib/learn/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  ({ main } = (await import(await builtCli())) as { main: Main });
  tmp = mkdtempSync(join(tmpdir(), 'rearview-learn-'));
  mkdirSync(join(tmp, 'sessions/nested'), { recursive: true });
  mkdirSync(join(tmp, 'sessions/node_modules'), { recursive: true });
  const fix = `No, use pnpm instead of npm. My key is ${KEY} by the way.`;
  writeFileSync(join(tmp, 'sessions/a.jsonl'), session('2025-01-01', fix));
  writeFileSync(join(tmp, 'sessions/b.jsonl'), session('2025-02-01', fix));
  writeFileSync(join(tmp, 'sessions/nested/c.jsonl'), session('2025-03-01', fix));
  writeFileSync(
    join(tmp, 'sessions/nested/one-off.jsonl'),
    // A correction the reader (the CLI's default) reports with room to spare: "No, always run the
    // linter first." alone scores 0.62, a hundredth under its lower threshold.
    session('2025-03-02', 'No, you should always run the linter first.'),
  );
  writeFileSync(join(tmp, 'sessions/node_modules/x.jsonl'), session('2025-03-03', fix));
  writeFileSync(join(tmp, 'sessions/notes.md'), 'just some notes, not a session');
  writeFileSync(join(tmp, 'sessions/image.png'), 'not read');
  writeFileSync(join(tmp, 'AGENTS.md'), '# Agents\n\n- Use npm to install dependencies.\n');
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function run(argv: string[], tty = false, env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await main(['learn', ...argv], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: tty },
    env,
  });
  return { code, out, err };
}

describe('rearview learn', () => {
  it('walks folders and prints the section on stdout, the summary on stderr', async () => {
    const r = await run([join(tmp, 'sessions')]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      '## Learned from sessions\n\n### Corrections\n\n- Use pnpm instead of npm. _(3 sessions, 2025-01-01 – 2025-03-01)_\n',
    );
    expect(r.err).toContain(
      'learn: 5 files, 4 sessions, 8 human turns → 1 rule (evidence from ≥ 2 sessions)',
    );
    expect(r.err).toContain('Always run the linter first. (1 session)');
    expect(r.err).toContain('skipped notes.md');
    expect(r.err).not.toContain('node_modules');
    expect(r.out + r.err).not.toContain(KEY.slice(0, 20));
  });

  it('counts the skipped files by reason past five, and names the first five', async () => {
    const dir = join(tmp, 'many-notes');
    mkdirSync(dir, { recursive: true });
    for (let i = 1; i <= 7; i++)
      writeFileSync(join(dir, `note-${i}.md`), `# Note ${i}\n\nNo transcript here.\n`);
    writeFileSync(join(dir, 'a.jsonl'), session('2025-01-01', 'No, use pnpm instead of npm.'));
    const r = await run([dir]);
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      '7 files skipped (7 learn_source_unrecognised; --json lists them all), the first ones:',
    );
    expect(r.err.match(/ {2}skipped note-\d\.md/g)).toHaveLength(5);
    const json = await run([dir, '--json']);
    expect(JSON.parse(json.out).skipped).toHaveLength(7);
  });

  it('prints JSON with evidence and dates, redacted', async () => {
    const r = await run([join(tmp, 'sessions'), '--json', '--min-sessions', '1']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.rules.map((x: { text: string }) => x.text)).toEqual([
      'Use pnpm instead of npm.',
      'Always run the linter first.',
    ]);
    expect(json.rules[0].evidence[0]).toMatchObject({ session: 'a.jsonl', message: 'u2', line: 3 });
    expect(json.rules[0].evidence[0].quote).toContain('[anthropic-key-1]');
    expect(r.out).not.toContain(KEY.slice(0, 20));
  });

  it('diffs against the existing file, reports the contradiction, and the diff applies with patch', async (ctx) => {
    const agents = join(tmp, 'AGENTS.md');
    const r = await run([join(tmp, 'sessions'), '--against', agents, '--diff']);
    expect(r.code).toBe(0);
    expect(r.out.startsWith('--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -1,3 +1,9 @@\n')).toBe(true);
    expect(r.err).toContain(
      `${agents}:3 is contradicted by 3 sessions (last on 2025-03-01): "- Use npm to install dependencies." vs "Use pnpm instead of npm."`,
    );
    try {
      execFileSync('patch', ['--version']);
    } catch {
      ctx.skip();
    }
    const copy = join(tmp, 'patched');
    mkdirSync(copy, { recursive: true });
    writeFileSync(join(copy, 'AGENTS.md'), readFileSync(agents));
    execFileSync('patch', ['-p1', '-s'], { cwd: copy, input: r.out });
    expect(readFileSync(join(copy, 'AGENTS.md'), 'utf8')).toBe(
      '# Agents\n\n- Use npm to install dependencies.\n\n## Learned from sessions\n\n### Corrections\n\n- Use pnpm instead of npm. _(3 sessions, 2025-01-01 – 2025-03-01)_\n',
    );
  });

  it('keeps to the budget', async () => {
    const r = await run([join(tmp, 'sessions'), '--min-sessions', '1', '--budget', '40', '--json']);
    const json = JSON.parse(r.out);
    expect(json.stats.tokens).toBeLessThanOrEqual(40);
    expect(json.rules.length + json.overBudget.length).toBe(2);
  });

  it('says which lines of the file the sessions repeat, with how often and when', async () => {
    const agents = join(tmp, 'AGENTS-linter.md');
    writeFileSync(agents, '# Agents\n\n- Always run the linter first.\n');
    const r = await run([join(tmp, 'sessions'), '--against', agents, '--min-sessions', '1']);
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      `${agents}:3 already says: Always run the linter first. (said again in 1 session, last on 2025-03-02)`,
    );
    const json = JSON.parse(
      (await run([join(tmp, 'sessions'), '--against', agents, '--min-sessions', '1', '--json'])).out,
    );
    expect(json.alreadyThere[0]).toMatchObject({
      sessions: 1,
      count: 1,
      lastDate: '2025-03-02T10:01:00.000Z',
    });
    expect(json.alreadyThere[0].evidence[0]).toMatchObject({
      session: 'nested/one-off.jsonl',
      message: 'u2',
    });
  });

  it('counts only evidence since --since, and refuses what is not a date', async () => {
    // The pnpm correction was said on 2025-01-01, 02-01 and 03-01; the linter one on 03-02.
    const r = await run([join(tmp, 'sessions'), '--since', '2025-02-15', '--min-sessions', '1', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    // One session each: the later one ranks first.
    expect(json.rules.map((x: { text: string; sessions: number }) => [x.text, x.sessions])).toEqual([
      ['Always run the linter first.', 1],
      ['Use pnpm instead of npm.', 1],
    ]);
    expect(json.filtered['before since']).toBe(2);
    const text = await run([join(tmp, 'sessions'), '--since=2025-02-15']);
    expect(text.err).toContain('left out: 2 before since');
    for (const bad of ['yesterday', '2025-13-45', '2025-02-30', '']) {
      const e = await run([join(tmp, 'sessions'), `--since=${bad}`]);
      expect(e.code, bad).toBe(2);
      if (bad) expect(e.err).toContain('since: must be a date');
    }
    expect((await run([join(tmp, 'sessions'), '--since'])).code).toBe(2);
  });

  it('reads --flag=value as --flag value, and refuses a value on a switch', async () => {
    const spaced = await run([join(tmp, 'sessions'), '--min-sessions', '1', '--budget', '40', '--json']);
    const glued = await run([join(tmp, 'sessions'), '--min-sessions=1', '--budget=40', '--json']);
    expect(glued.code).toBe(0);
    expect(glued.out).toBe(spaced.out);
    const against = await run([join(tmp, 'sessions'), `--against=${join(tmp, 'AGENTS.md')}`, '--diff']);
    expect(against.code).toBe(0);
    expect(against.out).toBe(
      (await run([join(tmp, 'sessions'), '--against', join(tmp, 'AGENTS.md'), '--diff'])).out,
    );
    const refused = await run([join(tmp, 'sessions'), '--json=yes']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--json takes no value');
    expect((await run([join(tmp, 'sessions'), '--budget='])).code).toBe(2);
    expect((await run([join(tmp, 'sessions'), '--against='])).code).toBe(2);
  });

  it('draws a progress line on a terminal only', async () => {
    expect((await run([join(tmp, 'sessions')], true)).err).toMatch(
      /\rlearn: \d+ files, [\d.]+\/[\d.]+ MB, \d+ sessions, \d+ rules/,
    );
    expect((await run([join(tmp, 'sessions')], false)).err).not.toContain('\r');
  });

  it('prints file names without bidi controls, and keeps them escaped in JSON', async () => {
    // U+202E reverses what follows on a terminal: a file name could show as another name.
    const dir = join(tmp, 'bidi');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.jsonl'), session('2025-01-01', 'No, use pnpm instead of npm.'));
    writeFileSync(join(dir, 'notes\u202egpj.md'), 'just notes');
    const text = await run([dir]);
    expect(text.err).toContain('skipped notesgpj.md');
    expect(text.err).not.toContain('\u202e');
    const json = await run([dir, '--json']);
    expect(json.out).not.toContain('\u202e');
    expect(json.out).toContain('notes\\u202egpj.md');
    expect(JSON.parse(json.out).skipped[0].name).toBe('notes\u202egpj.md');
  });

  it('exits 2 on usage errors and 1 on input errors', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['--bogus', tmp])).code).toBe(2);
    expect((await run([tmp, '--json', '--diff'])).code).toBe(2);
    expect((await run([tmp, '--budget', 'x'])).code).toBe(2);
    expect((await run([tmp, '--min-sessions'])).code).toBe(2);
    const missing = await run([join(tmp, 'nope')]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no such file or folder');
    const blank = await run(['']);
    expect(blank.code).toBe(1);
    expect(blank.err).toBe('rearview learn: an empty path: give a session file or a folder\n');
    expect((await run([join(tmp, 'sessions'), '--against', join(tmp, 'nope.md')])).code).toBe(1);
    expect((await run([join(tmp, 'sessions/notes.md')])).code).toBe(1);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: rearview learn');
  });
});

describe('rearview learn --llm', () => {
  let mock: MockAnthropic;
  let env: Record<string, string>;
  beforeAll(async () => {
    mock = await startMockAnthropic();
    env = { ANTHROPIC_API_KEY: 'sk-ant-learn-cli-test', ANTHROPIC_BASE_URL: mock.url };
  });
  afterAll(() => mock?.close());

  it('asks the model once, with the estimate printed before and the reported tokens after', async () => {
    mock.reset();
    mock.script([
      {
        kind: 'json',
        text: '[{"id":"r1","text":"Use pnpm, not npm, to install dependencies."}]',
        usage: { input_tokens: 321, output_tokens: 17 },
      },
    ]);
    const r = await run([join(tmp, 'sessions'), '--llm'], false, env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('- Use pnpm, not npm, to install dependencies. _(3 sessions');
    const asked = r.err.indexOf('learn: asking the model to review the rules: about ');
    const reported = r.err.indexOf('  model: 321 input + 17 output tokens reported (estimated about ');
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(reported).toBeGreaterThan(asked);
    expect(r.err).toContain('1 rule rewritten, 0 dropped, 0 rewrites refused by the rule judge');
    expect(mock.requests).toHaveLength(1);
    // What reaches the model is the rules, redacted: never the key a session pasted.
    expect(JSON.stringify(mock.requests[0]!.body)).toContain('Use pnpm instead of npm.');
    expect(JSON.stringify(mock.requests[0]!.body)).not.toContain(KEY.slice(0, 20));
  });

  it('does not call the model when the estimate is over --llm-max-tokens, and says so', async () => {
    mock.reset();
    const r = await run([join(tmp, 'sessions'), '--llm', '--llm-max-tokens', '10'], false, env);
    expect(r.code, r.err).toBe(0);
    expect(mock.requests).toHaveLength(0);
    expect(r.out).toContain('- Use pnpm instead of npm.');
    expect(r.err).toMatch(
      / {2}model: not called: about \d+ input and at most \d+ output tokens is over --llm-max-tokens 10/,
    );
  });

  it('keeps the rules as read when the model fails or replies with a rewrite the judge refuses', async () => {
    mock.reset();
    mock.script([
      {
        kind: 'status',
        status: 400,
        body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } },
      },
    ]);
    const failed = await run([join(tmp, 'sessions'), '--llm'], false, env);
    expect(failed.code, failed.err).toBe(0);
    expect(failed.out).toContain('- Use pnpm instead of npm.');
    expect(failed.err).toMatch(/ {2}model: failed: .*; the rules are as read/);
    mock.script([{ kind: 'json', text: '[{"id":"r1","text":"Do that."}]' }]);
    const refused = await run([join(tmp, 'sessions'), '--llm'], false, env);
    expect(refused.out).toContain('- Use pnpm instead of npm.');
    expect(refused.err).toContain('0 rules rewritten, 0 dropped, 1 rewrite refused by the rule judge');
  });

  it('replays recorded replies with --fixtures, without a network', async () => {
    const { recordingClient, fixturesToJsonl } = await import(join(root, 'dist/lib/llm/index.js'));
    const { learn } = await import(join(root, 'dist/lib/learn/index.js'));
    const rec = recordingClient({
      complete: async () => ({
        text: '[{"id":"r1","text":"Install dependencies with pnpm."}]',
        usage: { inputTokens: 50, outputTokens: 9 },
        latencyMs: 1,
        model: 'm',
      }),
    });
    // The same sources in the same order as the CLI reads them, so the request is the same.
    const dir = join(tmp, 'fixture-sessions');
    mkdirSync(dir, { recursive: true });
    for (const [name, day] of [
      ['a.jsonl', '2025-01-01'],
      ['b.jsonl', '2025-02-01'],
    ] as const)
      writeFileSync(join(dir, name), session(day, 'No, use pnpm instead of npm.'));
    await learn(
      ['a.jsonl', 'b.jsonl'].map((n) => ({ name: n, text: readFileSync(join(dir, n), 'utf8') })),
      { llm: rec },
    );
    const fixtures = join(tmp, 'learn-fixtures.jsonl');
    writeFileSync(fixtures, fixturesToJsonl(rec.fixtures()));
    const r = await run([dir, '--fixtures', fixtures]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('- Install dependencies with pnpm. _(2 sessions');
    expect(r.err).toContain('  model: 50 input + 9 output tokens reported');
  });

  it('asks an OpenAI-compatible server with --openai-url', async () => {
    const local = await startMockOpenAi();
    try {
      local.script([
        { kind: 'reply', text: '[{"id":"r1","text":"Install dependencies with pnpm."}]', usage: [90, 12] },
      ]);
      const r = await run([join(tmp, 'sessions'), '--openai-url', local.url, '--model', 'qwen2.5-coder']);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain('- Install dependencies with pnpm. _(3 sessions');
      expect(r.err).toContain('  model: 90 input + 12 output tokens reported');
      expect(local.requests).toHaveLength(1);
      expect(local.requests[0]!.body.model).toBe('qwen2.5-coder');
    } finally {
      await local.close();
    }
  });

  it('exits 2 on a model flag it cannot use', async () => {
    expect((await run([join(tmp, 'sessions'), '--llm'])).err).toContain('--llm needs ANTHROPIC_API_KEY');
    expect((await run([join(tmp, 'sessions'), '--llm'])).code).toBe(2);
    expect((await run([join(tmp, 'sessions'), '--model', 'x'])).code).toBe(2);
    expect((await run([join(tmp, 'sessions'), '--openai-url', 'localhost:11434'])).code).toBe(2);
    expect((await run([join(tmp, 'sessions'), '--openai-url', 'http://127.0.0.1:9/v1', '--llm'])).code).toBe(
      2,
    );
    expect((await run([join(tmp, 'sessions'), '--llm', '--fixtures', 'f.jsonl'], false, env)).code).toBe(2);
    expect((await run([join(tmp, 'sessions'), '--llm-max-tokens', '0'])).code).toBe(2);
    expect((await run([join(tmp, 'sessions'), '--fixtures', join(tmp, 'nope.jsonl')])).code).toBe(2);
  });
});
