import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';

// The playground: a Solid app in playground/, static files in public/, built to dist/playground.
// It imports the SDK from lib/ sources through the same `rearview/*` names users write.
// The version the header shows, from package.json (a unit test keeps lib's VERSION equal to it): the
// root entry's VERSION would bring the stores it re-exports into the first visit's chunk.
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// The dictionaries the Learn tab repairs typos in rules with, as `rearview learn` does (Hunspell en_US and
// en_GB, cspell's software terms): their packages export no file paths, so their folders are named here
// and the tab fetches the files as assets when a run starts.
const require = createRequire(import.meta.url);
const packageDir = (entry: string) => dirname(require.resolve(entry));
const DICTIONARIES = [
  { find: /^#dictionary-en\//, replacement: `${packageDir('dictionary-en')}/` },
  { find: /^#dictionary-en-gb\//, replacement: `${packageDir('dictionary-en-gb')}/` },
  {
    find: /^#software-terms\//,
    replacement: `${packageDir('@cspell/dict-software-terms/cspell-ext.json')}/dict/`,
  },
];

export default defineConfig({
  root: fileURLToPath(new URL('./playground', import.meta.url)),
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  plugins: [solid()],
  define: { __REARVIEW_VERSION__: JSON.stringify(version) },
  resolve: {
    alias: [
      ...DICTIONARIES,
      { find: /^rearview$/, replacement: fileURLToPath(new URL('./lib/index.ts', import.meta.url)) },
      {
        find: /^rearview\/(.+)$/,
        replacement: `${fileURLToPath(new URL('./lib/', import.meta.url))}$1/index.ts`,
      },
    ],
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  // Module workers (created with `type: 'module'`) can split chunks: the learned scorer stays a chunk
  // the worker imports only when the switch is on, instead of being bundled into it.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('./dist/playground', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
});
