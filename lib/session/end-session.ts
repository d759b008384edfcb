/**
 * The steps of `endSession`, each a plain function of one {@link EndRun}: the heuristic key points
 * (deduplicated against the playbook and each other by the playbook's own near-duplicate search), then the Reflector and the Curator through
 * `reflectSession` when a model is configured, then the heuristic citation tags, then the playbook
 * budget. Every text is redacted before it is stored; after an abort nothing more is written.
 *
 * @module
 */
import { describeError, errorCode } from '../core/index.js';
import type { ReflectionInsight } from '../heuristic/index.js';
import type { LlmClient } from '../llm/index.js';
import {
  dedupeProposals,
  enforceBudget,
  type Playbook,
  redactorFor,
  SECTION_NAMES,
  sanitizeKeyPointText,
  scrubMessage,
} from '../playbook/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { PlaybookStore } from '../store/index.js';
import { rawProposals } from './lessons.js';
import type { SessionState } from './observe.js';
import { reflectSession } from './reflect-session.js';
import { withSplitSecrets } from './split-secrets.js';
import type { ProposedKeyPoint, RearviewBudgets, SessionError, SessionSummary } from './types.js';

/** What a facade fixes at creation and every `endSession` reads. */
export interface EndSessionConfig {
  store: PlaybookStore;
  playbookId: string;
  llm: LlmClient | undefined;
  redact: boolean | RedactOptions;
  budgets: RearviewBudgets;
  timeoutMs: number | undefined;
}

/** One `endSession` under way: the ended session, the summary it fills in, the playbook as it stands. */
interface EndRun {
  config: EndSessionConfig;
  session: SessionState;
  /** The session's failure lessons (`failureInsights`), computed once by the caller for the summary. */
  failures: readonly ReflectionInsight[];
  signal: AbortSignal | undefined;
  summary: SessionSummary;
  playbook: Playbook;
}

/** A problem as the summary reports it, its message scrubbed of anything that looks like a key. */
export function sessionError(stage: SessionError['stage'], err: unknown): SessionError {
  const code = errorCode(err);
  return { stage, message: scrubMessage(describeError(err)), ...(code !== undefined ? { code } : {}) };
}

/** A summary in which nothing has happened yet; endSession fills it in as it goes. */
export function emptySummary(
  sessionId: string,
  playbookId: string,
  messages: number,
  insights: SessionSummary['insights'],
): SessionSummary {
  return {
    sessionId,
    playbookId,
    messages,
    insights,
    added: [],
    duplicates: [],
    tags: { applied: 0, skipped: 0, by: 'none' },
    applied: [],
    rejected: [],
    evicted: [],
    llm: false,
    analysis: '',
    version: 0,
    changed: false,
    aborted: false,
    errors: [],
  };
}

/** Runs every step of `endSession` for the ended `session`; store errors are thrown. */
export async function endSessionSteps(
  config: EndSessionConfig,
  session: SessionState,
  signal: AbortSignal | undefined,
  summary: SessionSummary,
  failures: readonly ReflectionInsight[],
): Promise<void> {
  const before = await config.store.open(config.playbookId);
  summary.version = before.version;
  const run: EndRun = { config, session, failures, signal, summary, playbook: before.playbook };
  const addedNames = await saveHeuristicKeyPoints(run);
  const reflectorTags = await learnWithModel(run);
  await applyHeuristicTags(run, reflectorTags);
  await enforcePlaybookBudget(run, addedNames);
}

/** True (and said once in `errors`) when the signal has fired: the step that asks is skipped. */
function stopped(run: EndRun, step: string): boolean {
  if (!run.signal?.aborted) return false;
  if (!run.summary.errors.some((e) => e.stage === 'aborted')) {
    run.summary.errors.push({
      stage: 'aborted',
      message: `endSession was aborted before ${step}; nothing more was written`,
    });
  }
  return true;
}

/**
 * Step 1: the session's proposals, redacted and sanitized, one per lesson: those the playbook already
 * says (the playbook's near-duplicate search, `dedupeProposals`) are left out — a failure lesson
 * learned again raises the helpful count of the key point that says it — as are those repeating an
 * earlier proposal; the rest are saved in one `applyDelta`. Returns the names added.
 */
async function saveHeuristicKeyPoints(run: EndRun): Promise<Set<string>> {
  const { config, session, summary } = run;
  const redactor = redactorFor(withSplitSecrets(config.redact, session.splitSecrets));
  const candidates: ProposedKeyPoint[] = [];
  for (const p of rawProposals(session, run.failures)) {
    const text = sanitizeKeyPointText(redactor ? redactor.redactText(p.text) : p.text);
    if (text) candidates.push({ ...p, text });
  }
  const { kept, repeats, merged } = dedupeProposals(candidates, run.playbook);
  const limit = config.budgets.heuristicKeyPoints ?? 10;
  const adds = kept.slice(0, limit).map((p) => ({
    type: 'ADD' as const,
    section: p.section,
    text: p.text,
    source: { session: session.id, traceRefs: p.traceRefs.slice(0, 8) },
  }));
  for (const { proposal, of } of repeats) {
    summary.duplicates.push({ text: proposal.text, section: proposal.section, of });
    // A failure met again is the lesson confirmed; a repeated correction says nothing about the key point.
    if (proposal.category === 'anti_pattern') {
      session.tags.push({ name: of, tag: 'helpful', rationale: `learned again in session ${session.id}` });
    }
  }
  for (const { proposal, of } of merged) {
    if (of < limit)
      summary.duplicates.push({ text: proposal.text, section: proposal.section, of: `(new ${of + 1})` });
  }
  const addedNames = new Set<string>();
  if (!adds.length || stopped(run, 'saving the heuristic key points')) return addedNames;
  const res = await config.store.applyDelta(config.playbookId, adds);
  summary.applied.push(...res.applied);
  summary.rejected.push(...res.rejected);
  for (const op of res.applied) {
    if (op.type !== 'ADD') continue;
    addedNames.add(op.name);
    summary.added.push({ name: op.name, section: op.section, text: op.text, by: 'heuristic' });
  }
  run.playbook = res.playbook;
  summary.version = res.version;
  return addedNames;
}

/** Step 2: the Reflector and the Curator (`reflectSession`). Returns how many tags the Reflector applied. */
async function learnWithModel(run: EndRun): Promise<number> {
  const { config, session, signal, summary } = run;
  if (!config.llm || stopped(run, 'the Reflector')) return 0;
  const { budgets } = config;
  try {
    const out = await reflectSession(session.history, config.store, {
      llm: config.llm,
      id: config.playbookId,
      source: { session: session.id },
      ...(signal ? { signal } : {}),
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      redact: withSplitSecrets(config.redact, session.splitSecrets),
      ...(budgets.curatorOperations !== undefined ? { maxOperations: budgets.curatorOperations } : {}),
      ...(budgets.playbookTokens !== undefined ? { budget: { maxTokens: budgets.playbookTokens } } : {}),
      onDiagnostic: (d) =>
        summary.errors.push({ stage: d.role, message: scrubMessage(d.message), code: d.code }),
    });
    summary.llm = true;
    summary.analysis = out.reflection.analysis;
    summary.tags = { applied: out.tags.applied, skipped: out.tags.skipped.length, by: 'reflector' };
    summary.applied.push(...out.applied);
    summary.rejected.push(...out.rejected);
    for (const op of out.applied) {
      if (op.type === 'ADD')
        summary.added.push({ name: op.name, section: op.section, text: op.text, by: 'curator' });
      else if (op.type === 'REMOVE' && out.evicted.some((e) => e.name === op.name))
        summary.evicted.push(op.name);
    }
    if (out.aborted) stopped(run, 'the end of the model steps');
    run.playbook = out.playbook;
    summary.version = out.version;
    return out.tags.applied;
  } catch (err) {
    summary.errors.push(sessionError('llm', err));
    return 0;
  }
}

/** Step 3: the heuristic citation tags, when no Reflector judged the citations (never counted twice). */
async function applyHeuristicTags(run: EndRun, reflectorTags: number): Promise<void> {
  const { config, session, summary } = run;
  if (reflectorTags !== 0 || !session.tags.length) return;
  const known = new Set<string>();
  for (const section of SECTION_NAMES) for (const kp of run.playbook.sections[section]) known.add(kp.name);
  const tags = session.tags.filter((t) => known.has(t.name));
  if (!tags.length || stopped(run, 'applying the citation tags')) return;
  const res = await config.store.applyTags(config.playbookId, tags);
  summary.tags = { applied: res.applied, skipped: res.skipped.length, by: 'heuristic' };
  run.playbook = await config.store.load(config.playbookId);
}

/** Step 4: `budgets.playbookTokens` (the model path enforced it already), sparing what was just added. */
async function enforcePlaybookBudget(run: EndRun, addedNames: Set<string>): Promise<void> {
  const { config, summary } = run;
  const maxTokens = config.budgets.playbookTokens;
  if (maxTokens === undefined || summary.llm) return;
  try {
    const res = enforceBudget(run.playbook, { maxTokens, protect: addedNames });
    if (!res.operations.length || stopped(run, 'enforcing the playbook budget')) return;
    const out = await config.store.applyDelta(config.playbookId, res.operations);
    summary.applied.push(...out.applied);
    summary.rejected.push(...out.rejected);
    summary.evicted.push(...res.evicted.map((e) => e.name));
    summary.version = out.version;
  } catch (err) {
    summary.errors.push(sessionError('budget', err));
  }
}
