/**
 * `compactTrajectory`: a deterministic trajectory reducer that needs no model — for edge workers
 * with no budget, and as the fallback of {@link reduceTrajectory}. Only tool outputs (observation
 * and error) are rewritten; thoughts and actions are kept verbatim. Linear in the input.
 *
 * Rules, each leaving an explicit `[rearview: …]` marker where text was removed:
 * 1. an output identical to an earlier one becomes a pointer to that step;
 * 2. lines of a file view that a later view (or write) of the same file shows again are elided —
 *    lines that changed in between (what a patch touches) stay;
 * 3. runs of an identical line collapse to one;
 * 4. long outputs (not file views) keep their head and tail, every error line and every traceback;
 * 5. very long lines keep their start and end (error lines are never cut).
 * The last `keepRecent` steps are left untouched: the agent is still working on them.
 * This file is the driver (which rule applies to which step); rules 2, 3, 4, 5 are in compact-rules.ts.
 */
import { estimateTokens } from '../core/index.js';
import type { Step } from '../transcript/index.js';
import {
  type CompactionRule,
  collapseRepeats,
  cutLongLines,
  elideSuperseded,
  headTail,
  marker,
  type Stat,
  viewContent,
} from './compact-rules.js';
import { DIET_A } from './defaults.js';

/** What was done to a step's outputs. */
export interface CompactionMarker {
  rules: CompactionRule[];
  removedLines: number;
  removedChars: number;
}

/** A step after compaction; `compacted` is set on every step whose outputs changed. */
export type CompactedStep = Step & { compacted?: CompactionMarker };

/**
 * Options of {@link compactTrajectory}.
 *
 * @example
 * ```ts
 * compactTrajectory(steps, { maxLines: 60, keepRecent: 1 });
 * ```
 */
export interface CompactOptions {
  /** Outputs with more lines than this keep only head, tail and error lines. Default 40. */
  maxLines?: number;
  /** Lines kept at the start of a long output. Default 15. */
  headLines?: number;
  /** Lines kept at the end of a long output. Default 10. */
  tailLines?: number;
  /** Lines longer than this keep their first and last part. Default 1000 characters. */
  maxLineLength?: number;
  /** The last steps left untouched. Default 2 (AgentDiet's delay `a`). */
  keepRecent?: number;
  /** Outputs shorter than this are never replaced by a pointer to an identical one. Default 80. */
  minRepeatChars?: number;
  /** Also cut long file views to head and tail (off by default: views hold the code a patch touches). */
  cutFileViews?: boolean;
}

/**
 * Per-step and total figures of a compaction (tokens by `estimateTokens` over {@link renderStep}).
 *
 * @example
 * ```ts
 * const { diagnostics } = compactTrajectory(steps);
 * console.log(diagnostics.savedPercent);
 * ```
 */
export interface CompactDiagnostics {
  tokensBefore: number;
  tokensAfter: number;
  savedTokens: number;
  savedPercent: number;
  steps: { index: number; tokensBefore: number; tokensAfter: number; rules: CompactionRule[] }[];
}

/** Result of {@link compactTrajectory}. */
export interface CompactResult {
  steps: CompactedStep[];
  diagnostics: CompactDiagnostics;
}

/**
 * The text a step puts in the context: thought, action, observation, and the error when it differs
 * from the observation. Used for every token figure.
 *
 * @example
 * ```ts
 * estimateTokens(steps.map(renderStep).join('\n'));
 * ```
 */
export function renderStep(step: Step): string {
  const parts: string[] = [];
  if (step.thought) parts.push(step.thought);
  if (step.action) parts.push(step.action);
  if (step.observation) parts.push(step.observation);
  if (step.error && step.error !== step.observation) parts.push(step.error);
  return parts.join('\n');
}

const VIEW_CMD =
  /^\s*(?:cat(?:\s+-n)?|nl(?:\s+-\w+)*|head(?:\s+-n\s*\d+|\s+-\d+)?|tail(?:\s+-n\s*\+?\d+|\s+-\d+)?|sed\s+-n\s+(?:'[^']*'|"[^"]*"|\S+))\s+([^\s|;&<>]+)\s*(?:\|\s*(?:sed\s+-n\s+(?:'[^']*'|"[^"]*")|head(?:\s+-n)?\s*-?\d+|tail(?:\s+-n)?\s*[-+]?\d+)\s*)?$/;
const WRITE_HEAD = /^\s*cat\s+<<-?\s*['"]?(\w+)['"]?\s*>\s*([^\s|;&]+)/;
const SPACE = /\s/;

/**
 * `/^\s*cat\s+<<-?\s*['"]?(\w+)['"]?\s*>\s*([^\s|;&]+)\s*\n([\s\S]*?)\n\1\s*$/` without its
 * backtracking: the head matches one way only, the closing `\n` + tag + spaces can only be the end of
 * the text, and the content starts after the last line break of the spaces that follow the file name
 * and come before that closing line. The single regex read to the end of the text again for every line
 * break it gave back from that `\s*` (quadratic on a heredoc that starts with many blank lines).
 */
function heredocWrite(action: string): { path: string; content: string } | undefined {
  const head = WRITE_HEAD.exec(action);
  if (!head) return undefined;
  const tag = head[1]!;
  let end = action.length;
  while (end > 0 && SPACE.test(action[end - 1]!)) end--;
  const close = end - tag.length - 1;
  if (close < head[0].length || action[close] !== '\n' || !action.startsWith(tag, close + 1))
    return undefined;
  let from = -1;
  for (let i = head[0].length; i < close && SPACE.test(action[i]!); i++) if (action[i] === '\n') from = i + 1;
  return from < 0 ? undefined : { path: head[2]!, content: action.slice(from, close) };
}

/**
 * The file a step views (a single-line `cat`, `nl`, `sed -n`, `head` or `tail` command, or a `Read`
 * tool call), or undefined.
 *
 * @example
 * ```ts
 * viewedFile({ index: 0, action: 'cat -n src/app.ts', source }); // 'src/app.ts'
 * viewedFile({ index: 1, tool: 'Read', action: '{"file_path":"/repo/a.ts"}', source }); // '/repo/a.ts'
 * viewedFile({ index: 2, action: 'ls', source }); // undefined
 * ```
 */
export function viewedFile(step: Step): string | undefined {
  const action = step.action;
  if (!action) return undefined;
  if (step.tool === 'Read' || step.tool === 'read_file')
    return jsonField(action, 'file_path') ?? jsonField(action, 'path');
  if (action.indexOf('\n') >= 0) return undefined;
  const m = VIEW_CMD.exec(action);
  return m ? m[1]!.replace(/^['"]|['"]$/g, '') : undefined;
}

/** The file and content a step writes in full (Write, `cat <<EOF > file`), or undefined. */
function writtenFile(step: Step): { path: string; content: string } | undefined {
  const action = step.action;
  if (!action) return undefined;
  if (step.tool === 'Write') {
    const path = jsonField(action, 'file_path');
    const content = jsonField(action, 'content');
    return path !== undefined && content !== undefined ? { path, content } : undefined;
  }
  if (step.tool === 'Edit') {
    const path = jsonField(action, 'file_path');
    const content = jsonField(action, 'new_string');
    return path !== undefined && content !== undefined ? { path, content } : undefined;
  }
  if (!action.includes('<<')) return undefined;
  const w = heredocWrite(action);
  return w ? { path: w.path.replace(/^['"]|['"]$/g, ''), content: w.content } : undefined;
}

/** A JSON string field of a tool call's input (an action that starts with `{`), or undefined. */
export function jsonField(json: string | undefined, field: string): string | undefined {
  if (json?.charCodeAt(0) !== 0x7b) return undefined;
  try {
    const v = (JSON.parse(json) as Record<string, unknown>)[field];
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

const CODE_LINE =
  /^(?:\s*\d+(?:\t|→)|\s{2,}\S|\t|\s*(?:def |class |import |from \S+ import|return\b|if |elif |else\b|for |while |try:|except\b|with |@\w|#|\/\/|\/\*|\*|[{}()\]]|const |let |var |function |export |async |public |private |fn |pub |use |package |func |<\/?\w))/;

/**
 * True when most non-empty lines of an output look like source code (a file view whose command was
 * not recognised): such outputs are never cut to head and tail, since a patch may touch any line.
 */
export function looksLikeCode(text: string | undefined): boolean {
  if (!text) return false;
  let code = 0;
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    total++;
    if (CODE_LINE.test(line)) code++;
  }
  return total >= 10 && code >= total * 0.7;
}

/**
 * Compacts a trajectory without a model. Pure and deterministic.
 *
 * @example
 * ```ts
 * const { steps: compacted, diagnostics } = compactTrajectory(parseTrajectory(text).steps);
 * diagnostics.savedPercent; // e.g. 41.2
 * ```
 */
export function compactTrajectory(steps: readonly Step[], options: CompactOptions = {}): CompactResult {
  const maxLines = options.maxLines ?? 40;
  const head = options.headLines ?? 15;
  const tail = options.tailLines ?? 10;
  const maxLineLength = options.maxLineLength ?? 1000;
  const keepRecent = options.keepRecent ?? DIET_A;
  const minRepeat = options.minRepeatChars ?? 80;
  const cutViews = options.cutFileViews ?? false;
  const n = steps.length;
  const frozenFrom = Math.max(0, n - keepRecent);

  // Rule 2 needs the future: walk backwards with a map from each line of code to the nearest later
  // step that shows it (a file view, a code-like output, or the content a step writes), and elide the
  // runs of an earlier view that reappear. Lines that changed in between have no later copy: they stay.
  // Outputs that rule 1 will replace by a pointer to an earlier copy must not supersede that copy.
  const repeatOf: (number | undefined)[] = new Array(n);
  const firstSeen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = steps[i]!.observation?.trim();
    if (!key || key.length < minRepeat) continue;
    const at = firstSeen.get(key);
    if (at === undefined) firstSeen.set(key, i);
    else if (i < frozenFrom) repeatOf[i] = at;
  }
  const superseded: (string[] | undefined)[] = new Array(n);
  const later = new Map<string, number>();
  const rules2: (Set<CompactionRule> | undefined)[] = new Array(n);
  const stats2: (Stat | undefined)[] = new Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const s = steps[i]!;
    const written = writtenFile(s);
    if (written)
      for (const line of written.content.split('\n')) if (line.trim()) later.set(line.trimEnd(), i);
    const obs = s.observation;
    if (
      !obs ||
      repeatOf[i] !== undefined ||
      !(viewedFile(s) !== undefined || written !== undefined || looksLikeCode(obs))
    )
      continue;
    const lines = obs.split('\n');
    if (i < frozenFrom) {
      const r = new Set<CompactionRule>();
      const st: Stat = { lines: 0, chars: 0 };
      const kept = elideSuperseded(lines, later, steps, i, r, st);
      if (r.size) {
        superseded[i] = kept;
        rules2[i] = r;
        stats2[i] = st;
      }
    }
    for (const line of lines) {
      const c = viewContent(line);
      if (c.trim()) later.set(c, i);
    }
  }

  const out: CompactedStep[] = [];
  const seen = new Map<string, number>();
  const perStep: CompactDiagnostics['steps'] = [];
  let tokensBefore = 0;
  let tokensAfter = 0;
  for (let i = 0; i < n; i++) {
    const s = steps[i]!;
    const before = estimateTokens(renderStep(s));
    tokensBefore += before;
    if (i >= frozenFrom) {
      out.push({ ...s });
      tokensAfter += before;
      perStep.push({ index: s.index, tokensBefore: before, tokensAfter: before, rules: [] });
      rememberOutput(seen, s.observation, i, minRepeat);
      continue;
    }
    const rules = new Set<CompactionRule>();
    const stat: Stat = { lines: 0, chars: 0 };
    const isView =
      viewedFile(s) !== undefined || writtenFile(s) !== undefined || looksLikeCode(s.observation);
    const compactOutput = (text: string | undefined): string | undefined => {
      if (text === undefined || text === '') return text;
      const key = text.trim();
      const earlier = key.length >= minRepeat ? seen.get(key) : undefined;
      if (earlier !== undefined) {
        rules.add('repeat');
        stat.lines += text.split('\n').length;
        stat.chars += text.length;
        return marker(`same output as step ${steps[earlier]!.index}`);
      }
      let lines: string[];
      if (text === s.observation && superseded[i]) {
        lines = superseded[i]!;
        for (const r of rules2[i]!) rules.add(r);
        stat.lines += stats2[i]!.lines;
        stat.chars += stats2[i]!.chars;
      } else lines = text.split('\n');
      lines = collapseRepeats(lines, rules, stat);
      if (lines.length > maxLines && (!isView || cutViews)) lines = headTail(lines, head, tail, rules, stat);
      lines = cutLongLines(lines, maxLineLength, rules, stat);
      return lines.join('\n');
    };
    const observation = compactOutput(s.observation);
    const error =
      s.error === undefined ? undefined : s.error === s.observation ? observation : compactOutput(s.error);
    rememberOutput(seen, s.observation, i, minRepeat);
    const step: CompactedStep = { ...s };
    if (observation !== undefined) step.observation = observation;
    if (error !== undefined) step.error = error;
    if (rules.size)
      step.compacted = { rules: [...rules], removedLines: stat.lines, removedChars: stat.chars };
    const after = rules.size ? estimateTokens(renderStep(step)) : before;
    tokensAfter += after;
    perStep.push({ index: s.index, tokensBefore: before, tokensAfter: after, rules: [...rules] });
    out.push(step);
  }
  const savedTokens = tokensBefore - tokensAfter;
  return {
    steps: out,
    diagnostics: {
      tokensBefore,
      tokensAfter,
      savedTokens,
      savedPercent: tokensBefore ? Math.round((savedTokens / tokensBefore) * 1000) / 10 : 0,
      steps: perStep,
    },
  };
}

function rememberOutput(seen: Map<string, number>, text: string | undefined, i: number, min: number): void {
  if (!text) return;
  const key = text.trim();
  if (key.length >= min && !seen.has(key)) seen.set(key, i);
}
