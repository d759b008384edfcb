/**
 * Conformance cases for trajectory reduction past the deterministic snapshot's reading: the snapshot
 * memo, hash flooding, the compactor and the reflected path over fixtures. The suite runs them right
 * after snapshot.ts's cases.
 */
import { compactTrajectory } from 'rearview/compress';
import { fixtureClient, requestKey } from 'rearview/llm';
import {
  computeTrajectoryReduction,
  createSnapshotMemo,
  deterministicSnapshotWithTrace,
  reflectedSnapshotPrompt,
  type SnapshotInput,
  warmSnapshotMemo,
} from 'rearview/snapshot';
import { collidingWords, randomWords } from '../../../tools/shared/flood';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';
import { input, STANCE } from './snapshot-input';

/** Trajectory reduction: the memo, hash flooding, the compactor and the reflected path over fixtures. */
export const snapshotReductionCases: ConformanceCase[] = [
  {
    name: 'snapshot/memo',
    run() {
      // Four calls through one memo, small enough to start over once: each must read as without it.
      const memo = createSnapshotMemo({ maxTexts: 12 });
      const stance = STANCE.map(([value], i) => ({
        scope: 'notes',
        key: `s${i}`,
        value,
        sourceIteration: i,
      }));
      const calls: SnapshotInput[] = [
        input,
        { ...input, entries: [...input.entries, ...stance] },
        { ...input, entries: input.entries.slice(2) },
        { objective: 'Release 0.2', entries: [...stance, ...input.entries] },
      ];
      const left: number[] = [];
      const out = calls.map((c, i) => {
        // Half the calls start from a memo warmed 3 texts at a time.
        if (i % 2 === 1)
          for (let l = 1; l > 0; ) {
            l = warmSnapshotMemo(memo, c, { limit: 3 });
            left.push(l);
          }
        const t = deterministicSnapshotWithTrace(c, { memo });
        checkEqual(t, deterministicSnapshotWithTrace(c), `call ${i + 1} through the memo`);
        return t.snapshot;
      });
      return { out, size: memo.size, left };
    },
  },
  {
    name: 'snapshot/hash flooding',
    run() {
      // 128 words that share one FNV-1a hash flood the snapshot's tables (past PROBE_LIMIT probes they
      // go to the runtime's Map): the snapshot must read as one of ordinary words in their place.
      const words = collidingWords(7, 32).map((w) => `${w}q`);
      const control = randomWords(words).map((w) => `${w.slice(0, -1)}q`);
      const back = new Map(control.map((c, i) => [c, words[i]!]));
      const notes = (ws: readonly string[]): SnapshotInput => ({
        objective: 'Fix the build',
        entries: ws.map((w, i) => ({
          scope: 'notes',
          key: `w${i}`,
          value: `The build fails on ${w}`,
          sourceIteration: i,
        })),
      });
      const got = deterministicSnapshotWithTrace(notes(words));
      const want = JSON.stringify(deterministicSnapshotWithTrace(notes(control))).replace(
        /[a-z]{20,}/g,
        (c) => back.get(c) ?? c,
      );
      checkEqual(got, JSON.parse(want), 'colliding words read as ordinary ones');
      return { snapshot: got.snapshot, dropped: got.dropped.length };
    },
  },
  {
    name: 'snapshot/compactTrajectory',
    run() {
      const rows = Array.from({ length: 80 }, (_, i) => `row ${i} é`).join('\n');
      const code = Array.from(
        { length: 12 },
        (_, i) => `${String(i + 1).padStart(6)}\tline_${i} = ${i}`,
      ).join('\n');
      const steps = [
        { index: 0, action: 'nl -ba m.py', observation: code, source: { index: 0 } },
        { index: 1, action: 'ls -R', observation: `${rows}\nValueError: boom`, source: { index: 1 } },
        { index: 2, action: 'ls -R', observation: `${rows}\nValueError: boom`, source: { index: 2 } },
        {
          index: 3,
          action: 'nl -ba m.py',
          observation: code.replace('line_4 = 4', 'line_4 = 44'),
          source: { index: 3 },
        },
        { index: 4, action: 'echo done', observation: 'done', source: { index: 4 } },
        { index: 5, action: 'echo done', observation: 'done', source: { index: 5 } },
      ];
      const r = compactTrajectory(steps);
      check(r.steps[0]!.observation!.includes('line_4 = 4'), 'the changed line survives');
      check(r.steps[1]!.observation!.includes('ValueError: boom'), 'error line survives');
      return r;
    },
  },
  {
    name: 'snapshot/computeTrajectoryReduction over fixtures',
    async run() {
      const reply = {
        current_objective: 'Fix the failing retry tests',
        open_hypotheses: ['maybe the jitter is not pinned to 0'],
        blockers: [{ text: 'CI red: 3 retry tests failing', sources: ['m1', 'm7'] }, 'Release 0.2'],
        next_actions: ['Run the retry suite with the jitter pinned'],
        unresolved_questions: ['Should 529 be retried like 503?'],
        required_evidence_links: ['test/retry.test.ts'],
        dropped: [{ value: 'the flaky websocket test is fixed', reason: 'resolved' }],
      };
      const request = {
        messages: [{ role: 'user' as const, content: reflectedSnapshotPrompt(input) }],
        maxTokens: 2048,
        temperature: 0,
      };
      const key = await requestKey(request, 'claude-haiku-4-5');
      const llm = fixtureClient(
        [{ key, text: JSON.stringify(reply), usage: { inputTokens: 900, outputTokens: 120 } }],
        {
          model: 'claude-haiku-4-5',
        },
      );
      let t = 0;
      const now = () => (t += 7);
      const used = await computeTrajectoryReduction(input, {
        llm,
        now,
        minSnapshotTokens: 0,
        minSavingsTokens: 0,
      });
      checkEqual(used.diagnostics.reflectionUsed, true, 'reflection adopted');
      const skipped = await computeTrajectoryReduction(input, { llm, now });
      checkEqual(skipped.diagnostics.reflectionSkippedReason, 'below_threshold', 'small snapshot skips');
      const hallucinated = fixtureClient(
        [{ key, text: JSON.stringify({ ...reply, blockers: ['The database is down'] }) }],
        { model: 'claude-haiku-4-5' },
      );
      const rejected = await computeTrajectoryReduction(input, {
        llm: hallucinated,
        now,
        minSnapshotTokens: 0,
        minSavingsTokens: -1000,
      });
      checkEqual(rejected.diagnostics.reflectionSkippedReason, 'validation_failed', 'hallucination rejected');
      return { used, skipped, rejected };
    },
  },
];
