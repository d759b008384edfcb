#!/usr/bin/env node
// Proves a refactor changed no behaviour: runs the same inputs through a saved earlier build of
// dist/lib (the baseline) and the current one, and requires byte-identical JSON for every output.
//
//   cp -r dist /tmp/baseline-dist        # before the change (after `npm run build:lib`)
//   npm run build:lib                    # after it
//   node scripts/compare-builds.mjs /tmp/baseline-dist/lib [--data ../shared/data] [--rename new=old,…]
//
// Names are looked up wherever they are exported, so a name that moved to another subpath is still
// compared; a renamed one is found through --rename (and the list RENAMED below). The conformance
// suite of the CURRENT tree runs against both builds: for the baseline, each current subpath is
// served by a generated shim that re-exports every name from where the baseline had it. Three kinds
// of input: the conformance cases, every file of the shared data (parseTranscript → heuristicReflect
// → snapshot → reduction; parseTrajectory → compaction, pruning, snapshot; every line through the
// categoriser), and fast-check strings. Exit code 1 on the first kind of difference, with the list.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './entries.mjs';

/** Public names renamed since the baseline: current name → baseline name. */
export const RENAMED = {
  REPLY_FIELDS: 'SNAKE',
  insightPrompt: 'reflectionPrompt',
  reflectedSnapshotPrompt: 'buildReflectionPrompt',
  reflectorPrompt: 'buildReflectorPrompt',
  turnSummaryPrompt: 'buildReflectSummaryPrompt',
  compressionPrompt: 'buildCompressionPrompt',
  KeyPointTagSchema: 'BulletTagSchema',
  applyKeyPointTags: 'applyBulletTags',
  tallyKeyPointTags: 'tallyBulletTags',
};

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const baselineArg = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!baselineArg) {
  console.error(
    'usage: node scripts/compare-builds.mjs <baseline dist/lib> [--data dir] [--rename new=old,…]',
  );
  process.exit(2);
}
for (const pair of (opt('--rename', '') || '').split(',').filter(Boolean)) {
  const [now, before] = pair.split('=');
  RENAMED[now] = before;
}
const dataDir = resolve(root, opt('--data', '../shared/data'));
const currentDir = join(root, 'dist/lib');
const work = join(root, '.cache/compare');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
// Inside the repository, so the baseline's bare imports (valibot, the SDK) resolve to node_modules.
const baselineDir = join(work, 'baseline');
cpSync(resolve(baselineArg), baselineDir, { recursive: true });

const subpaths = (dir) =>
  readdirSync(dir).filter(
    (n) => statSync(join(dir, n)).isDirectory() && existsSync(join(dir, n, 'index.js')),
  );

/** Every subpath's module of a build, and which subpath exports each runtime name. */
async function loadBuild(dir) {
  const modules = {};
  const where = new Map();
  for (const sub of subpaths(dir)) {
    modules[sub] = await import(pathToFileURL(join(dir, sub, 'index.js')).href);
    for (const name of Object.keys(modules[sub])) if (!where.has(name)) where.set(name, sub);
  }
  return { modules, where };
}

/** Every module file of a build (a name public now may have been internal in the baseline). */
async function internalExports(dir) {
  const where = new Map();
  const walk = (d) =>
    readdirSync(d).flatMap((n) =>
      statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : n.endsWith('.js') ? [join(d, n)] : [],
    );
  for (const file of walk(dir).sort()) {
    const mod = await import(pathToFileURL(file).href);
    for (const name of Object.keys(mod)) if (!where.has(name)) where.set(name, file);
  }
  return where;
}

const current = await loadBuild(currentDir);
const baseline = await loadBuild(baselineDir);
const baselineInternal = await internalExports(baselineDir);

// Shims: the current subpaths, served from the baseline's exports.
const shimDir = join(work, 'shim');
const missing = [];
const internalOnly = [];
for (const sub of subpaths(currentDir)) {
  const lines = [];
  for (const name of Object.keys(current.modules[sub])) {
    const old = RENAMED[name] ?? name;
    const from = old in (baseline.modules[sub] ?? {}) ? sub : baseline.where.get(old);
    const file = from ? join(baselineDir, from, 'index.js') : baselineInternal.get(old);
    if (!file) {
      missing.push(`${sub}: ${name}`);
      continue;
    }
    if (!from) internalOnly.push(`${sub}: ${name}`);
    const spec = relative(join(shimDir, sub), file);
    lines.push(`export { ${old === name ? name : `${old} as ${name}`} } from '${spec}';`);
  }
  mkdirSync(join(shimDir, sub), { recursive: true });
  writeFileSync(join(shimDir, sub, 'index.js'), `${lines.join('\n')}\n`);
}
const shimmed = await loadBuild(shimDir);

/** A function or value by its current name, from the current build and from the baseline. */
const pick = (name) => {
  const sub = current.where.get(name);
  if (!sub) throw new Error(`no current export named ${name}`);
  return [current.modules[sub][name], shimmed.modules[sub]?.[name]];
};

let comparisons = 0;
const differences = [];
/** Runs `fn` on each build's version of the named functions and compares the JSON of the results. */
async function compare(label, names, fn) {
  const fns = names.map(pick);
  const outcome = async (k) => {
    try {
      return JSON.stringify(await fn(...fns.map((pair) => pair[k])));
    } catch (err) {
      return `throws ${err?.code ?? err?.name}: ${err?.message}`;
    }
  };
  const [now, before] = [await outcome(0), await outcome(1)];
  comparisons++;
  if (now !== before && differences.length < 50)
    differences.push({ label, before: before?.slice(0, 300), now: now?.slice(0, 300) });
}

// 1. The conformance suite, bundled against each build.
async function conformance() {
  const { build } = await import('vite');
  const reports = [];
  for (const [name, dir] of [
    ['current', currentDir],
    ['baseline', shimDir],
  ]) {
    await build({
      configFile: false,
      root,
      logLevel: 'error',
      publicDir: false,
      resolve: {
        alias: [
          { find: /^rearview$/, replacement: join(root, 'dist/lib/index.js') },
          { find: /^rearview\/(.+)$/, replacement: `${dir}/$1/index.js` },
        ],
      },
      build: {
        outDir: join(work, name),
        emptyOutDir: false,
        minify: false,
        target: 'es2022',
        lib: {
          entry: join(root, 'test/conformance/suite.ts'),
          formats: ['es'],
          fileName: () => 'conformance.mjs',
        },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    const { runConformance } = await import(pathToFileURL(join(work, name, 'conformance.mjs')).href);
    reports.push(await runConformance('node'));
  }
  const [now, before] = reports;
  for (let i = 0; i < Math.max(now.results.length, before.results.length); i++) {
    const a = now.results[i];
    const b = before.results[i];
    comparisons++;
    if (a?.name !== b?.name || a?.digest !== b?.digest || a?.ok !== b?.ok)
      differences.push({
        label: `conformance ${a?.name ?? b?.name}`,
        before: JSON.stringify(b),
        now: JSON.stringify(a),
      });
  }
  return { cases: now.results.length, failed: now.failed + before.failed };
}

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(json|jsonl|md|traj|txt)$/.test(n) && !/^(SOURCES?|LICENSE)/.test(n) ? [p] : [];
  });
}

// 2. Every file of the shared data, through the pipelines the SDK offers for it.
async function data() {
  const list = files(dataDir);
  for (const file of list) {
    const text = readFileSync(file, 'utf8');
    const at = relative(dataDir, file);
    await compare(`transcript ${at}`, ['parseTranscript'], (parse) => parse(text, { lenient: true }));
    let messages = [];
    try {
      messages = current.modules.transcript.parseTranscript(text, { lenient: true }).messages;
    } catch {
      // Not a transcript: the comparison above covered the error.
    }
    if (messages.length) {
      await compare(`heuristic ${at}`, ['heuristicReflect'], (reflect) => reflect(messages));
      await compare(
        `snapshot ${at}`,
        ['entriesFromMessages', 'snapshotInputFrom', 'deterministicSnapshotWithTrace'],
        (from, input, snap) => {
          const { objective, entries } = from(messages);
          return snap(input(objective, entries));
        },
      );
      await compare(
        `reduction ${at}`,
        ['entriesFromMessages', 'snapshotInputFrom', 'computeTrajectoryReduction'],
        async (from, input, reduce) => {
          const { objective, entries } = from(messages);
          const r = await reduce(input(objective, entries));
          return { ...r, diagnostics: { ...r.diagnostics, reflectionLatencyMs: null } };
        },
      );
    }
    let steps = [];
    try {
      steps = current.modules.transcript.parseTrajectory(text).steps;
    } catch {
      // Not a trajectory.
    }
    if (steps.length) {
      await compare(`compact ${at}`, ['parseTrajectory', 'compactTrajectory'], (p, c) => c(p(text).steps));
      await compare(`prune ${at}`, ['parseTrajectory', 'pruneTrajectory'], (p, c) => c(p(text).steps));
      await compare(
        `steps snapshot ${at}`,
        ['parseTrajectory', 'entriesFromSteps', 'deterministicSnapshot'],
        (p, e, s) => s({ objective: 'fix the failing test', entries: e(p(text).steps) }),
      );
    }
    // Every line (the first 2,000 characters of it) through the categoriser and the text helpers.
    const lines = text.split('\n').map((l) => l.slice(0, 2000));
    await compare(
      `lines ${at}`,
      ['classify', 'words', 'findLinks', 'comparableKey'],
      (classify, words, links, key) => lines.map((l) => [classify(words(l), l), links(l), key(l)]),
    );
  }
  return list.length;
}

// 3. Generated strings: the categoriser, the snapshot, the heuristics and the transcript parser.
async function generated() {
  const fc = (await import('fast-check')).default;
  const strings = fc.sample(
    fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 120 }),
      fc
        .array(
          fc.constantFrom(
            'I',
            'will',
            'run',
            'the',
            'tests',
            'fails',
            'maybe',
            'lib/a.ts',
            '?',
            'not',
            'done',
            '.',
            'http://x.dev/a',
            '**Fix:**',
            '- [ ]',
          ),
          { maxLength: 30 },
        )
        .map((ws) => ws.join(' ')),
    ),
    { seed: 42, numRuns: 5000 },
  );
  await compare(
    'generated lines',
    ['classify', 'words', 'findLinks', 'comparableKey', 'squash'],
    (c, w, l, k, s) => strings.map((t) => [c(w(t), t), l(t), k(t), s(t)]),
  );
  for (let i = 0; i < strings.length; i += 50) {
    const chunk = strings.slice(i, i + 50);
    await compare(`generated snapshot ${i}`, ['deterministicSnapshotWithTrace'], (snap) =>
      snap({
        objective: chunk[0],
        entries: chunk.map((value, j) => ({
          scope: j % 3 ? 'note' : 'blockers',
          key: `k${j}`,
          value,
          sourceIteration: j,
        })),
      }),
    );
    await compare(`generated heuristics ${i}`, ['heuristicReflect'], (reflect) =>
      reflect(chunk.map((content, j) => ({ role: j % 2 ? 'assistant' : 'user', content }))),
    );
    await compare(`generated transcript ${i}`, ['parseTranscript'], (parse) =>
      parse(chunk.join('\n'), { lenient: true }),
    );
  }
  return strings.length;
}

const suite = await conformance();
const dataFiles = await data();
const strings = await generated();
const summary = {
  comparisons,
  differences: differences.length,
  conformanceCases: suite.cases,
  conformanceFailures: suite.failed,
  dataFiles,
  generatedStrings: strings,
  namesMissingInBaseline: missing,
  namesInternalInBaseline: internalOnly.length,
};
console.log(JSON.stringify(summary, null, 2));
if (differences.length) console.log(JSON.stringify(differences.slice(0, 10), null, 2));
process.exit(differences.length || suite.failed ? 1 : 0);
