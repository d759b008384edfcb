/** Scripted loop components shared by the reflection-loop tests: a ladder of critiques, v0 → good. */
import type { Candidate, Critique } from '../../lib/loop/index';

type Row = { severity: number; score?: number; issues?: string[]; feedback?: string };

/** Scripted components: a critique per content, and a revision chain content → next content. */
export function ladder(table: Record<string, Row>, next: Record<string, string>) {
  const calls = { critique: 0, revise: 0, generate: 0 };
  return {
    calls,
    critiquer: (_p: string, c: Candidate): Critique => {
      calls.critique++;
      const row = table[c.content];
      if (!row) throw new Error(`no critique scripted for ${c.content}`);
      return { issues: row.issues ?? (row.severity > 0.1 ? ['needs work'] : []), ...row };
    },
    reviser: (_p: string, c: Candidate) => {
      calls.revise++;
      const n = next[c.content];
      if (n === undefined) throw new Error(`no revision scripted for ${c.content}`);
      return n;
    },
    generator: () => {
      calls.generate++;
      return 'v0';
    },
  };
}

export const LADDER: Record<string, Row> = {
  v0: {
    severity: 0.8,
    score: 0.2,
    issues: ['wrong unit', 'no example'],
    feedback: 'Use metres; add an example.',
  },
  v1: { severity: 0.5, score: 0.5, issues: ['no example'], feedback: 'Add an example.' },
  v2: { severity: 0.3, score: 0.75, issues: ['terse'] },
  v3: { severity: 0.2, score: 0.9, issues: ['typo'] },
  good: { severity: 0, score: 1, issues: [] },
};

export const NEXT: Record<string, string> = { v0: 'v1', v1: 'v2', v2: 'v3', v3: 'good' };
