#!/usr/bin/env node
// The purity scan: parses every built JavaScript file of the library and reports anything that
// ties it to Node — a Node built-in import (with or without `node:`), or a reference to `process`,
// `Buffer`, `require`, `__dirname`, `__filename`, `global`. Property names (`x.process`, `{ process: 1 }`)
// and comments do not count; only real references do. Usage: node scripts/purity.mjs [dir]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { parseAst } from 'rolldown/parseAst';

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]));
const FORBIDDEN_GLOBALS = new Set(['process', 'Buffer', 'require', '__dirname', '__filename', 'global']);

/** @typedef {{ file: string, line: number, column: number, what: string }} Violation */

function isNodeBuiltin(specifier) {
  if (specifier.startsWith('node:')) return true;
  return BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]);
}

function lineAndColumn(code, offset) {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset; i++) {
    if (code.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/**
 * Scans one file's code.
 * @param {string} code
 * @param {string} file
 * @returns {Violation[]}
 */
export function scanSource(code, file) {
  const ast = parseAst(code, { sourceType: 'module' });
  /** @type {Violation[]} */
  const found = [];
  const report = (node, what) => found.push({ file, ...lineAndColumn(code, node.start), what });
  const declared = new Set();

  const visit = (node, parent, key) => {
    if (!node || typeof node.type !== 'string') return;
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
      case 'ImportExpression':
        if (
          node.source?.type === 'Literal' &&
          typeof node.source.value === 'string' &&
          isNodeBuiltin(node.source.value)
        ) {
          report(node, `imports the Node built-in "${node.source.value}"`);
        }
        break;
      case 'CallExpression':
        // Bundlers turn `require('os')` into `__require('os')`: catch the built-in either way.
        if (
          node.callee?.type === 'Identifier' &&
          /^_*require$/.test(node.callee.name) &&
          node.arguments[0]?.type === 'Literal' &&
          typeof node.arguments[0].value === 'string' &&
          isNodeBuiltin(node.arguments[0].value)
        ) {
          report(node, `requires the Node built-in "${node.arguments[0].value}"`);
        }
        break;
      case 'Identifier': {
        if (!FORBIDDEN_GLOBALS.has(node.name) || declared.has(node.name)) break;
        const isPropertyName =
          (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) ||
          ((parent?.type === 'Property' ||
            parent?.type === 'MethodDefinition' ||
            parent?.type === 'PropertyDefinition') &&
            key === 'key' &&
            !parent.computed);
        if (!isPropertyName) report(node, `references the Node global "${node.name}"`);
        break;
      }
      default:
        break;
    }
    for (const [k, child] of Object.entries(node)) {
      if (k === 'start' || k === 'end') continue;
      if (Array.isArray(child)) for (const c of child) visit(c, node, k);
      else if (child && typeof child === 'object') visit(child, node, k);
    }
  };
  // A module that declares its own `global` or `process` binding is not using Node's.
  for (const stmt of ast.body) {
    if (stmt.type === 'VariableDeclaration')
      for (const d of stmt.declarations) if (d.id.type === 'Identifier') declared.add(d.id.name);
    if ((stmt.type === 'FunctionDeclaration' || stmt.type === 'ClassDeclaration') && stmt.id)
      declared.add(stmt.id.name);
  }
  visit(ast, undefined, undefined);
  return found;
}

/** Scans every .js/.mjs file under `dir`. */
export function scanDir(dir) {
  /** @type {Violation[]} */
  const all = [];
  const walk = (d) => {
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(m?js)$/.test(entry)) all.push(...scanSource(readFileSync(p, 'utf8'), p));
    }
  };
  walk(dir);
  return all;
}

export function formatViolations(violations, base = process.cwd()) {
  return violations.map((v) => `${relative(base, v.file)}:${v.line}:${v.column} ${v.what}`).join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? 'dist/lib';
  const violations = scanDir(dir);
  if (violations.length) {
    console.error(
      `purity scan failed: ${violations.length} Node dependencies in ${dir}\n${formatViolations(violations)}`,
    );
    process.exit(1);
  }
  console.log(`purity scan: ${dir} is free of Node built-ins and globals`);
}
