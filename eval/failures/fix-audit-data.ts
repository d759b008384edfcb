/**
 * The failure classes rearview credits with a fix, over every shared session and run, each with the
 * context a reader needs to judge the fix without seeing rearview's words: the failed call and its
 * error, the calls in between (tool, input, whether they failed, the start of their output), and the
 * call rearview pairs with the failure, with the start of its output. Read by `fix-audit.ts`.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { contentText, fnv1a32 } from '../../lib/core/index';
import { type CallRun, type FailureClass, groupFailures, stepsFromMessages } from '../../lib/failures/index';
import { agentRunFormat, parseTrajectory, parseTranscript } from '../../lib/transcript/index';
import { sessionFiles } from '../../tools/shared/data';

export const DATA = resolve(import.meta.dirname, '../../../shared/data');

/** One call of the window a reader sees. */
export interface AuditCall {
  step: number;
  tool: string;
  input: string;
  failed: boolean;
  output: string;
}

/** One credited fix: the class, rearview's claim, and what a reader sees. */
export interface AuditCase {
  id: string;
  file: string;
  author: string;
  tool: string;
  errorClass: string;
  kind: 'changed' | 'other-tool';
  change: string;
  parts: string[];
  /** File edits that worked between the two calls (`FailureFix.edits`), 0 for none. */
  edits: number;
  failed: AuditCall;
  between: AuditCall[];
  skipped: number;
  fixed: AuditCall;
}

const cut = (s: string, n: number): string =>
  s.length > n ? `${s.slice(0, n)} […${s.length - n} more characters]` : s;

/** The runs of one file as the lessons pipeline reads them, with every call's output by step. */
function runsOf(text: string): { runs: CallRun[]; outputs: Map<string, string[]> } {
  const outputs = new Map<string, string[]>();
  if (agentRunFormat(text)) {
    const t = parseTrajectory(text, { lenient: true });
    outputs.set(
      t.id,
      t.steps.map((s) => s.error ?? s.observation ?? ''),
    );
    return { runs: [t], outputs };
  }
  const { messages, meta } = parseTranscript(text, { lenient: true });
  const run = stepsFromMessages(messages, 'conversation', meta?.cwd);
  // stepsFromMessages keeps errors only: the outputs of calls that worked come from their result messages.
  const byRef = new Map<string, string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') byRef.set(m.id ?? `m${i}`, contentText(m.content) ?? '');
  });
  const out: string[] = [];
  for (const s of run.steps) out[s.index ?? 0] = s.error ?? byRef.get(s.ref ?? '') ?? '';
  outputs.set(run.id, out);
  return { runs: [run], outputs };
}

function call(run: CallRun, outputs: string[] | undefined, step: number): AuditCall {
  const s = run.steps.find((x) => (x.index ?? 0) + 1 === step);
  return {
    step,
    tool: s?.tool ?? '?',
    input: cut(s?.action ?? '', 700),
    failed: s?.error !== undefined,
    output: cut(outputs?.[step - 1] ?? '', 500),
  };
}

/**
 * Every credited fix (another argument or another tool) over the session files of `root` (the shared
 * data unless told), in file order; `files` (absolute paths) replaces the shared data's walk.
 */
export function auditCases(root = DATA, files: readonly string[] = sessionFiles(root)): AuditCase[] {
  const cases: AuditCase[] = [];
  for (const path of files) {
    let parsed: ReturnType<typeof runsOf>;
    try {
      parsed = runsOf(readFileSync(path, 'utf8'));
    } catch {
      continue;
    }
    const file = relative(root, path);
    const parts = file.split('/');
    const author = parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
    for (const c of groupFailures(parsed.runs) as FailureClass[]) {
      const fix = c.fix;
      if (!fix || (fix.kind !== 'changed' && fix.kind !== 'other-tool')) continue;
      const run = parsed.runs.find((r) => r.id === fix.run)!;
      const outs = parsed.outputs.get(run.id);
      const failedStep = fix.failedStep ?? c.occurrences[0]!.step;
      const between: AuditCall[] = [];
      for (let k = failedStep + 1; k < fix.step; k++) between.push(call(run, outs, k));
      // A long gap keeps its two ends: what came right after the failure and right before the fix.
      const keep = 24;
      const skipped = Math.max(0, between.length - keep);
      const shown = skipped ? [...between.slice(0, keep / 2), ...between.slice(-keep / 2)] : between;
      cases.push({
        id: `fx-${fnv1a32(`${file}#${c.tool}#${c.errorClass}`).toString(36)}`,
        file,
        author,
        tool: c.tool,
        errorClass: c.errorClass,
        kind: fix.kind,
        change: fix.change,
        parts: fix.parts.map((p) => p.kind),
        edits: fix.edits ?? 0,
        failed: call(run, outs, failedStep),
        between: shown.map((b) => ({ ...b, input: cut(b.input, 200), output: cut(b.output, 160) })),
        skipped,
        fixed: call(run, outs, fix.step),
      });
    }
  }
  return cases;
}
