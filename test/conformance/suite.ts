/**
 * The conformance suite: one list of cases, written only against the public entries, run unchanged
 * in Node, Chromium, workerd, the Vercel edge runtime, Deno and Bun. Each case checks its own
 * expectations and returns its output; the canonical JSON of the outputs is hashed into a digest that
 * every runtime must reproduce byte for byte.
 */
import { canonicalJson, sha256Hex } from 'rearview/core';
import { categoriseModelCases } from './cases/categorise-model';
import { coreCases } from './cases/core';
import { heuristicCases } from './cases/heuristic';
import { languageCases } from './cases/languages';
import { learnCases } from './cases/learn';
import { lessonsCases } from './cases/lessons';
import { llmCases } from './cases/llm';
import { loopCases } from './cases/loop';
import { playbookCases } from './cases/playbook';
import { redactCases } from './cases/redact';
import { reductionCases } from './cases/reduction';
import { reflectCases } from './cases/reflect';
import { sessionCases } from './cases/session';
import { snapshotCases } from './cases/snapshot';
import { snapshotReadingCases } from './cases/snapshot-reading';
import { snapshotReductionCases } from './cases/snapshot-reduction';
import { storeCases } from './cases/store';
import { transcriptCases } from './cases/transcript';

export interface ConformanceCase {
  name: string;
  /** Returns the case's output (hashed into the digest) and throws when a check fails. */
  run(): unknown;
}

export interface CaseResult {
  name: string;
  ok: boolean;
  error?: string;
  /** SHA-256 of the canonical output. */
  digest?: string;
}

export interface ConformanceReport {
  runtime: string;
  passed: number;
  failed: number;
  /** SHA-256 over every case's name and output digest, in order. */
  digest: string;
  results: CaseResult[];
}

export const cases: ConformanceCase[] = [
  ...coreCases,
  ...categoriseModelCases,
  ...languageCases,
  ...llmCases,
  ...transcriptCases,
  ...redactCases,
  ...snapshotCases,
  ...snapshotReductionCases,
  ...snapshotReadingCases,
  ...reductionCases,
  ...storeCases,
  ...loopCases,
  ...reflectCases,
  ...playbookCases,
  ...heuristicCases,
  ...sessionCases,
  ...lessonsCases,
  ...learnCases,
];

export async function runConformance(runtime: string): Promise<ConformanceReport> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    try {
      const output = await c.run();
      results.push({ name: c.name, ok: true, digest: await sha256Hex(canonicalJson(output ?? null)) });
    } catch (err) {
      results.push({
        name: c.name,
        ok: false,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
  }
  const digest = await sha256Hex(results.map((r) => `${r.name}\t${r.digest ?? 'FAILED'}`).join('\n'));
  const passed = results.filter((r) => r.ok).length;
  return { runtime, passed, failed: results.length - passed, digest, results };
}
