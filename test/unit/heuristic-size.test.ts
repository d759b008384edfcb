/**
 * Size budgets of rearview/heuristic and rearview/llm-reflect: built with Vite's API, fully minified,
 * gzipped, counting the code loaded up front (chunks loaded on first use are reported apart). Issue
 * 16: the whole `rearview/heuristic` entry under 8 KB; no bundle pulls in an LLM SDK or valibot, up
 * front or on first use.
 *
 * Measured: `heuristicReflect` alone 6,494 B; the whole heuristic entry 7,066 B (plus the non-English
 * markers, 1,271 B on first use). It was 8,776 B while it also carried the model half; that half is now
 * its own entry, `rearview/llm-reflect`: 8,461 B up front for the whole entry (it includes
 * `heuristicReflect`, which `llmReflect` merges with; about 2 KB of its own: prompt, reply parser with
 * core's `extractJson`, merge, the call), plus escalation with the redactor, 6,567 B on first use.
 * Escalation stays lazy because loading it up front made the entry 14,298 B; plain `import()` of a
 * module that imports the heuristic entry costs ~150 B over no escalation at all, so the former "kit"
 * (eager helpers passed to lazy chunks as arguments) is gone.
 *
 * The llm-reflect budget is 9.5 KB: the entry is 9,649 B, of which the scanner's warm-up (which keeps
 * V8 from throwing its optimised code away, lib/heuristic/exercise.ts) and the repeat finder take about
 * 600 B; the rest of the budget is headroom, so a growth past it fails. The heuristic entry is 8,057 B,
 * under its 8 KB: `insightMetadata` (181 B, a record for storing an insight, not detection) moved to
 * `rearview/playbook` when the rule for turns no reply had answered yet took the entry to 8,215 B
 * (59 B; exporting `opensSession` for the session facade adds 23 B).
 *
 * Reading Chinese and Japanese (each kana or ideograph a word of its own; 。！，：；？ ending sentences
 * and clauses; the warm-up text taking those branches) cost about 100 B up front: the heuristic entry
 * 8,188 B (a dead `ch === 0x20` test removed from the scanner, and the warm-up reading compile.ts's
 * list of lists instead of a copy, paid for the last bytes), llm-reflect 9,740 B, whose budget went
 * from 9.5 to 9.75 KB for it. The lists themselves load on first use.
 *
 * Preferences that state a rule in a short turn (a context bit, its word list and a 13th score, one
 * insight for a turn that also corrects) and a recommendation that keeps the `never` before `use` and
 * quotes the sentence a preference states its rule in (the same regex) cost 178 B; `SEED_MARKERS`
 * (182 B, the evaluations' baseline) left the entry for tools/shared: heuristic entry 8,187 B,
 * llm-reflect 9,922 B.
 *
 * A correction marker's score recalibrated from 0.84 to 0.85 (the same length, but the table no longer
 * repeats 0.84) took the entry from 8,190 to 8,192 B: exactly issue 38's "≤ 8 KB", the budget the
 * test now holds it to (it had been "under").
 *
 * Reading Cursor's `Cancelled` as an interruption (12 B in the notices' regex) took it to 8,201 B; the
 * regex's needle for Claude Code's rejection notice became "with this tool use" (it was "want to
 * proceed with this tool use"; no other text of the shared data holds the shorter one): 8,189 B.
 *
 * Friction that keeps coming back (17 "still …" markers and "issue persists") took it to 8,259 B; the
 * markers a shorter one already reads ("i already told you", "for the third time", "we discussed
 * this", "still the same") and the ones no labelled or shared turn holds ("once again", "how many
 * times", "over and over", "repeatedly", "not again", "every session") left, with "second time" (3 of
 * 3 shared turns holding it are not friction), two new ones of one turn each and "every time" (a task
 * spec's "run every time …"): 8,186 B; Chinese and Japanese forms of the same, in the lazily loaded
 * language chunk (2,362 → 2,477 B), left the entry at 8,187 B (6 December 2026).
 *
 * The friction list's "still" forms in the correction list too (a problem the fix left standing is a
 * correction as well; 11 patterns, most of them repeats gzip reads as back-references): 8,189 B.
 * `still * errors` (one turn of the pool, "still errors") would have taken it to 8,194 B and stayed out.
 *
 * From 7 December 2026 the measure leaves out the 14 `/* @__PURE__ *\/` notes a library build keeps
 * for the next bundler and an application's build drops (tools/shared/heuristic-size.ts): the same
 * entry measured 8,185 B with them, 8,148 B without. The console's later interruption and rejection
 * notices and Cline's declined call (`reportsInterrupt`) and the correction scores recalibrated with
 * them took it to 8,189 B (8,227 B with the notes).
 */
import { describe, expect, it } from 'vitest';
import { heuristicSizes } from '../../tools/shared/heuristic-size';

describe('rearview/heuristic and rearview/llm-reflect size budgets', () => {
  it('the whole heuristic entry stays under 8 KB minified + gzipped, llm-reflect under 9.75 KB', async () => {
    const sizes = await heuristicSizes();
    console.log(`heuristic size: ${JSON.stringify(sizes)}`);
    // Issue 38's budget: at most 8 KB (8,192 B, reached exactly since a recalibrated score, below).
    expect(sizes.wholeEntry.gzipped).toBeLessThanOrEqual(8 * 1024);
    expect(sizes.heuristicReflect.gzipped).toBeLessThan(8 * 1024);
    expect(sizes.heuristicReflect.gzipped).toBeLessThan(sizes.wholeEntry.gzipped);
    expect(sizes.llmReflectEntry.gzipped).toBeLessThan(9.75 * 1024);
    expect(sizes.heuristicReflect.imports).toEqual([]);
    expect(sizes.wholeEntry.imports).toEqual([]);
    expect(sizes.llmReflectEntry.imports).toEqual([]);
  });
});
