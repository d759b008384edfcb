#!/usr/bin/env node
// Bundles test code against the BUILT library (dist/lib), so every runtime of the matrix tests the
// same artifacts users import: ES modules (Node, Deno, Bun, workerd, Chromium) and an IIFE (the edge
// runtime's VM evaluates scripts, not modules). Dependencies are inlined; dynamic imports too.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { root } from './entries.mjs';

export const conformanceDir = join(root, '.cache/conformance');

/**
 * @param {{ entry: string, fileName: string, format: 'es' | 'iife', name?: string, outDir?: string }} options
 * @returns {Promise<string>} the bundle's path
 */
export async function bundleAgainstDist({
  entry,
  fileName,
  format,
  name = 'RearviewBundle',
  outDir = conformanceDir,
}) {
  if (!existsSync(join(root, 'dist/lib/index.js'))) {
    throw new Error('dist/lib is missing: run `npm run build:lib` first');
  }
  mkdirSync(outDir, { recursive: true });
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    resolve: {
      alias: [
        { find: /^rearview$/, replacement: join(root, 'dist/lib/index.js') },
        { find: /^rearview\/(.+)$/, replacement: `${join(root, 'dist/lib')}/$1/index.js` },
      ],
    },
    build: {
      outDir,
      emptyOutDir: false,
      minify: false,
      target: 'es2022',
      lib: { entry, formats: [format], name, fileName: () => fileName },
      // exports 'named': an IIFE of a module with a default export beside named ones (the Vercel edge
      // handler) is read as `Name.default` by its callers; saying so silences rolldown's MIXED_EXPORTS.
      rolldownOptions: { output: { codeSplitting: false, exports: 'named' } },
    },
  });
  return join(outDir, fileName);
}

export async function buildConformance() {
  const entry = join(root, 'test/conformance/suite.ts');
  return {
    esm: await bundleAgainstDist({ entry, fileName: 'conformance.mjs', format: 'es' }),
    iife: await bundleAgainstDist({
      entry,
      fileName: 'conformance.iife.js',
      format: 'iife',
      name: 'RearviewConformance',
    }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await buildConformance());
}
