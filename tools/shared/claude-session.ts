/**
 * A small Claude Code session log (JSONL) that records the folder it ran in, for tests of what the
 * folder changes (`TranscriptMeta.cwd`, `SnapshotInput.root`): the unit, CLI, conformance and
 * end-to-end suites build theirs here. Turns alternate person / agent, the person first.
 */

/**
 * The JSONL of a Claude Code session run in `cwd` whose turns alternate a person's and the agent's,
 * each event carrying `cwd` as Claude Code writes it.
 *
 * @example
 * ```ts
 * claudeSession('/Users/ana/shop', ['Fix the total', 'It is in /Users/ana/shop/src/total.ts.']);
 * ```
 */
export function claudeSession(cwd: string, turns: readonly string[]): string {
  return turns
    .map((content, i) => {
      const role = i % 2 === 0 ? 'user' : 'assistant';
      return JSON.stringify({ type: role, uuid: `${role[0]}${i}`, cwd, message: { role, content } });
    })
    .join('\n');
}
