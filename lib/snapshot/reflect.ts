/**
 * The reflected half of the snapshot flow: the prompt, parsing the reply and
 * validating that every item traces to a source entry or task (step 9).
 */

import { comparableKey, contentTerms, findLinks, squash, words } from '../categorise/index.js';
import { clip, extractJson } from '../core/index.js';
import { REPLY_FIELDS } from './constants.js';
import { CATEGORIES } from './deterministic.js';
import { currentIteration } from './retire.js';
import { OVER_SCOPES } from './scopes.js';
import type { ActiveContextSnapshot, DroppedItem, SnapshotCategory, SnapshotInput } from './types.js';

/**
 * The reflection prompt, extended in two places: entries carry an `id`
 * (`m1`, `m2`, …) and a consolidated item names the entries it merges as `{"text", "sources"}`.
 *
 * @example
 * ```ts
 * const prompt = reflectedSnapshotPrompt({ objective: 'Fix CI', entries, tasks, previous: null });
 * ```
 */
export function reflectedSnapshotPrompt(input: SnapshotInput): string {
  const entries = (input.entries ?? []).map((e, i) => ({
    id: `m${i + 1}`,
    scope: String(e.scope ?? ''),
    key: String(e.key ?? ''),
    value: String(e.value ?? ''),
    sourceIteration: Number(e.sourceIteration) || 0,
  }));
  const tasks = (input.tasks ?? []).map((t) => ({
    id: `task:${t.id}`,
    title: String(t.title ?? ''),
    status: String(t.status ?? ''),
  }));
  const iteration = currentIteration(input);
  const previous = input.previous ? JSON.stringify(toSnake(input.previous)) : '(none)';
  // Said only when it applies, so that a prompt without such entries is the reference design's.
  const done = OVER_SCOPES.map((o) =>
    entries.some((e) => e.scope === o.scope) ? `\n   ${o.prompt}` : '',
  ).join('');
  return `You are a trajectory reduction assistant. Given an agent's current objective
and its memory entries, categorize each entry into the appropriate field
of an active context snapshot.

## Current Objective
${squash(String(input.objective ?? ''))}

## Previous Snapshot (iteration ${iteration - 1})
${previous}

## Memory Entries
${JSON.stringify(entries)}

## Task Statuses
${JSON.stringify(tasks)}

## Instructions
1. Categorize each memory entry into exactly one of:
   - open_hypotheses: Active theories being tested
   - blockers: Issues currently preventing progress
   - next_actions: Concrete steps to take next
   - unresolved_questions: Open questions needing answers
   - required_evidence_links: URLs, file paths, or artifact references
   - irrelevant: Safe to exclude from the snapshot${done}

2. Consolidate semantically-similar items into a single entry.
   Example: "CI is red" + "3 tests failing" + "test suite broken" → "CI failing: 3 test failures"
   A consolidated item must name the entries it merges, by id:
   {"text": "CI failing: 3 test failures", "sources": ["m3", "m7", "m9"]}
   Every other item is a string copied from one entry or task (shorten it if you like, do not reword it).

3. For items marked irrelevant, briefly note why (resolved, superseded, stale).

4. Set current_objective to a concise summary of the primary goal.

5. Do NOT invent information not present in the entries.

## Output Format (strict JSON)
{
  "current_objective": "string",
  "open_hypotheses": ["string" or {"text": "string", "sources": ["id", ...]}, ...],
  "blockers": [...],
  "next_actions": [...],
  "unresolved_questions": [...],
  "required_evidence_links": [...],
  "dropped": [{"value": "string", "reason": "string"}, ...]
}`;
}

function toSnake(s: ActiveContextSnapshot): Record<string, unknown> {
  const out: Record<string, unknown> = { current_objective: s.currentObjective };
  for (const c of CATEGORIES) out[REPLY_FIELDS[c]] = s[c] ?? [];
  return out;
}

/** One reflected item: a copied string (`sources` null) or a consolidation naming its entries. */
export interface ReflectedItem {
  text: string;
  sources: string[] | null;
}

/** A reply that parsed into the snapshot shape (not yet validated). */
export interface ParsedReflection {
  currentObjective: string | null;
  lists: Record<SnapshotCategory, ReflectedItem[]>;
  dropped: DroppedItem[];
}

/** Outcome of {@link parseReflection}. */
export type ParseOutcome =
  | { ok: true; value: ParsedReflection }
  | { ok: false; reason: 'parse_error' | 'invalid_schema'; error: string };

/**
 * The reply's JSON (via `extractJson`) in the snapshot shape. Accepts the reply format's snake_case
 * and camelCase field names; a missing list is empty.
 *
 * @example
 * ```ts
 * parseReflection('{"blockers": ["CI is red"]}'); // { ok: true, value: { lists: { blockers: [...] }, … } }
 * ```
 */
export function parseReflection(reply: string): ParseOutcome {
  const json = extractJson(reply);
  if (json === undefined) return { ok: false, reason: 'parse_error', error: 'no JSON found in the reply' };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, reason: 'invalid_schema', error: 'the reply is not a JSON object' };
  }
  const o = json as Record<string, unknown>;
  const objective = o.current_objective ?? o.currentObjective ?? null;
  if (objective !== null && typeof objective !== 'string') {
    return { ok: false, reason: 'invalid_schema', error: 'current_objective is not a string' };
  }
  const lists = {} as Record<SnapshotCategory, ReflectedItem[]>;
  for (const c of CATEGORIES) {
    const raw = o[REPLY_FIELDS[c]] ?? o[c] ?? [];
    if (!Array.isArray(raw))
      return { ok: false, reason: 'invalid_schema', error: `${REPLY_FIELDS[c]} is not an array` };
    const items: ReflectedItem[] = [];
    for (let i = 0; i < raw.length; i++) {
      const it = raw[i];
      if (typeof it === 'string') {
        if (squash(it) !== '') items.push({ text: squash(it), sources: null });
        continue;
      }
      const r = it as { text?: unknown; sources?: unknown } | null;
      if (
        typeof r === 'object' &&
        r !== null &&
        typeof r.text === 'string' &&
        (r.sources === undefined ||
          (Array.isArray(r.sources) && r.sources.every((s) => typeof s === 'string')))
      ) {
        const sources = (r.sources as string[] | undefined) ?? [];
        items.push({ text: squash(r.text), sources: sources.length ? sources : null });
        continue;
      }
      return {
        ok: false,
        reason: 'invalid_schema',
        error: `${REPLY_FIELDS[c]}[${i}] is neither a string nor {text, sources}`,
      };
    }
    lists[c] = items;
  }
  const dropped: DroppedItem[] = [];
  if (Array.isArray(o.dropped)) {
    for (const d of o.dropped) {
      if (typeof d === 'string') dropped.push({ text: clip(squash(d), 260), reason: '' });
      else if (d && typeof d === 'object') {
        const v = (d as { value?: unknown }).value;
        const why = (d as { reason?: unknown }).reason;
        dropped.push({
          text: clip(squash(String(v ?? '')), 260),
          reason: clip(squash(String(why ?? '')), 120),
        });
      }
    }
  }
  return {
    ok: true,
    value: { currentObjective: objective === null ? null : squash(objective), lists, dropped },
  };
}

/** The texts of the sources an item may cite: memory entries `m<n>` and tasks `task:<id>`. */
export interface SourceIndex {
  ids: string[];
  raw: Map<string, string>;
  keys: Map<string, string>;
  terms: Map<string, Set<string>>;
  all: Set<string>;
}

/**
 * Builds the {@link SourceIndex} of an input: memory entries get ids `m1`, `m2`, … in order, tasks
 * `task:<id>`; the objective only contributes words.
 *
 * @example
 * ```ts
 * const tasks = [{ id: 't1', title: 'Add a test', status: 'open' }];
 * const idx = indexSources({ objective: 'Fix login', entries, tasks });
 * idx.ids; // ['m1', …, 'task:t1']
 * ```
 */
export function indexSources(input: SnapshotInput): SourceIndex {
  const idx: SourceIndex = { ids: [], raw: new Map(), keys: new Map(), terms: new Map(), all: new Set() };
  const put = (id: string, text: string) => {
    idx.ids.push(id);
    idx.raw.set(id, text);
    idx.keys.set(id, comparableKey(text));
    const t = new Set(contentTerms(words(text)));
    idx.terms.set(id, t);
    for (const x of t) idx.all.add(x);
  };
  const entries = input.entries ?? [];
  for (let i = 0; i < entries.length; i++) put(`m${i + 1}`, String(entries[i]!.value ?? ''));
  for (const t of input.tasks ?? []) put(`task:${t.id}`, String(t.title ?? ''));
  for (const x of contentTerms(words(String(input.objective ?? '')))) idx.all.add(x);
  return idx;
}

/** A reflected item that failed validation. */
export interface Rejection {
  category: string;
  text: string;
  why: string;
}

/**
 * Step 9: every item must trace to a source. A string must be a substring (compared by
 * {@link comparableKey}) of one entry or task; a consolidated `{text, sources}` must name existing
 * ids, and each of its content words must occur in those sources; a URL or path must appear
 * verbatim in a source. The objective may only use words of the objective, tasks and entries.
 * Returns the rejections (empty when valid) and, per kept item, the sources it traces to.
 *
 * @example
 * ```ts
 * const { rejected } = validateReflection(parsed, indexSources(input));
 * ```
 */
export function validateReflection(
  parsed: ParsedReflection,
  idx: SourceIndex,
): { rejected: Rejection[]; traced: Map<ReflectedItem, string[]> } {
  const rejected: Rejection[] = [];
  const traced = new Map<ReflectedItem, string[]>();
  if (parsed.currentObjective) {
    const stray = contentTerms(words(parsed.currentObjective)).filter((t) => !grounded(t, idx.all));
    if (stray.length) {
      rejected.push({
        category: 'current_objective',
        text: parsed.currentObjective,
        why: `words not in the objective, tasks or entries: ${stray.slice(0, 5).join(', ')}`,
      });
    }
  }
  for (const c of CATEGORIES) {
    for (const item of parsed.lists[c]) {
      const why = checkItem(item, idx, traced);
      if (why) rejected.push({ category: REPLY_FIELDS[c], text: item.text, why });
    }
  }
  return { rejected, traced };
}

function checkItem(
  item: ReflectedItem,
  idx: SourceIndex,
  traced: Map<ReflectedItem, string[]>,
): string | undefined {
  const key = comparableKey(item.text);
  if (key === '') return 'empty item';
  const candidates = item.sources ?? idx.ids;
  if (item.sources) {
    const unknown = item.sources.filter((s) => !idx.raw.has(s));
    if (unknown.length) return `names unknown sources: ${unknown.join(', ')}`;
  }
  for (const link of findLinks(item.text)) {
    if (!candidates.some((id) => idx.raw.get(id)!.includes(link))) return `link not in its sources: ${link}`;
  }
  const matches = candidates.filter((id) => idx.keys.get(id)!.includes(key));
  if (matches.length) {
    traced.set(item, item.sources ?? matches.slice(0, 1));
    return undefined;
  }
  if (!item.sources) return 'not a substring of any entry or task (consolidations must name their sources)';
  const union = new Set<string>();
  for (const id of item.sources) for (const t of idx.terms.get(id)!) union.add(t);
  const stray = contentTerms(words(item.text)).filter((t) => !grounded(t, union));
  if (stray.length) return `words not in its sources: ${stray.slice(0, 5).join(', ')}`;
  traced.set(item, item.sources);
  return undefined;
}

/**
 * A word is grounded when a source has it, or a source word shares a prefix of at least four letters
 * with it as a whole word ("failures" and "failing", "tests" and "test"): inflections, not new facts.
 */
function grounded(term: string, terms: ReadonlySet<string>): boolean {
  if (terms.has(term)) return true;
  if (term.length < 4) return false;
  for (const u of terms) {
    if (u.length >= 4 && (term.startsWith(u) || u.startsWith(term))) return true;
  }
  return false;
}
