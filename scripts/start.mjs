#!/usr/bin/env node
// `npm start`: installs dependencies when node_modules is missing, builds the library, the CLI and the
// playground, then serves the playground on 127.0.0.1 and prints its URL.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// npm hands its configuration to scripts as npm_config_* variables (the project .npmrc's
// allow-scripts among them); a nested npm reads those as command-line flags, and npm 11 refuses
// --allow-scripts in a project-scoped install (EALLOWSCRIPTS). The nested npm reads .npmrc itself,
// so it gets an environment without them.
const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
const sh = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit', env: childEnv });

if (!existsSync(join(root, 'node_modules/.bin/vite'))) {
  console.log('rearview: installing dependencies (first run)…');
  sh(existsSync(join(root, 'package-lock.json')) ? 'npm ci' : 'npm install');
}
sh('npm run build');

const { preview } = await import('vite');
const port = Number(process.env.PORT ?? 4173);
const server = await preview({ root, preview: { host: '127.0.0.1', port, strictPort: false, open: false } });
const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
console.log(`\nrearview playground: ${url}\n(press Ctrl+C to stop)`);
