/**
 * Adapters from what `rearview/transcript` reads to what the snapshot needs: memory entries, an
 * objective and a previous snapshot. The playground and the CLI both use them, so the same transcript
 * gives the same snapshot everywhere.
 */

import { findLinks } from '../categorise/index.js';
import { editedFile } from '../compress/index.js';
import { declinedCall, errorLine } from '../core/index.js';
import { fixedFailures, searchFoundNothing, stepsFromMessages } from '../failures/index.js';
import {
  isFileEditCall,
  type Message,
  type Outcome,
  patchedFiles,
  type Step,
  type SyntheticKind,
} from '../transcript/index.js';
import { editsAfter } from './acted.js';
import { deterministicSnapshot } from './deterministic.js';
import { objectiveFromText, statesNoTask } from './objective.js';
import { type PlanStep, planSteps } from './plan.js';
import { cutSpellings, linksThroughRoot, rootSpellings } from './root.js';
import { endsWithWords, sentences } from './sentences.js';
import type { MemoryEntry, SnapshotInput } from './types.js';

/** Whether the agent's message at `i` is followed right away by a tool call of its own. */
function callFollows(messages: readonly Message[], i: number): boolean {
  const next = messages[i + 1];
  return next !== undefined && next.role === 'assistant' && next.toolName !== undefined;
}

/**
 * The line that says what went wrong (`errorLine` of rearview/core), at most 300 characters; an output
 * that holds only a runner's exit notice gives the notice, so the failure still shows.
 */
function firstErrorLine(text: string): string | undefined {
  const t = String(text);
  const line = errorLine(t).line ?? t.split('\n', 40).find((l) => l.trim() !== '');
  return line?.trim().slice(0, 300);
}

/**
 * What wrote a message in the user's seat that the snapshot does not read (`synthetic` of
 * rearview/transcript): context a harness injected (Codex's AGENTS.md and `<environment_context>`,
 * skill bodies, local-command caveats), hooks and reminders, notifications, command expansions,
 * aider's confirmations and handoffs, tool output in the user's seat. None of it is the session's
 * objective or work in progress. An agent's task statement and a continuation summary are read: the
 * one is the objective, the other carries the work the summary says is pending.
 */
const UNREAD: ReadonlySet<SyntheticKind> = new Set<SyntheticKind>([
  'meta',
  'hook',
  'notification',
  'command',
  'confirmation',
  'handoff',
  'observation',
]);
/** Any character that is not a space: a message with it says something. */
const SOME_TEXT = /\S/;
/**
 * The person's words in a command template (spec-kit's `/speckit.*` prompts, which Codex, Claude Code
 * and SpecStory log expanded): the fenced block under `## User Input`. Lazy up to the first fence
 * after it, so one pass.
 */
const USER_INPUT = /## User Input\s*```[a-z]*\n([\s\S]*?)```/;
/**
 * A sentence that ends with a colon, ASCII or full-width: it introduces what follows. Blind readers
 * found such next actions carried out or no step at all (eval/snapshot/sets/pending: introduces.jsonl).
 */
const INTRODUCES = /[:：]$/;

/**
 * An error of the agent's own model call, not of the work: aider's `litellm.RateLimitError: …` lines,
 * Claude Code's "API Error: 500 …" (also when compacting), after any leading space. Anchored, one
 * space run and one `\w` run: linear.
 */
const MODEL_ERROR =
  /^\s*(?:litellm\.\w*(?:Error|Exception|Timeout)\b|(?:Error during compaction: (?:Error: )?)?API Error\b)/;

/**
 * The person's latest turn answered in at least this many characters of the agent's words is carried
 * out, not only answered (scope `delivered`): on the pending set's labelled rows, 1 of 14 such turns
 * still pending, against 4 of 9 with a shorter answer (eval/snapshot/sets/pending/delivered.jsonl).
 */
const DELIVERED_CHARS = 1500;

/** The links a tool call other than an edit gives as evidence, in the order its arguments name them. */
const CALL_LINKS = 3;

/**
 * Transcript messages → memory entries. Each user or assistant message gives up to three sentences
 * (scope = its role, sourceIteration = the message's position; `answered`, never a next action, an open
 * question or an open hypothesis, for the messages before the person's latest turn, and `superseded`,
 * not a blocker either, for those and the agent's messages after that turn with an edit that worked
 * anywhere after them; `replied`, never an open question, for that turn once the agent answered it in
 * words (`delivered`, no next action either, when the answer holds 1,500 characters or more); `done`,
 * never a next action or an open question, for an assistant's sentence that ends with a colon, which
 * introduces what follows it — a call, code, a command, steps for the person — and for every sentence
 * of an assistant message its own tool call follows right away, which carries it out; `fixed`, never
 * listed, for an assistant message right before an edit that succeeded and a person's message the agent answered
 * with one: the agent acted on it, and for an error of the agent's own model call — "API Error: …",
 * aider's `litellm.…Error` — that the model answered after), each failed tool result its error line
 * (scope `observation`, or `fixed` when a later call made it good — `fixedFailures` of rearview/failures
 * — or when it is such a model error answered after, or `superseded` before the person's latest turn
 * with an edit that worked after it; a call the person declined gives none), each tool call the files
 * and URLs it names (scope `evidence`; an edit or a write, the file it names first, not the links of
 * the content it writes), and the open steps of the agent's latest plan (its to-do
 * tool's list, `planSteps`) when neither the person has spoken nor an edit has worked since (scope
 * `todo`: next actions; with `options.root`, the session's folder, a folder name holding white space
 * or a letter outside ASCII is read whole in them). The first user message longer than a few characters is the
 * objective: one a person typed, or an agent's task statement (or what the person typed into a command
 * template), never a continuation summary or an interruption notice. User-seat messages no person wrote
 * (see `UNREAD`) give no entry.
 *
 * @example
 * ```ts
 * const { objective, entries } = entriesFromMessages(parseTranscript(text).messages);
 * const snapshot = deterministicSnapshot(snapshotInputFrom(objective, entries));
 * ```
 */
export function entriesFromMessages(
  messages: readonly Message[],
  options: { root?: string } = {},
): {
  objective: string;
  entries: MemoryEntry[];
} {
  const entries: MemoryEntry[] = [];
  let objective = '';
  // A folder whose name `findLinks` cuts (white space, a letter outside ASCII), read whole in the
  // paths of the calls (root.ts).
  const root = rootSpellings(options.root);
  const cut = root !== undefined ? cutSpellings(root) : [];
  // A step planned or asked for before the person's latest turn was carried out or overtaken by the
  // time they spoke again (eval/snapshot/sets/pending: blind readers found none of 140 next actions of
  // whole sessions still to do at the end before this rule, and 13 of 90 after it).
  let latest = -1;
  // The model's last answer: an error of its own call before it no longer stands (the call worked again).
  let lastAnswer = -1;
  // How much the agent said in words since the person's latest turn (characters).
  let answerChars = 0;
  messages.forEach((m, i) => {
    if (
      m.role === 'user' &&
      m.synthetic === undefined &&
      SOME_TEXT.test(m.content) &&
      !declinedCall(m.content)
    ) {
      latest = i;
      answerChars = 0;
    } else if (
      m.role === 'assistant' &&
      !m.toolName &&
      SOME_TEXT.test(m.content) &&
      !MODEL_ERROR.test(m.content)
    ) {
      lastAnswer = i;
      answerChars += m.content.length;
    }
  });
  // Failed calls a later call made good (the same call worked, or another on its target): their
  // errors no longer stand. Read only when something failed.
  const run = messages.some((m) => m.isError) ? stepsFromMessages(messages) : undefined;
  const fixed = run ? fixedFailures(run) : undefined;
  // Searches that matched nothing (`grep` exits with 1): an answer, no problem to carry on.
  const answered = run ? new Set(run.steps.filter(searchFoundNothing).map((s) => s.ref)) : undefined;
  const { acted, later } = editsAfter(messages);
  // The open steps of the agent's latest plan, when the person has not spoken since and no edit has
  // worked since: what the agent itself still had to do (scope `todo`: next actions). A plan from
  // before the person's latest turn was carried out or overtaken, as the agent's words then were; one
  // with an edit that worked after it was worked on, and agents leave steps they carried out marked
  // open (eval/snapshot/sets/pending/plan-open.jsonl: 4 of 7 such steps were done). Read backwards
  // from the end and only after that turn: Cline carries a list in every call, and only one counts.
  let planAt = -1;
  let plan: PlanStep[] = [];
  for (let i = messages.length - 1; i > latest && planAt < 0; i--) {
    const steps = planSteps(messages[i]!);
    if (steps) {
      planAt = i;
      plan = later[i] ? [] : steps;
    }
  }
  messages.forEach((m, i) => {
    if (i === planAt)
      plan.forEach((step, j) => {
        if (step.open)
          entries.push({
            scope: 'todo',
            key: `${m.id}.p${j}`,
            value: step.text,
            sourceIteration: i,
            role: 'assistant',
          });
      });
    if (m.role === 'tool') {
      // A call the person declined is their decision, not a problem to carry to the next step.
      if (m.isError && !declinedCall(m.content) && !answered?.has(`message:${m.id}`)) {
        const line = firstErrorLine(m.content);
        if (line) {
          const made = fixed?.has(`message:${m.id}`) || (i < lastAnswer && MODEL_ERROR.test(line));
          entries.push({
            scope: made ? 'fixed' : i < latest && later[i] ? 'superseded' : 'observation',
            key: `${m.id}.err`,
            value: line,
            sourceIteration: i,
            role: 'tool',
          });
        }
      }
      return;
    }
    if (m.toolName) {
      // An edit or a write names its file first (a patch, each file it changes); the links after
      // that are those of the content it writes (an import, a URL in a comment, "dev/staging/prod" in
      // a README), not places the session looked at.
      const edit = isFileEditCall(m.toolName, m.content);
      const patched = edit ? patchedFiles(m.content, CALL_LINKS) : [];
      (patched.length > 0
        ? patched
        : cut.length > 0
          ? (linksThroughRoot(m.content, cut, findLinks) ?? findLinks(m.content))
          : findLinks(m.content)
      )
        .slice(0, edit && patched.length === 0 ? 1 : CALL_LINKS)
        .forEach((link, j) => {
          entries.push({
            scope: 'evidence',
            key: `${m.id}.l${j}`,
            value: link,
            sourceIteration: i,
            role: 'assistant',
          });
        });
      return;
    }
    if (m.role !== 'user' && m.role !== 'assistant') return;
    if (m.role === 'user' && m.synthetic !== undefined && UNREAD.has(m.synthetic)) {
      // A command template holds what the person typed: the objective when nothing came before.
      const input = m.synthetic === 'command' && !objective ? USER_INPUT.exec(m.content)?.[1]?.trim() : '';
      if (input && input.length > 8) objective = objectiveFromText(input);
      return;
    }
    if (
      m.role === 'user' &&
      !objective &&
      m.synthetic !== 'summary' &&
      m.content.trim().length > 8 &&
      // Claude Code's notice, in the user's seat, that the person stopped a call.
      !declinedCall(m.content) &&
      // "yo wassup", "please continue": the task comes in a later turn, or is not in the transcript.
      !statesNoTask(m.content)
    )
      objective = objectiveFromText(m.content);
    // The agent's or the person's message that is such an error (a person pastes it), answered after.
    const modelError = i < lastAnswer && MODEL_ERROR.test(m.content);
    const said = sentences(m.content, 3);
    const role = m.role === 'user' ? 'user' : 'assistant';
    const callAfter = m.role === 'assistant' && callFollows(messages, i);
    said.forEach((value, j) => {
      // "Let me check the config:", "Here are the steps:": the agent's sentence that introduces what
      // follows it (a call, code, a command, steps for the person), which carries it out or is no step
      // of the agent's. Scope `done`: never a next action or a question (deterministic.ts); still a
      // blocker or a guess. Not the session's last words: "Here is what I will do next:" with nothing
      // after it is still to do.
      // So do the agent's words its own tool call follows right away ("Let me check the config." and
      // the read): the call carries them out (call-after.jsonl: 1 of 24 removed still to do).
      const introduces =
        m.role === 'assistant' &&
        (callAfter ||
          (INTRODUCES.test(value) &&
            (i < messages.length - 1 || j < said.length - 1 || !endsWithWords(m.content, value))));
      // Words someone spoke after (the person, or the agent answering them): `answered`, which is `done`
      // and no open guess either; `superseded`, no blocker either, when an edit worked after them (the
      // work went past the problem: eval/snapshot/sets/pending/superseded.jsonl), and the agent's words
      // after that turn with an edit that worked after them (superseded-after.jsonl). The person's latest
      // turn, which the agent answered in words after: `replied`, its questions are answered
      // (eval/snapshot/sets/pending/replied.jsonl); a step it asks for or a problem it names stays.
      const scope =
        acted[i] || modelError
          ? 'fixed'
          : later[i] && (i < latest || m.role === 'assistant')
            ? 'superseded'
            : i < latest
              ? 'answered'
              : introduces
                ? 'done'
                : i === latest && latest < lastAnswer
                  ? answerChars >= DELIVERED_CHARS
                    ? 'delivered'
                    : 'replied'
                  : m.role;
      entries.push({ scope, key: `${m.id}.${j}`, value, sourceIteration: i, role });
    });
  });
  return { objective, entries };
}

/**
 * Trajectory steps → memory entries: each step's thought (up to three sentences, scope `thought`) and
 * the first error line of a failed step (scope `observation`, or `fixed` when a later step made it
 * good), with sourceIteration = the step index. What a step said before the run's last step that
 * changed a file and did not fail (an edit tool, a patch, `sed -i`, a `cat >` heredoc) has scope
 * `superseded` instead: the run went past it, as a chat's does past an edit that worked. Given the
 * run's `outcome`, a run that ended by submitting its work (status `submitted`, a submission) has
 * nothing left to do: its other thoughts have scope `done` (never a next action or an open question;
 * still a blocker or a guess).
 *
 * @example
 * ```ts
 * const run = parseTrajectory(text);
 * const entries = entriesFromSteps(run.steps, run.outcome);
 * ```
 */
export function entriesFromSteps(steps: readonly Step[], outcome?: Outcome): MemoryEntry[] {
  const submitted = isSubmitted(outcome);
  const entries: MemoryEntry[] = [];
  // Failed steps a later step made good, as for messages (`fixed`), referenced by their index.
  const fixed = steps.some((s) => s.error)
    ? fixedFailures({ id: 'run', steps: steps.map((s) => ({ ...s, ref: String(s.index) })) })
    : undefined;
  let lastWrite = -1;
  for (let i = steps.length - 1; i >= 0 && lastWrite < 0; i--) if (changesFile(steps[i]!)) lastWrite = i;
  steps.forEach((s, i) => {
    const before = i < lastWrite;
    sentences(s.thought ?? '', 3).forEach((value, j) => {
      const scope = before ? 'superseded' : submitted ? 'done' : 'thought';
      entries.push({ scope, key: `s${s.index}.t${j}`, value, sourceIteration: s.index, role: 'assistant' });
    });
    const err =
      s.error && !declinedCall(s.error) && !searchFoundNothing(s) ? firstErrorLine(s.error) : undefined;
    const scope = fixed?.has(String(s.index)) ? 'fixed' : before ? 'superseded' : 'observation';
    if (err)
      entries.push({ scope, key: `s${s.index}.err`, value: err, sourceIteration: s.index, role: 'tool' });
  });
  return entries;
}

/**
 * Whether a run ended by submitting its work: the agent's own `submitted` status with a submission (a
 * run the harness stopped on a limit, `exit_cost`, `submitted (exit_context)`, is not).
 */
function isSubmitted(outcome: Outcome | undefined): boolean {
  return outcome?.status?.toLowerCase() === 'submitted' && (outcome.submission?.trim() ?? '') !== '';
}

/**
 * Whether a step changed a file and did not fail: an edit tool or a patch (`isFileEditCall`: SWE-agent's
 * `edit`, `create` and `insert` among them, which name no file), or a command that writes one
 * (`editedFile`: `sed -i`, a `cat >` heredoc, `str_replace_editor`).
 */
const changesFile = (s: Step): boolean =>
  !s.error &&
  ((s.tool !== undefined && isFileEditCall(s.tool, s.action ?? '')) || editedFile(s) !== undefined);

/**
 * A snapshot input whose previous snapshot is the deterministic snapshot of the first half of the
 * entries (by sourceIteration), so retirements "since the previous run" can be shown for one transcript.
 * `root`, the folder the session worked in (a transcript's `meta.cwd`), is kept on the input and read
 * by both snapshots.
 *
 * @example
 * ```ts
 * const input = snapshotInputFrom('Fix the flaky test', entries, '/Users/ana/proj');
 * computeTrajectoryReduction(input, { llm });
 * ```
 */
export function snapshotInputFrom(objective: string, entries: MemoryEntry[], root?: string): SnapshotInput {
  const last = entries.reduce((m, e) => Math.max(m, e.sourceIteration), 0);
  const early = entries.filter((e) => e.sourceIteration < last / 2);
  const at = root === undefined ? {} : { root };
  const previous = early.length ? deterministicSnapshot({ objective, entries: early, ...at }) : null;
  return { objective: objective || '(no objective found)', entries, previous, iteration: last + 1, ...at };
}
