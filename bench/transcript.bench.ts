/**
 * Transcript import throughput: parseTranscript on the two ~3 MB Claude Code sessions and on every
 * shared SpecStory export and aider history, parseTrajectory on the largest mini-swe-agent run, and a synthetic 50 MB JSONL built by repeating real lines (MB/s
 * and heap growth / input size), each beside a naive baseline (`split('\n').map(JSON.parse)` + filter).
 *
 * Standalone: `npx tsx bench/transcript.bench.ts` (add `--expose-gc` through NODE_OPTIONS for steadier
 * heap figures).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  parseTrajectory,
  parseTranscript,
  RENDERED_EDIT_TOOL,
  type Transcript,
} from '../lib/transcript/index';
import {
  type BenchResult,
  type BenchSuite,
  measure,
  readText,
  round,
  sharedDataDir,
  walkFiles,
} from './harness';

const SESSIONS = ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'];
const MINI = 'psf__requests-1142.traj.json';
const SYNTHETIC_BYTES = 50e6;

/** The naive way: split, parse every line, keep user/assistant events. */
function naive(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { type?: string; isSidechain?: boolean })
    .filter((e) => (e.type === 'user' || e.type === 'assistant') && !e.isSidechain);
}

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * One format's folder of the shared data (its `.md` files), parsed once each, beside the naive way of
 * splitting lines and keeping those that start a turn (`turnStart`); both pushed to `results`, the
 * parse with its file and message counts and its ratio to the naive way. Returns the parse's result
 * and transcripts for the figures only that format has.
 */
async function folderPair(
  dir: string,
  format: 'specstory' | 'aider' | 'claude-code-console',
  name: string,
  turnStart: string,
  results: BenchResult[],
): Promise<{ result: BenchResult; parsed: Transcript[] }> {
  const texts = walkFiles(join(dir, format), (f) => f.endsWith('.md')).map((f) => readText(f));
  const size = texts.reduce((n, t) => n + bytes(t), 0);
  const result = await measure(
    `parseTranscript/${name}`,
    () => texts.map((t) => parseTranscript(t, { format })),
    {
      bytes: size,
    },
  );
  const naive = await measure(
    `naive-split-${format === 'specstory' ? 'headers' : 'prompts'}/${name}`,
    () => texts.map((t) => t.split('\n').filter((l) => l.startsWith(turnStart))),
    { bytes: size },
  );
  const parsed = texts.map((t) => parseTranscript(t, { format }));
  result.files = texts.length;
  result.messages = parsed.reduce((n, t) => n + t.messages.length, 0);
  result.vsNaive = round(result.mbPerSec! / naive.mbPerSec!, 2);
  results.push(result, naive);
  return { result, parsed };
}

/** Heap growth while `fn`'s result is alive, after a GC when one is exposed. */
function heapGrowth(fn: () => unknown): { grew: number; kept: unknown } {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kept = fn();
  gc?.();
  const after = process.memoryUsage().heapUsed;
  return { grew: after - before, kept };
}

const suite = {
  name: 'transcript',
  async run(): Promise<BenchResult[]> {
    const dir = sharedDataDir();
    if (!dir) {
      console.warn('transcript bench: ../shared/data is absent, nothing to measure');
      return [];
    }
    const results: BenchResult[] = [];
    const lines: string[] = [];
    for (const file of SESSIONS) {
      const text = readText(join(dir, 'claude-code-jsonl', file));
      const size = bytes(text);
      const ours = await measure(
        `parseTranscript/claude-code-${file.slice(0, 8)}`,
        () => parseTranscript(text),
        {
          bytes: size,
        },
      );
      const base = await measure(`naive-split-parse/claude-code-${file.slice(0, 8)}`, () => naive(text), {
        bytes: size,
      });
      ours.messages = parseTranscript(text).messages.length;
      ours.vsNaive = round(ours.mbPerSec! / base.mbPerSec!, 2);
      results.push(ours, base);
      for (const l of text.split('\n')) if (l.trim()) lines.push(l);
    }

    const mini = readText(join(dir, 'mini-swe-agent', MINI));
    const miniSize = bytes(mini);
    const traj = await measure('parseTrajectory/mini-swe-agent-requests-1142', () => parseTrajectory(mini), {
      bytes: miniSize,
    });
    const miniBase = await measure('naive-json-parse/mini-swe-agent-requests-1142', () => JSON.parse(mini), {
      bytes: miniSize,
    });
    traj.steps = parseTrajectory(mini).steps.length;
    traj.vsNaive = round(traj.mbPerSec! / miniBase.mbPerSec!, 2);
    results.push(traj, miniBase);

    // Every SpecStory export of the shared data, one parse each: the line reader with its tool blocks
    // and the edits it reads out of the agent's prose (fences), against splitting lines and picking
    // the turn headers.
    const spec = await folderPair(dir, 'specstory', 'specstory-exports', '_**', results);
    // Edits rendered in prose: calls of that name with no output (older exports' `Edit file` blocks have one).
    spec.result.renderedEdits = spec.parsed.reduce((n, t) => {
      const answered = new Set(t.messages.filter((x) => x.role === 'tool').map((x) => x.toolUseId));
      return (
        n + t.messages.filter((x) => x.toolName === RENDERED_EDIT_TOOL && !answered.has(x.toolUseId)).length
      );
    }, 0);

    // Every aider history of the shared data: prompts, aider's output, replies and the reasoning
    // blocks passed over, against splitting lines and picking the prompt lines.
    const aider = await folderPair(dir, 'aider', 'aider-histories', '#### ', results);
    aider.result.reasoningBlocks = aider.parsed.reduce((n, t) => n + (t.ignoredKinds?.thinking ?? 0), 0);

    // Every Markdown file of the shared console folder (the ten days, and the summaries beside them,
    // read as console text too): the line reader with its marks, wrapped calls and cost notes, against
    // splitting lines and picking the prompt lines.
    const consoleDays = await folderPair(dir, 'claude-code-console', 'console-days', '> ', results);
    consoleDays.result.toolCalls = consoleDays.parsed.reduce(
      (n, t) => n + t.messages.filter((m) => m.role === 'assistant' && m.toolName !== undefined).length,
      0,
    );

    // Synthetic 50 MB: real lines repeated until the size is reached, one join (no concatenation loop).
    const parts: string[] = [];
    let total = 0;
    for (let i = 0; total < SYNTHETIC_BYTES; i++) {
      const line = lines[i % lines.length]!;
      parts.push(line);
      total += line.length + 1;
    }
    let big: string | undefined = parts.join('\n');
    parts.length = 0;
    const bigSize = big.length; // the lines are ASCII-escaped JSON, so characters ≈ bytes
    const text = big;
    const syn = await measure('parseTranscript/synthetic-50MB', () => parseTranscript(text), {
      bytes: bigSize,
      minRuns: 3,
      budgetMs: 4000,
    });
    const synBase = await measure('naive-split-parse/synthetic-50MB', () => naive(text), {
      bytes: bigSize,
      minRuns: 3,
      budgetMs: 4000,
    });
    const ours = heapGrowth(() => parseTranscript(text));
    const theirs = heapGrowth(() => naive(text));
    syn.inputMB = round(bigSize / 1e6, 1);
    syn.messages = (ours.kept as { messages: unknown[] }).messages.length;
    syn.heapGrowthMB = round(ours.grew / 1e6, 1);
    syn.heapPerInput = round(ours.grew / bigSize, 2);
    syn.gcExposed = gc !== undefined;
    syn.vsNaive = round(syn.mbPerSec! / synBase.mbPerSec!, 2);
    synBase.heapGrowthMB = round(theirs.grew / 1e6, 1);
    synBase.heapPerInput = round(theirs.grew / bigSize, 2);
    results.push(syn, synBase);
    big = undefined;
    return results;
  },
} satisfies BenchSuite;

export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}
