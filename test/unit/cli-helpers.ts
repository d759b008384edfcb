/**
 * What the CLI's test files share: the built CLI (dist/cli/rearview.js, on the built dist/lib) loaded
 * before a file's tests, beside a local Messages API and a scratch folder, and two ways to run it —
 * the exported main() in-process, and the real binary spawned.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';
import { builtCli } from './built-cli';

export const root = join(import.meta.dirname, '../..');
let CLI: string;

type Main = (argv: string[], io?: Record<string, unknown>) => Promise<number>;
type ParseArgs = (argv: string[], snapshot: unknown) => { params: Record<string, number> };
let main: Main;
// Set by the hooks of useBuiltCli(); a test file reads them through the live import bindings.
export let parseArgs: ParseArgs;
export let mock: MockAnthropic;
export let tmp: string;

/**
 * Registers the hooks of the file that calls it: the CLI built (when missing or stale) and loaded, the
 * mock Messages API started, a scratch folder made; the last two undone after its tests.
 */
export function useBuiltCli(): void {
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
}

/** Runs main() in-process with captured streams. */
export async function inProcess(argv: string[], env: Record<string, string> = {}) {
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
export function runCli(
  args: string[],
  opts: { input?: string; env?: Record<string, string>; cli?: string } = {},
) {
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

/** A chat with one correction, the input of most of the binary tests. */
export const chat = JSON.stringify([
  { role: 'user', content: 'How do I install the dependencies?' },
  { role: 'assistant', content: 'Run npm install.' },
  { role: 'user', content: 'No, use pnpm instead of npm.' },
]);
