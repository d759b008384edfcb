/**
 * Minified + gzipped size of `rearview/heuristic` and `rearview/llm-reflect`, built with Vite's API
 * (the same bundler applications use): a bundle importing only `heuristicReflect`, one keeping the
 * whole heuristic entry, and one keeping the whole llm-reflect entry. The budget counts the code
 * loaded up front; chunks loaded on first use (escalation, the non-English markers) are measured and
 * reported apart. Used by the size-budget test and the benchmark.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';

const ENTRY = fileURLToPath(new URL('../../lib/heuristic/index.ts', import.meta.url));
const LLM_ENTRY = fileURLToPath(new URL('../../lib/llm-reflect/index.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PURE_NOTE = /\/\* @__PURE__ \*\/ ?/g;

export interface BundleSize {
  /** The code a bundle loads up front (its entry chunk and what that imports statically). */
  minified: number;
  gzipped: number;
  /** Chunks loaded only on first use through `import()` (escalation, the non-English markers), each gzipped. */
  lazy: Record<string, number>;
  /** Modules the bundle still imports, up front or on first use (an LLM SDK or valibot would show here). */
  imports: string[];
}

/** The minified and gzipped size of a bundle whose entry module is `code` (absolute imports). */
export async function bundle(code: string): Promise<BundleSize> {
  const dir = mkdtempSync(join(tmpdir(), 'rearview-heuristic-size-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, code);
  let out: Rolldown.RolldownOutput[] | Rolldown.RolldownOutput;
  try {
    out = (await build({
      configFile: false,
      root: ROOT,
      logLevel: 'silent',
      publicDir: false,
      build: {
        write: false,
        minify: true,
        target: 'es2022',
        lib: { entry, formats: ['es'], fileName: 'bundle' },
        // Vite keeps whitespace in ES library builds; an application's bundle would not: minify fully.
        rolldownOptions: {
          external: (dep) => /^(valibot|@anthropic-ai\/sdk)(\/|$)/.test(dep),
          output: { minify: true },
        },
      },
    })) as Rolldown.RolldownOutput[] | Rolldown.RolldownOutput;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const outputs = Array.isArray(out) ? out : [out];
  let js = '';
  const imports: string[] = [];
  const lazy: Record<string, number> = {};
  const chunks = outputs.flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  // Eager: the entry and its static imports; a chunk reached only through `import()` loads on first use.
  const eager = new Set<string>();
  const visit = (name: string) => {
    if (eager.has(name)) return;
    eager.add(name);
    for (const c of chunks) if (c.fileName === name) for (const dep of c.imports) visit(dep);
  };
  for (const c of chunks) if (c.isEntry) visit(c.fileName);
  for (const chunk of chunks) {
    // Lazy chunks count too: an SDK imported by escalation would still be in the application.
    imports.push(...chunk.imports.filter((dep) => !chunks.some((c) => c.fileName === dep)));
    imports.push(...chunk.dynamicImports.filter((dep) => !chunks.some((c) => c.fileName === dep)));
    if (!eager.has(chunk.fileName)) {
      lazy[chunk.fileName] = gzipSync(chunk.code, { level: 9 }).length;
      continue;
    }
    js += chunk.code;
  }
  // A library build keeps the bundler's `/* @__PURE__ */` notes for the next bundler; an application's
  // production build drops them (checked: a Vite app build of `heuristicReflect` holds none), so they
  // are not counted: the budget is what an application ships.
  js = js.replace(PURE_NOTE, '');
  return { minified: Buffer.byteLength(js), gzipped: gzipSync(js, { level: 9 }).length, lazy, imports };
}

export interface HeuristicSizes {
  /** `import { heuristicReflect } from 'rearview/heuristic'`. */
  heuristicReflect: BundleSize;
  /** Every export of `rearview/heuristic`. */
  wholeEntry: BundleSize;
  /** Every export of `rearview/llm-reflect` (which carries `heuristicReflect`: `llmReflect` merges with it). */
  llmReflectEntry: BundleSize;
}

export async function heuristicSizes(): Promise<HeuristicSizes> {
  return {
    heuristicReflect: await bundle(
      `import { heuristicReflect } from ${JSON.stringify(ENTRY)}; export const keep = heuristicReflect;`,
    ),
    wholeEntry: await bundle(`export * from ${JSON.stringify(ENTRY)};`),
    llmReflectEntry: await bundle(`export * from ${JSON.stringify(LLM_ENTRY)};`),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await heuristicSizes(), null, 2));
}
