#!/usr/bin/env node
// `npm run fuzz`: the property tests (every unit/conformance test file calling fc.assert, fc.check or
// fc.property) with a fresh random seed per property and REARVIEW_FUZZ_MULTIPLIER (default 10) times
// the runs of `npm test`, which always uses one fixed seed (test/setup/fast-check.ts). Each failure is
// printed with its file, test name, counterexample and the parameters that replay it, ready to paste
// into a regression test: fc.assert(property, { seed, path, endOnFailure: true }).
// Among them is a time-growth property (test/unit/linear-time.property.test.ts): generated adversarial
// repetitions fed to every scanner of untrusted text, each doubling of the input at most tripling the time.
//
//   npm run fuzz                              # every property test file, 10x runs
//   REARVIEW_FUZZ_MULTIPLIER=50 npm run fuzz -- test/unit/utf8.test.ts
//   REARVIEW_FUZZ_TIMEOUT_S=300 npm run fuzz     # give up (and say so) after 5 minutes
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const PROPERTY = /\bfc\.(assert|check|property|asyncProperty)\(/;
const DIRS = ['test/unit', 'test/conformance'];

/** Test files of the unit project that hold at least one property. */
function propertyFiles() {
  const out = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts') && PROPERTY.test(readFileSync(p, 'utf8')))
        out.push(relative(root, p));
    }
  };
  for (const d of DIRS) walk(join(root, d));
  return out.sort();
}

const requested = process.argv.slice(2);
const files = requested.length ? requested : propertyFiles();
if (!files.length) {
  console.error('fuzz: no property test files found');
  process.exit(1);
}
const multiplier = process.env.REARVIEW_FUZZ_MULTIPLIER ?? '10';
mkdirSync(join(root, '.cache'), { recursive: true });
const json = join(root, '.cache/fuzz-results.json');
rmSync(json, { force: true });
console.log(`fuzz: ${files.length} file(s), fresh seeds, ${multiplier}x runs\n  ${files.join('\n  ')}\n`);

// A property stuck in an endless synchronous loop would hold vitest forever: the whole process group
// is killed after REARVIEW_FUZZ_TIMEOUT_S seconds (default 600).
const budget = Number(process.env.REARVIEW_FUZZ_TIMEOUT_S ?? 600);
const child = spawn(
  join(root, 'node_modules/.bin/vitest'),
  [
    'run',
    '--config',
    'vitest.config.ts',
    '--project',
    'unit',
    // More runs take longer: the per-test limit grows with them.
    `--testTimeout=${Math.max(30_000, 30_000 * Number(multiplier))}`,
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${json}`,
    ...files,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, REARVIEW_FUZZ: '1', REARVIEW_FUZZ_MULTIPLIER: multiplier },
  },
);
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  process.kill(-child.pid, 'SIGKILL');
}, budget * 1000);
const r = await new Promise((resolve) => child.on('exit', (status) => resolve({ status })));
clearTimeout(timer);
if (timedOut) {
  console.error(
    `\nfuzz: no result after ${budget} s: a property may loop forever. Run the files one at a time ` +
      '(npm run fuzz -- <file>) to find it; a test name printed last by the reporter points near it.',
  );
  process.exit(1);
}

if (!existsSync(json)) {
  console.error(`fuzz: vitest wrote no results (exit ${r.status})`);
  process.exit(r.status || 1);
}
const results = JSON.parse(readFileSync(json, 'utf8'));
const failures = [];
for (const file of results.testResults ?? []) {
  for (const t of file.assertionResults ?? []) {
    if (t.status !== 'failed') continue;
    const message = (t.failureMessages ?? []).join('\n');
    const replay = /\{ seed: (-?\d+), path: "([^"]*)", endOnFailure: true \}/.exec(message);
    const counterexample = /Counterexample: (.*)/.exec(message);
    const error = /Got error: (.*)/.exec(message) ?? /^(.*)$/m.exec(message);
    failures.push({
      file: relative(root, file.name),
      test: t.fullName,
      replay: replay ? `{ seed: ${replay[1]}, path: "${replay[2]}", endOnFailure: true }` : undefined,
      counterexample: counterexample?.[1],
      error: error?.[1],
    });
  }
}

console.log(`\nfuzz: ${results.numPassedTests} passed, ${results.numFailedTests} failed`);
for (const f of failures) {
  console.log(`\n✗ ${f.file} › ${f.test}`);
  if (f.counterexample) console.log(`  counterexample: ${f.counterexample}`);
  if (f.error) console.log(`  error: ${f.error}`);
  if (f.replay) console.log(`  replay: fc.assert(<the property>, ${f.replay})`);
  else console.log('  (not a property failure: no seed to replay)');
}
process.exit(failures.length || r.status ? 1 : 0);
