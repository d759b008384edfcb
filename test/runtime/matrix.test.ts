/**
 * The runtime matrix: the same conformance bundle, built from dist/, runs in Node, real Chromium,
 * workerd, the Vercel edge runtime, Deno and Bun. Every case must pass everywhere, and every runtime
 * must produce the same digest of the deterministic outputs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../conformance/suite';
import { ensureBuilt } from './build';
import { root, run, runBun, runChromium, runDeno, runEdge, runNode, runWorkerd } from './runtimes';

const PY_HASH = 'd01acfae8c6c0fd9900c59bb6ad0f7f5016fca8870d1793de1e7cdf9d6d4ab46';

const runtimes: Record<string, (dir: string) => Promise<ConformanceReport>> = {
  node: runNode,
  chromium: runChromium,
  workerd: runWorkerd,
  'edge-runtime': runEdge,
  deno: runDeno,
  bun: runBun,
};

describe('runtime matrix', () => {
  let dir: string;
  const reports: Record<string, ConformanceReport> = {};

  beforeAll(async () => {
    dir = await ensureBuilt();
  });

  for (const [name, launch] of Object.entries(runtimes)) {
    it(`passes every conformance case in ${name}`, async () => {
      const report = await launch(dir);
      reports[name] = report;
      const failures = report.results.filter((r) => !r.ok);
      expect(failures, `${name} failures`).toEqual([]);
      expect(report.passed).toBeGreaterThan(0);
      expect(report.runtime).toBe(name);
    });
  }

  it('produces byte-identical outputs in all six runtimes', () => {
    const names = Object.keys(runtimes);
    expect(Object.keys(reports).sort()).toEqual([...names].sort());
    const reference = reports.node!;
    for (const name of names) {
      const report = reports[name]!;
      // Compare case by case first so a disagreement names the case, then the overall digest.
      for (const [i, result] of report.results.entries()) {
        expect(`${name}: ${result.name} ${result.digest}`).toBe(
          `${name}: ${reference.results[i]!.name} ${reference.results[i]!.digest}`,
        );
      }
      expect(report.digest, name).toBe(reference.digest);
    }
    console.log(
      `matrix digest ${reference.digest} over ${reference.results.length} cases in ${names.join(', ')}`,
    );
  });
});

describe('dist/ imported directly, without a bundler', () => {
  const script = (runtime: string) =>
    `import * as r from ${JSON.stringify(`${root}/dist/lib/index.js`)};\n` +
    `import * as core from ${JSON.stringify(`${root}/dist/lib/core/index.js`)};\n` +
    `console.log(JSON.stringify({ runtime: ${JSON.stringify(runtime)}, version: r.VERSION, ` +
    `hash: await core.sha256Hex(core.canonicalJson({ b: [1.5, 'caf\\u00e9'], a: null })), ` +
    `json: core.extractJson('reply: {"ok": true}') }));\n`;

  it.each(['node', 'deno', 'bun'])('%s imports dist/lib/index.js', async (runtime) => {
    const dir = mkdtempSync(join(tmpdir(), 'rearview-dist-'));
    const file = join(dir, 'smoke.mjs');
    writeFileSync(file, script(runtime));
    const cmd =
      runtime === 'node'
        ? [process.execPath, [file]]
        : runtime === 'deno'
          ? [
              join(root, 'node_modules/.bin/deno'),
              ['run', '--quiet', '--allow-read', '--node-modules-dir=manual', file],
            ]
          : [join(root, 'node_modules/.bin/bun'), [file]];
    const result = await run(cmd[0] as string, cmd[1] as string[], {
      env: { DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(root, '.cache/deno'), NO_COLOR: '1' },
    });
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout.trim());
    expect(out).toEqual({
      runtime,
      version: '0.1.0',
      // Python: hashlib.sha256(json.dumps({"b": [1.5, "café"], "a": None}, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
      hash: PY_HASH,
      json: { ok: true },
    });
  });
});
