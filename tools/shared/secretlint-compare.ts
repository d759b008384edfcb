/**
 * secretlint measured beside lib/redact (issue 36): secretlint 13.1.0's `lintSource` with its
 * recommended preset run over the texts the reference benchmark plants (tools/shared/redact-reference.ts),
 * per kind × position, plus speed on those texts and on shared real data, and growth on adversarial
 * input. secretlint reports ranges; a planted value counts as found when masking every reported range
 * leaves no half of it readable (the same `leaked` test the reference applies to rearview's output), so
 * both tools are scored by one rule. secretlint is a devDependency, used only here.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { createRedactor } from '../../lib/redact/index';
import { fakeRandom } from './redact-fakes';
import {
  leaked,
  lookAlikes,
  REFERENCE_POSITIONS,
  type ReferenceKind,
  redactDoc,
  referenceKinds,
} from './redact-reference';

const CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/** One secretlint report: the rule and the span of the source it covers. */
export interface SecretlintHit {
  ruleId: string;
  range: readonly [number, number];
}

/** secretlint's reports on `content` (secrets masked in its messages, which are never read here). */
export async function secretlintScan(content: string): Promise<SecretlintHit[]> {
  const result = await lintSource({
    source: { content, filePath: '/virtual/input.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
  });
  return result.messages.map((m) => ({ ruleId: m.ruleId, range: m.range }));
}

/** `text` with every reported range replaced by `[secret]` (overlapping ranges merged). */
export function maskRanges(text: string, hits: readonly SecretlintHit[]): string {
  const spans = hits.map((h) => [h.range[0], h.range[1]] as [number, number]).sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    out += `${text.slice(at, Math.max(at, start))}[secret]`;
    at = end;
  }
  return out + text.slice(at);
}

/** A document masked by secretlint: a string, or each message of a transcript linted on its own. */
export async function secretlintDoc(doc: string | string[]): Promise<string> {
  const parts = typeof doc === 'string' ? [doc] : doc;
  const out: string[] = [];
  for (const part of parts) out.push(maskRanges(part, await secretlintScan(part)));
  return out.join('\n');
}

/**
 * Kinds in the shapes secretlint 13.1.0's own rules look for where the reference plants another shape
 * of the same vendor (the reference's Cloudflare and Vercel kinds are keyword settings, which secretlint
 * does not read): scored beside the reference kinds, not in them.
 */
export function secretlintShapes(seed: number): ReferenceKind[] {
  const r = fakeRandom(seed + 11);
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const k = (ref: string, value: string): ReferenceKind => ({ ref, text: value, value });
  const pem = (body: string): ReferenceKind => ({
    ref: 'secretlint-shape/privatekey',
    text: `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`,
    value: body.split('\n')[2]!,
  });
  return [
    k('secretlint-shape/cloudflare', `cfut_${r(ALNUM, 40)}${r('0123456789abcdef', 8)}`),
    k('secretlint-shape/vercel', `vcp_${r(ALNUM, 24)}`),
    k('secretlint-shape/hashicorp-vault-batch', `hvb.${r(`${ALNUM}-_`, 150)}`),
    // Shapes secretlint checks more strictly than the reference's fakes: OpenAI's `T3BlbkFJ` marker,
    // SendGrid without `-`, a PEM body opening with DER's `MI`.
    k('secretlint-shape/openai', `sk-proj-${r(`${ALNUM}-_`, 74)}T3BlbkFJ${r(`${ALNUM}-_`, 74)}`),
    k('secretlint-shape/sendgrid', `SG.${r(ALNUM, 22)}.${r(ALNUM, 43)}`),
    pem(`MIIEv${r(`${ALNUM}+/`, 59)}\n${Array.from({ length: 3 }, () => r(`${ALNUM}+/`, 64)).join('\n')}`),
  ];
}

/** One kind × position: whether each tool left no half of the value readable. */
export interface CompareCell {
  ref: string;
  position: string;
  secretlint: boolean;
  rearview: boolean;
}

/** Every kind (reference and secretlint's own shapes) × every position, scored for both tools. */
export async function compareReference(seed: number): Promise<CompareCell[]> {
  const cells: CompareCell[] = [];
  for (const k of [...referenceKinds(seed), ...secretlintShapes(seed)]) {
    for (const p of REFERENCE_POSITIONS) {
      const doc = p.place(k.text, k.value);
      cells.push({
        ref: k.ref,
        position: p.name,
        secretlint: !leaked(await secretlintDoc(doc), k.value),
        rearview: !leaked(redactDoc(doc), k.value),
      });
    }
  }
  return cells;
}

/** Found / planted per group (by kind, by position, by source of the kind), for each tool. */
export function summarise(cells: readonly CompareCell[]) {
  const table = (key: (c: CompareCell) => string) => {
    const t: Record<string, { planted: number; secretlint: number; rearview: number }> = {};
    for (const c of cells) {
      t[key(c)] ??= { planted: 0, secretlint: 0, rearview: 0 };
      const row = t[key(c)]!;
      row.planted++;
      if (c.secretlint) row.secretlint++;
      if (c.rearview) row.rearview++;
    }
    return t;
  };
  return {
    bySource: table((c) => c.ref.split('/')[0]!),
    byPosition: table((c) => c.position),
    byKind: table((c) => c.ref),
    secretlintOnly: cells.filter((c) => c.secretlint && !c.rearview).map((c) => `${c.ref} | ${c.position}`),
  };
}

/** Look-alikes (none a secret) that secretlint reports, per class. */
export async function secretlintFalsePositives(seed: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { cls, text } of lookAlikes(seed)) {
    out[cls] ??= 0;
    if ((await secretlintScan(text)).length > 0) out[cls]++;
  }
  return out;
}

/** Wall and CPU time of `fn` over `rounds` rounds (the fastest round), with MB/s over `bytes`. */
export async function timeIt(bytes: number, fn: () => unknown, rounds = 3) {
  let best = { wallMs: Number.POSITIVE_INFINITY, cpuMs: Number.POSITIVE_INFINITY };
  for (let i = 0; i < rounds; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const wallMs = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpuMs = (c.user + c.system) / 1000;
    if (cpuMs < best.cpuMs) best = { wallMs, cpuMs };
  }
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  return {
    bytes,
    wallMs: r3(best.wallMs),
    cpuMs: r3(best.cpuMs),
    mbPerCpuSec: r3(bytes / 1e6 / (best.cpuMs / 1000)),
    mbPerSec: r3(bytes / 1e6 / (best.wallMs / 1000)),
  };
}

/** UTF-8 size of a string. */
export const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** Both tools on `docs` (each document scanned on its own, as a caller would). */
export async function speedOn(docs: readonly (string | string[])[], rounds = 3) {
  const bytes = docs.reduce<number>((n, d) => n + utf8Bytes(typeof d === 'string' ? d : d.join('\n')), 0);
  return {
    docs: docs.length,
    secretlint: await timeIt(
      bytes,
      async () => {
        for (const d of docs) await secretlintDoc(d);
      },
      rounds,
    ),
    rearview: await timeIt(
      bytes,
      () => {
        for (const d of docs) redactDoc(d);
      },
      rounds,
    ),
  };
}

/** On one real text: both tools' speed, and how many of secretlint's reports rearview also removes. */
export async function realFile(text: string, rounds = 2) {
  const hits = await secretlintScan(text);
  const redacted = createRedactor().redact(text);
  // A report is covered when its span no longer appears whole in rearview's output: secretlint's spans
  // hold context rearview keeps (a connection string's host and database), so the halves test of the
  // planted texts would count a redacted password as missed.
  const uncovered: Record<string, number> = {};
  let covered = 0;
  for (const h of hits) {
    if (!redacted.text.includes(text.slice(h.range[0], h.range[1]))) covered++;
    else uncovered[h.ruleId] = (uncovered[h.ruleId] ?? 0) + 1;
  }
  const byRule: Record<string, number> = {};
  for (const h of hits) byRule[h.ruleId] = (byRule[h.ruleId] ?? 0) + 1;
  return {
    bytes: utf8Bytes(text),
    secretlintReports: hits.length,
    secretlintByRule: byRule,
    coveredByRearview: covered,
    notCoveredByRearview: uncovered,
    rearviewFindings: redacted.count,
    secretlint: await timeIt(utf8Bytes(text), () => secretlintScan(text), rounds),
    rearview: await timeIt(utf8Bytes(text), () => createRedactor().redact(text), rounds),
  };
}

/**
 * Adversarial units, each repeated to the size under test: a run of key characters; GitHub app
 * installation heads, where each start scans up to 1,000 characters before failing; and one finding
 * after another, which secretlint's duplicate filter compares pairwise (every message against every
 * later one).
 */
export const SECRETLINT_ADVERSARIAL: readonly (readonly [name: string, unit: string])[] = [
  ['key characters (a)', 'a'],
  ['GitHub app heads (ghs_1_)', 'ghs_1_'],
  ['one finding after another', 'ghp_0123456789abcdefghijABCDEFGHIJ012345 '],
];

/** CPU ms of one scan by each tool of `unit` repeated to 10, 20, 40, 80 and 160 KB, and the ratio per doubling. */
export async function growth(unit: string, sizes = [10_000, 20_000, 40_000, 80_000, 160_000], rounds = 3) {
  const make = (n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  const rows: { bytes: number; secretlintCpuMs: number; rearviewCpuMs: number }[] = [];
  const top = Math.max(...sizes);
  for (const n of sizes) {
    const text = make(n);
    // Repeated so each timing covers the largest size's bytes: a 10 KB scan alone is below the clock's grain.
    const reps = Math.max(1, Math.round(top / n));
    const sl = await timeIt(
      n,
      async () => {
        for (let i = 0; i < reps; i++) await secretlintScan(text);
      },
      rounds,
    );
    const rv = await timeIt(
      n,
      () => {
        for (let i = 0; i < reps; i++) createRedactor().redact(text);
      },
      rounds,
    );
    rows.push({ bytes: n, secretlintCpuMs: sl.cpuMs / reps, rearviewCpuMs: rv.cpuMs / reps });
  }
  const ratio = (key: 'secretlintCpuMs' | 'rearviewCpuMs') =>
    rows.slice(1).map((r, i) => Math.round((r[key] / Math.max(rows[i]![key], 0.05)) * 100) / 100);
  return { rows, secretlintRatios: ratio('secretlintCpuMs'), rearviewRatios: ratio('rearviewCpuMs') };
}
