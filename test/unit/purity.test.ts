/**
 * Isomorphism, enforced on what ships: the built library must not import Node built-ins or touch
 * Node globals. A second test builds a deliberately impure fixture through the same pipeline and
 * checks that the scan catches every kind of violation, with file and line.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs build scripts have no type declarations
import { buildLib } from '../../scripts/build-lib.mjs';
// @ts-expect-error: plain .mjs build scripts have no type declarations
import { formatViolations, scanDir, scanSource } from '../../scripts/purity.mjs';

const root = join(import.meta.dirname, '../..');

describe('purity scan of the built library', () => {
  beforeAll(async () => {
    if (process.env.REARVIEW_DIST_FRESH !== '1' || !existsSync(join(root, 'dist/lib/index.js'))) {
      await buildLib({ quiet: true });
    }
  }, 120_000);

  it('finds no Node built-in import or Node global in dist/lib', () => {
    const violations = scanDir(join(root, 'dist/lib'));
    expect(formatViolations(violations, root)).toBe('');
    // The scan really looked at something: every public entry was built.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const [subpath, target] of Object.entries<Record<string, string> | string>(pkg.exports)) {
      if (subpath === './package.json') continue;
      expect(existsSync(join(root, (target as Record<string, string>).default)), subpath).toBe(true);
    }
  });

  it('fails, naming file and line, when a Node import or global is added', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rearview-purity-'));
    mkdirSync(join(dir, 'src/bad'), { recursive: true });
    writeFileSync(
      join(dir, 'src/bad/index.ts'),
      [
        "import { readFileSync } from 'node:fs';",
        "import path from 'path';",
        '/** A comment that mentions process.env and Buffer must not count. */',
        'export const fromEnv = () => process.env.HOME;',
        "export const bytes = () => Buffer.from('x');",
        "export const req = () => require('os');",
        'export const here = () => __dirname;',
        'export const props = { process: 1, Buffer: 2 };',
        'export const read = (p: string) => readFileSync(path.join(p, "x"));',
        "export const lazy = () => import('node:crypto');",
      ].join('\n'),
    );
    const outDir = join(dir, 'out');
    await buildLib({
      quiet: true,
      entries: { 'bad/index': join(dir, 'src/bad/index.ts') },
      outDir,
      srcRoot: join(dir, 'src'),
      declarations: false,
    });
    const violations: { file: string; line: number; what: string }[] = scanDir(outDir);
    const whats = [...new Set(violations.map((v) => v.what))].sort();
    expect(whats).toEqual(
      [
        'imports the Node built-in "node:crypto"',
        'imports the Node built-in "node:fs"',
        'imports the Node built-in "path"',
        'references the Node global "Buffer"',
        'references the Node global "__dirname"',
        'references the Node global "process"',
        'references the Node global "require"',
        'requires the Node built-in "os"',
      ].sort(),
    );
    for (const v of violations) {
      // `require` is rewritten to the bundler's runtime helper, which the scan also reports.
      expect(v.file).toMatch(/(bad[/\\]index|_rolldown[/\\]runtime)\.js$/);
      expect(v.line).toBeGreaterThan(0);
    }
    expect(formatViolations(violations, dir)).toMatch(
      /^out\/bad\/index\.js:\d+:\d+ imports the Node built-in/m,
    );
  }, 60_000);

  it('ignores property names and locally declared bindings', () => {
    const code = 'const o = { process: 1 }; o.process; o["x"]; class A { Buffer() {} }\nexport { o, A };';
    expect(scanSource(code, 'x.js')).toEqual([]);
    expect(scanSource('export default () => process;', 'y.js')).toEqual([
      { file: 'y.js', line: 1, column: 22, what: 'references the Node global "process"' },
    ]);
  });
});
