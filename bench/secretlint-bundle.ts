/**
 * Can secretlint's core and recommended preset run in a browser or worker bundle without Node built-ins
 * (issue 36)? Bundles bench/secretlint-worker.ts for the browser twice, with no polyfills: esbuild
 * (`platform: 'browser'`), which refuses an unresolvable import, and Vite (the playground's bundler),
 * which swaps Node built-ins for an empty stub and warns. Reports what each says, the Vite bundle's size
 * raw and gzipped (beside lib/redact's, bundled by esbuild the same way), and then runs that bundle in a module worker in Chromium on the reference texts,
 * comparing its reports with secretlint's in Node.
 *
 * Standalone: `npx tsx bench/secretlint-bundle.ts` prints JSON (needs /usr/bin/chromium).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { createLogger, build as viteBuild } from 'vite';
import { REFERENCE_POSITIONS, referenceKinds } from '../tools/shared/redact-reference';
import { secretlintScan } from '../tools/shared/secretlint-compare';

const root = join(import.meta.dirname, '..');
const entry = join(import.meta.dirname, 'secretlint-worker.ts');
const out = mkdtempSync(join(tmpdir(), 'secretlint-bundle-'));

async function withEsbuild(entryPoint = entry) {
  // esbuild comes with tsx and Vite (not a dependency of its own here), so it is loaded when present.
  const esbuild = await import('esbuild').catch(() => undefined);
  if (esbuild === undefined) return { ok: false, errors: ['esbuild is not installed'] };
  try {
    const r = await esbuild.build({
      entryPoints: [entryPoint],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    const code = r.outputFiles[0]!.contents;
    return {
      ok: true,
      bytes: code.length,
      gzip: gzipSync(code).length,
      warnings: r.warnings.map((w) => w.text),
    };
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string } }[] }).errors ?? [];
    return { ok: false, errors: errors.map((e) => `${e.text} (${e.location?.file ?? '?'})`) };
  }
}

async function withVite() {
  const warnings: string[] = [];
  const logger = createLogger('warn', { allowClearScreen: false });
  logger.warn = (msg) => warnings.push(msg.replace(/ See https:\S+ for more details\./, ''));
  logger.warnOnce = logger.warn;
  await viteBuild({
    configFile: false,
    root,
    logLevel: 'silent',
    customLogger: logger,
    publicDir: false,
    build: {
      outDir: out,
      emptyOutDir: true,
      minify: true,
      target: 'es2022',
      lib: { entry, formats: ['es'], fileName: 'secretlint' },
    },
  });
  const code = readFileSync(join(out, 'secretlint.js'));
  return { code: code.toString('utf8'), bytes: code.length, gzip: gzipSync(code).length, warnings };
}

/** Runs the Vite bundle as a module worker in Chromium over `texts`; the rule ids per text. */
async function inChromium(code: string, texts: string[]) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage();
    // A same-origin page and script, served from memory: a worker from a blob URL of about:blank does not start.
    await page.route('http://bundle.test/**', (route) =>
      route.request().url().endsWith('.js')
        ? route.fulfill({ contentType: 'text/javascript', body: code })
        : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>secretlint</title>' }),
    );
    await page.goto('http://bundle.test/');
    return await page.evaluate(
      (input) =>
        new Promise<{ ok: boolean; out?: string[][]; error?: string }>((resolve) => {
          const w = new Worker('/secretlint.js', { type: 'module' });
          w.onmessage = (e) => resolve(e.data);
          w.onerror = (e) => resolve({ ok: false, error: e.message ?? 'worker error' });
          w.postMessage(input);
        }),
      texts,
    );
  } finally {
    await browser.close();
  }
}

try {
  const esb = await withEsbuild();
  const rearview = await withEsbuild(join(root, 'lib/redact/index.ts'));
  const vite = await withVite();
  const texts = referenceKinds(1).flatMap((k) =>
    REFERENCE_POSITIONS.flatMap((p) => {
      const doc = p.place(k.text, k.value);
      return typeof doc === 'string' ? [doc] : doc;
    }),
  );
  const node = await Promise.all(texts.map(async (t) => (await secretlintScan(t)).map((h) => h.ruleId)));
  const browser = await inChromium(vite.code, texts);
  const same = browser.out?.filter((rules, i) => rules.join() === node[i]!.join()).length ?? 0;
  console.log(
    JSON.stringify(
      {
        esbuild: esb,
        rearviewRedactEsbuild: rearview,
        vite: { bytes: vite.bytes, gzip: vite.gzip, warnings: vite.warnings },
        chromiumWorker: {
          ran: browser.ok,
          error: browser.error,
          texts: texts.length,
          sameReportsAsNode: same,
          textsWithReports: node.filter((r) => r.length > 0).length,
        },
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
