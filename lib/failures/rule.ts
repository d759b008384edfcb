/**
 * The standing rule a failure class teaches: one sentence a repository's CLAUDE.md / AGENTS.md could
 * keep, written the same way by `rearview learn` and by a session's key points.
 */

/** What {@link failureRule} reads of a `FailureClass` (its own shape: it needs nothing else of the class). */
export interface RuleSource {
  tool: string;
  subject: string;
  errorClass: string;
  fix?: { kind: string; change: string };
}

/**
 * The rule of a failure class whose fix changed something ("When `Bash` (git push) fails with "fatal:
 * The current branch <name> has no upstream branch.": add `--set-upstream`."), or undefined when
 * nothing changed (a retry, a fix whose input is unseen, no fix). Says what fails and what to do,
 * not when or how often it happened in this session: the lesson's evidence (the insight's `fact`)
 * keeps that. An error class that holds double quotes is quoted as code, so its quotes do not run
 * into the sentence's.
 *
 * @example
 * ```ts
 * failureRule(groupFailures(runs)[0]);
 * // 'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.'
 * ```
 */
export function failureRule(c: RuleSource): string | undefined {
  const fix = c?.fix;
  if (!fix || (fix.kind !== 'changed' && fix.kind !== 'other-tool') || !fix.change) return undefined;
  const cls = c.errorClass.replace(/\s+/g, ' ').trim();
  const subject = c.subject && c.subject !== c.tool ? `\`${c.tool}\` (${c.subject})` : `\`${c.tool}\``;
  const quoted = cls.includes('"') && !cls.includes('`') ? `\`${cls}\`` : `"${cls}"`;
  return `When ${subject} fails with ${quoted}: ${fix.change}.`;
}
