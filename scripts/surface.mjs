#!/usr/bin/env node
// The public surface of the package: every subpath of package.json's `exports`, each exported name
// with its kind and its signature as the emitted declaration files (.d.ts) give it. tsc 7 has no
// compiler API, so a small parser reads tsc's own output: it follows `export … from` chains and cuts
// each declaration at its end (the `;` or closing `}` at depth 0, skipping strings and comments).
//
//   npm run surface            # rewrite api/surface.json from the current sources
//   node scripts/surface.mjs --check   # exit 1 when api/surface.json differs (what the unit test does)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { root } from './entries.mjs';

export const SURFACE_FILE = join(root, 'api/surface.json');

/** Emits the library's declarations into a fresh temporary folder; returns its `lib` folder. */
export function emitDeclarations() {
  const out = mkdtempSync(join(tmpdir(), 'rearview-surface-'));
  execFileSync(
    join(root, 'node_modules/.bin/tsc'),
    ['-p', join(root, 'tsconfig.json'), '--emitDeclarationOnly', '--declaration', '--outDir', out],
    { stdio: 'inherit' },
  );
  return { lib: join(out, 'lib'), cleanup: () => rmSync(out, { recursive: true, force: true }) };
}

/** `text` without comments, strings kept (a declaration's text is compared, its docs are not). */
function stripComments(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else out += c;
  }
  return out;
}

/** The end of the statement starting at `start`: after its `;` or its last `}` at depth 0. */
function statementEnd(text, start, braceEnds) {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (depth === 0 && c === '}' && braceEnds) return i + 1;
    } else if (c === ';' && depth === 0) return i + 1;
    else if (
      c === '\n' &&
      depth === 0 &&
      braceEnds === false &&
      /^\s*(export|declare|\})/.test(text.slice(i + 1, i + 12))
    )
      return i;
  }
  return text.length;
}

const DECLARATION =
  /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(function|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const REEXPORT = /^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*['"]([^'"]+)['"])?;?/gm;

const files = new Map();
function read(file) {
  if (!files.has(file)) files.set(file, existsSync(file) ? stripComments(readFileSync(file, 'utf8')) : '');
  return files.get(file);
}
const dtsOf = (from, spec) => resolve(dirname(from), spec.replace(/\.js$/, '.d.ts'));
const squash = (s) => s.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();

/** Kind and signature of `name` as declared in `file`, following re-exports. */
function declaration(file, name, seen = new Set()) {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const text = read(file);
  const found = [];
  for (const m of text.matchAll(DECLARATION)) {
    if (m[2] !== name) continue;
    const kind = m[1] === 'let' ? 'const' : m[1];
    const end = statementEnd(text, m.index, kind === 'class' || kind === 'interface' || kind === 'enum');
    found.push({
      kind,
      text: squash(
        text
          .slice(m.index, end)
          .replace(/^export\s+/, '')
          .replace(/^declare\s+/, ''),
      ),
    });
  }
  if (found.length) return { kind: found[0].kind, signature: found.map((f) => f.text).join(' ') };
  for (const m of text.matchAll(REEXPORT)) {
    for (const raw of m[2].split(',')) {
      const item = raw.trim().replace(/^type\s+/, '');
      if (!item) continue;
      const [local, exported = local] = item.split(/\s+as\s+/);
      if (exported !== name) continue;
      const hit = m[3] ? declaration(dtsOf(file, m[3]), local, seen) : imported(file, local, seen);
      if (hit) return hit;
    }
  }
  for (const m of text.matchAll(/^export\s+\*\s+from\s+['"]([^'"]+)['"]/gm)) {
    const hit = declaration(dtsOf(file, m[1]), name, seen);
    if (hit) return hit;
  }
  return undefined;
}

/** The declaration of a name `file` imports (`import { a as b } from …` then `export { b }`). */
function imported(file, name, seen) {
  for (const m of read(file).matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm)) {
    for (const raw of m[1].split(',')) {
      const item = raw.trim().replace(/^type\s+/, '');
      if (!item) continue;
      const [remote, local = remote] = item.split(/\s+as\s+/);
      if (local === name) return declaration(dtsOf(file, m[2]), remote, seen);
    }
  }
  return undefined;
}

/** The names `file` exports (its own declarations and re-exports; `export *` followed). */
function exportedNames(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = read(file);
  const names = [];
  for (const m of text.matchAll(DECLARATION)) if (/^export\s/.test(m[0])) names.push(m[2]);
  for (const m of text.matchAll(REEXPORT)) {
    for (const raw of m[2].split(',')) {
      const item = raw.trim().replace(/^type\s+/, '');
      if (item) names.push(item.split(/\s+as\s+/).pop());
    }
  }
  for (const m of text.matchAll(/^export\s+\*\s+from\s+['"]([^'"]+)['"]/gm))
    names.push(...exportedNames(dtsOf(file, m[1]), seen));
  return [...new Set(names)].sort();
}

/** subpath → name → { kind, signature }, for every subpath of package.json's exports. */
export function surface(libDir) {
  files.clear();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target !== 'object' || !target.types) continue;
    const file = join(libDir, target.types.replace(/^\.\/dist\/lib\//, ''));
    const entry = {};
    for (const name of exportedNames(file)) {
      entry[name] = declaration(file, name) ?? { kind: 'unknown', signature: '' };
    }
    out[subpath === '.' ? 'rearview' : `rearview/${subpath.slice(2)}`] = entry;
  }
  return out;
}

/** The surface of the current sources, as the committed file holds it. */
export function currentSurface() {
  const { lib, cleanup } = emitDeclarations();
  try {
    return `${JSON.stringify(surface(lib), null, 2)}\n`;
  } finally {
    cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = currentSurface();
  if (process.argv.includes('--check')) {
    const committed = existsSync(SURFACE_FILE) ? readFileSync(SURFACE_FILE, 'utf8') : '';
    if (committed !== text) {
      console.error('api/surface.json differs from the current sources: run `npm run surface` and commit it');
      process.exit(1);
    }
    console.log('api/surface.json matches the current sources');
  } else {
    writeFileSync(SURFACE_FILE, text);
    const counts = Object.fromEntries(
      Object.entries(JSON.parse(text)).map(([k, v]) => [k, Object.keys(v).length]),
    );
    console.log(JSON.stringify(counts));
  }
}
