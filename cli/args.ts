// The CLI's arguments and help: the fixed options, and one flag per rearview/snapshot PARAM_SPECS
// parameter, derived from the spec (name, range, default, help), so the flags, the playground's
// sliders and its URL take the same parameters.
import type * as Snapshot from 'rearview/snapshot';

/** What the help and the parser read of rearview/snapshot (the built module, or the sources in tests). */
export type SnapshotParams = Pick<typeof Snapshot, 'PARAM_NAMES' | 'PARAM_SPECS' | 'parseParam'>;

/**
 * A usage error: exit code 2.
 * @example
 * ```ts
 * throw new UsageError('missing command: rearview reflect <file>');
 * ```
 */
export class UsageError extends Error {}
/**
 * An input error: exit code 1.
 * @example
 * ```ts
 * throw new InputError(`${file}: is a directory`);
 * ```
 */
export class InputError extends Error {}

/**
 * Reads a command line one argument at a time, the way both subcommands take options: `--name=value`
 * and `--name value` are the same, a switch (`switches`) given a value is a usage error, and a value
 * that is missing, empty or another option is one too.
 * @example
 * ```ts
 * const args = new ArgCursor(['--budget=40', 'x'], new Set(['--json']));
 * args.next(); args.name; // '--budget'
 * args.value('a number'); // '40'
 * ```
 */
export class ArgCursor {
  /** The current argument, without an inline `=value`. */
  name = '';
  private i = -1;
  private inline: string | undefined;

  constructor(
    private readonly argv: readonly string[],
    private readonly switches: ReadonlySet<string>,
  ) {}

  /** Moves to the next argument; false past the last. */
  next(): boolean {
    const a = this.argv[++this.i];
    if (a === undefined) return false;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    this.name = eq > 2 ? a.slice(0, eq) : a;
    this.inline = eq > 2 ? a.slice(eq + 1) : undefined;
    if (this.inline !== undefined && this.switches.has(this.name))
      throw new UsageError(`${this.name} takes no value`);
    return true;
  }

  /** The option's value: after its `=`, else the next argument (`what` names it in the error). */
  value(what = 'a value'): string {
    const v = this.inline ?? this.argv[++this.i];
    if (v === undefined || v === '' || (this.inline === undefined && v.startsWith('--')))
      throw new UsageError(`${this.name} needs ${what}`);
    return v;
  }

  /** The arguments after the current one (what follows `--`). */
  rest(): string[] {
    const out = this.argv.slice(this.i + 1);
    this.i = this.argv.length;
    return out;
  }
}

/**
 * Refuses model flags that do not go together: one of --llm, --openai-url and --fixtures at most,
 * --model only with a model to name, and a URL that is one (shared by `reflect` and `learn`).
 * @example
 * ```ts
 * modelChoice({ llm: true, fixtures: 'f.jsonl', model: undefined, openaiUrl: undefined }); // throws UsageError
 * ```
 */
export function modelChoice(a: Pick<CliArgs, 'llm' | 'fixtures' | 'model' | 'openaiUrl'>): void {
  const chosen = [
    a.llm && '--llm',
    a.openaiUrl !== undefined && '--openai-url',
    a.fixtures !== undefined && '--fixtures',
  ];
  const flags = chosen.filter(Boolean);
  if (flags.length > 1) throw new UsageError(`use one of ${flags.join(', ')}, not several`);
  if (a.model !== undefined && !a.llm && a.openaiUrl === undefined)
    throw new UsageError('--model goes with --llm or --openai-url');
  if (a.openaiUrl !== undefined && !/^https?:\/\/[^\s/]/.test(a.openaiUrl))
    throw new UsageError(`--openai-url ${a.openaiUrl}: not an http(s) URL`);
}

/** The options of `rearview reflect` that take no value. */
const REFLECT_SWITCHES = new Set([
  '--json',
  '--languages',
  '--no-languages',
  '--no-spelling',
  '--reduce',
  '--llm',
  '--progress',
  '--no-progress',
  '--help',
  '--version',
]);

/** What sorts the snapshot's entries (`--categoriser`): the rules, or rearview/categorise-model's notes reader. */
export const CATEGORISERS = ['rules', 'notes-reader'] as const;
/** One of {@link CATEGORISERS}. */
export type Categoriser = (typeof CATEGORISERS)[number];

/** What reads people's turns (`--detector`). */
export const DETECTORS = ['markers', 'reader', 'reader-recall', 'correction-model'] as const;
/** One of {@link DETECTORS}. */
export type Detector = (typeof DETECTORS)[number];
/**
 * What reads people's turns when `--detector` is not given: the reader at its lower thresholds. On every
 * set of authors it never trained on it finds more corrections than the markers, more of them right
 * (lib/heuristic/README.md, "Which reader of people's turns").
 */
export const DEFAULT_DETECTOR: Detector = 'reader-recall';

/** The parsed command line of `rearview reflect` (and help, version). */
export interface CliArgs {
  command: string | undefined;
  file: string | undefined;
  json: boolean;
  reduce: boolean;
  llm: boolean;
  fixtures: string | undefined;
  model: string | undefined;
  /** --openai-url: an OpenAI-compatible model server (Ollama, llama.cpp, vLLM…) instead of Claude. */
  openaiUrl: string | undefined;
  progress: boolean | undefined;
  /** --detector: the marker detector, or a learned scorer of rearview/heuristic-model. */
  detector: Detector;
  /** --categoriser: what sorts the snapshot's entries (the rules by default). */
  categoriser: Categoriser;
  /**
   * The markers also read Spanish, Portuguese, French, German, Russian, Italian, Chinese and Japanese:
   * `true` with --languages, `false` with --no-languages, left out when the people's turns say
   * (at least two of them, and a tenth, read as one of those languages: `otherLanguages`).
   */
  languages?: boolean;
  /** Typos in proposed key points are repaired (`--no-spelling` keeps the person's spelling). */
  spelling: boolean;
  help: boolean;
  version: boolean;
  params: Partial<Snapshot.ParamValues>;
}

const HEAD = `Usage: rearview reflect <file | -> [options]

Reads a transcript or an agent trajectory in any format rearview/transcript reads (Anthropic/OpenAI
messages, ShareGPT, Claude Code JSONL or console text, plain text, JSONL, SWE-agent, mini-swe-agent, …)
from <file>, or from stdin with - or a pipe, and prints what rearview learns from it.

       rearview learn <paths…> [options]

Proposes rules for AGENTS.md / CLAUDE.md from a folder of sessions (rearview learn --help).`;

const EXITS = 'Exit codes: 0 ok, 1 input error (with its line or index), 2 usage error.';

/** The fixed options, as [left column, description]. */
const OPTIONS: readonly (readonly [string, string])[] = [
  ['--json', 'machine-readable output (one JSON document)'],
  ['--reduce', 'add the reduction report (reflection gates, step compaction; AgentDiet with a model)'],
  ['--llm', 'also reflect with Claude (needs ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL optional)'],
  ['--fixtures <file>', 'reflect with recorded LLM replies (JSONL from recordingClient), no network'],
  [
    '--openai-url <url>',
    'also reflect with an OpenAI-compatible model server (Ollama, llama.cpp, vLLM; OPENAI_API_KEY optional)',
  ],
  ['--model <name>', "model for --llm or --openai-url (default: rearview's Haiku-class default)"],
  [
    '--detector <name>',
    "what reads people's turns: reader-recall (default: rearview/heuristic-model's reader at its lower thresholds, READER_RECALL_MIN_SCORE; on authors no rule was written from it finds more corrections than the markers, more of them right), reader (its own thresholds: fewer, surer), markers (rearview/heuristic's phrase markers alone, as before) or correction-model",
  ],
  [
    '--categoriser <name>',
    "what sorts the snapshot's entries: rules (default) or notes-reader (rearview/categorise-model: on ChatGPT's replies, a source nothing was chosen on, 74% right against the rules' 72%; the same as the rules on coding agents' notes; it reads the agent's sentences only, and drops some open blockers)",
  ],
  [
    '--languages',
    "read people's turns in Spanish, Portuguese, French, German, Russian, Italian, Chinese and Japanese too (their common corrections, approvals and friction; rearview/heuristic's loadLanguageMarkers), however few are; by default they are read when at least two people's turns, and a tenth, are written in those languages",
  ],
  ['--no-languages', "read people's turns with the English markers only"],
  [
    '--no-spelling',
    'keep the person\'s spelling in proposed key points (by default a typo is repaired when the session itself uses the one best repair: "beforu" → "before")',
  ],
  ['--progress', 'show the progress bar even when stderr is not a terminal (files over 4 MB)'],
  ['--no-progress', 'never show it'],
  ['-h, --help', 'this help'],
  ['-v, --version', 'the version'],
];

/**
 * Every parameter of rearview/snapshot's PARAM_SPECS, in PARAM_NAMES order: the snapshot's caps and
 * gates, and AgentDiet's a (also the step compaction's keepRecent), b and θ (used by --reduce with
 * --llm or --fixtures on an agent trajectory).
 * @param snapshot the built rearview/snapshot
 * @example
 * ```ts
 * cliParams(snapshot).map((spec) => `--${spec.flag}`); // ['--max-category-items', …]
 * ```
 */
export function cliParams(snapshot: SnapshotParams): Readonly<Snapshot.ParamSpec>[] {
  return snapshot.PARAM_NAMES.map((n) => snapshot.PARAM_SPECS[n]);
}

/** Joins words the help must not wrap apart. */
const KEEP = '\u0000';
/** Help lines stay within this many columns (a description wraps under itself). */
const COLUMNS = 100;

/** Rows as `  left  description`, the descriptions starting in one column and wrapped under it. */
function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const room = Math.max(30, COLUMNS - 2 - width);
  return rows.map(([left, text]) => {
    const lines = [''];
    for (const word of text.split(' ')) {
      const line = lines[lines.length - 1];
      if (line && line.length + 1 + word.length > room) lines.push(word);
      else lines[lines.length - 1] = line ? `${line} ${word}` : word;
    }
    const indent = ' '.repeat(2 + width);
    return `  ${left.padEnd(width)}${lines.join(`\n${indent}`)}`.replaceAll(KEEP, ' ');
  });
}

/**
 * The help text, with the parameters' flags when the library is there to describe them.
 * @example
 * ```ts
 * process.stdout.write(`${usage(snapshot)}\n`);
 * ```
 */
export function usage(snapshot: SnapshotParams | undefined): string {
  const params: (readonly [string, string])[] = snapshot
    ? cliParams(snapshot).map((spec) => [
        `--${spec.flag} <n>`,
        // The range and default stay on one line (KEEP joins them until the text is wrapped).
        `${spec.label}: ${spec.help} ${[`${spec.min}–${spec.max}`, `${spec.unit},`, 'default', `${spec.default}.`].join(KEEP)}`,
      ])
    : [
        [
          '--<parameter> <n>',
          'a snapshot cap, reduction gate or AgentDiet parameter (build the library to list them)',
        ],
      ];
  const rows = table([...OPTIONS, ...params]);
  const options = rows.slice(0, OPTIONS.length);
  const flags = rows.slice(OPTIONS.length);
  const title = snapshot ? 'Parameters (rearview/snapshot PARAM_SPECS):' : 'Parameters:';
  return `${HEAD}\n\nOptions:\n${options.join('\n')}\n\n${title}\n${flags.join('\n')}\n\n${EXITS}`;
}

/**
 * The help without the library (it names no parameter).
 * @example
 * ```ts
 * USAGE.startsWith('Usage: rearview reflect'); // true
 * ```
 */
export const USAGE = usage(undefined);

/**
 * Parses the arguments of `rearview reflect`; throws UsageError on a wrong one.
 * @param argv arguments after the program name
 * @param snapshot the built rearview/snapshot: its PARAM_SPECS give the parameters' flags
 * @example
 * ```ts
 * parseArgs(['reflect', 'chat.json', '--json'], snapshot).json; // true
 * ```
 */
export function parseArgs(argv: readonly string[], snapshot?: SnapshotParams): CliArgs {
  const flags = new Map<string, Snapshot.ParamName>(
    snapshot ? cliParams(snapshot).map((spec) => [`--${spec.flag}`, spec.name]) : [],
  );
  const out: CliArgs = {
    command: undefined,
    file: undefined,
    json: false,
    reduce: false,
    llm: false,
    fixtures: undefined,
    model: undefined,
    openaiUrl: undefined,
    progress: undefined,
    detector: DEFAULT_DETECTOR,
    categoriser: 'rules',
    spelling: true,
    help: false,
    version: false,
    params: {},
  };
  const positional: string[] = [];
  /** A parameter's value, refused (exit 2) outside the library's range. */
  const param = (flag: string, text: string) => {
    try {
      out.params[flags.get(flag)!] = snapshot!.parseParam(flags.get(flag)!, text);
    } catch (err) {
      const e = err as { issues?: { message?: string }[]; message: string };
      throw new UsageError(`${flag}: ${e.issues?.[0]?.message ?? e.message}`);
    }
  };
  const args = new ArgCursor(argv, REFLECT_SWITCHES);
  while (args.next()) {
    const a = args.name;
    if (a === '--json') out.json = true;
    else if (a === '--reduce') out.reduce = true;
    else if (a === '--llm') out.llm = true;
    else if (a === '--fixtures') out.fixtures = args.value();
    else if (a === '--model') out.model = args.value();
    else if (a === '--openai-url') out.openaiUrl = args.value();
    else if (a === '--progress') out.progress = true;
    else if (a === '--no-progress') out.progress = false;
    else if (a === '--languages') out.languages = true;
    else if (a === '--no-languages') out.languages = false;
    else if (a === '--no-spelling') out.spelling = false;
    else if (a === '--detector') {
      const d = args.value();
      if (!(DETECTORS as readonly string[]).includes(d))
        throw new UsageError(`--detector ${d}: one of ${DETECTORS.join(', ')}`);
      out.detector = d as Detector;
    } else if (a === '--categoriser') {
      const c = args.value();
      if (!(CATEGORISERS as readonly string[]).includes(c))
        throw new UsageError(`--categoriser ${c}: one of ${CATEGORISERS.join(', ')}`);
      out.categoriser = c as Categoriser;
    } else if (flags.has(a)) param(a, args.value());
    else if (a === '-h' || a === '--help') out.help = true;
    else if (a === '-v' || a === '--version') out.version = true;
    else if (a === '--') {
      positional.push(...args.rest());
      break;
    } else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  out.command = positional[0];
  out.file = positional[1];
  if (positional.length > 2) throw new UsageError(`unexpected argument ${positional[2]}`);
  modelChoice(out);
  return out;
}
