/**
 * The package's shape: an `exports` entry per concept folder, no side effects, the version in step,
 * and importing every entry touches no runtime global at module scope.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../lib/index';

const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('package.json', () => {
  it('exports "." and exactly one subpath per concept folder of lib/', () => {
    const folders = readdirSync(join(root, 'lib'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, 'lib', d.name, 'index.ts')))
      .map((d) => `./${d.name}`);
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './package.json', ...folders].sort());
    for (const folder of folders) {
      const name = folder.slice(2);
      expect(pkg.exports[folder]).toEqual({
        types: `./dist/lib/${name}/index.d.ts`,
        default: `./dist/lib/${name}/index.js`,
      });
    }
  });

  it('is side-effect free, ESM, and keeps VERSION in step', () => {
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.type).toBe('module');
    expect(VERSION).toBe(pkg.version);
  });

  it('has only the runtime dependencies the job needs', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@anthropic-ai/sdk', 'idb-keyval', 'valibot']);
    // The dictionaries `rearview learn` repairs typos with (cli/spelling.ts): the CLI only, which keeps
    // the spelling as typed, and says so, when they are not installed.
    expect(Object.keys(pkg.optionalDependencies).sort()).toEqual([
      '@cspell/dict-software-terms',
      'dictionary-en',
      'dictionary-en-gb',
      'nspell',
    ]);
  });
});

describe('module scope', () => {
  it('touches no runtime global when every entry is loaded', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'rearview-scope-'));
    // The root entry and every subpath, each under its folder's name (`core`, `snapshot`, …).
    const entry = join(outDir, 'every-entry.ts');
    const folders = readdirSync(join(root, 'lib'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, 'lib', d.name, 'index.ts')))
      .map((d) => d.name);
    writeFileSync(
      entry,
      [
        `export * from ${JSON.stringify(join(root, 'lib/index.ts'))};`,
        ...folders.map(
          (f) =>
            `export * as ${f.replace(/-(\w)/g, (_, c) => c.toUpperCase())} from ${JSON.stringify(join(root, 'lib', f, 'index.ts'))};`,
        ),
      ].join('\n'),
    );
    await build({
      configFile: false,
      logLevel: 'silent',
      publicDir: false,
      build: {
        outDir,
        minify: false,
        lib: {
          entry,
          formats: ['iife'],
          name: 'Rearview',
          fileName: () => 'all.js',
        },
      },
    });
    const code = readFileSync(join(outDir, 'all.js'), 'utf8');
    // A sandbox whose runtime-specific globals record every access.
    const touched: string[] = [];
    const sandbox: Record<string, unknown> = {};
    for (const name of [
      'crypto',
      'indexedDB',
      'fetch',
      'TextEncoder',
      'TextDecoder',
      'navigator',
      'window',
      'document',
      'self',
      'location',
      'localStorage',
      'BroadcastChannel',
      'process',
      'Buffer',
      'Deno',
      'Bun',
      'caches',
      'setTimeout',
      'console',
    ]) {
      Object.defineProperty(sandbox, name, {
        get() {
          touched.push(name);
          return undefined;
        },
      });
    }
    runInNewContext(code, sandbox);
    expect(touched).toEqual([]);
    // The bundle did define the API, so the check ran on real code.
    const api = runInNewContext('Rearview', sandbox) as Record<string, Record<string, unknown>>;
    expect(typeof api.core?.extractJson).toBe('function');
    expect(typeof api.snapshot?.deterministicSnapshot).toBe('function');
    expect(api.VERSION).toBe(pkg.version);
  }, 60_000);
});

describe('bundle contents', () => {
  async function bundle(source: string): Promise<Record<string, string>> {
    const dir = mkdtempSync(join(tmpdir(), 'rearview-bundle-'));
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, source);
    const outDir = join(dir, 'out');
    await build({
      configFile: false,
      logLevel: 'silent',
      publicDir: false,
      resolve: {
        alias: [
          { find: /^rearview$/, replacement: join(root, 'lib/index.ts') },
          { find: /^rearview\/(.+)$/, replacement: `${join(root, 'lib')}/$1/index.ts` },
        ],
      },
      build: { outDir, minify: false, lib: { entry, formats: ['es'], fileName: () => 'entry.js' } },
    });
    const files: Record<string, string> = {};
    for (const f of readdirSync(outDir)) files[f] = readFileSync(join(outDir, f), 'utf8');
    return files;
  }

  it('leaves the Anthropic SDK out of bundles that never call a model', async () => {
    const files = await bundle(
      "import { parseTranscript } from 'rearview';\nconsole.log(parseTranscript('User: hi').format);\n",
    );
    const all = Object.values(files).join('\n');
    expect(all).toContain('function parseTranscript');
    expect(all).not.toMatch(/anthropic-ai|class BaseAnthropic|dangerouslyAllowBrowser/);
  }, 60_000);

  it('loads the SDK in a separate chunk only when anthropicClient is used', async () => {
    const files = await bundle(
      "import { anthropicClient } from 'rearview/llm';\nexport const llm = anthropicClient();\n",
    );
    const entry = files['entry.js']!;
    expect(entry).not.toMatch(/class BaseAnthropic/);
    expect(entry).toMatch(/import\(["']\.\/[^"']+["']\)/);
    const chunks = Object.entries(files).filter(([name]) => name !== 'entry.js');
    expect(chunks.some(([, code]) => /BaseAnthropic/.test(code))).toBe(true);
  }, 60_000);
});
