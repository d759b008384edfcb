/**
 * The CLI (cli/*.ts built to dist/cli/rearview.js, Node only, on the built dist/lib): every shared data file in-process
 * through the exported main() (fast), and the real binary spawned for stdin, exit codes, usage errors,
 * --json, --reduce, --llm against the local Messages API, --fixtures and the progress bar.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as snapshotLib from 'rearview/snapshot';
import { PARAM_NAMES, PARAM_SPECS } from 'rearview/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../playground/src/analyze';
import { SLIDER_GROUPS } from '../../playground/src/sliders';
import { readUrlState, writeUrlState } from '../../playground/src/url-state';
import { claudeSession } from '../fixtures/claude-session';
import { failureSession } from '../fixtures/failure-session';
import { TURN_CASES, turnMessages } from '../fixtures/turn-cases';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { startMockOpenAi } from '../llm/mock-openai';
import { builtCli } from './built-cli';

const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
let CLI: string;
const DATA = join(root, '../shared/data');
const hasData = existsSync(DATA);

type Main = (argv: string[], io?: Record<string, unknown>) => Promise<number>;
type ParseArgs = (argv: string[], snapshot: unknown) => { params: Record<string, number> };
let main: Main;
let parseArgs: ParseArgs;
let mock: MockAnthropic;
let tmp: string;

beforeAll(async () => {
  if (
    !existsSync(join(root, 'dist/lib/index.js')) ||
    !existsSync(join(root, 'dist/lib/llm-reflect/index.js'))
  ) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  CLI = await builtCli();
  ({ main, parseArgs } = (await import(CLI)) as { main: Main; parseArgs: ParseArgs });
  mock = await startMockAnthropic();
  tmp = mkdtempSync(join(tmpdir(), 'rearview-cli-'));
}, 120_000);

afterAll(async () => {
  await mock?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Runs main() in-process with captured streams. */
async function inProcess(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    env,
  });
  return { code, stdout, stderr };
}

/** Spawns the real binary. */
function runCli(args: string[], opts: { input?: string; env?: Record<string, string>; cli?: string } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...opts.env };
    if (!opts.env?.ANTHROPIC_API_KEY) delete env.ANTHROPIC_API_KEY;
    const child = spawn(process.execPath, [opts.cli ?? CLI, ...args], {
      cwd: root,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => (statSync(join(dir, e)).isDirectory() ? walk(join(dir, e)) : [join(dir, e)]));
}

/**
 * Files of the shared data that are not transcripts or trajectories (licences, notes, a model's
 * summaries saved without the request, and aider/SOURCES.jsonl: one provenance record per history,
 * JSONL whose lines are not messages). The two summaries saved with their `<user>` request are chats.
 */
const NOT_A_TRANSCRIPT =
  /(?:LICENSE(?:\.md)?|SOURCES?\.(?:txt|jsonl)|README\.md|results_summary\.json|gemini-summary-day-00(?:6-007|8-009)\.md|day-001\.md)$/;

describe.skipIf(!hasData)('every shared data file (in-process)', () => {
  it('transcripts and trajectories exit 0 with insights and a snapshot; other files exit 1, located', async () => {
    const files = walk(DATA);
    expect(files.length).toBeGreaterThan(300);
    const failures: string[] = [];
    let ok = 0;
    for (const file of files) {
      const r = await inProcess(['reflect', file, '--json']);
      if (NOT_A_TRANSCRIPT.test(file)) {
        // Text is located by line; a JSON value of no known shape is named by its keys.
        const located = file.endsWith('.json')
          ? /^rearview: .+: \[auto\] The object has none of the keys of a known format .+\n$/
          : /^rearview: .+:\d+(?::\d+)?: \[\w+\] .+\n$/;
        if (r.code !== 1 || !located.test(r.stderr)) {
          failures.push(`${file}: expected a located input error, got ${r.code} ${r.stderr.slice(0, 200)}`);
        }
        continue;
      }
      if (r.code !== 0) {
        failures.push(`${file}: exit ${r.code}: ${r.stderr.slice(0, 300)}`);
        continue;
      }
      const out = JSON.parse(r.stdout);
      if (!Array.isArray(out.insights) || typeof out.snapshot?.currentObjective !== 'string' || !out.format) {
        failures.push(`${file}: incomplete output`);
      }
      ok++;
    }
    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(300);
    console.log(`cli: ${ok} shared files read`);
    // Every shared file (300+) in one test: on a busy machine that is minutes, not the default 30 s.
  }, 600_000);

  it('prints a readable report, and the reduction report with --reduce', async () => {
    const traj = walk(join(DATA, 'mini-swe-agent')).find((f) => f.endsWith('.traj.json'))!;
    const r = await inProcess(['reflect', traj, '--reduce']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: mini-swe-agent trajectory · \d+ messages · \d+ steps/);
    expect(r.stdout).toContain('Insights (');
    expect(r.stdout).toContain('Snapshot (deterministic');
    expect(r.stdout).toMatch(/Reduction\n {2}reflection: skipped \(\w+\)/);
    expect(r.stdout).toMatch(/step compaction: \d+ → \d+ tokens/);
    const j = JSON.parse((await inProcess(['reflect', traj, '--reduce', '--json'])).stdout);
    expect(j.reduction.diagnostics.reflectionUsed).toBe(false);
    expect(j.reduction.compaction.tokensAfter).toBeLessThanOrEqual(j.reduction.compaction.tokensBefore);
    const console = join(DATA, 'claude-code-console/day-002.md');
    const c = JSON.parse((await inProcess(['reflect', console, '--json'])).stdout);
    expect(c.format).toBe('claude-code-console');
    expect(c.insights.some((i: { category: string }) => i.category === 'correction')).toBe(true);
  });
});

describe('failure lessons in the report', () => {
  it('says when a fix was a one-off, which proposes no key point', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rearview-cli-'));
    const file = join(dir, 'session.json');
    writeFileSync(file, JSON.stringify(failureSession()));
    try {
      const r = await inProcess(['reflect', file]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('change `test:e2e` to `test:e2e:ci`');
      expect(r.stdout).toContain('(a one-off fix: not proposed as a key point)');
      expect(r.stdout).toMatch(/Key points \(0\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the binary', () => {
  const chat = JSON.stringify([
    { role: 'user', content: 'How do I install the dependencies?' },
    { role: 'assistant', content: 'Run npm install.' },
    { role: 'user', content: 'No, use pnpm instead of npm.' },
  ]);

  it('reads stdin (piped or -) and prints JSON', async () => {
    for (const args of [
      ['reflect', '--json'],
      ['reflect', '-', '--json'],
    ]) {
      const r = await runCli(args, { input: chat });
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ file: '<stdin>', kind: 'transcript' });
      expect(['anthropic', 'openai']).toContain(out.format);
      expect(out.insights[0]).toMatchObject({
        category: 'correction',
        recommendation: 'use pnpm instead of npm',
      });
    }
  });

  it('prints under each correction the key point written from it, or that it is evidence only', async () => {
    const talk = JSON.stringify([
      { role: 'user', content: 'Set up the project.' },
      { role: 'assistant', content: 'Done, I fixed the tests.' },
      { role: 'user', content: 'No, that is still broken, the login page shows a blank screen.' },
      { role: 'assistant', content: 'Run npm install.' },
      { role: 'user', content: 'No, always use pnpm instead of npm in this repository.' },
    ]);
    const r = await runCli(['reflect'], { input: talk });
    expect(r.code, r.stderr).toBe(0);
    const insights = r.stdout.slice(r.stdout.indexOf('Insights'), r.stdout.indexOf('Key points'));
    const [complaint, rule] = insights.split(/\n {2}\d+\. /).slice(1);
    // The complaint is the key point's "turn before": it is still no key point of its own.
    expect(complaint).toContain('still broken');
    expect(complaint).toContain('(evidence only: no key point proposed from this turn)');
    expect(complaint).not.toContain('→');
    expect(rule).toContain('→ key point 1: Always use pnpm instead of npm in this repository.');
    // JSON says the same, by index.
    const json = JSON.parse((await runCli(['reflect', '--json'], { input: talk })).stdout);
    expect(json.keyPointOf).toEqual([[], [0]]);
  });

  it('lists evidence relative to the folder a session records, and says which folder', async () => {
    const input = claudeSession('/Users/ana/shop', [
      'Fix the cart total test',
      'The total is computed in /Users/ana/shop/src/cart/total.ts.',
    ]);
    const r = await runCli(['reflect'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('; evidence relative to /Users/ana/shop');
    expect(r.stdout).toContain('    - src/cart/total.ts');
    const json = JSON.parse((await runCli(['reflect', '--json'], { input })).stdout);
    expect(json.root).toBe('/Users/ana/shop');
    expect(json.snapshot.requiredEvidenceLinks).toContain('src/cart/total.ts');
    // A transcript that records no folder has no `root`.
    const plain = JSON.parse(
      (await runCli(['reflect', '--json'], { input: JSON.stringify(turnMessages(['hi'])) })).stdout,
    );
    expect(plain).not.toHaveProperty('root');
    expect(json.rootFrom).toBe('transcript');
  });

  it('reads the folder from the paths of a session that records none, and says so', async () => {
    // Files named absolute and relative: the relative paths start in /Users/ana/shop.
    const input = JSON.stringify(
      turnMessages([
        'Fix the cart total',
        'I read /Users/ana/shop/src/cart.ts and /Users/ana/shop/lib/tax.ts; the bug is in src/cart.ts, which adds lib/tax.ts twice.',
      ]),
    );
    const r = await runCli(['reflect'], { input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('; evidence relative to /Users/ana/shop (read from its paths)');
    const json = JSON.parse((await runCli(['reflect', '--json'], { input })).stdout);
    expect(json.root).toBe('/Users/ana/shop');
    expect(json.rootFrom).toBe('paths');
    expect(json.snapshot.requiredEvidenceLinks).toContain('src/cart.ts');
  });

  it.each(TURN_CASES)(
    "prints under $category the key point written from the turn or that it is evidence only, never the detector's placeholder",
    async ({ category, turns, keyPoint, placeholder }) => {
      const talk = JSON.stringify(turnMessages(turns));
      const r = await runCli(['reflect'], { input: talk });
      expect(r.code, r.stderr).toBe(0);
      const insights = r.stdout.slice(r.stdout.indexOf('Insights'), r.stdout.indexOf('Key points'));
      const found = insights.split(/\n {2}\d+\. /).filter((s) => s.startsWith(`[${category}`));
      expect(found).toHaveLength(2);
      expect(found[0]).toContain('(evidence only: no key point proposed from this turn)');
      expect(found[1]).toContain(`→ key point 1: ${keyPoint}`);
      expect(insights).not.toContain(placeholder);
    },
  );

  it("--detector reads people's turns with a learned scorer of rearview/heuristic-model, as lessons does", async () => {
    // A task whose list holds "don't touch …" (a marker of corrections), then a real correction.
    const messages = [
      { role: 'user', content: 'Add a login page to the app.' },
      { role: 'assistant', content: 'I added the login page with a form and a submit button.' },
      {
        role: 'user',
        content:
          "Please implement the settings page next: 1. add a profile form 2. don't touch the header component 3. keep the current styles.",
      },
      { role: 'assistant', content: 'Done: the settings page has a profile form.' },
      {
        role: 'user',
        content:
          'No, that is wrong. The form must save to the API, not to local storage. Revert the local storage part.',
      },
      { role: 'assistant', content: 'Reverted; the form now saves to the API.' },
    ];
    const talk = JSON.stringify(messages);
    const { lessons } = await import('rearview/session');
    const model = await import('rearview/heuristic-model');
    const facts = (insights: { fact: string }[]) => insights.map((i) => i.fact);
    const want = {
      markers: facts(lessons({ messages }).insights),
      reader: facts(
        lessons({ messages }, { scorer: model.readerModel, minScore: model.READER_MIN_SCORE }).insights,
      ),
      'reader-recall': facts(
        lessons({ messages }, { scorer: model.readerModel, minScore: model.READER_RECALL_MIN_SCORE })
          .insights,
      ),
      'correction-model': facts(lessons({ messages }, { scorer: model.correctionModel }).insights),
    };
    // The detectors disagree on the task statement: the choice is visible.
    expect(want.markers.length).toBe(2);
    expect(want.reader).toEqual([want.markers[1]]);
    for (const [detector, facts] of Object.entries(want)) {
      const r = await runCli(['reflect', '--json', '--detector', detector], { input: talk });
      expect(r.code, detector).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(
        json.insights.map((i: { fact: string }) => i.fact),
        detector,
      ).toEqual(facts);
      expect(json.detector).toBe(detector);
    }
    // Without --detector: the reader at its lower thresholds, named in the JSON, not in the text.
    const plain = await runCli(['reflect', '--json'], { input: talk });
    expect(JSON.parse(plain.stdout).detector).toBe('reader-recall');
    expect(JSON.parse(plain.stdout).insights.map((i: { fact: string }) => i.fact)).toEqual(
      want['reader-recall'],
    );
    expect((await runCli(['reflect'], { input: talk })).stdout).not.toContain('— read by');
    const markers = await runCli(['reflect', '--detector', 'markers'], { input: talk });
    expect(markers.stdout).toContain(`Insights (${want.markers.length}) — read by the markers`);
    const text = await runCli(['reflect', '--detector', 'reader'], { input: talk });
    expect(text.stdout).toContain('Insights (1) — read by the reader');
  });

  it('--categoriser notes-reader sorts the snapshot with rearview/categorise-model, as the library does', async () => {
    // "I think that's a great approach!" is a guess to the rules and a remark to the notes reader.
    const talk = JSON.stringify([
      { role: 'user', content: 'Refactor the retry module so the backoff is configurable.' },
      {
        role: 'assistant',
        content: "I think that's a great approach! The cache key might ignore the locale.",
      },
    ]);
    const { notesReader } = await import('rearview/categorise-model');
    const { input } = snapshotLib.readSnapshotSource(talk);
    const rules = snapshotLib.deterministicSnapshot(input);
    const reader = snapshotLib.deterministicSnapshot(input, { categorise: notesReader });
    expect(reader.openHypotheses).toEqual(['The cache key might ignore the locale.']);
    expect(rules.openHypotheses).toHaveLength(2);
    for (const [argv, want] of [
      [[], rules],
      [['--categoriser', 'rules'], rules],
      [['--categoriser', 'notes-reader'], reader],
    ] as const) {
      const r = await runCli(['reflect', '--json', ...argv], { input: talk });
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(json.snapshot).toEqual(want);
      expect(json.categoriser).toBe(argv[1] === 'notes-reader' ? 'notes-reader' : undefined);
    }
    const text = await runCli(['reflect', '--categoriser', 'notes-reader'], { input: talk });
    expect(text.stdout).toContain('— sorted by the notes reader (rearview/categorise-model)');
    const bogus = await runCli(['reflect', '--categoriser', 'bogus'], { input: talk });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('--categoriser bogus: one of rules, notes-reader');
  });

  it("--languages reads people's turns with the markers of eight more languages, as lessons does", async () => {
    // Spanish: "The button still doesn't save the data." after the agent said it was done.
    const messages = [
      { role: 'user', content: 'Agrega un botón de guardar.' },
      { role: 'assistant', content: 'Listo, agregué el botón en la barra y ya funciona.' },
      { role: 'user', content: 'El botón sigue sin guardar los datos.' },
      { role: 'assistant', content: 'Lo reviso.' },
    ];
    const talk = JSON.stringify(messages);
    const { lessons } = await import('rearview/session');
    const { loadLanguageMarkers } = await import('rearview/heuristic');
    const facts = (insights: { fact: string }[]) => insights.map((i) => i.fact);
    const markers = await loadLanguageMarkers();
    const model = await import('rearview/heuristic-model');
    expect(facts(lessons({ messages }).insights)).toEqual([]);
    for (const [argv, options] of [
      [[], { markers }],
      [
        ['--detector', 'reader-recall'],
        { markers, scorer: model.readerModel, minScore: model.READER_RECALL_MIN_SCORE },
      ],
    ] as const) {
      const want = facts(lessons({ messages }, options).insights);
      const r = await runCli(['reflect', '--json', '--languages', ...argv], { input: talk });
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(facts(json.insights)).toEqual(want);
      expect(json.languages).toBe(true);
    }
    // A correction, and friction: the button still does not save ("sigue sin").
    expect(facts(lessons({ messages }, { markers }).insights)).toHaveLength(2);
    const text = await runCli(['reflect', '--languages'], { input: talk });
    expect(text.stdout).toContain('Insights (2) — with the markers of eight more languages');
    // Both people's turns are Spanish: read with those markers without the flag too, not with --no-languages.
    const auto = JSON.parse((await runCli(['reflect', '--json'], { input: talk })).stdout);
    expect(auto.languages).toBe(true);
    expect(facts(auto.insights)).toEqual(facts(lessons({ messages }, { markers }).insights));
    expect(
      JSON.parse((await runCli(['reflect', '--json', '--no-languages'], { input: talk })).stdout).languages,
    ).toBeUndefined();
    const help = (await runCli(['reflect', '--help'])).stdout;
    expect(help).toContain('--languages');
    expect(help).toContain('--no-languages');
  });

  it('prints every key point a turn gave under its insight, one per rule', async () => {
    const talk = JSON.stringify([
      { role: 'user', content: 'Set up the project.' },
      { role: 'assistant', content: 'Run npm install.' },
      {
        role: 'user',
        content:
          'No, always use pnpm instead of npm in this repository. Never push to main without asking me.',
      },
    ]);
    const r = await runCli(['reflect'], { input: talk });
    expect(r.code, r.stderr).toBe(0);
    const insights = r.stdout.slice(r.stdout.indexOf('Insights'), r.stdout.indexOf('Key points'));
    expect(insights).toContain('→ key point 1: Always use pnpm instead of npm in this repository.');
    expect(insights).toContain('→ key point 2: Never push to main without asking me.');
    const json = JSON.parse((await runCli(['reflect', '--json'], { input: talk })).stdout);
    expect(json.keyPointOf).toEqual([[0, 1]]);
  });

  it('counts the calls the person declined apart from the failed ones', async () => {
    // The sample's two calls were both declined ("The user doesn't want to proceed with this tool use").
    const sample = join(root, 'public/samples/claude-code-short.jsonl');
    const r = await runCli(['reflect', sample]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toContain('2 steps (0 failed, 2 declined)');
    const json = JSON.parse((await runCli(['reflect', sample, '--json'])).stdout);
    expect(json.counts).toMatchObject({ steps: 2, failedSteps: 0, declinedSteps: 2 });
  });

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

describe('thresholds: the Tune sliders, the playground URL and the CLI flags take the same ranges', () => {
  const chat = JSON.stringify(
    Array.from({ length: 12 }, (_, i) => [
      { role: 'user', content: `Step ${i}: the build fails in lib/mod${i}.ts, please look at it.` },
      { role: 'assistant', content: `Next I will check lib/mod${i}.ts and run the tests again.` },
    ]).flat(),
  );

  it('every parameter, from its one spec (rearview/snapshot PARAM_SPECS)', async () => {
    const file = join(tmp, 'params-chat.json');
    writeFileSync(file, chat);
    const help = (await inProcess(['--help'])).stdout;
    const sliders = new Map(SLIDER_GROUPS.flatMap((g) => g.specs).map((s) => [s.name, s]));
    // Every parameter has its flag (AgentDiet's b and θ included).
    const cliParams: readonly string[] = PARAM_NAMES;
    for (const name of PARAM_NAMES) {
      const spec = PARAM_SPECS[name];
      const { min, max, step, query, flag } = spec;
      // The slider.
      expect(sliders.get(name), name).toMatchObject({ min, max, step });
      // The URL: clamped to the same range, written only when not the default.
      const url = (v: number) => readUrlState(`?${query}=${v}`).settings[name];
      expect(url(max + step), name).toBe(max);
      expect(url(min - step), name).toBe(min);
      expect(url(max), name).toBe(max);
      expect(readUrlState('').settings[name]).toBe(spec.default);
      expect(DEFAULT_SETTINGS[name]).toBe(spec.default);
      expect(writeUrlState({ sample: null, settings: { ...DEFAULT_SETTINGS, [name]: max } })).toBe(
        `?${query}=${max}`,
      );
      // The CLI: the same range, refused (exit 2) outside it.
      if (!cliParams.includes(name)) {
        expect((await inProcess(['reflect', file, `--${flag}`, String(max)])).stderr).toContain(
          `unknown option --${flag}`,
        );
        continue;
      }
      expect(help).toContain(`--${flag} <n>`);
      expect(help).toContain(`${min}–${max} ${spec.unit}, default ${spec.default}.`);
      for (const [ok, value] of [
        [`--${flag}=${min}`, min],
        [`--${flag}=${max}`, max],
      ] as const) {
        const r = await inProcess(['reflect', file, '--json', '--reduce', ok]);
        expect(r.code, `${ok}: ${r.stderr}`).toBe(0);
        // Accepted is not enough: the value must reach the parameter it names, in both spellings.
        expect(parseArgs(['reflect', file, ok], snapshotLib).params, ok).toEqual({ [name]: value });
        expect(parseArgs(['reflect', file, `--${flag}`, String(value)], snapshotLib).params).toEqual({
          [name]: value,
        });
      }
      const bad = [max + step, min - step, ...(spec.integer ? [min + 0.5] : [])];
      for (const v of bad) {
        const r = await inProcess(['reflect', file, `--${flag}`, String(v)]);
        expect(r.code, `--${flag} ${v}`).toBe(2);
        expect(r.stderr).toContain(
          `--${flag}: must be a ${spec.integer ? 'whole number' : 'number'} from ${min} to ${max}`,
        );
      }
    }
  });

  it('the flags change the output, and the defaults leave it as it was', async () => {
    const file = join(tmp, 'params-chat.json');
    writeFileSync(file, chat);
    const run = async (...flags: string[]) => {
      const r = await inProcess(['reflect', file, '--json', '--reduce', ...flags]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const plain = await run();
    const defaults = PARAM_NAMES.filter((n) => PARAM_SPECS[n].group !== 'diet' || n === 'a').flatMap((n) => [
      `--${PARAM_SPECS[n].flag}`,
      String(PARAM_SPECS[n].default),
    ]);
    expect(await run(...defaults)).toEqual(plain);
    const lists = (o: { snapshot: Record<string, unknown> }) =>
      Object.values(o.snapshot).filter(Array.isArray) as string[][];
    expect(Math.max(...lists(plain).map((l) => l.length))).toBeGreaterThan(1);
    const capped = await run('--max-category-items', '1', '--max-text-length', '20');
    for (const list of lists(capped)) {
      expect(list.length).toBeLessThanOrEqual(1);
      for (const item of list) expect(item.length).toBeLessThanOrEqual(20);
    }
  });
});
