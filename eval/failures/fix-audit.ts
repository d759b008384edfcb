/**
 * `npx tsx eval/failures/fix-audit.ts`: when rearview says a failed tool call was fixed by a change in
 * the call ("a changed call worked": add a flag, drop an argument, first run a setup step, use another
 * tool), is that change why the later call worked?
 *
 * Every fix `groupFailures` credited over the shared data on 7 December 2026 (112, 33 authors, in
 * `sets/fix-audit/cases.jsonl`, round 1: the file, the failed and the fixed call's steps, the change as
 * credited, no text) was read by a blind reader who saw the failed call and its error, the calls in
 * between and the call that worked, never rearview's words (`sets/fix-audit/README.md`). A second
 * reader read 40 of them. A third helper judged, for every case the reader put down to the call
 * itself, whether the reader's description and rearview's name the same change, without knowing which
 * was which. Round 2: the 11 fixes credited only once the same-job rule (lib/failures/same-job.ts,
 * written from round 1's labels) was in, read the same way; round 3: the 2 credited once a package
 * runner counted as the same command (lib/failures/runner.ts); round 4: the 3 credited once a
 * program's versioned name did (`python3` for `python`, runner.ts).
 *
 * The report: how many credited fixes the readers confirm (same job, the call's own change, the same
 * change); agreement; and, for the code as it is now, which labelled fixes it still credits, which it
 * drops, and how many fixes it credits that were not labelled.
 *
 * Reads ../shared/data; skips with a message when it is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixText } from '../../lib/failures/index';
import { checkCopies } from '../heuristic/unseen';
import { kappa } from '../snapshot/sets/strangers-notes/agreement';
import { auditCases, DATA } from './fix-audit-data';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

/**
 * `fix-audit` (the shared data) or `fix-audit-fresh`: the console transcripts of 45 authors in no
 * folder of the shared data (`../heuristic/sets/fresh-console/`), read from `--dir <folder>` holding
 * `console/<id>.md`, each copy checked against that set's SHA-256 first.
 */
const SET_NAME = arg('--set') ?? 'fix-audit';
const SET = join(import.meta.dirname, 'sets', SET_NAME);

interface Case {
  id: string;
  /**
   * 1: credited before the same-job rule (7 December 2026); 2: credited only after it; 3: credited
   * only once a package runner counted as the same command (`npx vercel` after `vercel`); 4: once a
   * program's versioned name did (`python3` after `python`); 5: once a file read between a refused
   * edit and one that worked counted as the fix (`read-first`). In `fix-audit-fresh`: 1 as drawn,
   * 2 credited only after the rules written from its round 1.
   */
  round: number;
  file: string;
  tool: string;
  failedStep: number;
  fixedStep: number;
  kind: string;
  change: string;
}

interface Label {
  sameGoal: string;
  cause: string;
  difference: string;
  between: string;
}

function labels(file: string): Map<string, Label> {
  const out = new Map<string, Label>();
  if (!existsSync(join(SET, file))) return out;
  for (const line of readFileSync(join(SET, file), 'utf8').split('\n')) {
    const [id, sameGoal, cause, difference, between] = line.split('\t');
    if (!id || !cause) continue;
    out.set(id, {
      sameGoal: sameGoal!.trim(),
      cause: cause.trim(),
      difference: difference ?? '',
      between: between ?? '',
    });
  }
  return out;
}

/** The credit is right: the later call does the job, and its own change is (part of) why it worked. */
/** How `fixText` opens a `read-first` fix ("first read the file with `Read`"), read from it. */
const READ_FIRST_WORDS = fixText([{ kind: 'read-first', values: [''] }]).split('`')[0]!;

const causal = (l: Label, c: Case) =>
  l.sameGoal === 'yes' &&
  // A credit naming the file read first (`read-first`) claims a step done between the two calls.
  (c.change.startsWith(READ_FIRST_WORDS)
    ? l.cause === 'between' || l.cause === 'both'
    : l.cause === 'call' || l.cause === 'both');

const pct = (n: number, d: number) => `${n} of ${d} (${d ? ((100 * n) / d).toFixed(1) : '—'} %)`;

/** The session files the set was drawn from, and their root: the shared data, or the checked copies. */
function sessions(): { root: string; files?: string[] } {
  if (SET_NAME === 'fix-audit') return { root: DATA };
  const dir = arg('--dir');
  if (!dir) throw new Error(`usage: fix-audit.ts --set ${SET_NAME} --dir <folder holding console/<id>.md>`);
  const root = join(dir, 'console');
  return { root, files: checkCopies(dir, 'fresh-console').map((f) => join(root, f.file)) };
}

function main(): number {
  if (SET_NAME === 'fix-audit' && !existsSync(DATA)) {
    console.log(`fix-audit skipped: ${DATA} is absent`);
    return 0;
  }
  const { root, files } = sessions();
  const cases: Case[] = readFileSync(join(SET, 'cases.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Case);
  const first = labels('labels.tsv');
  const second = labels('labels-second.tsv');
  const match = new Map(
    readFileSync(join(SET, 'match.tsv'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t') as [string, string]),
  );
  const missing = cases.filter((c) => !first.has(c.id));
  if (missing.length) throw new Error(`unlabelled cases: ${missing.map((c) => c.id).join(', ')}`);

  const all = cases;
  const round1 = all.filter((c) => c.round === 1);
  const count = (pred: (l: Label, c: Case) => boolean) =>
    round1.filter((c) => pred(first.get(c.id)!, c)).length;
  const n = round1.length;
  console.log(
    SET_NAME === 'fix-audit'
      ? `## Round 1: the fixes credited before the same-job rule, read blind (${n}, ${new Set(round1.map((c) => c.file.split('/').slice(0, 2).join('/'))).size} sources)`
      : `## As drawn: the fixes credited by the code of the set's README, read blind (${n}, ${new Set(round1.map((c) => c.file)).size} files)`,
  );
  console.log(
    `same job: ${pct(
      count((l) => l.sameGoal === 'yes'),
      n,
    )}`,
  );
  for (const cause of ['call', 'both', 'between', 'neither', 'unclear'])
    console.log(`  cause ${cause}: ${count((l) => l.cause === cause)}`);
  const right = (c: Case) => causal(first.get(c.id)!, c) && match.get(c.id) === 'same';
  console.log(
    `the call's own change is why it worked: ${pct(
      count((l, c) => causal(l, c)),
      n,
    )}`,
  );
  console.log(`… and it is the change rearview names: ${pct(round1.filter(right).length, n)}`);
  const partly = round1.filter((c) => causal(first.get(c.id)!, c) && match.get(c.id) === 'partly').length;
  console.log(
    `  (partly the same: ${partly}; different: ${round1.filter((c) => causal(first.get(c.id)!, c) && match.get(c.id) === 'different').length})`,
  );

  const both = round1.filter((c) => second.has(c.id));
  if (both.length) {
    const pairs = both.map((c) => [first.get(c.id)!.cause, second.get(c.id)!.cause] as const);
    const bin = both.map(
      (c) => [String(causal(first.get(c.id)!, c)), String(causal(second.get(c.id)!, c))] as const,
    );
    console.log(`\n## Second reader (${both.length} cases)`);
    console.log(`cause: ${pairs.filter(([a, b]) => a === b).length} agree, kappa ${kappa(pairs).toFixed(3)}`);
    console.log(
      `credit right (same job and the call's change): ${bin.filter(([a, b]) => a === b).length} agree, kappa ${kappa(bin).toFixed(3)}`,
    );
  }

  // The code as it is now: which labelled fixes does it still credit, and how many are right?
  const now = new Map(auditCases(root, files).map((c) => [`${c.file}#${c.failed.step}#${c.fixed.step}`, c]));
  const still = (c: Case) => now.has(`${c.file}#${c.failedStep}#${c.fixedStep}`);
  const kept = all.filter(still);
  const dropped = round1.filter((c) => !still(c));
  const causalOf = (cs: readonly Case[]) => cs.filter((c) => causal(first.get(c.id)!, c)).length;
  console.log('\n## The code now');
  console.log(
    `credits: ${now.size}; labelled: ${kept.length} (round 1 kept: ${kept.filter((c) => c.round === 1).length}, round 2: ${kept.filter((c) => c.round === 2).length}, round 3: ${kept.filter((c) => c.round === 3).length}, round 4: ${kept.filter((c) => c.round === 4).length}, round 5: ${kept.filter((c) => c.round === 5).length}); not labelled: ${now.size - kept.length}`,
  );
  console.log(
    `round 1 credits dropped: ${dropped.length}, of which the call's own change was why: ${causalOf(dropped)}`,
  );
  console.log(
    `the later call did the same job: ${pct(kept.filter((c) => first.get(c.id)!.sameGoal === 'yes').length, kept.length)}`,
  );
  console.log(`the call's own change is why it worked: ${pct(causalOf(kept), kept.length)}`);
  console.log(`… and it is the change rearview names: ${pct(kept.filter(right).length, kept.length)}`);
  // Files edited between the two calls: the code reports them (`FailureFix.edits`) and lowers the
  // lesson's confidence; how often is the credited change right with and without them?
  const withEdits = kept.filter((c) => (now.get(`${c.file}#${c.failedStep}#${c.fixedStep}`)?.edits ?? 0) > 0);
  const without = kept.filter((c) => !withEdits.includes(c));
  console.log(
    `with file edits between the two calls: ${pct(causalOf(withEdits), withEdits.length)} right; without: ${pct(causalOf(without), without.length)}`,
  );
  if (process.argv.includes('--list'))
    for (const c of all) {
      const l = first.get(c.id)!;
      console.log(
        `${c.id}\t${still(c) ? 'kept' : 'DROPPED'}\t${l.sameGoal}/${l.cause}/${match.get(c.id) ?? '-'}\t${c.change}\t| ${l.difference} | ${l.between}`,
      );
    }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
