/**
 * The summary `rearview learn` prints on stderr (cli/learn.ts): figures, the sessions in other
 * languages, what the model pass cost, contradictions, what the file already says, skipped files.
 */
import type * as Learn from 'rearview/learn';

/**
 * A token count as people read it.
 * @example
 * ```ts
 * tokens(12345); // '12,345'
 * ```
 */
export const tokens = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the model pass cost and did, for the summary; undefined when none was asked for. */
function modelLine(cost: Learn.LlmCost | undefined, limit: number): string | undefined {
  if (!cost) return undefined;
  const estimate = `about ${tokens(cost.estimatedInputTokens)} input and at most ${tokens(cost.maxOutputTokens)} output tokens`;
  if (cost.skipped === 'declined')
    return `  model: not called: ${estimate} is over --llm-max-tokens ${tokens(limit)}`;
  if (cost.skipped) return `  model: ${cost.skipped} (estimated ${estimate}); the rules are as read`;
  return (
    `  model: ${tokens(cost.inputTokens ?? 0)} input + ${tokens(cost.outputTokens ?? 0)} output tokens reported (estimated ${estimate}); ` +
    `${plural(cost.rewritten ?? 0, 'rule')} rewritten, ${cost.dropped ?? 0} dropped, ${plural(cost.refused ?? 0, 'rewrite')} refused by the rule judge`
  );
}

/** What the note on sessions in other languages tells (rearview/language reads which ones). */
const LANGUAGES_NOTE =
  'rules are written from English sentences only, so they give few; `rearview reflect <file>` lists their corrections (it reads these languages)';

/** Skipped files named one by one in the summary; past that, counted by reason. */
const SKIPPED_SHOWN = 5;

/**
 * The summary for stderr: figures, skipped files, contradictions, what the file already says, one-offs.
 * @example
 * ```ts
 * io.stderr.write(summary(await learn(sources), 'AGENTS.md', 200_000));
 * ```
 */
export function summary(r: Learn.LearnResult, against: string, llmMaxTokens: number): string {
  const lines = [
    `learn: ${r.stats.files} files, ${r.stats.sessions} sessions, ${r.stats.humanTurns} human turns → ${r.rules.length} rule${r.rules.length === 1 ? '' : 's'} (evidence from ≥ ${r.minSessions} sessions), ${r.stats.tokens} tokens${r.aborted ? ' (stopped early)' : ''}`,
  ];
  const o = r.otherLanguages;
  const languages = o && `${o.sessions} of ${o.of} sessions read as ${o.names} (${plural(o.turns, 'turn')})`;
  if (languages) lines.push(`  note: ${languages}: ${LANGUAGES_NOTE}`);
  if (r.overBudget.length)
    lines.push(`  ${r.overBudget.length} more rules did not fit the budget of ${r.budget} tokens`);
  if (r.oneOffCount) {
    lines.push(`  ${r.oneOffCount} candidates seen in fewer sessions, the first ones:`);
    for (const o of r.oneOffs.slice(0, 5))
      lines.push(`    - ${o.text} (${o.sessions} session${o.sessions === 1 ? '' : 's'})`);
  }
  for (const c of r.contradictions) {
    const when = c.lastDate ? ` (last on ${c.lastDate.slice(0, 10)})` : '';
    lines.push(
      `  ${against}:${c.line} is contradicted by ${c.sessions} sessions${when}: "${c.text}" vs "${c.rule}"`,
    );
  }
  for (const a of r.alreadyThere) {
    const when = a.lastDate ? `, last on ${a.lastDate.slice(0, 10)}` : '';
    lines.push(
      `  ${against}:${a.line.line} already says: ${a.rule} (said again in ${a.sessions} session${a.sessions === 1 ? '' : 's'}${when})`,
    );
  }
  const model = modelLine(r.llm, llmMaxTokens);
  if (model) lines.push(model);
  if (r.stats.repairedWords)
    lines.push(
      `  spelling: ${plural(r.stats.repairedWords, 'typo')} repaired in candidate rules (--no-spelling keeps them)`,
    );
  const filtered = Object.entries(r.filtered);
  if (filtered.length) lines.push(`  left out: ${filtered.map(([k, n]) => `${n} ${k}`).join(', ')}`);
  // A folder holds READMEs and licences too: past a few, the skipped files are counted by reason and
  // the first ones named (`--json` lists every one).
  if (r.skipped.length > SKIPPED_SHOWN) {
    const byCode = new Map<string, number>();
    for (const s of r.skipped) byCode.set(s.code, (byCode.get(s.code) ?? 0) + 1);
    const counts = [...byCode].map(([code, n]) => `${n} ${code}`).join(', ');
    lines.push(`  ${r.skipped.length} files skipped (${counts}; --json lists them all), the first ones:`);
  }
  for (const s of r.skipped.slice(0, SKIPPED_SHOWN)) {
    const at = s.line === undefined ? '' : `:${s.line}${s.column === undefined ? '' : `:${s.column}`}`;
    lines.push(`  skipped ${s.name}${at}: ${s.reason} [${s.code}]`);
  }
  return `${lines.join('\n')}\n`;
}
