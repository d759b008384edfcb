#!/usr/bin/env node
// Builds the library into dist/lib: one ES module per source file (preserveModules keeps it
// tree-shakable), plus .d.ts files from tsc. Usage: node scripts/build-lib.mjs
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { isExternal, isNodeBuiltin, libEntries, root } from './entries.mjs';

/**
 * @param {{ quiet?: boolean, entries?: Record<string, string>, outDir?: string, srcRoot?: string, declarations?: boolean }} [options]
 *   `entries`/`outDir`/`srcRoot` let the purity test build a fixture through this exact pipeline.
 */
export async function buildLib({
  quiet = false,
  entries = libEntries(),
  outDir = join(root, 'dist/lib'),
  srcRoot = join(root, 'lib'),
  declarations = true,
} = {}) {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    configFile: false,
    root,
    logLevel: quiet ? 'silent' : 'warn',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      sourcemap: true,
      target: 'es2022',
      lib: { entry: entries, formats: ['es'] },
      rolldownOptions: {
        external: (id) => isExternal(id) || isNodeBuiltin(id),
        output: { preserveModules: true, preserveModulesRoot: srcRoot, entryFileNames: '[name].js' },
      },
    },
  });
  if (!declarations) return;
  execFileSync(
    join(root, 'node_modules/.bin/tsc'),
    [
      '-p',
      join(root, 'tsconfig.json'),
      '--emitDeclarationOnly',
      '--declaration',
      '--outDir',
      join(root, 'dist/types'),
    ],
    { stdio: 'inherit' },
  );
  // tsc mirrors the source tree (rootDir "."), so its lib/ folder lands beside the JS.
  execFileSync('cp', ['-r', `${join(root, 'dist/types/lib')}/.`, outDir]);
  rmSync(join(root, 'dist/types'), { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = performance.now();
  await buildLib();
  console.log(`built dist/lib in ${Math.round(performance.now() - t0)} ms`);
}
