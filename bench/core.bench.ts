/**
 * Core primitives: extractJson on realistic and adversarial model replies (with a quadratic naive
 * baseline for contrast), canonicalJson and sha256Hex throughput.
 *
 * Standalone: `npx tsx bench/core.bench.ts` prints the results as JSON.
 */
import { canonicalJson, extractJson, sha256Hex, utf8ByteLength } from '../lib/core/index.js';
import { type BenchResult, type BenchSuite, type MeasureOptions, measure, round } from './harness.js';

const KB = 1000;
const MB = 1000 * KB;

/** A reflector-like reply object of at least `bytes` bytes of compact JSON. */
function reflectorObject(bytes: number): unknown {
  const tags = ['helpful', 'harmful', 'neutral'];
  const bullet_tags: { name: string; tag: string; rationale: string }[] = [];
  const analysis =
    'The session refactored the parser and added tests. Type hints were applied consistently; one retry loop ' +
    'was missing a back-off, which caused "429 Too Many Requests" twice before it was fixed.';
  let size = analysis.length + 40;
  for (let i = 0; size < bytes; i++) {
    const entry = {
      name: `pat-${String(i + 1).padStart(3, '0')}`,
      tag: tags[i % 3]!,
      rationale: `Key point ${i + 1} was ${tags[i % 3]} here: the agent cited it before editing {config} and the "tests" passed.`,
    };
    bullet_tags.push(entry);
    size += JSON.stringify(entry).length + 1;
  }
  return { analysis, bullet_tags };
}

function fencedReply(bytes: number): string {
  return `Here is my analysis of the session:\n\n\`\`\`json\n${JSON.stringify(reflectorObject(bytes - 120), null, 2)}\n\`\`\`\n\nLet me know if you need more detail.`;
}

function proseReply(bytes: number): string {
  return `Here is my analysis of the session:\n\n${JSON.stringify(reflectorObject(bytes - 90))}\n\nLet me know if you need more detail.`;
}

/**
 * Repeats `unit` after `prefix` until the text is `bytes` long. The result is re-decoded so it is one
 * flat string, like text read from the network, rather than a rope or slice of a larger string.
 */
function fill(bytes: number, unit: string, prefix = ''): string {
  const body = unit.repeat(Math.ceil((bytes - prefix.length) / unit.length));
  return new TextDecoder().decode(new TextEncoder().encode((prefix + body).slice(0, bytes)));
}

const ADVERSARIAL: Record<string, (bytes: number) => string> = {
  'open-braces': (n) => fill(n, '{'),
  'unterminated-string': (n) => fill(n, 'x', '{"a": "'),
  'json-fences': (n) => fill(n, '```json\n{\n'),
  // Fences whose closing never starts a line: quadratic before the fence search was fixed.
  'json-fences-no-newline': (n) => fill(n, '```json\n{'),
  'escaped-quote-brace': (n) => fill(n, '\\"{'),
};

/** The obvious approach: from every `{`, scan to its matching brace and try to parse. Quadratic. */
function naiveExtract(text: string): unknown {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b) depth++;
      else if (c === 0x7d && --depth === 0) {
        try {
          return JSON.parse(text.slice(start, i + 1));
        } catch {
          break;
        }
      }
    }
  }
  return undefined;
}

/** A ~1 MB session-like object with nesting, numbers and non-ASCII text. */
function canonicalInput(): unknown {
  const records: unknown[] = [];
  for (let i = 0; canonicalJson(records).length < MB; i++) {
    for (let j = 0; j < 100; j++, i++) {
      records.push({
        id: `step-${i}`,
        role: i % 2 ? 'assistant' : 'user',
        tokens: i * 37,
        score: i / 7,
        content: `Résumé of step ${i}: ran \`npm test\` → 3 failures ✗, fixed 😀 {"ok": ${i % 2 === 0}}`,
        meta: { z: null, a: [1.5, -2.5e-7, i], nested: { when: '2025-01-01T00:00:00Z', tags: ['x', 'y'] } },
      });
    }
  }
  return records;
}

/** `measure`, plus `cpuMs`: the median process CPU time of the timed runs (warm-ups excluded). */
async function measureWithCpu(
  name: string,
  fn: () => unknown,
  options: MeasureOptions = {},
): Promise<BenchResult> {
  const cpu: number[] = [];
  const result = await measure(
    name,
    () => {
      const c0 = process.cpuUsage();
      const out = fn();
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      return out;
    },
    options,
  );
  const timed = cpu.slice(options.warmup ?? 1).sort((a, b) => a - b);
  return { ...result, cpuMs: round(timed[Math.floor(timed.length / 2)]!) };
}

const suite = {
  name: 'core',
  async run(): Promise<BenchResult[]> {
    const results: BenchResult[] = [];

    // Realistic replies.
    for (const [label, make] of [
      ['fenced', fencedReply],
      ['prose', proseReply],
    ] as const) {
      for (const size of [1 * KB, 10 * KB, 100 * KB]) {
        const text = make(size);
        if (extractJson(text) === undefined) throw new Error(`extractJson failed on the ${label} reply`);
        const bytes = utf8ByteLength(text);
        const r = await measure(`extractJson/reply-${label}-${size / KB}KB`, () => extractJson(text), {
          bytes,
          budgetMs: 1000,
        });
        results.push({ ...r, bytes });
      }
    }

    // Adversarial inputs: 1 MB and 10 MB, and how the time scales between them. The box may be shared,
    // so CPU time is reported beside wall time: it does not count time spent waiting for a core.
    for (const [label, make] of Object.entries(ADVERSARIAL)) {
      const small = make(MB);
      const r1 = await measureWithCpu(`extractJson/adversarial-${label}-1MB`, () => extractJson(small), {
        bytes: MB,
        minRuns: 5,
        budgetMs: 1500,
      });
      let big: string | undefined = make(10 * MB);
      // The 1 MB runs warmed the JIT; the slowest cases take seconds per run, so no warm-up here.
      const r10 = await measureWithCpu(`extractJson/adversarial-${label}-10MB`, () => extractJson(big!), {
        bytes: 10 * MB,
        minRuns: 3,
        budgetMs: 1500,
        warmup: 0,
      });
      big = undefined;
      const ratio10to1 = round(r10.medianMs / r1.medianMs, 2);
      const cpuRatio10to1 = round((r10.cpuMs as number) / (r1.cpuMs as number), 2);
      results.push(
        { ...r1, bytes: MB },
        {
          ...r10,
          bytes: 10 * MB,
          ratio10to1,
          cpuRatio10to1,
          linear: Math.min(ratio10to1, cpuRatio10to1) < 12,
        },
      );
    }

    // Naive baseline vs extractJson on a run of '{': quadratic vs linear growth per doubling.
    const naive: BenchResult[] = [];
    const ours: BenchResult[] = [];
    naiveExtract(fill(10 * KB, '{')); // JIT warm-up, cheap, so the timed runs below can skip theirs
    for (const size of [20 * KB, 40 * KB, 80 * KB]) {
      const text = fill(size, '{');
      naive.push(
        // Seconds per run (12 s at 80 KB), so no warm-up and few runs.
        await measureWithCpu(`naive-rescan/open-braces-${size / KB}KB`, () => naiveExtract(text), {
          bytes: size,
          minRuns: size > 40 * KB ? 1 : 3,
          budgetMs: 0,
          warmup: 0,
        }),
      );
      ours.push(
        await measureWithCpu(`extractJson/open-braces-${size / KB}KB`, () => extractJson(text), {
          bytes: size,
          minRuns: 20,
          budgetMs: 500,
        }),
      );
    }
    for (const series of [naive, ours]) {
      series.forEach((r, i) => {
        if (i === 0) return;
        const prev = series[i - 1]!;
        r.ratioPerDoubling = round(r.medianMs / prev.medianMs, 2);
        r.cpuRatioPerDoubling = round((r.cpuMs as number) / (prev.cpuMs as number), 2);
      });
      results.push(...series);
    }

    // canonicalJson and sha256Hex on ~1 MB.
    const value = canonicalInput();
    const canonical = canonicalJson(value);
    const canonicalBytes = utf8ByteLength(canonical);
    results.push({
      ...(await measure('canonicalJson/1MB-object', () => canonicalJson(value), { bytes: canonicalBytes })),
      bytes: canonicalBytes,
    });
    results.push({
      ...(await measure('sha256Hex/1MB-string', () => sha256Hex(canonical), { bytes: canonicalBytes })),
      bytes: canonicalBytes,
    });
    const encoded = new TextEncoder().encode(canonical);
    results.push({
      ...(await measure('sha256Hex/1MB-bytes', () => sha256Hex(encoded), { bytes: encoded.length })),
      bytes: encoded.length,
    });

    return results;
  },
} satisfies BenchSuite;

export default suite;

if (process.argv[1]?.endsWith('core.bench.ts')) console.log(JSON.stringify(await suite.run(), null, 2));
