/**
 * Redaction throughput: `redact` over each shared data set (files concatenated) and over all of them,
 * against a naive baseline in the same run — one `String.replace` pass per kind, one after another — and
 * the adversarial inputs at 1 MB and 4 MB (the time ratio is ~4 when the scan is linear); also all the
 * data one line per call on one redactor, where per-call overhead shows.
 *
 * Standalone: `npx tsx bench/redact.bench.ts` prints JSON.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRedactor, redact } from '../lib/redact/index';
import {
  type BenchResult,
  type BenchSuite,
  measure,
  readText,
  round,
  sharedDataDir,
  walkFiles,
} from './harness';

/** The baseline: what one would write first — a separate global regex and replace pass per kind. */
const NAIVE: [string, RegExp][] = [
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g],
  ['aws-secret-key', /(aws_secret_access_key\s*[:=]\s*["']?)([A-Za-z0-9/+]{40})/gi],
  ['bearer-token', /(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g],
  ['slack-webhook', /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g],
  ['anthropic-key', /sk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-key', /sk-(?:proj-)?[A-Za-z0-9_-]{20,}/g],
  ['github-token', /gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}/g],
  ['slack-token', /xox[abpr]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}/g],
  ['aws-access-key', /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g],
  ['jwt', /eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g],
  ['email', /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g],
];

function naiveRedact(text: string): string {
  const placeholders = new Map<string, string>();
  const counters = new Map<string, number>();
  const placeholder = (kind: string, value: string) => {
    const known = placeholders.get(value);
    if (known !== undefined) return known;
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    const p = `[${kind}-${n}]`;
    placeholders.set(value, p);
    return p;
  };
  for (const [kind, re] of NAIVE) {
    text = text.replace(re, (match: string, prefix?: unknown, secret?: unknown) =>
      typeof secret === 'string' ? `${prefix}${placeholder(kind, secret)}` : placeholder(kind, match),
    );
  }
  return text;
}

const ADVERSARIAL: [string, (n: number) => string][] = [
  ['a@-repeated', (n) => 'a@'.repeat(n / 2)],
  ['sk--repeated', (n) => 'sk-'.repeat(n / 3)],
  ['base64-run', (n) => `eyJ${'A'.repeat(n)}`],
  ['begin-without-end', (n) => '-----BEGIN PRIVATE KEY-----\n'.repeat(n / 28)],
  ['begin-long-tail', (n) => `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(n)}`],
  ['dotted-domain', (n) => `x@${'a.'.repeat(n / 2)}1`],
  ['local-part-run', (n) => `${'a.'.repeat(n / 2)}@x.io`],
  ['addresses-back-to-back', (n) => 'x@y.co'.repeat(n / 6)],
  // Short starts after a run: each is a candidate the scanner reads back from (matches.ts keyBefore).
  ['starts-after-a-run', (n) => `${'q'.repeat(16)}${'EAAA'.repeat(n / 4)}`],
  ['separated-starts-after-a-run', (n) => `${'a'.repeat(16)}${'hvs.'.repeat(n / 4)}`],
  ['keys-glued-to-keys', (n) => `AKIA${'B'.repeat(16)}glpat-${'c'.repeat(30)} `.repeat(n / 57)],
];

function byteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

const suite = {
  name: 'redact',
  async run() {
    const results: BenchResult[] = [];
    const dir = sharedDataDir();
    if (dir) {
      const sets = readdirSync(dir)
        .filter((d) => statSync(join(dir, d)).isDirectory())
        .sort();
      const all: string[] = [];
      for (const set of [...sets, 'all']) {
        const text = set === 'all' ? all.join('\n') : walkFiles(join(dir, set)).map(readText).join('\n');
        if (set !== 'all') all.push(text);
        const bytes = byteLength(text);
        const fast = await measure(`redact/${set}`, () => redact(text), { bytes, budgetMs: 1000 });
        const naive = await measure(`naive/${set}`, () => naiveRedact(text), { bytes, budgetMs: 1000 });
        const found = redact(text);
        results.push({
          ...fast,
          megabytes: round(bytes / 1e6, 2),
          findings: found.count,
          naiveMedianMs: naive.medianMs,
          naiveMbPerSec: naive.mbPerSec,
          speedupOverNaive: round(naive.medianMs / fast.medianMs, 2),
        });
      }
      // Many short calls on one redactor, as redactMessages and every LLM request make them: per-call
      // overhead shows here and not on whole files.
      const lines = all.join('\n').split('\n');
      const bytes = byteLength(all.join('\n'));
      const perCall = await measure(
        'redact/all-one-call-per-line',
        () => {
          const r = createRedactor();
          for (const line of lines) r.redactText(line);
        },
        { bytes, budgetMs: 1000 },
      );
      const naivePerCall = await measure(
        'naive/all-one-call-per-line',
        () => {
          for (const line of lines) naiveRedact(line);
        },
        { bytes, budgetMs: 1000 },
      );
      results.push({
        ...perCall,
        calls: lines.length,
        naiveMbPerSec: naivePerCall.mbPerSec,
        speedupOverNaive: round(naivePerCall.medianMs / perCall.medianMs, 2),
      });
    } else {
      results.push({ name: 'redact/shared-data', medianMs: 0, runs: 0, skipped: 'shared data absent' });
    }
    for (const [name, make] of ADVERSARIAL) {
      const small = make(1e6);
      const large = make(4e6);
      const a = await measure(`adversarial/${name}/1MB`, () => redact(small), {
        bytes: small.length,
        minRuns: 3,
        budgetMs: 300,
      });
      const b = await measure(`adversarial/${name}/4MB`, () => redact(large), {
        bytes: large.length,
        minRuns: 3,
        budgetMs: 300,
      });
      results.push(a, { ...b, ratioTo1MB: round(b.medianMs / a.medianMs, 2) });
    }
    return results;
  },
} satisfies BenchSuite;

export default suite;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    JSON.stringify({ node: process.version, suite: suite.name, results: await suite.run() }, null, 2),
  );
}
