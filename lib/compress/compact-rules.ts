/**
 * The line rules of {@link compactTrajectory} (compact.ts): what each does to one output's lines, and
 * the counts it adds to the step's marker. The driver decides which rules apply to which step.
 */
import type { Step } from '../transcript/index.js';

/** The rule that removed text. */
export type CompactionRule =
  | 'repeat'
  | 'superseded'
  | 'repeated_lines'
  | 'truncated'
  | 'long_lines'
  | 'reflection';

// `\w(?:Error|…):` and not `\w+(?:Error|…):`: a test finds one as soon as the other, and `\w+` read
// the whole run of word characters again from each of its characters (quadratic on a long word).
const ERROR_LINE =
  /\b(?:error|errors|exception|traceback|failed|failure|failures|fatal|panic|segmentation fault|abort(?:ed)?|denied|not found|no such file|cannot|unable to)\b|\bE\s{3}|^FAIL|^ERROR|\w(?:Error|Exception|Warning):/i;

/**
 * True for a line that reports an error: error words, `SomethingError:`, pytest's `E   ` lines.
 *
 * @example
 * ```ts
 * isErrorLine('ValueError: bad input'); // true
 * ```
 */
export function isErrorLine(line: string): boolean {
  return ERROR_LINE.test(line);
}

/** A view line without its line-number prefix (`  12→`, `    12\t`), trailing space trimmed. */
export function viewContent(line: string): string {
  return line.replace(/^\s*\d+(?:→|\t)/, '').trimEnd();
}

/** The text of a compaction marker: `[rearview: …]`. */
export const marker = (text: string) => `[rearview: ${text}]`;

/** Lines and characters a rule removed from one step's outputs. */
export type Stat = { lines: number; chars: number };

/** Rule 2: runs of 3+ lines that a later step shows again (or that this step writes) become one marker. */
export function elideSuperseded(
  lines: string[],
  later: Map<string, number>,
  steps: readonly Step[],
  self: number,
  rules: Set<CompactionRule>,
  stat: Stat,
): string[] {
  const out: string[] = [];
  let run: string[] = [];
  let runStep = -1;
  const flush = () => {
    if (run.length >= 3) {
      rules.add('superseded');
      stat.lines += run.length;
      for (const l of run) stat.chars += l.length + 1;
      out.push(
        marker(
          runStep === self
            ? `${run.length} lines of the content this step writes`
            : `${run.length} lines shown again in step ${steps[runStep]!.index}`,
        ),
      );
    } else out.push(...run);
    run = [];
    runStep = -1;
  };
  for (const line of lines) {
    const c = viewContent(line);
    const at = c.trim().length > 0 ? later.get(c) : run.length > 0 ? runStep : undefined;
    if (at !== undefined) {
      if (runStep < 0) runStep = at;
      run.push(line);
    } else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

/** Rule 3: a non-blank line repeated 3+ times in a row is kept once, with a count. */
export function collapseRepeats(lines: string[], rules: Set<CompactionRule>, stat: Stat): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    while (j < lines.length && lines[j] === lines[i]) j++;
    out.push(lines[i]!);
    const extra = j - i - 1;
    if (extra >= 2 && lines[i]!.trim() !== '') {
      rules.add('repeated_lines');
      stat.lines += extra;
      stat.chars += extra * (lines[i]!.length + 1);
      out.push(marker(`previous line repeated ${extra} more times`));
    } else for (let k = i + 1; k < j; k++) out.push(lines[k]!);
    i = j;
  }
  return out;
}

/** Head, tail, every error line and every traceback block; one marker per removed run. */
export function headTail(
  lines: string[],
  head: number,
  tail: number,
  rules: Set<CompactionRule>,
  stat: Stat,
): string[] {
  const keep = new Uint8Array(lines.length);
  for (let i = 0; i < Math.min(head, lines.length); i++) keep[i] = 1;
  for (let i = Math.max(0, lines.length - tail); i < lines.length; i++) keep[i] = 1;
  const errorsSeen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('Traceback (most recent call last)')) {
      // The block runs to the first unindented line after it: the exception itself.
      let j = i;
      keep[j++] = 1;
      while (j < lines.length && /^\s/.test(lines[j]!)) keep[j++] = 1;
      if (j < lines.length) keep[j] = 1;
      i = j;
      continue;
    }
    if (isErrorLine(line) && !errorsSeen.has(line)) {
      errorsSeen.add(line);
      keep[i] = 1;
    }
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (keep[i]) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    let chars = 0;
    while (j < lines.length && !keep[j]) chars += lines[j++]!.length + 1;
    if (j - i === 1) {
      out.push(lines[i]!);
    } else {
      rules.add('truncated');
      stat.lines += j - i;
      stat.chars += chars;
      out.push(marker(`${j - i} lines removed`));
    }
    i = j;
  }
  return out;
}

/** Rule 5: lines longer than `max` keep 70% head and 20% tail; error lines are never cut. */
export function cutLongLines(lines: string[], max: number, rules: Set<CompactionRule>, stat: Stat): string[] {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length <= max || isErrorLine(line)) continue;
    const keepHead = Math.floor(max * 0.7);
    const keepTail = Math.floor(max * 0.2);
    const removed = line.length - keepHead - keepTail;
    rules.add('long_lines');
    stat.chars += removed;
    lines[i] =
      `${line.slice(0, keepHead)} ${marker(`${removed} characters removed`)} ${line.slice(line.length - keepTail)}`;
  }
  return lines;
}
