/**
 * Across sessions: findings of the same instruction become one candidate with its evidence (sessions,
 * count, first and last date, the turns), near-duplicates are merged with the playbook's dedup, what
 * the `against` file already says is left out, and the rest is ranked by evidence and recency.
 */
import { contentWords } from '../core/index.js';
import { dedupeProposals, emptyPlaybook, type KeyPoint, type KeyPointProposal } from '../playbook/index.js';
import { type AgainstSentence, contradicts, coverIndex, negated } from './against.js';
import type { Finding } from './session.js';
import type { AlreadyThere, Contradiction, Evidence, LearnedRule, RuleKind } from './types.js';

const MAX_EVIDENCE = 12;
const DAY_MS = 86_400_000;

interface Candidate {
  kind: RuleKind;
  texts: Map<string, number>;
  sessions: Set<string>;
  count: number;
  first?: string;
  last?: string;
  evidence: Evidence[];
  /** With `groupBy`: the sessions of each group. */
  groups?: Map<string, Set<string>>;
}

/** The findings of every session so far, by candidate key. Memory grows with distinct instructions, not with input. */
export class Aggregator {
  private readonly candidates = new Map<string, Candidate>();
  /** Candidates with evidence from at least `minSessions` sessions (what progress reports). */
  ruleCount = 0;

  constructor(private readonly minSessions: number) {}

  add(f: Finding, group?: string): void {
    let c = this.candidates.get(f.key);
    if (!c) {
      c = { kind: f.kind, texts: new Map(), sessions: new Set(), count: 0, evidence: [] };
      this.candidates.set(f.key, c);
    }
    c.texts.set(f.text, (c.texts.get(f.text) ?? 0) + 1);
    c.count++;
    const known = c.sessions.has(f.evidence.session);
    if (!known) {
      c.sessions.add(f.evidence.session);
      if (c.sessions.size === this.minSessions) this.ruleCount++;
    }
    if (group !== undefined) addGroup(c, group, f.evidence.session);
    widen(c, f.evidence.date);
    // One turn per session first: evidence should show the spread, not one session's repeats.
    if (c.evidence.length < MAX_EVIDENCE && (!known || c.evidence.length < MAX_EVIDENCE / 2)) {
      c.evidence.push(f.evidence);
    }
  }

  /** Merged, deduplicated against `against`, ranked. */
  finish(against: readonly AgainstSentence[]): {
    rules: LearnedRule[];
    oneOffs: LearnedRule[];
    alreadyThere: AlreadyThere[];
    contradictions: Contradiction[];
  } {
    const list = [...this.candidates.values()].map((c) => ({ c, text: bestText(c.texts) }));
    list.sort(
      (a, b) => b.c.sessions.size - a.c.sessions.size || b.c.count - a.c.count || cmp(a.text, b.text),
    );
    const existing = emptyPlaybook();
    const lineOf = new Map<string, AgainstSentence>();
    against.forEach((s, i) => {
      const kp: KeyPoint = { name: `\u0000line-${i}`, text: s.sentence, helpful: 0, harmful: 0 };
      existing.sections['USER PREFERENCES']!.push(kp);
      lineOf.set(kp.name, s);
    });
    const proposals: (KeyPointProposal & { at: number })[] = list.map((x, at) => ({
      section: x.c.kind === 'preference' ? 'USER PREFERENCES' : 'MISTAKES TO AVOID',
      text: x.text,
      category: x.c.kind,
      traceRefs: [],
      at,
    }));
    const dedup = dedupeProposals(proposals, existing);
    const merged = dedup.kept.map((p) => ({ ...list[p.at]!, c: copy(list[p.at]!.c) }));
    // Word shingles leave negations out: "Use npm." and "Don't use npm." share every shingle but are
    // opposite rules, so such a pair is never merged, and never counted as already in the file.
    for (const m of dedup.merged) {
      const into = merged[m.of]!;
      const from = list[m.proposal.at]!;
      if (negated(into.text) === negated(from.text)) fold(into.c, from.c);
      else merged.push({ ...from, c: copy(from.c) });
    }
    const alreadyThere: AlreadyThere[] = [];
    const already = (rule: string, c: Candidate, s: AgainstSentence) => {
      const { sessions, count, firstDate, lastDate, evidence } = toRule(c, rule, 0);
      alreadyThere.push({
        rule,
        line: { line: s.line, text: s.text },
        sessions,
        count,
        ...(firstDate ? { firstDate } : {}),
        ...(lastDate ? { lastDate } : {}),
        evidence,
      });
    };
    for (const r of dedup.repeats) {
      const s = lineOf.get(r.of);
      const from = list[r.proposal.at]!;
      if (s && negated(s.sentence) !== negated(from.text)) {
        merged.push({ ...from, c: copy(from.c) });
        continue;
      }
      if (s && from.c.sessions.size >= this.minSessions) already(r.proposal.text, from.c, s);
    }
    subsume(merged);
    const coveredBy = coverIndex(against);
    const fresh = merged.filter((x) => {
      const s = coveredBy(x.text);
      if (!s) return true;
      if (x.c.sessions.size >= this.minSessions) already(x.text, x.c, s);
      return false;
    });
    const latest = fresh.reduce((t, x) => Math.max(t, x.c.last ? Date.parse(x.c.last) : 0), 0);
    const rules = fresh.map((x) => toRule(x.c, x.text, latest));
    rules.sort((a, b) => b.score - a.score || b.count - a.count || cmp(a.text, b.text));
    const kept = rules.filter((r) => r.sessions >= this.minSessions);
    const contradictions: Contradiction[] = [];
    for (const r of kept) {
      for (const s of against) {
        if (!contradicts(r.text, s.sentence)) continue;
        const line = { line: s.line, text: s.text };
        r.contradicts = [...(r.contradicts ?? []), line];
        contradictions.push({
          ...line,
          rule: r.text,
          sessions: r.sessions,
          ...(r.firstDate ? { firstDate: r.firstDate } : {}),
          ...(r.lastDate ? { lastDate: r.lastDate } : {}),
        });
      }
    }
    kept.forEach((r, i) => {
      r.id = `r${i + 1}`;
    });
    return {
      rules: kept,
      oneOffs: rules.filter((r) => r.sessions < this.minSessions),
      alreadyThere,
      contradictions,
    };
  }
}

/**
 * A longer instruction that says everything a shorter one of the same sign says and more ("Do not add
 * new features – only UI polish." and "Do not add new features.") is evidence for the shorter, general
 * one: folded into it. Only shorter rules of at least two content words absorb; an inverted index of
 * words keeps the search to candidates sharing the shorter rule's rarest word.
 */
function subsume(items: { c: Candidate; text: string }[]): void {
  const words = items.map((x) => new Set(contentWords(x.text)));
  const index = new Map<string, number[]>();
  words.forEach((set, i) => {
    for (const w of set) {
      const at = index.get(w);
      if (at) at.push(i);
      else index.set(w, [i]);
    }
  });
  const gone = new Set<number>();
  const order = items.map((_, i) => i).sort((a, b) => words[a]!.size - words[b]!.size || a - b);
  for (const i of order) {
    const need = words[i]!;
    if (gone.has(i) || need.size < 2 || items[i]!.c.kind === 'failure') continue;
    let rarest: number[] | undefined;
    for (const w of need) {
      const at = index.get(w)!;
      if (!rarest || at.length < rarest.length) rarest = at;
    }
    const sign = negated(items[i]!.text);
    for (const j of rarest ?? []) {
      if (j === i || gone.has(j) || words[j]!.size <= need.size || items[j]!.c.kind === 'failure') continue;
      if (negated(items[j]!.text) !== sign) continue;
      let all = true;
      for (const w of need) if (!words[j]!.has(w)) all = false;
      if (!all) continue;
      fold(items[i]!.c, items[j]!.c);
      gone.add(j);
    }
  }
  const kept = items.filter((_, i) => !gone.has(i));
  items.length = 0;
  items.push(...kept);
}

function widen(c: Candidate, date: string | undefined): void {
  if (!date) return;
  if (!c.first || date < c.first) c.first = date;
  if (!c.last || date > c.last) c.last = date;
}

function copy(c: Candidate): Candidate {
  const out = { ...c, texts: new Map(c.texts), sessions: new Set(c.sessions), evidence: c.evidence.slice() };
  if (c.groups) out.groups = new Map([...c.groups].map(([g, s]) => [g, new Set(s)]));
  return out;
}

function addGroup(c: Candidate, group: string, session: string): void {
  c.groups ??= new Map();
  const at = c.groups.get(group);
  if (at) at.add(session);
  else c.groups.set(group, new Set([session]));
}

function fold(into: Candidate, from: Candidate): void {
  for (const [t, n] of from.texts) into.texts.set(t, (into.texts.get(t) ?? 0) + n);
  into.count += from.count;
  for (const e of from.evidence) {
    if (into.evidence.length >= MAX_EVIDENCE) break;
    if (!into.sessions.has(e.session)) into.evidence.push(e);
  }
  for (const s of from.sessions) into.sessions.add(s);
  for (const [g, sessions] of from.groups ?? []) for (const s of sessions) addGroup(into, g, s);
  widen(into, from.first);
  widen(into, from.last);
}

/** The most frequent wording; ties to the shorter, then the first in code-point order. */
function bestText(texts: Map<string, number>): string {
  let best = '';
  let n = -1;
  for (const [t, k] of texts) {
    if (k > n || (k === n && (t.length < best.length || (t.length === best.length && cmp(t, best) < 0)))) {
      best = t;
      n = k;
    }
  }
  return best;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Evidence first (one point per session, up to one more for many turns), recency second (up to one
 * point, falling to nothing over a year before the newest evidence of the run: the run's own clock,
 * never the wall clock, so the same input ranks the same everywhere).
 */
function toRule(c: Candidate, text: string, latest: number): LearnedRule {
  const last = c.last ? Date.parse(c.last) : Number.NaN;
  const recency = Number.isFinite(last) && latest > 0 ? Math.max(0, 1 - (latest - last) / (365 * DAY_MS)) : 0;
  const score = Math.round((c.sessions.size + Math.min(c.count, 20) / 20 + recency) * 1000) / 1000;
  const evidence = c.evidence
    .slice()
    .sort((a, b) => cmp(a.date ?? '', b.date ?? '') || cmp(a.session, b.session));
  const rule: LearnedRule = {
    id: '',
    kind: c.kind,
    text,
    sessions: c.sessions.size,
    count: c.count,
    score,
    evidence,
  };
  if (c.groups) {
    rule.groups = [...c.groups]
      .map(([group, s]) => ({ group, sessions: s.size }))
      .sort((a, b) => b.sessions - a.sessions || cmp(a.group, b.group));
  }
  if (c.first) rule.firstDate = c.first;
  if (c.last) rule.lastDate = c.last;
  return rule;
}
