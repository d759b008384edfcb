/**
 * The documentation standard, enforced: every public export (a name re-exported from a
 * lib/<module>/index.ts) has TSDoc right above its declaration — with an `@example` for functions,
 * classes and consts, at least a description for interfaces and types. A failure lists every
 * offender as `file:line name`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const libDir = join(root, 'lib');

/** Files allowed to lag behind (none: every public export is documented). */
const PENDING_DOCS: readonly string[] = [];

type Kind = 'function' | 'class' | 'const' | 'interface' | 'type';

interface Declaration {
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  line: number;
  kind: Kind;
  /** The `/** … *\/` block directly above the declaration, if there is one. */
  doc: string | undefined;
}

interface Reexport {
  /** The name as declared in the source module (before any `as`). */
  local: string;
  /** The name it is exported as. */
  exported: string;
  /** The absolute path of the module it comes from. */
  from: string;
}

const DECLARATION =
  /^export\s+(?:declare\s+)?(async\s+function\*?|function\*?|abstract\s+class|class|const|let|enum|interface|type)\s+([A-Za-z_$][\w$]*)/gm;
const REEXPORT = /^export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm;

const sources = new Map<string, string>();
function source(file: string): string {
  let text = sources.get(file);
  if (text === undefined) {
    text = readFileSync(file, 'utf8');
    sources.set(file, text);
  }
  return text;
}

function rel(file: string): string {
  return relative(root, file).split('\\').join('/');
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function kindOf(keyword: string): Kind {
  if (keyword.includes('function')) return 'function';
  if (keyword.includes('class')) return 'class';
  if (keyword === 'const' || keyword === 'let') return 'const';
  return keyword === 'interface' ? 'interface' : 'type';
}

/** The doc block ending right before `offset`, skipping blank space and `//` line comments. */
function docBefore(text: string, offset: number): string | undefined {
  const lines = text.slice(0, offset).split('\n');
  lines.pop(); // the (empty) start of the declaration's own line
  while (lines.length > 0) {
    const last = (lines.at(-1) ?? '').trim();
    if (last === '' || last.startsWith('//')) lines.pop();
    else break;
  }
  const before = lines.join('\n');
  if (!before.endsWith('*/')) return undefined;
  const start = before.lastIndexOf('/*');
  return start >= 0 && before.startsWith('/**', start) ? before.slice(start) : undefined;
}

/** The first `export <kind> NAME` of each name in a file (the first overload carries the docs). */
function declarationsIn(file: string): Map<string, Declaration> {
  const text = source(file);
  const found = new Map<string, Declaration>();
  for (const match of text.matchAll(DECLARATION)) {
    const [, keyword = '', name = ''] = match;
    if (found.has(name)) continue;
    const offset = match.index ?? 0;
    found.set(name, {
      file: rel(file),
      line: text.slice(0, offset).split('\n').length,
      kind: kindOf(keyword),
      doc: docBefore(text, offset),
    });
  }
  return found;
}

function reexportsIn(file: string): Reexport[] {
  const out: Reexport[] = [];
  for (const match of source(file).matchAll(REEXPORT)) {
    const [, list = '', spec = ''] = match;
    const from = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    for (const raw of list.split(',')) {
      const item = raw
        .replace(/\/\/.*$/gm, '')
        .trim()
        .replace(/^type\s+/, '');
      if (item === '') continue;
      const [local = '', exported = local] = item.split(/\s+as\s+/);
      out.push({ local, exported, from });
    }
  }
  return out;
}

const allFiles = tsFiles(libDir);
const declarationsByFile = new Map(allFiles.map((file) => [file, declarationsIn(file)]));

/** Follows re-export chains from `file`; falls back to a unique declaration anywhere in lib/. */
function findDeclaration(name: string, file: string, seen = new Set<string>()): Declaration | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const own = declarationsByFile.get(file)?.get(name);
  if (own) return own;
  if (declarationsByFile.has(file)) {
    for (const reexport of reexportsIn(file)) {
      if (reexport.exported !== name) continue;
      const found = findDeclaration(reexport.local, reexport.from, seen);
      if (found) return found;
    }
  }
  const anywhere = [...declarationsByFile.values()].flatMap((decls) => {
    const decl = decls.get(name);
    return decl ? [decl] : [];
  });
  return anywhere.length === 1 ? anywhere[0] : undefined;
}

const moduleIndexes = readdirSync(libDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(libDir, entry.name, 'index.ts'))
  .filter((file) => allFiles.includes(file));

/** Every public name, with where its module index says it comes from. */
function publicExports(): { name: string; index: string; from: string }[] {
  return moduleIndexes.flatMap((index) => [
    ...reexportsIn(index).map((r) => ({ name: r.local, index, from: r.from })),
    ...[...(declarationsByFile.get(index)?.keys() ?? [])].map((name) => ({ name, index, from: index })),
  ]);
}

describe('TSDoc on every public export', () => {
  it('finds the public surface', () => {
    const names = publicExports();
    expect(moduleIndexes.length).toBeGreaterThanOrEqual(10);
    expect(names.length).toBeGreaterThan(300);
  });

  it('documents every export, with an @example for functions, classes and consts', () => {
    const offenders: string[] = [];
    const checked = new Set<string>();
    for (const { name, index, from } of publicExports()) {
      const decl = findDeclaration(name, from);
      if (!decl) {
        offenders.push(`${rel(index)} ${name} (no declaration found)`);
        continue;
      }
      const key = `${decl.file}:${decl.line}`;
      if (checked.has(key)) continue;
      checked.add(key);
      if (PENDING_DOCS.includes(decl.file)) continue;
      const needsExample = decl.kind === 'function' || decl.kind === 'class' || decl.kind === 'const';
      if (decl.doc === undefined) offenders.push(`${key} ${name} (no TSDoc)`);
      else if (needsExample && !decl.doc.includes('@example')) offenders.push(`${key} ${name} (no @example)`);
    }
    offenders.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    expect(offenders, `Public exports missing TSDoc:\n${offenders.join('\n')}`).toEqual([]);
  });
});
