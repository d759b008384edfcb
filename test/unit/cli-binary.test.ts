/**
 * The CLI's real binary spawned: exit codes and usage errors, a missing dist/lib, --llm against the
 * local Messages API, --openai-url, --fixtures, --reduce with AgentDiet, the progress bar, and no
 * terminal control sequences from the input.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockOpenAi } from '../llm/mock-openai';
import { chat, inProcess, mock, root, runCli, tmp, useBuiltCli } from './cli-helpers';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

useBuiltCli();

describe('the binary', () => {
  it('exit 1 with a located message on bad input', async () => {
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, '{"role":"user","content":"hi"}\n{"role": "assistant", "content": \n');
    const r = await runCli(['reflect', bad]);
    expect(r.code).toBe(1);
    // file:line:column, the location said once (no "(line 2)" suffix, no engine "position N").
    expect(r.stderr).toBe(`rearview: ${bad}:2:34: [jsonl] Line is not valid JSON: unexpected end of input\n`);
    const missing = await runCli(['reflect', join(tmp, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the file (ENOENT)');
    const empty = await runCli(['reflect', '-'], { input: '   ' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^rearview: <stdin>:1: \[auto\] Input is empty\n$/);
    const binary = join(tmp, 'bin.dat');
    writeFileSync(binary, Buffer.from([0, 1, 2, 3, 0, 0, 255, 254]));
    expect((await runCli(['reflect', binary])).code).toBe(1);
    // An empty argument (an unset variable) names no file, and the message says so.
    const blank = await runCli(['reflect', '']);
    expect(blank.code).toBe(1);
    expect(blank.stderr).toBe('rearview: an empty file name: give a path, or - to read stdin\n');
    // A folder: the error names the command that reads one.
    expect((await runCli(['reflect', tmp])).stderr).toContain(
      `is a directory (\`rearview learn ${tmp}\` reads a folder of sessions)`,
    );
  });

  it('exit 2 on usage errors, 0 for --help and --version', async () => {
    const cases: [string[], RegExp][] = [
      [[], /missing command/],
      [['frobnicate', 'x'], /unknown command frobnicate/],
      [['reflect', 'x', '--wat'], /unknown option --wat/],
      [['reflect', 'a', 'b'], /unexpected argument b/],
      [['reflect', 'x', '--fixtures'], /--fixtures needs a value/],
      [['reflect', 'x', '--fixtures='], /--fixtures needs a value/],
      // One reader of options for both subcommands (ArgCursor): a switch given a value is refused.
      [['reflect', 'x', '--json=yes'], /--json takes no value/],
      [['reflect', 'x', '--llm', '--fixtures', 'f'], /use one of --llm, --fixtures, not several/],
      [['reflect', 'x', '--openai-url', 'http://127.0.0.1:1/v1', '--llm'], /use one of --llm, --openai-url/],
      [['reflect', 'x', '--openai-url', 'localhost:11434'], /not an http\(s\) URL/],
      [['reflect', 'x', '--model', 'm'], /--model goes with --llm or --openai-url/],
      [
        ['reflect', 'x', '--detector', 'bogus'],
        /--detector bogus: one of markers, reader, reader-recall, correction-model/,
      ],
      [['reflect', 'x', '--detector'], /--detector needs a value/],
      [['reflect', '-', '--llm'], /--llm needs ANTHROPIC_API_KEY/],
      [['reflect', '-', '--fixtures', join(tmp, 'none.jsonl')], /cannot read the file/],
    ];
    for (const [args, message] of cases) {
      const r = await inProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('Usage: rearview reflect');
    }
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 ok, 1 input error');
    // The version is package.json's, not a copy of it.
    expect((await runCli(['--version'])).stdout).toBe(`${pkg.version}\n`);
  });

  it('tells to build the library when dist/ is missing (exit 2)', async () => {
    const dir = join(tmp, 'nodist/dist/cli');
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(join(root, 'dist/cli')).filter((n) => n.endsWith('.js')))
      copyFileSync(join(root, 'dist/cli', f), join(dir, f));
    const r = await runCli(['reflect', '-'], { input: chat, cli: join(dir, 'rearview.js') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('run `npm run build:lib` first');
  });

  it('--llm reflects through the Messages API with ANTHROPIC_API_KEY', async () => {
    mock.script([
      {
        kind: 'json',
        text: JSON.stringify({
          insights: [
            {
              fact: 'The project uses pnpm.',
              recommendation: 'Use pnpm for installs.',
              category: 'preference',
              confidence: 'high',
              tags: ['tooling'],
              trace_refs: ['message:m2'],
            },
          ],
        }),
      },
    ]);
    const r = await runCli(['reflect', '-', '--llm', '--json'], {
      input: chat,
      env: { ANTHROPIC_API_KEY: 'sk-ant-cli-test', ANTHROPIC_BASE_URL: mock.url },
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.llm).toEqual({ used: true });
    expect(out.insights.map((i: { fact: string }) => i.fact)).toContain('The project uses pnpm.');
    expect(mock.requests).toHaveLength(1);
    expect(JSON.stringify(mock.requests[0]!.headers)).toContain('sk-ant-cli-test');
  });

  it('--openai-url reflects through an OpenAI-compatible server, with --model and OPENAI_API_KEY', async () => {
    const local = await startMockOpenAi();
    try {
      local.script([
        {
          kind: 'reply',
          text: JSON.stringify({
            insights: [
              {
                fact: 'Tests run with pytest -q.',
                recommendation: 'Run pytest -q.',
                category: 'preference',
                confidence: 'high',
                trace_refs: ['message:m2'],
              },
            ],
          }),
        },
      ]);
      const r = await runCli(['reflect', '-', '--openai-url', local.url, '--model', 'llama3.2', '--json'], {
        input: chat,
        env: { OPENAI_API_KEY: 'sk-local-cli-test' },
      });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.llm).toEqual({ used: true });
      expect(out.insights.map((i: { fact: string }) => i.fact)).toContain('Tests run with pytest -q.');
      expect(local.requests).toHaveLength(1);
      expect(local.requests[0]!.body.model).toBe('llama3.2');
      expect(JSON.stringify(local.requests[0]!.headers)).toContain('sk-local-cli-test');
    } finally {
      await local.close();
    }
  });

  it('--fixtures replays recorded replies; a missing recording falls back to the heuristics', async () => {
    const { recordingClient, fixturesToJsonl } = await import(join(root, 'dist/lib/llm/index.js'));
    const { llmReflect } = await import(join(root, 'dist/lib/llm-reflect/index.js'));
    const { parseTranscript } = await import(join(root, 'dist/lib/transcript/index.js'));
    const { readerModel, READER_RECALL_MIN_SCORE } = await import(
      join(root, 'dist/lib/heuristic-model/index.js')
    );
    const reply = JSON.stringify({
      insights: [{ fact: 'Recorded fact.', recommendation: 'Recorded advice.', category: 'gotcha' }],
    });
    const rec = recordingClient({
      complete: async () => ({
        text: reply,
        usage: { inputTokens: 1, outputTokens: 1 },
        latencyMs: 1,
        model: 'm',
      }),
    });
    // Recorded as the CLI asks: its heuristic insights are read by its default detector.
    await llmReflect(parseTranscript(chat).messages, {
      llm: rec,
      scorer: readerModel,
      minScore: READER_RECALL_MIN_SCORE,
    });
    const fixtures = join(tmp, 'fixtures.jsonl');
    writeFileSync(fixtures, fixturesToJsonl(rec.fixtures()));
    const r = await runCli(['reflect', '-', '--fixtures', fixtures, '--json'], { input: chat });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.llm).toEqual({ used: true });
    expect(out.insights[0]).toMatchObject({ fact: 'Recorded fact.', category: 'gotcha' });

    const other = await runCli(['reflect', '-', '--fixtures', fixtures], {
      input: JSON.stringify([
        { role: 'user', content: 'Install the dependencies.' },
        { role: 'assistant', content: 'Installed them with npm.' },
        { role: 'user', content: 'No, use yarn instead.' },
      ]),
    });
    expect(other.code).toBe(0);
    expect(other.stdout).toMatch(/LLM reflection failed \(llm_fixture_missing/);
    expect(other.stdout).toMatch(/\[correction, (high|medium)\]/);
  });

  it('--reduce with a model runs AgentDiet on a trajectory with --keep-recent, --diet-b and --diet-theta', async () => {
    const traj = join(root, 'public/samples/swe-agent-function-calling.traj');
    const env = { ANTHROPIC_API_KEY: 'sk-ant-cli-diet-test', ANTHROPIC_BASE_URL: mock.url };
    const dietCalls = () =>
      mock.requests.map((r) => JSON.stringify(r.body)).filter((body) => body.includes('TARGET step'));
    const run = async (...flags: string[]) => {
      mock.reset();
      const r = await inProcess(['reflect', traj, '--json', '--reduce', '--llm', ...flags], env);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).reduction.diet as { calls: number; tokensBefore: number };
    };
    // θ = 10: every step is large enough to be sent. Each request shows the target, the a steps after
    // it and the b steps before it: b = 2 sends more context steps than b = 0.
    const contextSteps = () => dietCalls().reduce((n, body) => n + body.split('context step').length - 1, 0);
    const small = await run('--diet-theta', '10', '--diet-b', '0', '--keep-recent', '1');
    expect(small.calls).toBeGreaterThan(0);
    expect(dietCalls()).toHaveLength(small.calls);
    const withoutB = contextSteps();
    const wide = await run('--diet-theta', '10', '--diet-b', '2', '--keep-recent', '1');
    expect(wide.calls).toBe(small.calls);
    expect(contextSteps()).toBeGreaterThan(withoutB);
    // θ = 5000: no step of this run is that large, so AgentDiet calls nothing.
    expect((await run('--diet-theta', '5000')).calls).toBe(0);
    expect(dietCalls()).toHaveLength(0);
  });

  it('shows a progress bar for files over 4 MB when asked (or on a terminal), never otherwise', async () => {
    const big = join(tmp, 'big.txt');
    const turn = `User: ${'please check the build output again '.repeat(20)}\nAssistant: ${'the build passes on my side '.repeat(20)}\n`;
    writeFileSync(big, turn.repeat(Math.ceil((5 * 1024 * 1024) / turn.length)));
    const r = await runCli(['reflect', big, '--progress', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\r\[#{30}\] 100% \d+\.\d\/\d+\.\d MB/);
    expect(JSON.parse(r.stdout).format).toBe('plain');
    const quiet = await runCli(['reflect', big, '--json']);
    expect(quiet.stderr).toBe('');
  });

  it('prints no terminal control sequences from the input: not in the report, the JSON, file names or errors', async () => {
    // An untrusted transcript that would retitle the terminal (OSC 0 … BEL), clear it (CSI 2J), use
    // 8-bit CSI (U+009B), ring the bell and rewrite the line (CR).
    const evil = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u0007\r';
    const transcript = JSON.stringify([
      { role: 'user', content: `Install the dependencies ${evil}please.` },
      { role: 'assistant', content: `Running npm install.${evil}` },
      { role: 'user', content: `No, use pnpm instead of npm ${evil}for this repo.` },
    ]);
    const file = join(tmp, `evil\u001b]0;name\u0007\u001b[2J.json`);
    writeFileSync(file, transcript);
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
    const text = await runCli(['reflect', file, '--reduce']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(controls);
    expect(text.stdout).toContain('use pnpm instead of npm');
    expect(text.stdout).not.toContain('pwned'); // the whole sequence goes, not just its ESC
    expect(text.stdout).toContain(`${tmp}/evil.json: `);

    // JSON keeps the data (escaped), so it parses back to the original text.
    const json = await runCli(['reflect', file, '--json']);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(controls);
    const out = JSON.parse(json.stdout);
    expect(out.file).toBe(file);
    expect(JSON.stringify(out.insights)).toContain('\\u001b]0;pwned');

    // Errors: a located parse error quoting the input, an unknown option, a bad path.
    const bad = join(tmp, 'bad-evil.jsonl');
    writeFileSync(bad, `{"role":"user","content":"hi"}\n{"role": ${evil} nope\n`);
    for (const args of [
      ['reflect', bad],
      ['reflect', '-', `--x${evil}`],
      ['reflect', join(tmp, `no${evil}.json`)],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.length).toBeGreaterThan(10);
      expect(r.stderr, args.join(' ')).not.toMatch(controls);
    }
  });
});
