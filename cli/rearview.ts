#!/usr/bin/env node
// rearview's command line (Node only; it lives outside lib/ and may read files and the environment).
//
//   npx rearview reflect <file | ->  [--json] [--reduce] [--llm | --fixtures <file.jsonl>] [--progress]
//                                    [--max-category-items <n>] [--diet-theta <n>] …
//
// Prints the insights, the key points, the deterministic snapshot and, with --reduce, the reduction
// report of any transcript or trajectory rearview reads. Exit codes: 0 ok, 1 input error (located
// message), 2 usage error. The build (`npm run build:cli`) compiles it to dist/cli, where it imports
// the BUILT library (dist/lib): run `npm run build` first in a checkout. The parts: args.ts (flags and
// help), io.ts (reading, writing, printable text), analyse.ts (the analysis), format.ts (the report),
// learn.ts (`rearview learn`).
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { analyse, type Lib, llmClient, loadLib } from './analyse.js';
import { type CliArgs, InputError, parseArgs, UsageError, usage } from './args.js';
import { formatText, locatedMessage } from './format.js';
import {
  type Io,
  type ProgressBar,
  printable,
  printableJson,
  type ResolvedIo,
  readInput,
  useRedactor,
  version,
  type Writable,
  write,
} from './io.js';

export { type Analysis, analyse, type Lib, lessonsInput } from './analyse.js';
export { type CliArgs, cliParams, parseArgs, USAGE, usage } from './args.js';
export { formatText } from './format.js';
export { type Io, printable, printableJson } from './io.js';

/**
 * Runs the CLI. Never calls process.exit: returns the exit code, so tests can call it in-process.
 * @example
 * ```ts
 * let out = '';
 * const code = await main(['reflect', 'chat.json', '--json'], { stdout: { write: (s) => (out += s) } });
 * ```
 */
export async function main(argv: readonly string[], ioOptions: Io = {}): Promise<number> {
  if (argv[0] === 'learn') return (await import('./learn.js')).main(argv.slice(1), ioOptions);
  const io: ResolvedIo = {
    stdout: ioOptions.stdout ?? process.stdout,
    stderr: ioOptions.stderr ?? process.stderr,
    stdin: ioOptions.stdin ?? process.stdin,
    env: ioOptions.env ?? process.env,
  };
  // Everything printed but the progress bar goes through printable: file names, parser messages and
  // the report all carry text from the input.
  const say = (stream: Writable, text: string) => write(stream, printable(text));
  let args: CliArgs | undefined;
  let bar: ProgressBar | null = null;
  let lib: Lib | UsageError | null = null;
  try {
    lib = await loadLib().catch((err) => {
      if (err instanceof UsageError) return err;
      throw err;
    });
    const built = lib instanceof UsageError ? null : lib;
    useRedactor(built?.redact?.redactText);
    // Without the build only --help and --version can answer (the parameters' flags come from it).
    if (!built && !argv.some((a) => ['-h', '--help', '-v', '--version', 'help'].includes(a))) throw lib;
    args = parseArgs(argv, built?.snapshot);
    if (args.version) {
      say(io.stdout, `${version()}\n`);
      return 0;
    }
    if (args.help || args.command === 'help') {
      say(io.stdout, `${usage(built?.snapshot)}\n`);
      return 0;
    }
    if (args.command === undefined) throw new UsageError('missing command: rearview reflect <file>');
    if (args.command !== 'reflect') throw new UsageError(`unknown command ${args.command}`);
    if (args.file === undefined && io.stdin.isTTY) {
      throw new UsageError('missing <file>: give a path, or - to read stdin');
    }
    // `built` is null here only for an argument `help` that is not the command (`reflect help` without
    // dist/lib): the file is read first, then the library's first use fails as an unexpected error.
    const llm = await llmClient(args, io, built!);
    const name = args.file === undefined || args.file === '-' ? '<stdin>' : args.file;
    const input = await readInput(args.file, io, args.progress);
    bar = input.bar;
    const result = await analyse(input.text, args, built!, llm, bar);
    bar?.end();
    bar = null;
    if (args.json) write(io.stdout, `${printableJson({ file: name, ...result })}\n`, true);
    else write(io.stdout, formatText(name, result));
    if (result.llm?.error && args.json)
      say(io.stderr, `rearview: LLM reflection failed: ${result.llm.error}\n`);
    return 0;
  } catch (err) {
    bar?.end();
    if (err instanceof UsageError) {
      const snapshot = lib instanceof UsageError ? undefined : lib?.snapshot;
      say(io.stderr, `rearview: ${err.message}\n\n${usage(snapshot)}\n`);
      return 2;
    }
    if (err instanceof InputError) {
      const where = args?.file === undefined || args?.file === '-' ? '<stdin>' : args.file;
      say(
        io.stderr,
        `rearview: ${locatedMessage(where, err, lib instanceof UsageError ? undefined : lib?.core)}\n`,
      );
      return 1;
    }
    say(io.stderr, `rearview: unexpected error: ${(err as Error | undefined)?.stack ?? err}\n`);
    return 1;
  }
}

function isMain(): boolean {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  process.exitCode = await main(process.argv.slice(2));
}
