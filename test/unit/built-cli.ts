/**
 * The CLI the tests run is the built one (dist/cli/rearview.js, what `bin.rearview` names): built here
 * when it is missing or older than a source of cli/, so a test never runs a stale build.
 */
import { buildCli, cliEntry, cliIsStale } from '../../scripts/build-cli.mjs';

/** The path of the built CLI's entry, after building it if needed. */
export async function builtCli(): Promise<string> {
  if (cliIsStale()) await buildCli({ quiet: true });
  return cliEntry;
}
