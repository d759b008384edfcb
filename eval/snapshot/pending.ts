/**
 * `npx tsx eval/snapshot/pending.ts`: are the deterministic snapshot's next actions still to do when a
 * session ends? Blind readers labelled next-action items of the shared transcripts' snapshots
 * (`sets/pending/`: 370 items in three rounds, `RULES.md`, README.md) as `pending`, `not-pending`,
 * `not-a-step` or `unclear`. This script prints each round's labels by group as drawn, then rebuilds
 * today's snapshot of every labelled file and says which labelled items today's next-action lists hold:
 * the share of them still pending is the list's precision on these labels (a later change to the
 * adapters or the categoriser is scored here without labelling again, for the items it keeps).
 * It also counts today's next actions and blockers over every shared transcript, and prints the labels
 * of blockers read the same way (still standing at the end or not): 100 of the lists of 4 December
 * (`blockers.jsonl`), and those drawn for the `fixed` scope (`fixed.jsonl`, `fixed-runs.jsonl`,
 * `acted.jsonl`, `model-errors.jsonl`, `aider-edits.jsonl`, `earlier.jsonl`, `overtaken.jsonl`, `introduces.jsonl`, `replied.jsonl`, `superseded.jsonl`, `superseded-after.jsonl`, `delivered.jsonl`, `rendered-edits.jsonl`, `runs-superseded.jsonl`, `headings.jsonl`, `notes-reader.jsonl`, `notes-reader-agent.jsonl`, `runs-submitted.jsonl`, `plan-open.jsonl`, `call-after.jsonl`, `listed-2026-12-05.jsonl`, `chat.jsonl`, each split by whether the rule removes it), with which of them
 * today's lists hold, and the unresolved questions said before the person's latest turn and after it
 * (`questions.jsonl`).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CONVERSATION_FOLDERS, METADATA_FILE, sharedDataDir, walkFiles } from '../../tools/shared/data';
import {
  counts,
  countsOf,
  type FileLists,
  holds,
  LISTS,
  listsOf,
  type Row,
  readRows,
  tally,
} from './pending-rows';

const root = sharedDataDir() ?? '';
if (!root) throw new Error('no shared data beside the repository (../shared/data)');
const rows = readRows('labels.jsonl');

console.log('## As drawn (labels by round and group)');
for (const round of [1, 2, 3]) {
  const inRound = rows.filter((r) => r.round === round);
  for (const group of [...new Set(inRound.map((r) => r.group))])
    for (const role of ['assistant', 'user']) {
      const rs = inRound.filter((r) => r.group === group && r.role === role);
      if (rs.length) console.log(`round ${round}, ${group}, ${role} (${rs.length}): ${counts(rs)}`);
    }
}
// The same question for blockers (`blockers.jsonl`, RULES-blockers.md): still standing at the end?
const blockers = readRows('blockers.jsonl');
for (const group of ['before-latest-turn', 'since-latest-turn']) {
  const rs = blockers.filter((r) => r.group === group);
  console.log(`blockers, ${group} (${rs.length}): ${tally(rs)}`);
}
const second = [...rows, ...blockers].filter((r) => r.second !== undefined);
console.log(
  `second reader: ${second.filter((r) => r.second === r.label).length} of ${second.length} agree with the first`,
);

console.log("\n## Today's next-action lists");
const lists = new Map<string, FileLists | null>();
for (const file of new Set(rows.map((r) => r.file)))
  lists.set(file, listsOf(readFileSync(join(root, file), 'utf8')));
const listed = rows.filter((r) => holds(lists.get(r.file), r, 'nextActions'));
const left = rows.filter((r) => !holds(lists.get(r.file), r, 'nextActions'));
const decided = (rs: readonly Row[]) => rs.filter((r) => r.label === 'pending' || r.label === 'not-pending');
const share = (a: number, b: number) => `${a} of ${b} (${b ? ((100 * a) / b).toFixed(1) : '—'} %)`;
console.log(`listed today (${listed.length}): ${counts(listed)}`);
console.log(
  `  pending: ${share(listed.filter((r) => r.label === 'pending').length, listed.length)} of the items, ${share(decided(listed).filter((r) => r.label === 'pending').length, decided(listed).length)} of the steps read as pending or not`,
);
console.log(`not listed today (${left.length}): ${counts(left)}`);

// Failed calls a later call made good (`fixed.jsonl`): tool-error blockers of the lists before the
// `fixed` scope (adapters.ts), drawn by whether fixedFailures finds a later call that worked.
const fixedRows = readRows('fixed.jsonl');
console.log('\n## Failed calls (fixed.jsonl, as drawn)');
for (const group of ['fixed', 'unfixed']) {
  const rs = fixedRows.filter((r) => r.group === group);
  console.log(`${group} (${rs.length}): ${tally(rs)}`);
}
const fixedRuns = readRows('fixed-runs.jsonl');
for (const group of ['fixed', 'unfixed']) {
  const rs = fixedRuns.filter((r) => r.group === group);
  console.log(`agent runs (fixed-runs.jsonl), ${group} (${rs.length}): ${tally(rs)}`);
}
// The agent's sentences right before an edit that worked, and the person's the agent answered with one
// (`acted.jsonl`): scope `fixed` too.
const actedRows = readRows('acted.jsonl');
for (const role of ['assistant', 'user'])
  for (const group of ['acted', 'not-acted']) {
    const rs = actedRows.filter((r) => r.role === role && r.group === group);
    console.log(
      `${role === 'user' ? "the person's" : "the agent's"} sentences (acted.jsonl), ${group} (${rs.length}): ${tally(rs)}`,
    );
  }
// Agent runs: a step's thought whose own action edited a file (`acted-runs.jsonl`, not shipped).
const actedRuns = readRows('acted-runs.jsonl');
for (const group of ['acted', 'not-acted']) {
  const rs = actedRuns.filter((r) => r.group === group);
  console.log(`agent runs' thoughts (acted-runs.jsonl, not shipped), ${group} (${rs.length}): ${tally(rs)}`);
}
// Errors of the agent's own model call ("API Error: …", aider's `litellm.…Error`) the model answered
// after (`model-errors.jsonl`, every such blocker of the lists of 4 December, read twice): scope `fixed`.
const modelRows = readRows('model-errors.jsonl');
for (const group of ['answered', 'unanswered']) {
  const rs = modelRows.filter((r) => r.group === group);
  console.log(`model errors (model-errors.jsonl), ${group} (${rs.length}): ${tally(rs)}`);
}
// aider's replies whose edit blocks aider applied ("Applied edit to …" in its output) and the person's
// messages they answered (`aider-edits.jsonl`, items of every list, RULES-items.md): scope `fixed`.
const aiderRows = readRows('aider-edits.jsonl');
for (const role of ['assistant', 'user'])
  for (const group of ['applied', 'not-applied']) {
    const rs = aiderRows.filter((r) => r.role === role && r.group === group);
    console.log(
      `aider (aider-edits.jsonl), ${role === 'user' ? "the person's" : "the agent's"}, ${group} (${rs.length}): ${tally(rs)}`,
    );
  }
console.log(
  `second reader (aider-edits.jsonl): ${aiderRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${aiderRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
// Blockers and guesses said before the person's latest turn (`earlier.jsonl`, RULES-earlier.md and
// RULES-earlier-person.md): scope `answered`, no open hypothesis (shipped); still a blocker (not shipped).
const earlierRows = readRows('earlier.jsonl');
for (const role of ['assistant', 'user'])
  for (const category of ['blockers', 'openHypotheses'])
    for (const group of ['before-latest-turn', 'after-latest-turn']) {
      const rs = earlierRows.filter((r) => r.role === role && r.category === category && r.group === group);
      if (rs.length)
        console.log(
          `${role === 'user' ? "the person's" : "the agent's"} ${category} (earlier.jsonl), ${group} (${rs.length}): ${tally(rs)}`,
        );
    }
console.log(
  `second reader (earlier.jsonl): ${earlierRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${earlierRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
// The agent's blockers with four or more of the person's turns after them (`overtaken.jsonl`,
// RULES-earlier.md, not shipped), and the agent's older blockers that rule kept (controls).
const overtakenRows = readRows('overtaken.jsonl');
for (const group of ['overtaken', 'kept-before-latest']) {
  const rs = overtakenRows.filter((r) => r.group === group);
  console.log(`the agent's blockers (overtaken.jsonl), ${group} (${rs.length}): ${tally(rs)}`);
}
console.log(
  `second reader (overtaken.jsonl): ${overtakenRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${overtakenRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
// What was said before the person's latest turn, with an edit that worked after it (`superseded.jsonl`,
// RULES-blockers.md, shipped): no blocker any more; controls, blockers said then with no edit after.
const supersededRows = readRows('superseded.jsonl');
for (const group of ['superseded', 'kept-before-latest'])
  for (const role of ['assistant', 'user', 'tool']) {
    const rs = supersededRows.filter((r) => r.group === group && r.role === role);
    if (rs.length) console.log(`blockers (superseded.jsonl), ${group}, ${role} (${rs.length}): ${tally(rs)}`);
  }
console.log(
  `second reader (superseded.jsonl): ${supersededRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${supersededRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
// The agent's words after the person's latest turn with an edit that worked after them
// (`superseded-after.jsonl`, RULES.md for next actions, RULES-blockers.md for blockers, shipped);
// controls, the agent's next actions after that turn with no edit after them.
const afterRows = readRows('superseded-after.jsonl');
for (const group of ['superseded-after', 'kept-after-latest'])
  for (const category of ['nextActions', 'blockers']) {
    const rs = afterRows.filter((r) => r.group === group && r.category === category);
    if (rs.length)
      console.log(
        `the agent's words after the latest turn (superseded-after.jsonl), ${group}, ${category} (${rs.length}): ${category === 'blockers' ? tally(rs) : counts(rs)}`,
      );
  }
console.log(
  `second reader (superseded-after.jsonl): ${afterRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${afterRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
// The person's latest turn the agent answered at length in words (`delivered.jsonl`, RULES.md,
// shipped): no next action; controls, such turns listed with a shorter answer or none.
const deliveredRows = readRows('delivered.jsonl');
for (const group of ['delivered', 'kept-latest-turn']) {
  const rs = deliveredRows.filter((r) => r.group === group);
  console.log(`the person's latest turn (delivered.jsonl), ${group} (${rs.length}): ${counts(rs)}`);
}
console.log(
  `second reader (delivered.jsonl): ${deliveredRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${deliveredRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
/**
 * One round's labels by group and list (the words of each list's rules), and its second reader's
 * agreement: the rounds of stop 65, whose files mix lists.
 */
function printRound(what: string, file: string, groups: readonly string[]): void {
  const rs = readRows(file);
  const words = countsOf(['open', 'resolved', 'answered', 'not-a-problem', 'not-a-question', 'unclear']);
  for (const group of groups)
    for (const category of ['blockers', 'nextActions', 'unresolvedQuestions', 'openHypotheses']) {
      const g = rs.filter((r) => r.group === group && r.category === category);
      if (g.length)
        console.log(
          `${what} (${file}), ${group}, ${category} (${g.length}): ${category === 'nextActions' ? counts(g) : words(g)}`,
        );
    }
  const second = rs.filter((r) => r.second !== undefined);
  console.log(
    `second reader (${file}): ${second.filter((r) => r.second === r.label).length} of ${second.length} agree with the first`,
  );
}
// The rounds printed alike (the items each rule removed or put in, and its controls, by group):
// rendered edits; agent runs past their last write, and runs that submitted; the agent's words its own
// call follows; its plan's open steps (ends, cuts, Cline, Antigravity); today's lists, measured; a
// ShareGPT chat read as a chat (not shipped); Markdown headings; the notes reader on every sentence, and on the agent's and the tools' words only.
const BY = ['', 'cline-', 'antigravity-'];
const PLAN_GROUPS = ['plan-open-end', ...BY.flatMap((a) => [`${a}plan-open`, `${a}prose`])];
const ROUNDS: readonly (readonly [string, string, readonly string[]])[] = [
  ['edits read from rendered diffs', 'rendered-edits.jsonl', ['rendered-edit', 'kept']],
  ['agent runs', 'runs-superseded.jsonl', ['run-superseded', 'kept']],
  ['submitted runs', 'runs-submitted.jsonl', ['run-submitted', 'kept']],
  ['words a call follows', 'call-after.jsonl', ['call-after', 'kept']],
  ["the agent's plan", 'plan-open.jsonl', PLAN_GROUPS],
  ['lists of 5 December', 'listed-2026-12-05.jsonl', ['listed']],
  ['a ShareGPT chat read as one (not shipped)', 'chat.jsonl', ['said', 'delivered']],
  ['headings', 'headings.jsonl', ['heading', 'kept']],
  ['the notes reader', 'notes-reader.jsonl', ['removed', 'added', 'kept']],
  ["the notes reader, the agent's words", 'notes-reader-agent.jsonl', ['removed', 'kept']],
];
for (const [what, file, groups] of ROUNDS) printRound(what, file, groups);
{
  // What the decision counted: every blocker the reader for the agent's words takes out, with the first
  // round's labels for those it had drawn (the agent's and the tools').
  const removed = [
    ...readRows('notes-reader-agent.jsonl'),
    ...readRows('notes-reader.jsonl').filter((r) => r.role !== 'user'),
  ].filter((r) => r.group === 'removed' && r.category === 'blockers');
  console.log(
    `the notes reader, the agent's words: removed blockers of both rounds (${removed.length}): ${countsOf(['open', 'resolved', 'not-a-problem', 'unclear'])(removed)}`,
  );
}
// The agent's next actions and questions that end with a colon (`introduces.jsonl`, RULES.md,
// shipped): scope `done` unless they are the session's last words; controls after the latest turn.
const introducesRows = readRows('introduces.jsonl');
for (const group of ['introduces', 'last-words', 'kept-after-latest']) {
  const rs = introducesRows.filter((r) => r.group === group);
  console.log(
    `the agent's items ending with a colon (introduces.jsonl), ${group} (${rs.length}): ${counts(rs)}`,
  );
}
console.log(
  `second reader (introduces.jsonl): ${introducesRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${introducesRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
// The person's latest turn answered by the agent in words (`replied.jsonl`, RULES-questions.md,
// shipped): its questions are no longer open; controls the rule keeps.
const repliedRows = readRows('replied.jsonl');
const repliedTally = countsOf(['open', 'answered', 'not-a-question', 'unclear']);
for (const group of ['replied', 'kept-user', 'kept-assistant']) {
  const rs = repliedRows.filter((r) => r.group === group);
  console.log(`questions (replied.jsonl), ${group} (${rs.length}): ${repliedTally(rs)}`);
}
console.log(
  `second reader (replied.jsonl): ${repliedRows.filter((r) => r.second !== undefined && r.second === r.label).length} of ${repliedRows.filter((r) => r.second !== undefined).length} agree with the first`,
);
// Items that end with a colon (`intros.jsonl`, RULES-intros.md, not shipped): do their own words say
// something? Rule A (no such item) and rule B (none of at most six words), registered before the labels.
const introRows = readRows('intros.jsonl') as (Row & { words: number })[];
const introTally = countsOf(['informative', 'empty', 'unclear']);
console.log(`items ending with ":" (intros.jsonl), all (${introRows.length}): ${introTally(introRows)}`);
const shortIntros = introRows.filter((r) => r.words <= 6);
console.log(
  `items ending with ":" (intros.jsonl), at most six words (${shortIntros.length}): ${introTally(shortIntros)}`,
);
// Unresolved questions said before the person's latest turn (scope `done`, `questions.jsonl`, shipped)
// and after it (controls): still open when the session ends?
const questionRows = readRows('questions.jsonl');
const askTally = countsOf(['open', 'answered', 'not-a-question', 'unclear']);
for (const group of ['user-done', 'assistant-done', 'user-after', 'assistant-after']) {
  const rs = questionRows.filter((r) => r.group === group);
  console.log(`questions (questions.jsonl), ${group} (${rs.length}): ${askTally(rs)}`);
}
console.log(
  `second reader (questions.jsonl): ${questionRows.filter((r) => r.second === r.label).length} of ${questionRows.length} agree with the first`,
);
const actedSecond = [...actedRows, ...actedRuns].filter((r) => r.second !== undefined);
console.log(
  `second reader (acted.jsonl, acted-runs.jsonl): ${actedSecond.filter((r) => r.second === r.label).length} of ${actedSecond.length} agree with the first`,
);
console.log(
  `second reader (model-errors.jsonl): ${modelRows.filter((r) => r.second === r.label).length} of ${modelRows.length} agree with the first`,
);
const fixedSecond = fixedRows.filter((r) => r.second !== undefined);
console.log(
  `second reader: ${fixedSecond.filter((r) => r.second === r.label).length} of ${fixedSecond.length} agree with the first`,
);
const blockerLists = new Map<string, FileLists | null>();
for (const file of new Set(
  [...fixedRows, ...fixedRuns, ...actedRows, ...modelRows, ...blockers].map((r) => r.file),
))
  blockerLists.set(file, listsOf(readFileSync(join(root, file), 'utf8'), true));
const inList = (r: Row) => holds(blockerLists.get(r.file), r, 'blockers');
for (const [name, rs] of [
  ['fixed.jsonl', fixedRows],
  ['fixed-runs.jsonl', fixedRuns],
  ['acted.jsonl', actedRows],
  ['model-errors.jsonl', modelRows],
  ['blockers.jsonl, the agent', blockers.filter((r) => r.role === 'assistant')],
  ['blockers.jsonl, the person', blockers.filter((r) => r.role === 'user')],
  ['blockers.jsonl, tool errors', blockers.filter((r) => r.role === 'tool')],
] as const)
  console.log(
    `${name}: listed today ${tally(rs.filter(inList))}; no longer listed ${tally(rs.filter((r) => !inList(r)))}`,
  );
// The population: today's next actions over every shared transcript.
const files = CONVERSATION_FOLDERS.flatMap((d) =>
  walkFiles(join(root, d)).filter((p) => !METADATA_FILE.test(relative(root, p))),
);
/** Sessions read and the items of each list over `paths` (agent runs too with `runs`). */
function totals(paths: readonly string[], runs = false) {
  const t = { sessions: 0, nextActions: 0, blockers: 0, unresolvedQuestions: 0, openHypotheses: 0 };
  for (const f of paths) {
    const l = listsOf(readFileSync(f, 'utf8'), runs);
    if (l === null) continue;
    t.sessions++;
    for (const c of LISTS) t[c] += l.kept[c].size;
  }
  return t;
}
const chats = totals(files);
const { sessions, nextActions: items, blockers: blockerItems } = chats;
const { unresolvedQuestions: questionItems, openHypotheses: guessItems } = chats;
const per = (n: number) => (n / Math.max(1, sessions)).toFixed(2);
// The agent runs (no person in them), apart.
const runs = totals(
  ['mini-swe-agent', 'swe-agent'].flatMap((d) =>
    walkFiles(join(root, d)).filter((p) => !METADATA_FILE.test(relative(root, p))),
  ),
  true,
);
console.log(
  `\n${items} next actions, ${blockerItems} blockers, ${questionItems} unresolved questions and ${guessItems} open hypotheses over ${sessions} shared transcripts (${per(items)}, ${per(blockerItems)}, ${per(questionItems)} and ${per(guessItems)} per session; ${relative(process.cwd(), root)})`,
);
console.log(
  `${runs.nextActions} next actions, ${runs.blockers} blockers, ${runs.unresolvedQuestions} unresolved questions and ${runs.openHypotheses} open hypotheses over ${runs.sessions} shared agent runs (mini-swe-agent, swe-agent)`,
);
