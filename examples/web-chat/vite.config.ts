import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web chat example: plain DOM, built to .cache/examples/web-chat. `rearview/*` resolves to the
// library sources here; in your app it is the npm package.
const lib = fileURLToPath(new URL('../../lib/', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  resolve: {
    alias: [
      { find: /^rearview$/, replacement: `${lib}index.ts` },
      { find: /^rearview\/(.+)$/, replacement: `${lib}$1/index.ts` },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../../.cache/examples/web-chat', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
  logLevel: 'warn',
});
