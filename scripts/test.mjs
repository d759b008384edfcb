#!/usr/bin/env node
// `npm test`: everything, in order — typecheck, lint, library and CLI builds, unit + browser +
// runtime-matrix tests (vitest), playground build, end-to-end tests (Playwright). Stops at the first
// failing step and ends with one summary line: "rearview: N passed, N failed, N skipped (why)".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules/.bin', name);
mkdirSync(join(root, '.cache'), { recursive: true });
const vitestJson = join(root, '.cache/vitest-results.json');
const e2eJson = join(root, '.cache/e2e-results.json');
// Results of an earlier run must not be counted when this run stops before producing its own.
rmSync(vitestJson, { force: true });
rmSync(e2eJson, { force: true });
/** A free port on 127.0.0.1 for the e2e server, so a playground left running elsewhere cannot collide. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
const env = {
  ...process.env,
  REARVIEW_DIST_FRESH: '1',
  DENO_NO_UPDATE_CHECK: '1',
  E2E_JSON: e2eJson,
  E2E_PORT: process.env.E2E_PORT ?? String(await freePort()),
};

const steps = [
  ['typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['typecheck cli', bin('tsc'), ['-p', 'tsconfig.cli.json', '--noEmit']],
  ['typecheck tests', bin('tsc'), ['-p', 'tsconfig.test.json', '--noEmit']],
  ['lint', bin('biome'), ['check', '.']],
  ['build library', process.execPath, ['scripts/build-lib.mjs']],
  ['build cli', process.execPath, ['scripts/build-cli.mjs']],
  [
    'unit, browser and runtime-matrix tests',
    bin('vitest'),
    [
      'run',
      '--config',
      'vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestJson}`,
    ],
  ],
  ['build playground', bin('vite'), ['build', '--logLevel', 'warn']],
  ['end-to-end tests', bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts']],
];

const only = process.argv.slice(2);
let failedStep;
for (const [name, cmd, args] of steps) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  console.log(`\n▶ ${name}`);
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.log(`✗ ${name} failed after ${secs} s`);
    failedStep = name;
    break;
  }
  console.log(`✓ ${name} (${secs} s)`);
}

let passed = 0;
let failed = 0;
/** Why tests were skipped → how many; printed after the counts so a skip is never silent. */
const skipped = new Map();
const skip = (reason, n = 1) => skipped.set(reason, (skipped.get(reason) ?? 0) + n);
const sharedData = join(root, '../shared/data');
/** A vitest file gives no reason per test: a file that reads ../shared/data skips for its absence. */
const vitestReason = (file) => {
  const rel = relative(root, file);
  let source = '';
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    /* a file that moved: its name is the reason */
  }
  return !existsSync(sharedData) && source.includes('shared/data')
    ? '../shared/data is absent'
    : `skipped by ${rel}`;
};
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  for (const file of v.testResults ?? []) {
    const n = (file.assertionResults ?? []).filter((a) =>
      ['skipped', 'pending', 'todo', 'disabled'].includes(a.status),
    ).length;
    if (n) skip(vitestReason(file.name), n);
  }
}
if (existsSync(e2eJson)) {
  const p = JSON.parse(readFileSync(e2eJson, 'utf8'));
  passed += p.stats?.expected ?? 0;
  failed += (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0);
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'skipped') continue;
        const note = (t.annotations ?? []).find((a) => a.type === 'skip' && a.description);
        skip(note ? note.description : `skipped by e2e/${spec.file ?? suite.file}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of p.suites ?? []) walk(suite);
}
if (failedStep && failed === 0) failed = 1; // a failed typecheck or lint counts as a failure too
const skippedCount = [...skipped.values()].reduce((a, b) => a + b, 0);
const why = [...skipped].map(([reason, n]) => `${n}: ${reason}`).join('; ');
// CI reads the "N passed, N failed" prefix: keep it first and unchanged.
console.log(
  `\nrearview: ${passed} passed, ${failed} failed, ${skippedCount} skipped${why ? ` (${why})` : ''}`,
);
process.exit(failedStep ? 1 : 0);
