/**
 * `npm run eval:lessons`: what the lesson pipeline (`lessons` of rearview/session, the one the CLI,
 * the playground, the session facade and the examples share) writes into a playbook, on every shared
 * file of the nine formats (Claude Code JSONL and console, Codex CLI, aider, SpecStory, Cline,
 * Antigravity, Gemini CLI, SWE-agent, mini-swe-agent, ShareGPT), people's turns read as the CLI reads
 * them by default (the reader at its lower thresholds; `--markers`: the phrase markers alone):
 *
 * - key points per session (file), distinct error classes, the fraction of failure classes with a fix
 *   found (another argument or tool that worked later);
 * - template-only lessons: key points that are a template with no content of the turn — must be 0;
 * - near-duplicate pairs left in a session's playbook (`findDuplicates` on the playbook the session
 *   writes) — must be 0;
 * - 20 lessons sampled with a fixed seed, printed for reading.
 *
 * Exits 1 when a must-be-0 count is not 0. `--json` prints the report as JSON. Reads ../shared/data;
 * skips with a message when it is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { READER_RECALL_MIN_SCORE, readerModel } from '../lib/heuristic-model/index';
import { applyDelta, type DeltaOperation, emptyPlaybook, findDuplicates } from '../lib/playbook/index';
import { type LessonsInput, lessons, type ProposedKeyPoint } from '../lib/session/index';
import { agentRunFormat, parseTrajectory, parseTranscript } from '../lib/transcript/index';
import { sessionFiles } from '../tools/shared/data';
import { mulberry32 as random } from '../tools/shared/random';

const DATA = resolve(import.meta.dirname, '../../shared/data');
const SAMPLE = 20;
const SEED = 17;

/** Texts the old policy and heuristics produced with nothing of the turn in them. */
const TEMPLATES = [
  /^apply the user['’]s correction\.?$/i,
  /^continue this approach\.?$/i,
  /^automate or remember this/i,
  /^inspect (?:the )?raw (?:trace|output)/i,
  /^the user corrected this:?\s*"?\s*"?$/i,
  /^user preference:?\s*"?\s*"?$/i,
];

/** True for a key point that is template text: a known template, or nothing but filler words. */
export function isTemplateOnly(text: string): boolean {
  const t = text.trim();
  if (TEMPLATES.some((re) => re.test(t))) return true;
  const words = t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length < 2;
}

interface FileReport {
  file: string;
  kind: string;
  keyPoints: number;
  errorClasses: number;
  fixed: number;
  templateOnly: number;
  nearDuplicatePairs: number;
  proposals: ProposedKeyPoint[];
}

/** What `rearview reflect` reads people's turns with by default; `--markers` for the phrase markers. */
const OPTIONS = process.argv.includes('--markers')
  ? {}
  : { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE };

/** The input as every front end reads it: messages, plus the run for SWE-agent and mini-swe-agent. */
export function lessonsInput(text: string): { input: LessonsInput; kind: string } {
  const trajFormat = agentRunFormat(text);
  if (trajFormat) {
    const trajectory = parseTrajectory(text, { lenient: true });
    let messages: LessonsInput['messages'] = [];
    try {
      messages = parseTranscript(text, { lenient: true }).messages;
    } catch {
      messages = [];
    }
    return { input: { messages, trajectories: [trajectory] }, kind: trajFormat };
  }
  const transcript = parseTranscript(text, { lenient: true });
  return { input: { messages: transcript.messages }, kind: transcript.format };
}

function nearDuplicatePairs(proposals: readonly ProposedKeyPoint[]): number {
  const ops: DeltaOperation[] = proposals.map((p) => ({ type: 'ADD', section: p.section, text: p.text }));
  const { playbook } = applyDelta(emptyPlaybook(), ops, { now: () => '2025-01-01T00:00:00.000Z' });
  return findDuplicates(playbook).reduce((n, g) => n + g.names.length - 1, 0);
}

function analyse(path: string): FileReport {
  const text = readFileSync(path, 'utf8');
  const { input, kind } = lessonsInput(text);
  const out = lessons(input, OPTIONS);
  const failures = out.insights.filter((i) => i.tags.includes('tool_failure'));
  return {
    file: relative(DATA, path),
    kind,
    keyPoints: out.proposed.length,
    errorClasses: failures.length,
    fixed: failures.filter((i) => i.tags.includes('fix_found')).length,
    templateOnly: out.proposed.filter((p) => isTemplateOnly(p.text)).length,
    nearDuplicatePairs: nearDuplicatePairs(out.proposed),
    proposals: out.proposed,
  };
}

function main(): number {
  if (!existsSync(DATA)) {
    console.log(`eval:lessons skipped: ${DATA} is absent`);
    return 0;
  }
  const reports: FileReport[] = [];
  for (const path of sessionFiles(DATA)) {
    try {
      reports.push(analyse(path));
    } catch (err) {
      console.log(`${relative(DATA, path)}: not read (${(err as Error).message.slice(0, 120)})`);
    }
  }
  const sum = (k: keyof FileReport) => reports.reduce((n, r) => n + (r[k] as number), 0);
  const classes = sum('errorClasses');
  const totals = {
    files: reports.length,
    keyPoints: sum('keyPoints'),
    keyPointsPerSession: Number((sum('keyPoints') / Math.max(1, reports.length)).toFixed(2)),
    errorClasses: classes,
    fixFoundFraction: Number((sum('fixed') / Math.max(1, classes)).toFixed(3)),
    templateOnly: sum('templateOnly'),
    nearDuplicatePairs: sum('nearDuplicatePairs'),
  };
  const all = reports.flatMap((r) => r.proposals.map((p) => ({ file: r.file, p })));
  const rnd = random(SEED);
  const pool = all.slice();
  const sample: typeof all = [];
  while (sample.length < SAMPLE && pool.length)
    sample.push(pool.splice(Math.floor(rnd() * pool.length), 1)[0]!);

  if (process.argv.includes('--json')) {
    const files = reports.map(({ proposals: _, ...r }) => r);
    console.log(JSON.stringify({ totals, files, sample }, null, 2));
  } else {
    console.log('file | kind | key points | error classes | with fix | template-only | near-dup pairs');
    for (const r of reports) {
      console.log(
        `${r.file} | ${r.kind} | ${r.keyPoints} | ${r.errorClasses} | ${r.fixed} | ${r.templateOnly} | ${r.nearDuplicatePairs}`,
      );
    }
    console.log('');
    console.log(`files: ${totals.files}`);
    console.log(`key points: ${totals.keyPoints} (${totals.keyPointsPerSession} per session)`);
    console.log(
      `distinct error classes: ${classes}, with a fix found: ${sum('fixed')} (${totals.fixFoundFraction})`,
    );
    console.log(`template-only lessons: ${totals.templateOnly} (must be 0)`);
    console.log(
      `near-duplicate pairs left in a session's playbook: ${totals.nearDuplicatePairs} (must be 0)`,
    );
    console.log('');
    console.log(`${SAMPLE} lessons sampled (seed ${SEED}):`);
    sample.forEach(({ file, p }, i) => {
      console.log(`${i + 1}. [${p.section}] ${p.text}`);
      console.log(
        `   ${file} · ${p.traceRefs.slice(0, 3).join(', ')}${p.context ? ` · corrected: ${p.context}` : ''}`,
      );
    });
  }
  return totals.templateOnly === 0 && totals.nearDuplicatePairs === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
