// The human-readable report and the located error line.
import type * as Core from 'rearview/core';
import type { Analysis, Reduction } from './analyse.js';
import { DEFAULT_DETECTOR, type Detector } from './args.js';
import { printable } from './io.js';

/** How the text report names a detector other than the default (every one: a new detector must be named here). */
const DETECTOR_NAMES: Record<Detector, string> = {
  markers: 'the markers',
  reader: 'the reader',
  'reader-recall': 'the reader at its lower thresholds',
  'correction-model': 'the correction model',
};

/** Insights read from a person's turn: they say what to do only through the key points written from them. */
const FROM_TURN: ReadonlySet<string> = new Set(['correction', 'preference', 'friction', 'approval']);

const CATEGORY_LABELS: readonly (readonly [keyof Analysis['snapshot'], string])[] = [
  ['currentObjective', 'Objective'],
  ['blockers', 'Blockers'],
  ['openHypotheses', 'Open hypotheses'],
  ['nextActions', 'Next actions'],
  ['unresolvedQuestions', 'Unresolved questions'],
  ['requiredEvidenceLinks', 'Evidence'],
];

/** Trace references on one line: a failure seen 40 times lists the first 8 and a count. */
function refList(refs: readonly string[]): string {
  return refs.length <= 8 ? refs.join(', ') : `${refs.slice(0, 8).join(', ')} … (${refs.length} in all)`;
}

function itemText(item: unknown): string {
  return oneLine(
    typeof item === 'string' ? item : ((item as { text?: unknown } | null)?.text ?? JSON.stringify(item)),
    300,
  );
}

/** One line, at most `max` characters. */
function oneLine(text: unknown, max: number): string {
  const t = String(text).replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

function reductionLines(r: Reduction): string[] {
  const lines: string[] = [];
  const d = r.diagnostics;
  lines.push('');
  lines.push('Reduction');
  lines.push(
    `  reflection: ${d.reflectionUsed ? 'used' : `skipped (${d.reflectionSkippedReason ?? 'n/a'})`}` +
      ` · deterministic ${d.deterministicTokens} tokens` +
      (d.reflectedTokens != null ? ` · reflected ${d.reflectedTokens} tokens` : ''),
  );
  if (d.logLine) lines.push(`  ${d.logLine}`);
  lines.push(`  retired since the previous snapshot: ${r.retired.length}`);
  const k = r.compaction;
  if (k) {
    lines.push(
      `  step compaction: ${k.tokensBefore} → ${k.tokensAfter} tokens (${k.savedPercent}% saved, ${k.stepsCompacted} steps)`,
    );
  }
  const diet = r.diet;
  if (diet) {
    lines.push(
      `  AgentDiet: ${diet.tokensBefore} → ${diet.tokensAfter} tokens, ${diet.calls} model call(s), ${diet.accepted} step(s) accepted` +
        (diet.error ? ` (stopped: ${oneLine(diet.error, 200)})` : ''),
    );
  }
  return lines;
}

/**
 * The note the text report prints when people's turns read as a language only the eight more
 * languages' markers read: they were read with them (`read`), or `--no-languages` left them out.
 *
 * @example
 * ```ts
 * languageHint({ turns: 3, of: 7, names: 'Chinese and Spanish' }, true); // "3 of 7 people's turns read as Chinese and Spanish: …"
 * ```
 */
export function languageHint(
  o: Pick<NonNullable<Analysis['otherLanguages']>, 'turns' | 'of' | 'names'>,
  read: boolean,
): string {
  return read
    ? `${o.turns} of ${o.of} people's turns read as ${o.names}: read with the markers of eight more languages too (--no-languages: English only)`
    : `${o.turns} of ${o.of} people's turns read as ${o.names}: --no-languages left their corrections unread (only English is read)`;
}

/**
 * The human-readable report, with every control character removed (see printable).
 * @example
 * ```ts
 * process.stdout.write(formatText('chat.json', await analyse(text, args, lib, undefined, null)));
 * ```
 */
export function formatText(name: string, r: Analysis): string {
  const lines: string[] = [];
  const c = r.counts;
  const parts = [`${c.messages} messages`];
  if (c.steps !== null)
    parts.push(
      `${c.steps} steps (${c.failedSteps} failed${c.declinedSteps ? `, ${c.declinedSteps} declined` : ''})`,
    );
  if (c.ignored) parts.push(`${c.ignored} ignored`);
  lines.push(`${name}: ${r.format} ${r.kind} · ${parts.join(' · ')}`);
  lines.push('');
  lines.push(
    `Insights (${r.insights.length})${r.llm?.used ? ' — with the model' : ''}${r.detector !== DEFAULT_DETECTOR ? ` — read by ${DETECTOR_NAMES[r.detector]}` : ''}${r.languages ? ' — with the markers of eight more languages' : ''}`,
  );
  if (r.otherLanguages) lines.push(`  Note: ${languageHint(r.otherLanguages, r.languages === true)}.`);
  if (!r.insights.length) lines.push('  (none)');
  r.insights.forEach((ins, i) => {
    lines.push(`  ${i + 1}. [${ins.category}, ${ins.confidence}] ${oneLine(ins.fact, 240)}`);
    const points = (r.keyPointOf?.[i] ?? []).filter((k) => r.keyPoints?.[k]);
    // A person's turn (a correction, preference, friction or approval) says what to do only through
    // the key points written from it; the detector's own recommendation is a placeholder ("Apply the
    // user's correction.", "Automate or remember this…", "Continue this approach.") or a fragment of
    // the turn ("use latest python if I'm not mistaken (what does…").
    if (FROM_TURN.has(ins.category) && !ins.tags?.includes('tool_failure')) {
      for (const k of points) lines.push(`     → key point ${k + 1}: ${oneLine(r.keyPoints![k]!.text, 300)}`);
      if (!points.length) lines.push('     (evidence only: no key point proposed from this turn)');
    } else lines.push(`     → ${oneLine(ins.recommendation, 300)}`);
    // What worked once for that task reads like advice: say that it is no rule.
    if (ins.tags?.includes('one_off')) lines.push('     (a one-off fix: not proposed as a key point)');
    if (ins.traceRefs?.length) lines.push(`     refs: ${refList(ins.traceRefs)}`);
  });
  lines.push('');
  const keyPoints = r.keyPoints ?? [];
  lines.push(`Key points (${keyPoints.length}): what a session would add to the playbook`);
  if (!keyPoints.length) lines.push('  (none)');
  keyPoints.forEach((p, i) => {
    lines.push(`  ${i + 1}. [${p.section}] ${oneLine(p.text, 300)}`);
    if (p.context) lines.push(`     corrected: ${oneLine(p.context, 200)}`);
    if (p.traceRefs?.length) lines.push(`     refs: ${refList(p.traceRefs)}`);
  });
  lines.push('');
  lines.push(
    `Snapshot (deterministic, ~${r.snapshotTokens} tokens)${r.categoriser ? ' — sorted by the notes reader (rearview/categorise-model)' : ''}${r.root !== undefined ? `; evidence relative to ${oneLine(r.root, 200)}${r.rootFrom === 'paths' ? ' (read from its paths)' : ''}` : ''}`,
  );
  for (const [key, label] of CATEGORY_LABELS) {
    const value: unknown = r.snapshot[key];
    if (typeof value === 'string') lines.push(`  ${label}: ${oneLine(value, 300)}`);
    else if (Array.isArray(value) && value.length) {
      lines.push(`  ${label}:`);
      for (const item of value) lines.push(`    - ${itemText(item)}`);
    }
  }
  if (r.reduction) lines.push(...reductionLines(r.reduction));
  if (r.llm?.error) lines.push('', `LLM reflection failed (${r.llm.error}); heuristic insights shown.`);
  return printable(`${lines.join('\n')}\n`);
}

/**
 * An input error as `file:line:column: message` (the compiler convention terminals and editors link),
 * the location said once: the message's own "(line 54, column 14)" suffix is dropped. Errors located
 * by array index, or not at all, keep `file: message`.
 * @example
 * ```ts
 * locatedMessage('chat.jsonl', err, lib.core); // 'chat.jsonl:54:14: [transcript_invalid] …'
 * ```
 */
export function locatedMessage(
  where: string,
  err: Error,
  core: Pick<typeof Core, 'formatLocation'> | undefined,
): string {
  const location = (err.cause as { location?: Core.InputLocation } | undefined)?.location;
  if (!location || location.line === undefined) {
    // An empty argument names no place: the message says so itself.
    if (where === '') return err.message;
    return err.message.startsWith(`${where}:`) ? err.message : `${where}: ${err.message}`;
  }
  let message = err.message;
  const suffix = typeof core?.formatLocation === 'function' ? core.formatLocation(location) : '';
  const lineOnly = location.index === undefined && location.path === undefined;
  if (lineOnly && suffix && message.endsWith(suffix)) message = message.slice(0, -suffix.length);
  const column = location.column === undefined ? '' : `:${location.column}`;
  return `${where}:${location.line}${column}: ${message}`;
}
