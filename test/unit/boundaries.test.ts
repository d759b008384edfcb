/**
 * The shape of lib/: folders talk only through their entries, dependencies run one way (the map in
 * README.md's "Layout"), and no source file grows past 400 lines without a stated reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const lib = join(import.meta.dirname, '../../lib');

/**
 * Which folders each folder may import, bottom to top. Keep in step with README.md's map: a new arrow
 * is a design decision, made here on purpose, not discovered in review.
 */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  language: [],
  kv: ['core'],
  redact: ['core'],
  transcript: ['core'],
  llm: ['core', 'redact'],
  heuristic: ['core', 'transcript'],
  failures: ['core', 'heuristic', 'transcript'],
  'heuristic-model': ['core', 'heuristic'],
  'llm-reflect': ['core', 'heuristic', 'llm'],
  categorise: ['core'],
  'categorise-model': ['categorise', 'core'],
  compress: ['core', 'llm', 'redact', 'transcript'],
  snapshot: ['categorise', 'compress', 'core', 'failures', 'llm', 'redact', 'transcript'],
  playbook: ['core', 'llm', 'redact'],
  loop: ['core', 'kv', 'llm', 'redact'],
  'post-turn': ['core', 'kv', 'llm', 'loop'],
  store: ['core', 'kv', 'loop', 'playbook'],
  durable: ['core', 'kv', 'playbook', 'store'],
  session: [
    'core',
    'failures',
    'heuristic',
    'heuristic-model',
    'kv',
    'llm',
    'playbook',
    'redact',
    'store',
    'transcript',
  ],
  learn: ['core', 'failures', 'heuristic', 'language', 'playbook', 'redact', 'transcript'],
};

/** Files allowed past {@link MAX_LINES}, each with the reason it is one file. */
const LONG_FILES: Record<string, string> = {
  'redact/vendors.ts':
    'data: one row per vendor key format (prefix, rest, what), about 20 lines of code; the table is what is long',
  'heuristic/languages.ts':
    'data: the marker lists of eight more languages, one list per signal (about 60 lines of code, docs and comments; the lists are what is long)',
  'heuristic/markers.ts':
    'data: the default marker vocabulary, one list per signal, with its type and docs (about 20 lines are not list entries; the lists are what is long)',
  'snapshot/deterministic.ts':
    'one build() pass (candidates, MinHash-LSH consolidation, ranking, caps) sharing hot typed-array locals under a ~16 ms budget for 10k entries; the entry analysis and the memo are in analysis.ts and memo.ts, the MinHash signature and bucket tables in lsh.ts, the grouping of evidence by place in same-place.ts, evidence seen from the session folder in root.ts, placeholder links in placeholder.ts, words joined by slashes in word-list.ts, the list marker an item is listed without in sentences.ts, the scopes that keep an entry out of lists in scopes.ts, the word scan, term table and gate hints in lib/categorise',
  'core/tokens.ts':
    'one hot scan (tokenFeatures, ~160 lines) whose character classes and feature slots are module-local constants of that loop, plus the weights `npm run calibrate:tokens` fits to those slots; split apart, a slot renumbered in one file silently skews the other',
};
const MAX_LINES = 400;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier of `import … from`, `export … from` and `import('…')`. */
function specifiers(code: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (let m = re.exec(code); m !== null; m = re.exec(code)) out.push(m[1]!);
  return out;
}

const folderOf = (path: string): string | undefined => {
  const rel = relative(lib, path);
  return rel.includes('/') ? rel.split('/')[0] : undefined;
};

const files = sources(lib);
const edges: { from: string; file: string; spec: string; to: string; target: string }[] = [];
for (const file of files) {
  const from = folderOf(file);
  for (const spec of specifiers(readFileSync(file, 'utf8'))) {
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    const to = folderOf(target);
    if (from && to && from !== to)
      edges.push({ from, file: relative(lib, file), spec, to, target: relative(lib, target) });
  }
}

/** Every relative import of every lib file, resolved to a file (type-only imports included). */
const fileEdges = new Map<string, string[]>();
for (const file of files) {
  const out: string[] = [];
  for (const spec of specifiers(readFileSync(file, 'utf8'))) {
    if (!spec.startsWith('.')) continue;
    out.push(relative(lib, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  fileEdges.set(relative(lib, file), out);
}

/** The import circles between files (strongly connected components of more than one file). */
function circles(graph: Map<string, string[]>): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out.map((c) => c.join(' ⇄ ')).sort();
}

/** Import circles between files: none, not even made only by types (a shared type gets its own file). */
const KNOWN_CIRCLES: readonly string[] = [];

describe('lib/ boundaries', () => {
  it('has no import circle between files', () => {
    expect(circles(fileEdges)).toEqual(KNOWN_CIRCLES);
  });

  it('finds the folders and their imports (the scan itself works)', () => {
    expect(Object.keys(ALLOWED).sort()).toEqual(
      readdirSync(lib)
        .filter((n) => statSync(join(lib, n)).isDirectory())
        .sort(),
    );
    expect(edges.length).toBeGreaterThan(50);
  });

  it('imports another folder only through its index', () => {
    const internal = edges
      .filter((e) => e.target !== `${e.to}/index.js` && e.target !== `${e.to}/index`)
      .map((e) => `${e.file} imports ${e.spec}`);
    expect(internal).toEqual([]);
  });

  it('has no arrow the dependency map does not allow (none runs up, no cycles)', () => {
    const forbidden = edges.filter((e) => !ALLOWED[e.from]?.includes(e.to)).map((e) => `${e.file} → ${e.to}`);
    expect(forbidden).toEqual([]);
    // The map itself is acyclic: a topological order exists.
    const order: string[] = [];
    const visit = (n: string, path: string[]) => {
      expect(path, `cycle ${[...path, n].join(' → ')}`).not.toContain(n);
      if (order.includes(n)) return;
      for (const d of ALLOWED[n] ?? []) visit(d, [...path, n]);
      order.push(n);
    };
    for (const n of Object.keys(ALLOWED)) visit(n, []);
    expect(order.indexOf('core')).toBe(0);
    expect(ALLOWED.session).not.toContain('durable');
    expect(Object.values(ALLOWED).some((deps) => deps.includes('session'))).toBe(false);
  });

  it(`keeps every lib file under ${MAX_LINES} lines, but for the listed exceptions`, () => {
    const long = files
      .map((f) => ({ f: relative(lib, f), lines: readFileSync(f, 'utf8').split('\n').length }))
      .filter(({ f, lines }) => lines > MAX_LINES && !(f in LONG_FILES))
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it("matches the dependency map in README.md's Layout section", () => {
    const readme = readFileSync(join(lib, '../README.md'), 'utf8');
    const block = readme.slice(readme.indexOf('## Layout'));
    const documented: Record<string, string[]> = {};
    for (const m of block.matchAll(/^([a-z-]+)\s+→ ([^\n]*?)(?:\s{2,}.*)?$/gm)) {
      documented[m[1]!] = m[2] === '(nothing)' ? [] : m[2]!.split(', ');
    }
    const sorted = (r: Record<string, readonly string[]>) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [...v].sort()]));
    expect(sorted(documented)).toEqual(sorted(ALLOWED));
  });

  it('lists no exception that is no longer needed', () => {
    const stale = Object.keys(LONG_FILES).filter((f) => {
      try {
        return readFileSync(join(lib, f), 'utf8').split('\n').length <= MAX_LINES;
      } catch {
        return true;
      }
    });
    expect(stale).toEqual([]);
  });
});
