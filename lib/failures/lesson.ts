/**
 * The lesson of a failure class, in words: its standing rule when a change worked, else what failed,
 * how often, and what a later call showed.
 */
import type { FailureClass } from './failures.js';
import { failureRule } from './rule.js';

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/** How a class is named in its lesson: the tool, and for shell calls what they ran. */
function subjectOf(c: FailureClass): string {
  const tool = `\`${c.tool}\``;
  if (!c.subject || c.subject === c.tool || c.subject.split(' ')[0] === c.tool) {
    return c.subject && c.subject !== c.tool ? `\`${c.subject}\`` : tool;
  }
  return `${tool} \`${c.subject}\``;
}

/**
 * The lesson of a failure class, one line: with a fix that changed something, its standing rule
 * ({@link failureRule}: "When `Read` fails with "…": pass `offset`/`limit`."); else what failed and
 * how often, and what a later call showed. Never invents a fix.
 *
 * @example
 * ```ts
 * failureLesson(groupFailures(runs)[0]);
 * // 'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.'
 * ```
 */
export function failureLesson(c: FailureClass): string {
  const n = c.occurrences.length;
  const subject = subjectOf(c);
  const where = c.runs > 1 ? ` in ${c.runs} runs` : '';
  const fix = c.fix;
  if (fix?.kind === 'other-job') {
    return `${subject} failed with "${c.errorClass}" ${times(n)}${where}; later calls on it worked (from step ${fix.step}) but did something else, so what would have fixed it is not known.`;
  }
  if (fix?.kind === 'unseen') {
    return `${subject} failed with "${c.errorClass}" ${times(n)}${where}; a later call worked (step ${fix.step}), but the transcript does not show the failed ${n > 1 ? "calls'" : "call's"} input.`;
  }
  const rule = failureRule(c);
  if (rule) return rule;
  if (fix && fix.kind !== 'retry')
    return `${subject} fails with "${c.errorClass}": a changed call worked (step ${fix.step}).`;
  if (fix) {
    // "Unchanged" would overclaim: a pipeline stage dropped (`curl … | python3 -m json.tool` → `curl
    // …`) or an output filter changed is no change the comparison names.
    return `${subject} failed with "${c.errorClass}" ${times(n)}${where}; the same command later succeeded with no change rearview can name (step ${fix.step}).`;
  }
  return `${subject} failed with "${c.errorClass}" ${times(n)}${where}; no later call succeeded.`;
}
