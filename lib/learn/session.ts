/**
 * One session's findings: its user turns through the heuristics and the key-point policy (the
 * instruction of each correction or preference), and its failed tool calls grouped into classes with
 * the change that made a later call work. Pure and synchronous; the caller redacts and drops private
 * spans before.
 */
import { failureRule, groupFailures, stepsFromMessages } from '../failures/index.js';
import { type HeuristicOptions, heuristicReflect, opensSession } from '../heuristic/index.js';
import { type OtherLanguages, otherLanguages } from '../language/index.js';
import { insightProposals, repairSpelling, turnContexts, wordCounts } from '../playbook/index.js';
import type { Message } from '../transcript/index.js';
import { isoInstant } from './dates.js';
import { judgeFailure, judgeRule } from './quality.js';
import type { Evidence, RuleKind } from './types.js';

/** One piece of evidence for one candidate rule. */
export interface Finding {
  kind: RuleKind;
  /** Groups findings across sessions before near-duplicate merging. */
  key: string;
  text: string;
  evidence: Evidence;
}

/** What one session gave. */
export interface SessionFindings {
  findings: Finding[];
  humanTurns: number;
  /** Candidate texts left out by the quality rules, by reason. */
  filtered: Record<string, number>;
  /** The people's turns that read as one of the languages the default markers miss (rearview/language). */
  languages?: OtherLanguages;
  /** Words of the proposed rules repaired as typos (`isWord` given). */
  repaired: number;
}

const QUOTE_CHARS = 200;

/**
 * A turn's text on one line, clipped: enough to recognise it in the session. With `near` (the rule
 * written from it), a long turn is quoted from the sentence that shares the most of the rule's words,
 * so the evidence shows what the rule says and not the turn's first lines.
 */
export function quoteOf(text: string, near?: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= QUOTE_CHARS) return line;
  const from = near ? sentenceNear(line, near) : 0;
  if (from === 0) return `${line.slice(0, QUOTE_CHARS - 1)}…`;
  const end = from + QUOTE_CHARS - 2;
  return `…${line.slice(from, end)}${end < line.length ? '…' : ''}`;
}

/** Words of three letters or more, lower-cased: what a rule and its sentence share. */
const QUOTE_WORD = /[\p{L}\p{N}]{3,}/gu;

/**
 * Where the sentence of `line` that holds the most distinct words of `near` starts (the first of
 * equals; 0 when none shares a word). One pass over the line: sentences end at `.`, `!`, `?` or `;`
 * followed by a space.
 */
function sentenceNear(line: string, near: string): number {
  const wanted = new Set(near.toLowerCase().match(QUOTE_WORD) ?? []);
  if (!wanted.size) return 0;
  let best = 0;
  let bestAt = 0;
  let start = 0;
  const score = (from: number, to: number) => {
    const seen = new Set<string>();
    for (const w of line.slice(from, to).toLowerCase().match(QUOTE_WORD) ?? [])
      if (wanted.has(w)) seen.add(w);
    if (seen.size > best) {
      best = seen.size;
      bestAt = from;
    }
  };
  for (const m of line.matchAll(/[.!?;] /g)) {
    score(start, m.index + 1);
    start = m.index + 2;
  }
  score(start, line.length);
  return bestAt;
}

/** Lower-case words only: "Use pnpm, not npm!" and "use pnpm not npm." are one candidate. */
export function candidateKey(kind: RuleKind, text: string): string {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  return `${kind === 'failure' ? 'f' : 'u'}:${words.join(' ')}`;
}

/**
 * Splits a transcript into sessions. An aider history appends one chat after another, each opened by
 * a `# aider chat started at …` header (a `system` message): each is a session of its own, named
 * `{name}#{n}`. Every other format is one session per source. The boundary is `heuristicReflect`'s
 * own (`opensSession`), so "the agent has not replied yet in this session" means the same here.
 */
export function splitSessions(
  name: string,
  format: string,
  messages: readonly Message[],
): { name: string; messages: Message[] }[] {
  if (format !== 'aider') return [{ name, messages: messages.slice() }];
  const out: { name: string; messages: Message[] }[] = [];
  let current: Message[] = [];
  const flush = () => {
    if (current.some((m) => m.role !== 'system'))
      out.push({ name: `${name}#${out.length + 1}`, messages: current });
    current = [];
  };
  for (const m of messages) {
    if (current.length && opensSession(m, m.content)) flush();
    current.push(m);
  }
  flush();
  return out;
}

/**
 * The findings of one session. `messages` must be redacted already (user turns at least: they are
 * quoted); `fallbackDate` dates turns before any timestamp; `detector` is what reads people's turns
 * (a learned scorer and its thresholds; the markers alone by default), with `isWord` a dictionary
 * that repairs typos in the rules written from people's turns (`repairSpelling`); `root` the folder
 * the session worked in, read as one path in its error text.
 */
export function analyseSession(
  session: string,
  messages: readonly Message[],
  fallbackDate: string | undefined,
  redactText: (text: string) => string,
  detector: Pick<HeuristicOptions, 'scorer' | 'minScore' | 'markers'> & {
    isWord?: (word: string) => boolean;
  } = {},
  root?: string,
): SessionFindings {
  const out: SessionFindings = { findings: [], humanTurns: 0, filtered: {}, repaired: 0 };
  const filter = (reason: string) => {
    out.filtered[reason] = (out.filtered[reason] ?? 0) + 1;
  };
  const countRefusal = (reason: string) => {
    if (reason !== 'no instruction' && reason !== 'one-off') filter(reason);
  };
  // Dates are looked up only for the turns a finding names: most sessions have none, and parsing
  // every message's timestamp for them would be wasted.
  let dates: Map<string, { m: Message; date?: string }> | undefined;
  const byId = () => {
    dates ??= byDateOf(messages, fallbackDate);
    return dates;
  };
  const people: string[] = [];
  for (const m of messages) if (m.role === 'user' && !m.synthetic) people.push(m.content);
  out.humanTurns = people.length;
  const languages = otherLanguages(people);
  if (languages) out.languages = languages;
  const insights = heuristicReflect(messages, detector);
  const turns = insights.length ? turnContexts(messages) : new Map();
  let counts: Map<string, number> | undefined; // the session's words, counted once a rule needs them
  for (const insight of insights) {
    const ref = insight.traceRefs[0] ?? '';
    // A sentence the writer refused is counted by the judge's reason; a turn with no instruction
    // or a one-off was never a candidate.
    const proposals = insightProposals(insight, turns.get(ref) ?? '', { onRefused: countRefusal });
    if (!proposals.length) continue;
    const id = ref.startsWith('message:') ? ref.slice('message:'.length) : ref;
    const turn = byId().get(id);
    for (const proposal of proposals) {
      // The writer judged the sentence (`judgeKeyPoint`); judged again once redacted: a quoted secret.
      let text = redactText(proposal.text);
      if (detector.isWord) {
        counts ??= wordCounts(messages.map((m) => m.content));
        const spelt = repairSpelling(text, { isWord: detector.isWord, counts });
        text = spelt.text;
        out.repaired += spelt.repairs.length;
      }
      const verdict = judgeRule(text);
      if (verdict) {
        filter(verdict);
        continue;
      }
      const kind: RuleKind = proposal.category === 'correction' ? 'rule' : 'preference';
      out.findings.push({
        kind,
        key: candidateKey(kind, text),
        text,
        evidence: evidenceOf(session, id, turn?.m, turn?.date ?? fallbackDate, text),
      });
    }
  }
  for (const f of failureFindings(session, messages, byId, redactText, filter, root)) {
    out.findings.push(f);
  }
  return out;
}

function evidenceOf(
  session: string,
  id: string,
  m: Message | undefined,
  date: string | undefined,
  rule: string,
): Evidence {
  const e: Evidence = { session, message: id, quote: m ? quoteOf(m.content, rule) : '' };
  if (typeof m?.source?.line === 'number') e.line = m.source.line;
  if (date) e.date = date;
  return e;
}

/**
 * Every message by id with its date: its own timestamp, else the latest one before it (aider dates
 * only the session header), else the file's.
 */
function byDateOf(
  messages: readonly Message[],
  fallback: string | undefined,
): Map<string, { m: Message; date?: string }> {
  const out = new Map<string, { m: Message; date?: string }>();
  let date = fallback;
  for (const m of messages) {
    const at = typeof m.ts === 'string' ? isoInstant(m.ts) : undefined;
    if (at) date = at;
    out.set(m.id, date ? { m, date } : { m });
  }
  return out;
}

/** Failure classes of the session whose fix was a real change (not the same call retried). */
function failureFindings(
  session: string,
  messages: readonly Message[],
  byId: () => Map<string, { m: Message; date?: string }>,
  redactText: (text: string) => string,
  filter: (reason: string) => void,
  root: string | undefined,
): Finding[] {
  if (!messages.some((m) => m.isError)) return [];
  const out: Finding[] = [];
  for (const c of groupFailures([stepsFromMessages(messages, session, root)])) {
    // A fix that names no change (a retry, an unseen input) has no `change`: no rule to write.
    if (!c.fix?.change) continue;
    const cls = c.errorClass.replace(/\s+/g, ' ').trim();
    const why = judgeFailure(cls, c.fix);
    if (why) {
      filter(why);
      continue;
    }
    const rule = failureRule(c);
    if (!rule) continue;
    const text = redactText(rule);
    const key = candidateKey('failure', redactText(`${c.tool} ${cls}`));
    for (const o of c.occurrences) {
      const id = o.ref.startsWith('message:') ? o.ref.slice('message:'.length) : o.ref;
      const at = byId().get(id);
      const e: Evidence = { session, message: id, quote: at ? quoteOf(redactText(at.m.content)) : '' };
      if (typeof at?.m.source?.line === 'number') e.line = at.m.source.line;
      if (at?.date) e.date = at.date;
      out.push({ kind: 'failure', key, text, evidence: e });
    }
  }
  return out;
}
