// `rearview learn <paths…>`: walks folders of agent sessions, reads every file into rearview/learn
// (one file in memory at a time) and prints the proposed AGENTS.md section, a unified diff against an
// existing file (--diff) or the whole result with its evidence (--json). Nothing is written to disk.
// Exit codes: 0 ok, 1 input error, 2 usage error. It imports the BUILT library (dist/lib).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type * as Learn from 'rearview/learn';
import type * as Llm from 'rearview/llm';
import type * as Redact from 'rearview/redact';
import { detectorOptions, llmClient } from './analyse.js';
import {
  ArgCursor,
  DEFAULT_DETECTOR,
  DETECTORS,
  type Detector,
  InputError,
  modelChoice,
  UsageError,
} from './args.js';
import { type Io, printable, printableJsonText, safeOut, type Writable } from './io.js';
import { sessionSources } from './learn-sources.js';
import { summary, tokens } from './learn-summary.js';
import { loadDictionary } from './spelling.js';

/** The built library: this file runs from dist/cli, the library's entries are in dist/lib. */
const DIST = new URL('../lib/', import.meta.url);

/** The parsed command line of `rearview learn`. */
interface LearnArgs {
  paths: string[];
  json: boolean;
  diff: boolean;
  progress: boolean | undefined;
  help: boolean;
  against?: string | undefined;
  budget?: number;
  minSessions?: number;
  /** Only evidence dated at or after this (an ISO 8601 date) counts. */
  since?: string;
  llm: boolean;
  fixtures: string | undefined;
  model: string | undefined;
  openaiUrl: string | undefined;
  /** The model pass is declined when its estimate (input + most output tokens) is above this. */
  llmMaxTokens: number;
  /** What reads people's turns: the markers, or a learned scorer of rearview/heuristic-model. */
  detector: Detector;
  /** The markers also read Spanish, Portuguese, French, German, Russian, Italian, Chinese and Japanese (`--languages`). */
  languages: boolean;
  /** Repair typos in rules written from people's turns (`--no-spelling` turns it off). */
  spelling: boolean;
}

/** Default of --llm-max-tokens: a few hundred rules fit; a runaway folder does not bill silently. */
const LLM_MAX_TOKENS = 20_000;

/** A session file found under the paths. */
interface SessionFile {
  path: string;
  size: number;
  mtime: Date;
}

/**
 * The help of `rearview learn`.
 * @example
 * ```ts
 * process.stdout.write(`${LEARN_USAGE}\n`);
 * ```
 */
export const LEARN_USAGE = `Usage: rearview learn <paths…> [options]

Reads every session file under <paths> (Claude Code JSONL and console text, aider histories, Anthropic
and OpenAI messages, ShareGPT, plain text, JSONL…) and proposes the rules they teach for AGENTS.md or
CLAUDE.md, each with its evidence: the sessions, dates and turns it comes from. The section goes to
stdout, the summary (skipped files, contradictions, what the file already says) to stderr.

Options:
  --against <file>       the existing AGENTS.md / CLAUDE.md: never propose what it says, report what
                         the sessions contradict
  --budget <n>           token budget of the proposed section
  --min-sessions <n>     evidence needed from at least n sessions (default 2; 1 keeps one-offs)
  --since <date>         count only evidence dated at or after this day (2025-03-01, UTC) or time
                         (2025-03-01T09:00:00+01:00): what the sessions taught since AGENTS.md
                         last changed
  --detector <name>      what reads people's turns: reader-recall (default: the reader of
                         rearview/heuristic-model at its lower thresholds; on authors no rule was
                         written from it finds more corrections than the markers, more of them
                         right), reader (its own thresholds: fewer, surer), markers (the phrase
                         markers alone, as before) or correction-model
  --languages            also read people's turns in Spanish, Portuguese, French, German,
                         Russian, Italian, Chinese and Japanese (their common corrections,
                         approvals and friction)
  --llm                  also ask Claude, in one request, to rewrite each rule as one imperative or
                         drop it (needs ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL optional). The
                         estimated tokens are printed before the call, the reported ones after
  --openai-url <url>     the same with an OpenAI-compatible model server (Ollama, llama.cpp, vLLM:
                         http://127.0.0.1:11434/v1, say; OPENAI_API_KEY optional)
  --fixtures <file>      the same with recorded replies (JSONL from recordingClient), no network
  --model <name>         model for --llm or --openai-url
  --llm-max-tokens <n>   skip the model call when its estimate (input + most output tokens) is
                         above n (default ${LLM_MAX_TOKENS})
  --no-spelling          keep the people's spelling in rules (by default a typo is repaired when the
                         session itself uses the one best repair: "beforu" → "before")
  --json                 the whole result as JSON (rules with evidence and dates, skipped files, …)
  --diff                 a unified diff that adds the rules to the --against file (apply: patch -p1)
  --progress             show the progress line even when stderr is not a terminal
  --no-progress          never show it
  -h, --help             this help

An option that takes a value takes it as --option <value> or --option=<value>.

Exit codes: 0 ok, 1 input error (a path or the --against file cannot be read, or no file could be
read), 2 usage error.`;

/** File names a session folder holds; a file named on the command line is always read. */
const SESSION_FILE = /\.(?:jsonl|json|md|markdown|txt|log)$/i;
/** Folders never walked: they hold dependencies and history, not sessions. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);

function count(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 1) {
    throw new UsageError(`${flag} needs a whole number ≥ 1`);
  }
  return n;
}

/** The options of `rearview learn` that take no value. */
const SWITCHES = new Set(
  '--help --json --diff --progress --no-progress --llm --languages --no-spelling'.split(' '),
);

/**
 * Parses the arguments of `rearview learn`; throws its UsageError on a wrong one.
 * @param argv the arguments after `learn`
 * @example
 * ```ts
 * parseLearnArgs(['sessions/', '--against', 'AGENTS.md']).against; // 'AGENTS.md'
 * ```
 */
export function parseLearnArgs(argv: readonly string[]): LearnArgs {
  const out: LearnArgs = {
    paths: [],
    json: false,
    diff: false,
    progress: undefined,
    help: false,
    llm: false,
    fixtures: undefined,
    model: undefined,
    openaiUrl: undefined,
    llmMaxTokens: LLM_MAX_TOKENS,
    detector: DEFAULT_DETECTOR,
    languages: false,
    spelling: true,
  };
  const args = new ArgCursor(argv, SWITCHES);
  while (args.next()) {
    const a = args.name;
    if (a === '-h' || a === '--help') out.help = true;
    else if (a === '--json') out.json = true;
    else if (a === '--diff') out.diff = true;
    else if (a === '--progress') out.progress = true;
    else if (a === '--no-progress') out.progress = false;
    else if (a === '--llm') out.llm = true;
    else if (a === '--languages') out.languages = true;
    else if (a === '--no-spelling') out.spelling = false;
    else if (a === '--against') out.against = args.value('a file');
    else if (a === '--fixtures') out.fixtures = args.value('a file');
    else if (a === '--model') out.model = args.value('a model name');
    else if (a === '--openai-url') out.openaiUrl = args.value('a URL');
    else if (a === '--llm-max-tokens') out.llmMaxTokens = count(a, args.value('a whole number ≥ 1'));
    else if (a === '--budget') out.budget = count(a, args.value('a whole number ≥ 1'));
    else if (a === '--min-sessions') out.minSessions = count(a, args.value('a whole number ≥ 1'));
    else if (a === '--since') out.since = args.value('a date (2025-03-01)');
    else if (a === '--detector') {
      const d = args.value(`one of ${DETECTORS.join(', ')}`);
      if (!(DETECTORS as readonly string[]).includes(d))
        throw new UsageError(`--detector ${d}: one of ${DETECTORS.join(', ')}`);
      out.detector = d as Detector;
    } else if (a === '--') {
      out.paths.push(...args.rest());
      break;
    } else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else out.paths.push(a);
  }
  if (out.help) return out;
  if (out.json && out.diff) throw new UsageError('use either --json or --diff, not both');
  modelChoice(out);
  if (!out.paths.length) throw new UsageError('missing <paths>: give session files or folders');
  return out;
}

/**
 * A file's modification time to the millisecond below, as a browser's `File.lastModified` gives it:
 * Node's `stat().mtime` rounds to the nearest one, and an evidence date taken from the file then
 * differs by 1 ms between `rearview learn` and the playground's Learn tab on the same folder.
 */
const fileDate = (mtimeMs: number) => new Date(Math.floor(mtimeMs));

/** Every session file under `paths`, sorted within each folder; throws InputError on a missing path. */
function filesOf(paths: readonly string[]): SessionFile[] {
  const out: SessionFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(p);
      } else if (st.isFile() && SESSION_FILE.test(name))
        out.push({ path: p, size: st.size, mtime: fileDate(st.mtimeMs) });
    }
  };
  for (const p of paths) {
    if (p === '') throw new InputError('an empty path: give a session file or a folder');
    if (!existsSync(p)) throw new InputError(`${p}: no such file or folder`);
    const st = statSync(p);
    if (st.isDirectory()) walk(p);
    else out.push({ path: p, size: st.size, mtime: fileDate(st.mtimeMs) });
  }
  return out;
}

/** A one-line progress display on stderr, redrawn at most every 100 ms. */
function progressLine(stream: Writable, totalBytes: number, enabled: boolean) {
  let last = 0;
  let shown = false;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  return {
    update(p: Learn.LearnProgress, force = false) {
      if (!enabled) return;
      const now = Date.now();
      if (!force && now - last < 100) return;
      last = now;
      shown = true;
      stream.write(
        `\rlearn: ${p.files} files, ${mb(p.bytes)}/${mb(totalBytes)} MB, ${p.sessions} sessions, ${p.rules} rules   `,
      );
    },
    end() {
      if (shown) stream.write('\n');
      shown = false;
    },
  };
}

async function loadLearn(): Promise<{ learn: typeof Learn; redact: typeof Redact; llm: typeof Llm }> {
  if (!existsSync(new URL('learn/index.js', DIST)) || !existsSync(new URL('redact/index.js', DIST))) {
    throw new UsageError('the built library is missing (dist/lib/learn): run `npm run build:lib` first');
  }
  const [learn, redact, llm] = await Promise.all([
    import(new URL('learn/index.js', DIST).href) as Promise<typeof Learn>,
    import(new URL('redact/index.js', DIST).href) as Promise<typeof Redact>,
    import(new URL('llm/index.js', DIST).href) as Promise<typeof Llm>,
  ]);
  return { learn, redact, llm };
}

/**
 * Runs `rearview learn`. Never calls process.exit: returns the exit code.
 * @param argv the arguments after `learn`
 * @example
 * ```ts
 * process.exitCode = await main(['sessions/', '--diff', '--against', 'AGENTS.md']);
 * ```
 */
export async function main(argv: readonly string[], ioOptions: Io = {}): Promise<number> {
  const io = { stdout: ioOptions.stdout ?? process.stdout, stderr: ioOptions.stderr ?? process.stderr };
  let redactText = (t: string) => t;
  // Everything printed carries session text or file names: redacted and made safe for a terminal as
  // the reflect command's output is (io.ts: control sequences and bidi controls gone; in JSON, escaped).
  const say = (stream: Writable, text: string, json = false) => {
    const out = safeOut(text, { redactText, json });
    stream.write(json ? printableJsonText(out) : printable(out));
  };
  let line: ReturnType<typeof progressLine> | null = null;
  try {
    const args = parseLearnArgs(argv);
    if (args.help) {
      io.stdout.write(`${LEARN_USAGE}\n`);
      return 0;
    }
    const { learn, redact, llm: llmLib } = await loadLearn();
    const redactor = redact.createRedactor();
    redactText = (t) => redactor.redactText(t);
    const llm = await llmClient(args, { env: ioOptions.env ?? process.env }, { llm: llmLib });
    let againstText: string | undefined;
    if (args.against !== undefined) {
      try {
        againstText = readFileSync(args.against, 'utf8');
      } catch (err) {
        const e = err as { code?: string; message?: string };
        throw new InputError(`${args.against}: cannot read the --against file (${e.code ?? e.message})`);
      }
    }
    const files = filesOf(args.paths);
    if (!files.length) throw new InputError(`no session files under ${args.paths.join(', ')}`);
    const total = files.reduce((n, f) => n + f.size, 0);
    const base =
      args.paths.length === 1 && statSync(args.paths[0]!).isDirectory() ? args.paths[0] : undefined;
    const isWord = args.spelling ? await loadDictionary() : undefined;
    line = progressLine(io.stderr, total, args.progress ?? io.stderr.isTTY === true);
    const result = await learn.learn(sessionSources(files, base), {
      ...(againstText === undefined ? {} : { against: againstText }),
      ...(args.budget === undefined ? {} : { budget: args.budget }),
      ...(args.minSessions === undefined ? {} : { minSessions: args.minSessions }),
      ...(args.since === undefined ? {} : { since: args.since }),
      ...(await detectorOptions(args.detector, args.languages)),
      ...(isWord ? { isWord } : {}),
      onProgress: (p) => line!.update(p),
      ...(llm
        ? {
            llm,
            // The cost is printed before the call: the progress line ends first, so it stands alone.
            confirmLlm: (cost: Learn.LlmCost) => {
              const total = cost.estimatedInputTokens + cost.maxOutputTokens;
              line?.end();
              say(
                io.stderr,
                `learn: asking the model to review the rules: about ${tokens(cost.estimatedInputTokens)} input and at most ${tokens(cost.maxOutputTokens)} output tokens\n`,
              );
              return total <= args.llmMaxTokens;
            },
          }
        : {}),
    });
    line.end();
    line = null;
    const againstName = args.against === undefined ? 'AGENTS.md' : basename(args.against);
    if (args.json) say(io.stdout, `${learn.toJson(result)}\n`, true);
    else if (args.diff) say(io.stdout, learn.toUnifiedDiff(result, againstText ?? '', againstName));
    else say(io.stdout, learn.toMarkdown(result));
    say(io.stderr, summary(result, args.against ?? againstName, args.llmMaxTokens));
    if (args.spelling && !isWord)
      say(
        io.stderr,
        '  spelling: the dictionary (nspell, dictionary-en) could not be loaded; rules keep the spelling as typed\n',
      );
    if (result.stats.files > 0 && result.skipped.length === result.stats.files) {
      say(io.stderr, 'rearview learn: no file could be read\n');
      return 1;
    }
    return 0;
  } catch (err) {
    line?.end();
    // A --since that is not a date: learn refuses it before reading anything.
    const badOption = (err as { code?: unknown } | undefined)?.code === 'learn_invalid_option';
    if (err instanceof UsageError || badOption) {
      say(io.stderr, `rearview learn: ${(err as Error).message}\n\n${LEARN_USAGE}\n`);
      return 2;
    }
    if (err instanceof InputError) {
      say(io.stderr, `rearview learn: ${err.message}\n`);
      return 1;
    }
    say(io.stderr, `rearview learn: unexpected error: ${(err as Error | undefined)?.stack ?? err}\n`);
    return 1;
  }
}
