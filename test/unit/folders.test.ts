/**
 * The rules of lib/ (boundaries.test.ts) carried to every other source folder: no file past 400 lines
 * without a stated reason, the library reached only through its entries, and bench, eval and test
 * sharing code only through tools/shared (beneath all three), never by importing each other.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const FOLDERS = [
  'bench',
  'cli',
  'e2e',
  'eval',
  'examples',
  'playground',
  'scripts',
  'test',
  'tools',
] as const;
const MAX_LINES = 400;

/** Which top-level folders each folder may import (besides itself). */
const MAY_IMPORT: Record<(typeof FOLDERS)[number], readonly string[]> = {
  tools: ['lib'],
  bench: ['lib', 'tools'],
  eval: ['lib', 'tools'],
  // Tests cover the applications and scripts too, through the same files users run.
  test: ['lib', 'tools', 'scripts', 'playground', 'examples', 'cli'],
  e2e: ['lib', 'test', 'examples', 'playground'],
  playground: ['lib'],
  cli: ['lib'],
  examples: ['lib'],
  scripts: ['lib'],
};

/** Imports across the rule, each with the reason it stays. */
const CROSSING: Record<string, string> = {
  'bench/adversarial.bench.ts → test/adversarial':
    'times the adversarial inputs the linear-scan tests feed, so bench and test measure the same text',
  'bench/playground.bench.ts → e2e/helpers': 'drives the playground with the end-to-end tests’ page helpers',
  'bench/playground.bench.ts → test/chromium': 'launches the Chromium build the browser tests use',
  'bench/playground.bench.ts → playground/src/paste':
    'reads the clipboard-read measure under the name the paste handler gives it',
  'bench/learn-chromium.bench.ts → test/chromium': 'launches the Chromium build the browser tests use',
  'bench/learn.bench.ts → cli/spelling':
    'times `rearview learn` with the dictionary the CLI repairs rules with',
  'bench/learn.bench.ts → cli/learn-sources':
    "times the CLI's own file reader, so the bench's CLI row is the path `rearview learn` takes",
  'eval/learn/authors.ts → cli/spelling': 'writes the rules with the dictionary `rearview learn` loads',
  'eval/learn/spelling.ts → cli/spelling':
    'judges the repairs with the dictionary `rearview learn` loads, so eval and the CLI repair alike',
  'scripts/check-examples.ts → test/llm/mock-anthropic':
    'CI runs each example against the mock Messages API the tests serve',
  'bench/durable.bench.ts → test/runtime/workers/durable-server.js':
    'measures the same workerd Durable Object server the runtime tests start',
  'bench/store.bench.ts → test/chromium.js': 'launches the Chromium build the browser tests use',
  'bench/store.bench.ts → test/runtime/runtimes.js': 'runs workerd through the runtime matrix launcher',
  'examples/edge-worker/run.mjs → scripts/kv-backend.mjs': 'serves Workers KV from the build tooling backend',
  'test/unit/categorise-model.test.ts → eval/heuristic/data':
    'the refit needs the shared data its sets re-read',
  'test/unit/categorise-model.test.ts → eval/snapshot/notes-reader-ship':
    'tests that the shipped notes reader is what eval trains',
  'test/unit/categorise-model.test.ts → eval/snapshot/notes-reader-data':
    'tests that the shipped notes reader reads the labelled entries as eval scored them',
  'test/unit/categorise-model.test.ts → eval/snapshot/notes-reader-model':
    'tests that the shipped notes reader sums as eval scored it',
  'test/unit/categorise-model.test.ts → eval/snapshot/notes-reader-report':
    'tests that the shipped notes reader is what eval trains',
  'test/unit/heuristic-labels.test.ts → eval/heuristic/data': "a floor test of eval's labelled sets",
  'test/unit/playground-scorer.test.ts → cli/args':
    "holds the playground's choice of detectors to the CLI's `--detector` list",
  'test/unit/strangers-notes-set.test.ts → eval/snapshot/sets/strangers-notes/sample':
    "checks that the set's rows still resolve in the shared data through the set's own loader",
  'test/unit/strangers-notes-set.test.ts → eval/snapshot/sets/strangers-notes-2/sample':
    "checks that the second set's rows resolve through its entries path and share no text with the first",
  'test/unit/strangers-notes-set.test.ts → eval/snapshot/sets/aider-apart-notes/sample':
    "checks the aider replies' set against its own draw and the histories it claims no set drew from",
  'test/unit/strangers-notes-set.test.ts → eval/snapshot/sets/aider-fresh-notes/sample':
    "checks the fresh aider replies' set against its own draw and the histories it claims no set drew from",
  'test/unit/strangers-notes-set.test.ts → eval/snapshot/sets/sharegpt-notes/sample':
    "checks the ChatGPT replies' set against its own draw and loader",
  'test/unit/strangers-notes-set.test.ts → eval/snapshot/sets/strangers-notes/apart':
    'checks the kept-apart draws (sets 3-5) through the definition that draws them',
  'test/unit/strangers-notes-set.test.ts → eval/snapshot/sets/strangers-notes/agreement':
    "tests the TSV reader and kappa behind the set's reported second-reader agreement",
  'test/unit/foreign-notes-set.test.ts → eval/snapshot/sets/foreign-notes/sample':
    'checks the foreign-language set against its own draw and kept-apart rule',
  'test/unit/foreign-notes-set.test.ts → eval/snapshot/sets/strangers-notes/agreement':
    "recomputes the set's reported second-reader agreement with eval's TSV reader and kappa",
  'test/unit/foreign-notes-set.test.ts → eval/snapshot/sets/strangers-notes/sample':
    "checks that the set's rows resolve in the shared data through the sets' loader",
  'test/unit/heuristic-labels.test.ts → eval/heuristic/rows': "a floor test of eval's labelled sets",
  'test/unit/unseen-sets.test.ts → eval/heuristic/rows':
    "checks the unseen set's rows with eval's own JSONL reader",
  'test/unit/unseen-sets.test.ts → eval/snapshot/score':
    "reads the unseen notes' labels with eval's TSV reader",
  'test/unit/unseen-sets-shared.ts → eval/heuristic/rows':
    "reads a set's excluded rows with eval's own JSONL reader",
  'test/unit/unseen-console-sets.test.ts → eval/heuristic/rows':
    "checks the console sets' rows with eval's own JSONL reader",
  'test/unit/unseen-console-sets.test.ts → eval/snapshot/score':
    "reads the console notes sets' labels with eval's TSV reader",
  'test/unit/heuristic-labels.test.ts → eval/heuristic/run': "a floor test of eval's scorer",
  'test/unit/heuristic-model.test.ts → eval/heuristic/data': "tests the shipped model against eval's data",
  'test/unit/heuristic-model.test.ts → eval/heuristic/learned':
    'tests that the shipped model is what eval trains',
  'test/unit/heuristic-reader.test.ts → eval/heuristic/data': "tests the shipped reader against eval's data",
  'test/unit/heuristic-reader.test.ts → eval/heuristic/reader-data':
    'checks the rest set reads as the reader trains on it',
  'test/unit/heuristic-reader.test.ts → eval/heuristic/rows': "reads the rest set's rows as eval does",
  'test/unit/heuristic-reader.test.ts → eval/heuristic/strangers-data':
    'tests that every label row of the strangers set maps to a parsed turn',
  'test/unit/heuristic-reader.test.ts → eval/heuristic/reader-train':
    'tests that the shipped reader is what eval trains',
  'test/unit/spent-features.test.ts → eval/heuristic/spent-features':
    "checks the spent sets' stored training rows with eval's own reader of them",
  'test/unit/spent-features.test.ts → eval/heuristic/reader-train':
    'fingerprints the features with the synthetic turns eval trains on',
  'test/unit/spent-features.test.ts → eval/heuristic/rows': "reads the sets' labels with eval's JSONL reader",
  'test/unit/snapshot-labels.test.ts → eval/snapshot/score': "a floor test of eval's labelled sets",
  'test/unit/snapshot-samples.test.ts → eval/snapshot/samples': "tests eval's sample drawing",
  'test/unit/snapshot-samples.test.ts → eval/snapshot/score': "tests eval's sample drawing",
  'test/unit/snapshot-sets.test.ts → eval/heuristic/data': "a floor test of eval's labelled sets",
  'test/unit/snapshot-sets.test.ts → eval/snapshot/sample-aider': "a floor test of eval's labelled sets",
  'test/unit/snapshot-sets.test.ts → eval/snapshot/score': "a floor test of eval's labelled sets",
};

/** Imports of a library file behind an entry, outside test/, each with its reason. */
const INTERNAL: Record<string, string> = {
  'bench/calibrate-tokens.ts → lib/core/tokens':
    'fits the weights of the token estimator’s private feature slots',
  'bench/snapshot.bench.ts → lib/snapshot/sentences.js':
    'splits whole messages at the snapshot’s private sentence ends, the baseline of its sentence reader',
  'eval/heuristic/learned.ts → lib/heuristic-model/features': 'trains on the scorer’s private features',
  'eval/heuristic/learned-fit.ts → lib/heuristic/reflect': 'trains on the heuristics’ private scoring',
  'eval/heuristic/learned.ts → lib/heuristic/score': 'trains on the heuristics’ private scoring',
  'eval/heuristic/probe-context.ts → lib/heuristic-model/features': 'probes the scorer’s private features',
  'eval/heuristic/probe-pairs.ts → lib/heuristic-model/features': 'probes the scorer’s private features',
  'eval/heuristic/probe-friction.ts → lib/heuristic-model/reader-features':
    'probes a feature of the reader’s private reading of the answered message (a claimed fix)',
  'eval/heuristic/run.ts → lib/heuristic/languages': 'scores per language with the private language table',
  'eval/heuristic/strangers-data.ts → lib/heuristic/languages':
    'scores per language with the private language table',
  'eval/heuristic/run.ts → lib/heuristic/score': 'reports the private score components',
  'eval/snapshot/word-lists.ts → lib/snapshot/word-list':
    'groups the kept evidence links by the private word-list shape the readers judged',
  'eval/reduction/metrics.ts → lib/compress/prune-rules.js':
    'measures what the pruner’s private view reader reads',
  'eval/snapshot/learned-features.ts → lib/categorise/classify.js':
    'features from the categoriser’s private flags',
  'eval/snapshot/learned-features.ts → lib/categorise/cues.js':
    'features from the categoriser’s private flags',
  'tools/shared/gate-data-source.ts → lib/categorise/openers.js':
    'writes the gate data with the opener words by name, as the patterns use them (npm run gates)',
  'tools/shared/gated-patterns.ts → lib/categorise/forms.js':
    'derives the gates of the categoriser’s private patterns (npm run gates)',
  'tools/shared/gated-patterns.ts → lib/categorise/lead-rules.js':
    'derives the gates of the categoriser’s private patterns (npm run gates)',
  'tools/shared/gated-patterns.ts → lib/categorise/located-rules.js':
    'derives the gates of the categoriser’s private patterns (npm run gates)',
  'tools/shared/gated-patterns.ts → lib/categorise/stance-rules.js':
    'derives the gates of the categoriser’s private patterns (npm run gates)',
  'tools/shared/own-category.ts → lib/snapshot/sentences.js':
    'finds an entry’s own words in a list as the snapshot lists them (no list marker), beside its link',
};

/** Files past {@link MAX_LINES}, each with its reason. */
const LONG_FILES: Record<string, string> = {};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (['node_modules', 'results', 'fixtures', 'dist'].includes(name)) return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs|js|css)$/.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')
      ? [path]
      : [];
  });
}

const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
const files = FOLDERS.flatMap((f) => sources(join(root, f)));
const imports = files.flatMap((file) => {
  const from = relative(root, file);
  const folder = from.split('/')[0] as (typeof FOLDERS)[number];
  return [...readFileSync(file, 'utf8').matchAll(SPEC)]
    .map((m) => m[1]!)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({ from, folder, target: relative(root, resolve(dirname(file), spec)) }));
});

describe('every source folder', () => {
  it('finds the files and their imports (the scan itself works)', () => {
    for (const f of FOLDERS)
      expect(
        files.some((p) => relative(root, p).startsWith(`${f}/`)),
        f,
      ).toBe(true);
    expect(imports.length).toBeGreaterThan(200);
  });

  it(`keeps every file under ${MAX_LINES} lines, but for the listed exceptions`, () => {
    const long = files
      .map((f) => ({ f: relative(root, f), lines: readFileSync(f, 'utf8').split('\n').length }))
      .filter(({ f, lines }) => lines > MAX_LINES && !(f in LONG_FILES))
      .map(({ f, lines }) => `${f}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('imports only the folders it may (bench, eval and test meet in tools/shared)', () => {
    const crossing = imports
      .filter(({ folder, target }) => {
        const top = target.split('/')[0]!;
        return top !== folder && top !== 'node_modules' && !MAY_IMPORT[folder].includes(top);
      })
      .map(({ from, target }) => `${from} → ${target}`)
      .filter((edge) => !(edge in CROSSING));
    expect(crossing).toEqual([]);
  });

  it('reaches the library only through its entries (tests of internals aside)', () => {
    const internal = imports
      .filter(({ folder, target }) => folder !== 'test' && target.startsWith('lib/'))
      .filter(({ target }) => !/^lib\/(?:[a-z-]+\/)?index(?:\.js|\.ts)?$/.test(target))
      .map(({ from, target }) => `${from} → ${target}`)
      .filter((edge) => !(edge in INTERNAL));
    expect(internal).toEqual([]);
  });

  it('lists no exception that is no longer needed', () => {
    const edges = new Set(imports.map(({ from, target }) => `${from} → ${target}`));
    expect(Object.keys(CROSSING).filter((e) => !edges.has(e))).toEqual([]);
    expect(Object.keys(INTERNAL).filter((e) => !edges.has(e))).toEqual([]);
    const stale = Object.keys(LONG_FILES).filter((f) => {
      try {
        return readFileSync(join(root, f), 'utf8').split('\n').length <= MAX_LINES;
      } catch {
        return true;
      }
    });
    expect(stale).toEqual([]);
  });
});
