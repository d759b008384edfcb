#!/usr/bin/env node
// Builds the CLI (cli/*.ts) into dist/cli: one ES module per source file, as build-lib.mjs builds the
// library, for Node (an SSR build: Node built-ins stay imports, and `new URL(…, import.meta.url)` stays
// a run-time path instead of becoming an asset). The CLI loads the library from dist/lib at run time,
// so nothing of lib/ is bundled in. The entry keeps its `#!/usr/bin/env node` line and is made
// executable. Usage: node scripts/build-cli.mjs
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { isNodeBuiltin, root } from './entries.mjs';

/** The CLI's sources and the built entry `bin.rearview` of package.json names. */
export const cliSrc = join(root, 'cli');
export const cliOut = join(root, 'dist/cli');
export const cliEntry = join(cliOut, 'rearview.js');

/**
 * Whether dist/cli is missing or older than a source of cli/ (the CLI tests rebuild it then).
 * @returns {boolean}
 */
export function cliIsStale() {
  let built;
  try {
    built = statSync(cliEntry).mtimeMs;
  } catch {
    return true;
  }
  return readdirSync(cliSrc).some((f) => f.endsWith('.ts') && statSync(join(cliSrc, f)).mtimeMs > built);
}

/**
 * @param {{ quiet?: boolean, outDir?: string }} [options]
 */
export async function buildCli({ quiet = false, outDir = cliOut } = {}) {
  // Built beside the output and moved in file by file (a rename replaces a file at once): test files
  // running in parallel may rebuild while another spawns the CLI, which must never find a file missing.
  const stage = `${outDir}.build-${process.pid}-${Date.now()}`;
  try {
    await build({
      configFile: false,
      root,
      logLevel: quiet ? 'silent' : 'warn',
      publicDir: false,
      build: {
        outDir: stage,
        emptyOutDir: true,
        minify: false,
        sourcemap: true,
        target: 'node20',
        ssr: true,
        rolldownOptions: {
          input: { rearview: join(cliSrc, 'rearview.ts') },
          external: (id) => isNodeBuiltin(id),
          output: {
            format: 'es',
            preserveModules: true,
            preserveModulesRoot: cliSrc,
            entryFileNames: '[name].js',
          },
        },
      },
    });
    chmodSync(join(stage, 'rearview.js'), 0o755);
    mkdirSync(outDir, { recursive: true });
    const built = readdirSync(stage);
    for (const f of built) renameSync(join(stage, f), join(outDir, f));
    for (const f of readdirSync(outDir)) if (!built.includes(f)) rmSync(join(outDir, f), { force: true });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = performance.now();
  await buildCli();
  console.log(`built dist/cli in ${Math.round(performance.now() - t0)} ms`);
}
