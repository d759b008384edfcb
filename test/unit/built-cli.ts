/**
 * The CLI the tests run is the built one (dist/cli/rearview.js, what `bin.rearview` names): built here
 * when it is missing or older than a source of cli/, so a test never runs a stale build.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCli, cliEntry, cliIsStale } from '../../scripts/build-cli.mjs';

const root = join(import.meta.dirname, '../..');

/** The path of the built CLI's entry, after building it if needed. */
export async function builtCli(): Promise<string> {
  if (cliIsStale()) await buildCli({ quiet: true });
  return cliEntry;
}

/** The CLI's `main(argv, io)`: what a test calls to run the CLI in-process. */
export type CliMain = (argv: string[], io?: Record<string, unknown>) => Promise<number>;

/**
 * The built CLI's `main`, loaded in-process; the library is built first when dist/lib is missing
 * (the CLI runs the built library).
 */
export async function loadCliMain(): Promise<CliMain> {
  if (!existsSync(join(root, 'dist/lib/session/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  return ((await import(pathToFileURL(await builtCli()).href)) as { main: CliMain }).main;
}

/**
 * Runs `rearview <command> …argv` through `main` in-process, with stdout and stderr captured (stderr no
 * terminal, no environment).
 */
export async function runCli(
  main: CliMain,
  command: string,
  argv: readonly string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main([command, ...argv], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env: {},
  });
  return { code, out, err };
}
