/**
 * The outputs of `learn`: a markdown section to paste into AGENTS.md, a unified diff against the
 * existing file, and JSON with the evidence. Pure: nothing here writes a file.
 */
import type { LearnedRule, LearnResult, RuleKind } from './types.js';

/**
 * The heading of the section `toMarkdown` writes; `toUnifiedDiff` adds to a section with this heading
 * when the file has one.
 *
 * @example
 * ```ts
 * agentsMd.includes(LEARNED_HEADING); // true once a learned section was pasted
 * ```
 */
export const LEARNED_HEADING = '## Learned from sessions';

const TITLES: Record<RuleKind, string> = {
  rule: '### Corrections',
  preference: '### Preferences',
  failure: '### Tool failures and the fix that worked',
};
const ORDER: RuleKind[] = ['rule', 'preference', 'failure'];

function day(iso: string | undefined): string {
  return iso ? iso.slice(0, 10) : '';
}

/**
 * One rule as a markdown list item, with its evidence in a short note: `- Use pnpm. _(3 sessions,
 * 2025-01-02 – 2025-03-04)_`.
 *
 * @example
 * ```ts
 * ruleLine({ id: 'r1', kind: 'rule', text: 'Use pnpm.', sessions: 2, count: 2, score: 2, evidence: [] });
 * // '- Use pnpm. _(2 sessions)_'
 * ```
 */
export function ruleLine(rule: LearnedRule): string {
  const first = day(rule.firstDate);
  const last = day(rule.lastDate);
  const dates = first && last ? (first === last ? `, ${first}` : `, ${first} – ${last}`) : '';
  const n = rule.sessions === 1 ? '1 session' : `${rule.sessions} sessions`;
  return `- ${rule.text.replace(/\s+/g, ' ')} _(${n}${dates})_`;
}

/** The section's lines for `rules`, without its heading. */
function body(rules: readonly LearnedRule[]): string[] {
  const lines: string[] = [];
  for (const kind of ORDER) {
    const of = rules.filter((r) => r.kind === kind);
    if (!of.length) continue;
    lines.push('', TITLES[kind], '', ...of.map(ruleLine));
  }
  return lines;
}

/**
 * The proposed rules as a markdown section ready to paste into AGENTS.md or CLAUDE.md: a heading, then
 * corrections, preferences and tool failures, each rule with its sessions and dates. An empty string
 * when there is nothing to propose.
 *
 * @example
 * ```ts
 * const md = toMarkdown(await learn(sources));
 * // '## Learned from sessions\n\n### Corrections\n\n- Use pnpm instead of npm. _(3 sessions, …)_\n'
 * ```
 */
export function toMarkdown(result: Pick<LearnResult, 'rules'>): string {
  const rules = Array.isArray(result?.rules) ? result.rules : [];
  if (!rules.length) return '';
  return `${[LEARNED_HEADING, ...body(rules)].join('\n')}\n`;
}

/** The file with the rules added: into an existing learned section (under its sub-headings), else as a new section at the end. */
function withRules(existing: string, result: Pick<LearnResult, 'rules'>): string {
  const section = toMarkdown(result);
  if (!section) return existing;
  const lines = existing.split('\n');
  const at = lines.findIndex((l) => l.trimEnd() === LEARNED_HEADING);
  if (at >= 0) {
    let end = lines.length;
    for (let i = at + 1; i < lines.length; i++) {
      if (/^#{1,2}\s/.test(lines[i]!)) {
        end = i;
        break;
      }
    }
    // Each kind's rules go to the end of its sub-heading when the section has it, else to a new
    // sub-heading at the section's end; the blank lines that close a part stay after the added rules.
    const inserts: { at: number; lines: string[] }[] = [];
    const fresh: LearnedRule[] = [];
    for (const kind of ORDER) {
      const of = result.rules.filter((r) => r.kind === kind);
      if (!of.length) continue;
      const head = lines.findIndex((l, i) => i > at && i < end && l.trimEnd() === TITLES[kind]);
      if (head < 0) {
        fresh.push(...of);
        continue;
      }
      let stop = end;
      for (let i = head + 1; i < end; i++) {
        if (/^#{1,3}\s/.test(lines[i]!)) {
          stop = i;
          break;
        }
      }
      while (stop > head + 1 && lines[stop - 1] === '') stop--;
      inserts.push({ at: stop, lines: of.map(ruleLine) });
    }
    let close = end;
    while (close > at + 1 && lines[close - 1] === '') close--;
    if (fresh.length) inserts.push({ at: close, lines: body(fresh) });
    const out = lines.slice();
    // From the bottom up, so that earlier positions stay valid; at one position the later insert goes
    // in first, so that it ends up after the earlier one.
    const order = inserts.map((ins, i) => ({ ...ins, i })).sort((a, b) => b.at - a.at || b.i - a.i);
    for (const ins of order) out.splice(ins.at, 0, ...ins.lines);
    return out.join('\n');
  }
  if (!existing) return section;
  return `${existing}${existing.endsWith('\n') ? '' : '\n'}\n${section}`;
}

/** Lines with their terminators: a last line without one stays distinct from the same line with one. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
    out.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

function emit(prefix: string, line: string, out: string[]): void {
  if (line.endsWith('\n')) out.push(`${prefix}${line.slice(0, -1)}`);
  else out.push(`${prefix}${line}`, '\\ No newline at end of file');
}

function range(start: number, length: number): string {
  // As diff -u writes them: an empty range names the line before it (`-0,0` for an empty file), a
  // range of one line leaves its length out.
  if (length === 1) return `${start + 1}`;
  return `${length === 0 ? start : start + 1},${length}`;
}

/**
 * A unified diff (`diff -u` style, 3 lines of context) that adds the proposed rules to
 * `existingText`: into its learned section when it has one (each rule at the end of its kind's
 * sub-heading, or under a new sub-heading), else as a new section at the end. The
 * change is one hunk: common leading and trailing lines are context, everything between is replaced
 * (linear in the file's length). An empty string when no rule is proposed. Apply it with
 * `patch -p1` or `git apply`.
 *
 * @example
 * ```ts
 * const diff = toUnifiedDiff(result, await readFile('AGENTS.md', 'utf8'), 'AGENTS.md');
 * // '--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -10,3 +10,9 @@\n …'
 * ```
 */
export function toUnifiedDiff(
  result: Pick<LearnResult, 'rules'>,
  existingText: string,
  fileName = 'AGENTS.md',
): string {
  const before = typeof existingText === 'string' ? existingText : '';
  const after = withRules(before, result);
  if (after === before) return '';
  const a = tokens(before);
  const b = tokens(after);
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const CONTEXT = 3;
  const start = Math.max(0, p - CONTEXT);
  const aEnd = Math.min(a.length, a.length - s + CONTEXT);
  const bEnd = Math.min(b.length, b.length - s + CONTEXT);
  const out = [
    `--- a/${fileName}`,
    `+++ b/${fileName}`,
    `@@ -${range(start, aEnd - start)} +${range(start, bEnd - start)} @@`,
  ];
  for (let i = start; i < p; i++) emit(' ', a[i]!, out);
  for (let i = p; i < a.length - s; i++) emit('-', a[i]!, out);
  for (let i = p; i < b.length - s; i++) emit('+', b[i]!, out);
  for (let i = a.length - s; i < aEnd; i++) emit(' ', a[i]!, out);
  return `${out.join('\n')}\n`;
}

/**
 * The result as JSON (two-space indent): every rule with its evidence turns and dates, the one-offs,
 * what the file already says, the contradictions, the skipped sources and the figures.
 *
 * @example
 * ```ts
 * JSON.parse(toJson(result)).rules[0].evidence[0]; // { session: 'a.jsonl', message: 'u3', line: 12, date: '…', quote: '…' }
 * ```
 */
export function toJson(result: LearnResult): string {
  return JSON.stringify(result, null, 2);
}
