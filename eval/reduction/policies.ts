/**
 * The reduction policies `npm run eval:reduction` compares: two naive baselines (head/tail truncation
 * and plain observation masking), today's `compactTrajectory`, and `pruneTrajectory` by category.
 */
import {
  compactTrajectory,
  PRUNE_CATEGORIES,
  type PruneCategory,
  type PruneOptions,
  pruneTrajectory,
} from '../../lib/compress/index.js';
import type { Step } from '../../lib/transcript/index.js';

export interface PolicyRun {
  steps: Step[];
  saved?: Record<PruneCategory, number>;
}

export interface Policy {
  name: string;
  run(steps: readonly Step[], submission: string | undefined): PolicyRun;
}

/** Naive truncation: outputs over 40 lines keep their first 15 and last 10 lines, nothing else. */
export function headTail(keepRecent = 2, max = 40, head = 15, tail = 10): Policy {
  return {
    name: `head/tail ${head}+${tail}`,
    run(steps) {
      const frozen = steps.length - keepRecent;
      return {
        steps: steps.map((s, i) => {
          if (i >= frozen || !s.observation) return s;
          const lines = s.observation.split('\n');
          if (lines.length <= max) return s;
          const text = [
            ...lines.slice(0, head),
            `[${lines.length - head - tail} lines removed]`,
            ...lines.slice(-tail),
          ].join('\n');
          return { ...s, observation: text, ...(s.error === s.observation ? { error: text } : {}) };
        }),
      };
    },
  };
}

/** Plain observation masking (The Complexity Trap): outputs older than the last M steps omitted. */
export function plainMask(m: number): Policy {
  return {
    name: `mask M=${m}`,
    run(steps) {
      const from = steps.length - m;
      return {
        steps: steps.map((s, i) => {
          if (i >= from || !s.observation) return s;
          const text = '[output omitted]';
          return { ...s, observation: text, ...(s.error === s.observation ? { error: text } : {}) };
        }),
      };
    },
  };
}

export const compactToday: Policy = {
  name: 'compactTrajectory (today)',
  run: (steps) => ({ steps: compactTrajectory(steps).steps }),
};

export function prune(name: string, options: PruneOptions): Policy {
  return {
    name,
    run(steps, submission) {
      const r = pruneTrajectory(steps, { ...options, ...(submission ? { submission } : {}) });
      return { steps: r.steps, saved: r.diagnostics.saved };
    },
  };
}

export const CATEGORIES = PRUNE_CATEGORIES;
