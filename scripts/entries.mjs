// The public entries of the library: `.` plus one per concept folder of lib/ that has an index.ts.
// package.json's `exports` must list exactly these; a unit test checks that it does.
import { existsSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** @returns {Record<string, string>} entry name (e.g. `core/index`) → absolute source path */
export function libEntries() {
  const entries = { index: join(root, 'lib/index.ts') };
  for (const dir of readdirSync(join(root, 'lib'), { withFileTypes: true })) {
    if (dir.isDirectory() && existsSync(join(root, 'lib', dir.name, 'index.ts'))) {
      entries[`${dir.name}/index`] = join(root, 'lib', dir.name, 'index.ts');
    }
  }
  return entries;
}

/** Runtime dependencies stay external in dist/ so applications dedupe them. */
export function isExternal(id) {
  return /^(valibot|idb-keyval|@anthropic-ai\/sdk)(\/|$)/.test(id);
}

/**
 * Node built-ins stay as plain imports in the output, never replaced by Vite's browser stubs: the
 * purity scan must see them to fail the build (a stub would hide the mistake until run time).
 */
export function isNodeBuiltin(id) {
  return id.startsWith('node:') || builtinModules.includes(id.split('/')[0]);
}
