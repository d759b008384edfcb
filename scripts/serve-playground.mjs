#!/usr/bin/env node
// Serves the built playground (dist/playground) on 127.0.0.1 for the e2e tests; builds it first if absent.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { preview } from 'vite';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(join(root, 'dist/playground/index.html')))
  execSync('npx vite build', { cwd: root, stdio: 'inherit' });
const port = Number(process.argv[2] ?? 4317);
await preview({
  root,
  configFile: join(root, 'vite.config.ts'),
  preview: { host: '127.0.0.1', port, strictPort: true },
});
console.log(`serving dist/playground on http://127.0.0.1:${port}/`);
