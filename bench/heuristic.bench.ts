/**
 * rearview/heuristic throughput: heuristicReflect over the user turns of the shared data (console
 * transcripts, Claude Code sessions, ShareGPT) and over a synthetic transcript of real user turns
 * repeated to 1, 4, 16 and 64 MB, each beside a naive port of seed 004 (lower-case, then `includes` for
 * every marker) in the same run; MB/s counts UTF-8 bytes of user-turn text. The two are timed
 * alternately, run after run, so that on a shared box both see the same load; `vsNaive` is the ratio of
 * wall-clock medians, `vsNaiveCpu` of CPU-time medians (steadier when other processes compete).
 * `timeVs1MB` is each synthetic run's time over the 1 MB run's (64 at 64 MB means linear). Also the
 * minified+gzipped size of the entry, and two floors (see {@link floors}) that bound what any detector
 * reading every word can reach against the naive port. Last, the shared turns once more after both
 * have read every shared conversation three times (`…-after-mixed-use`): a long-running process. Both
 * are then measured again in five fresh child processes (heuristic-process.ts), reported as the
 * median ratio with its range (`…-in-5-processes`): V8's optimisation differs from process to process.
 *
 * Standalone: `npx tsx bench/heuristic.bench.ts`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FNV_OFFSET, FNV_PRIME } from '../lib/core/index';
import {
  compileMarkers,
  DEFAULT_MARKERS,
  heuristicReflect,
  loadLanguageMarkers,
} from '../lib/heuristic/index';
import { parseTranscript } from '../lib/transcript/index';
import { heuristicSizes } from '../tools/shared/heuristic-size';
import { naiveSeedReflect } from '../tools/shared/seed-naive';
import { type BenchResult, type BenchSuite, readText, round, sharedDataDir } from './harness';

interface Turn {
  role: string;
  content: string;
  id: string;
}

/** UTF-8 bytes of the turns' text. */
export function bytesOf(turns: readonly Turn[]): number {
  const enc = new TextEncoder();
  let n = 0;
  for (const t of turns) n += enc.encode(t.content).length;
  return n;
}

/**
 * The conversations of the shared data under `subs` (folder and file ending), each file parsed as
 * rearview reads it (console days in their own format), in folder and file order.
 */
export function sharedConversations(dir: string, subs: readonly (readonly [string, string])[]) {
  return subs.flatMap(([sub, ext]) =>
    readdirSync(join(dir, sub))
      .filter((f) => f.endsWith(ext))
      .sort()
      .map((f) => {
        const format = sub === 'claude-code-console' ? ({ format: 'claude-code-console' } as const) : {};
        return parseTranscript(readText(join(dir, sub, f)), { lenient: true, ...format }).messages;
      }),
  );
}

/** The user turns of the shared console, Claude Code and ShareGPT conversations. */
export function userTurns(dir: string): Turn[] {
  const out: Turn[] = [];
  const subs = [
    ['claude-code-console', '.md'],
    ['claude-code-jsonl', '.jsonl'],
    ['sharegpt/conversations', '.json'],
  ] as const;
  for (const messages of sharedConversations(dir, subs))
    for (const m of messages) if (m.role === 'user') out.push({ role: 'user', content: m.content, id: m.id });
  return out;
}

/** The turns holding kana or CJK ideographs, of the people in the shared SpecStory, Codex and aider folders. */
export function cjkTurns(dir: string): Turn[] {
  const out: Turn[] = [];
  for (const sub of ['specstory', 'codex', 'aider'])
    for (const f of (readdirSync(join(dir, sub), { recursive: true }) as string[]).sort()) {
      if (!/\.(md|jsonl)$/.test(f)) continue;
      let messages: ReturnType<typeof parseTranscript>['messages'];
      try {
        messages = parseTranscript(readText(join(dir, sub, f)), { lenient: true }).messages;
      } catch {
        continue; // a file with no conversation in it (a README, a header only)
      }
      for (const m of messages)
        if (m.role === 'user' && /[\u3040-\u9fff]/.test(m.content))
          out.push({ role: 'user', content: m.content, id: m.id });
    }
  return out;
}

/** A long-running process's mixed use: every shared conversation, aider's included, read three times by both. */
export function mixedUse(dir: string): void {
  const everything = sharedConversations(dir, [
    ['claude-code-console', '.md'],
    ['claude-code-jsonl', '.jsonl'],
    ['sharegpt/conversations', '.json'],
    ['aider', '.md'],
  ]);
  for (let k = 0; k < 3; k++)
    for (const messages of everything) {
      heuristicReflect(messages);
      naiveSeedReflect(messages);
    }
}

/** Real user turns cycled until `target` bytes (ids made unique). */
function synthetic(base: readonly Turn[], target: number): { turns: Turn[]; bytes: number } {
  const enc = new TextEncoder();
  const sizes = base.map((t) => enc.encode(t.content).length);
  const turns: Turn[] = [];
  let bytes = 0;
  for (let i = 0; bytes < target; i++) {
    const k = i % base.length;
    turns.push({ role: 'user', content: base[k]!.content, id: `s${i}` });
    bytes += sizes[k]!;
  }
  return { turns, bytes };
}

/** The reply the timed transcripts open with (see `versus`). */
const AGENT_REPLY: Turn = { role: 'assistant', content: 'Done.', id: 'r0' };

/** Child processes the shared-turns ratio is also measured in (heuristic-process.ts). */
const PROCESSES = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Times rearview and the naive port alternately; returns one result for each. */
export function versus(
  label: string,
  turns: readonly Turn[],
  bytes: number,
  minRounds: number,
  budgetMs: number,
  options?: Parameters<typeof heuristicReflect>[1],
): [BenchResult, BenchResult] {
  // The agent's reply first: a turn before any reply corrects nothing, and the user turns, taken out of
  // their conversations, would otherwise all be such turns (fewer insights, a cheaper run).
  const read: Turn[] = [AGENT_REPLY, ...turns];
  const fns = [() => heuristicReflect(read, options), () => naiveSeedReflect(read)];
  const found: unknown[] = fns.map((fn) => fn());
  const wall: number[][] = [[], []];
  const cpu: number[][] = [[], []];
  const started = performance.now();
  for (let r = 0; r < minRounds || (performance.now() - started < budgetMs && r < 500); r++) {
    for (let k = 0; k < 2; k++) {
      const w = performance.now();
      const c = cpuMs();
      found[k] = fns[k]!();
      cpu[k]!.push(cpuMs() - c);
      wall[k]!.push(performance.now() - w);
    }
  }
  const [ours, naive] = ['heuristicReflect', 'naive-seed'].map((name, k) => {
    const ms = median(wall[k]!);
    const cpuMedian = median(cpu[k]!);
    return {
      name: `${name}/${label}`,
      medianMs: round(ms),
      runs: wall[k]!.length,
      mbPerSec: round(bytes / 1e3 / ms),
      cpuMs: round(cpuMedian),
      mbPerCpuSec: round(bytes / 1e3 / cpuMedian),
    } as BenchResult;
  }) as [BenchResult, BenchResult];
  ours.inputMB = round(bytes / 1e6, 2);
  ours.insights = (found[0] as unknown[]).length;
  naive.found = found[1];
  ours.vsNaive = round(naive.medianMs / ours.medianMs, 2);
  ours.vsNaiveCpu = round((naive.cpuMs as number) / (ours.cpuMs as number), 2);
  return [ours, naive];
}

/**
 * Lower bounds for any detector that reads words, timed against the naive port in the same run: a bare
 * loop that only finds and hashes every word (FNV-1a, no lookup, no matching, no context), and native
 * lower-case + `split` + `Set` lookups. The first bounds the 5× target: at about 5× the naive port
 * itself, it leaves no time for matching.
 */
export function floors(turns: readonly Turn[], bytes: number): BenchResult[] {
  const texts = turns.map((t) => t.content);
  // Local copies: V8 folds them into the loop, as the detector's own module constants are.
  const offset = FNV_OFFSET | 0;
  const prime = FNV_PRIME;
  const hashWords = () => {
    let sink = 0;
    for (const t of texts) {
      const len = t.length;
      for (let i = 0; i < len; i++) {
        let lc = t.charCodeAt(i) | 0x20;
        if (lc < 0x61 || lc > 0x7a) continue;
        let h = offset;
        do {
          h = Math.imul(h ^ lc, prime);
          if (++i >= len) break;
          lc = t.charCodeAt(i) | 0x20;
        } while (lc >= 0x61 && lc <= 0x7a);
        sink += h & 1;
      }
    }
    return sink;
  };
  // The detector's own vocabulary (every word of every default marker).
  const vocab = new Set(compileMarkers(DEFAULT_MARKERS).words);
  const sep = /[^a-z0-9_']+/;
  const splitSet = () => {
    let sink = 0;
    for (const t of texts) for (const w of t.toLowerCase().split(sep)) if (vocab.has(w)) sink++;
    return sink;
  };
  const fns = [() => naiveSeedReflect(turns), hashWords, splitSet];
  const wall: number[][] = fns.map(() => []);
  for (const fn of fns) fn();
  for (let r = 0; r < 30; r++) {
    fns.forEach((fn, k) => {
      const t = performance.now();
      fn();
      wall[k]!.push(performance.now() - t);
    });
  }
  const naiveMs = median(wall[0]!);
  return ['floor/word-hash-loop', 'floor/lowercase-split-set'].map((name, k) => {
    const ms = median(wall[k + 1]!);
    return {
      name,
      medianMs: round(ms),
      runs: wall[k + 1]!.length,
      mbPerSec: round(bytes / 1e3 / ms),
      naiveMbPerSec: round(bytes / 1e3 / naiveMs),
      vsNaive: round(naiveMs / ms, 2),
    };
  });
}

const suite = {
  name: 'heuristic',
  async run(): Promise<BenchResult[]> {
    const results: BenchResult[] = [];
    const dir = sharedDataDir();
    if (!dir) {
      console.warn('heuristic bench: ../shared/data is absent, nothing to measure');
      return results;
    }
    const turns = userTurns(dir);
    const size = bytesOf(turns);
    const [ours, naive] = versus('shared-user-turns', turns, size, 20, 3000);
    ours.turns = turns.length;
    results.push(ours, naive, ...floors(turns, size));

    // The eight languages' markers beside the default ones, on every turn and on 1 MB of the Chinese and
    // Japanese turns (each kana or ideograph is a word there: more lookups per character).
    const markers = await loadLanguageMarkers();
    const [langs] = versus('shared-user-turns-languages', turns, size, 20, 3000, { markers });
    langs.vsDefaultMarkers = round(ours.medianMs / langs.medianMs, 2);
    const cjkBase = cjkTurns(dir);
    const cjk = synthetic(cjkBase, 1e6);
    const [cjkDefault, cjkNaive] = versus('cjk-user-turns-1MB', cjk.turns, cjk.bytes, 20, 3000);
    const [cjkLangs] = versus('cjk-user-turns-1MB-languages', cjk.turns, cjk.bytes, 20, 3000, { markers });
    cjkLangs.distinctTurns = cjkBase.length;
    cjkLangs.vsDefaultMarkers = round(cjkDefault.medianMs / cjkLangs.medianMs, 2);
    results.push(langs, cjkDefault, cjkNaive, cjkLangs);

    // Synthetic transcripts of real user turns, each size beside the naive port in the same run.
    let base: BenchResult | undefined;
    for (const mb of [1, 4, 16, 64]) {
      const syn = synthetic(turns, mb * 1e6);
      const [r, n] = versus(`synthetic-${mb}MB`, syn.turns, syn.bytes, mb >= 16 ? 3 : 7, mb >= 16 ? 1 : 3000);
      base ??= r;
      r.timeVs1MB = round(r.medianMs / base.medianMs, 1);
      r.cpuTimeVs1MB = round((r.cpuMs as number) / (base.cpuMs as number), 1);
      results.push(r, n);
    }

    // Last, as it changes what V8 has compiled: the shared turns again, after a long-running process's
    // mixed use. V8 compiled the scanner's `charCodeAt` for the string kinds it had met, and that state
    // was slower (README).
    mixedUse(dir);
    const [later, laterNaive] = versus('shared-user-turns-after-mixed-use', turns, size, 20, 3000);
    results.push(later, laterNaive);

    // The same two measurements in fresh child processes: V8 optimises differently from one process to
    // the next, so one process's ratio can be off by 10 %; the median of five is steadier.
    const child = join(import.meta.dirname, 'heuristic-process.ts');
    const per = Array.from({ length: PROCESSES }, () => {
      const out = execFileSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8' });
      return JSON.parse(out.trim().split('\n').pop()!) as { fresh: number; mixed: number; floor: number };
    });
    for (const key of ['fresh', 'mixed'] as const) {
      const ratios = per.map((p) => p[key]).sort((a, b) => a - b);
      results.push({
        name: `heuristicReflect/shared-user-turns-${key}-in-${PROCESSES}-processes`,
        medianMs: 0,
        runs: PROCESSES,
        vsNaive: ratios[ratios.length >> 1]!,
        vsNaiveMin: ratios[0]!,
        vsNaiveMax: ratios[ratios.length - 1]!,
        vsNaiveAll: ratios,
      });
    }
    // Each process's ratios beside its bare word-hash loop's ratio to the naive port. On the shared
    // machine this runs on, some processes (and some stretches of one) run all JIT-compiled JavaScript
    // about 1.5× slower while the naive port, mostly native string built-ins, slows by about 1.15×:
    // the floor's ratio drops with the detector's, and tells which kind of process a ratio came from.
    results.push({
      name: `heuristicReflect/process-floors-in-${PROCESSES}-processes`,
      medianMs: 0,
      runs: PROCESSES,
      processes: per,
    });

    const sizes = await heuristicSizes();
    results.push({
      name: 'size/heuristic-entry',
      medianMs: 0,
      runs: 1,
      heuristicReflectMinified: sizes.heuristicReflect.minified,
      heuristicReflectGzipped: sizes.heuristicReflect.gzipped,
      wholeEntryMinified: sizes.wholeEntry.minified,
      wholeEntryGzipped: sizes.wholeEntry.gzipped,
    });
    return results;
  },
} satisfies BenchSuite;

export default suite;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await suite.run(), null, 2));
}
