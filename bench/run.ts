/**
 * `npm run bench`: runs every `bench/*.bench.ts` suite (or those named on the command line), prints
 * one JSON document to stdout and writes it to bench/results/latest.json.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchResult, BenchSuite } from './harness';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

const suites: Record<string, BenchResult[]> = {};
for (const file of files) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: BenchSuite };
  const t0 = performance.now();
  process.stderr.write(`bench: ${mod.default.name}…`);
  suites[mod.default.name] = await mod.default.run();
  process.stderr.write(` ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

const report = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  suites,
};
const json = JSON.stringify(report, null, 2);
mkdirSync(join(dir, 'results'), { recursive: true });
writeFileSync(join(dir, 'results/latest.json'), `${json}\n`);
console.log(json);
