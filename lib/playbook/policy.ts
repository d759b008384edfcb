/**
 * The insight → key point policy: which heuristic insights teach something durable, which section
 * they belong to and how their text reads, and what a turn says about the key points the reply before
 * it cited. One policy for every caller (the session facade, the playground, the CLI, an app's own
 * "add to playbook" button), so the same turn always becomes the same key point.
 *
 * @module
 */
import { contentText, truncateUtf8 } from '../core/index.js';
import type { SectionName } from './model.js';
import { sanitizeKeyPointText } from './sanitize.js';
import { keyPointVerdict } from './writer.js';

/**
 * The parts of a heuristic insight the policy reads; `ReflectionInsight` from `rearview/heuristic`
 * fits as it is.
 */
export interface InsightLike {
  /**
   * `correction`, `preference`, `friction`, `approval` or `anti_pattern` (a failure lesson of
   * `reflectFromTrajectories`); other categories propose nothing.
   */
  category: string;
  /** How sure the detector is; compared with `minConfidence` for corrections. */
  confidence: 'high' | 'medium' | 'low';
  /**
   * `approval` marks a bare "thanks, that works" (as does the `approval` category); `tool_failure`,
   * `fix_found`, `retried`, `recurring` and `one_off` describe a failure lesson.
   */
  tags: readonly string[];
  /** The turn and its context, copied to the proposal as provenance. */
  traceRefs: readonly string[];
  /** A failure lesson's text (`reflectFromTrajectories` puts the lesson here). */
  recommendation?: string;
}

/** A key point the policy proposes from one insight: where it goes and what it says. */
export interface KeyPointProposal<Category extends string = string> {
  section: SectionName;
  text: string;
  /** The insight it comes from. */
  category: Category;
  /** `message:{id}` of the turn, then its context (or every occurrence of a failure, then its fix). */
  traceRefs: string[];
  /** What a correction corrected: the agent's action or claim just before it, on one line. */
  context?: string;
}

/** Options of {@link proposeKeyPoint}. */
export interface ProposeOptions {
  /**
   * Lowest confidence of a correction that becomes a key point. Default `'medium'` (challenging
   * questions such as "Shouldn't that use a fixture?" count; `'high'` keeps only explicit ones).
   */
  minConfidence?: 'high' | 'medium' | 'low';
  /**
   * Called when the writer reads the turn and writes no key point, with its reason
   * (`keyPointVerdict`: `no instruction`, `one-off`, or `judgeKeyPoint`'s reason): a caller that
   * reports what it left out (`learn`) learns why without running the writer again.
   */
  onRefused?: (reason: string) => void;
}

/**
 * The user turn an insight was read from and the agent's message before it. A bare string is the
 * turn's text with no previous message.
 */
export interface TurnContext {
  text: string;
  /** The agent's message just before the turn: a reply, or a tool call (`toolName`, input as JSON). */
  previous?: { content: unknown; toolName?: string } | undefined;
}

/** What a turn says about the key points cited in the reply before it. */
export interface TurnVerdict {
  tag: 'helpful' | 'harmful';
  /** `corrected`, `complained about` or `approved`. */
  reason: string;
}

const CONFIDENCE_RANK = { high: 3, medium: 2, low: 1 } as const;
const CONTEXT_BYTES = 100;

/**
 * True for a bare approval ("perfect, thanks"): a preference tagged `approval`, or the `approval`
 * category. It raises the helpful count of the key points the approved reply cited (see
 * {@link turnVerdict}) and is never a key point itself.
 *
 * @example
 * ```ts
 * isApproval({ category: 'approval', confidence: 'high', tags: [], traceRefs: [] }); // true
 * ```
 */
export function isApproval(insight: InsightLike): boolean {
  return (
    insight.category === 'approval' || (Array.isArray(insight.tags) && insight.tags.includes('approval'))
  );
}

/**
 * True for a failure lesson worth keeping: a fix was found and its judge did not tag it `one_off` (a
 * fix that only worked for that task, an unreadable error). A failure with no fix, however often it
 * recurred, says what went wrong but not what to do: it stays evidence.
 */
function keepsFailure(tags: readonly string[]): boolean {
  return tags.includes('tool_failure') && tags.includes('fix_found') && !tags.includes('one_off');
}

/**
 * Turns one heuristic insight into a key point, or `undefined` when it teaches nothing durable.
 *
 * - A correction (at `minConfidence` or above) goes to MISTAKES TO AVOID, a preference or a friction
 *   to USER PREFERENCES: the text is the user's instruction as an imperative sentence
 *   (`extractInstruction`: "No, use pnpm instead of npm." → "Use pnpm instead of npm."), and for a
 *   correction `context` says what it corrected (the previous agent message). A turn with no
 *   instruction, or only a one-off task (`isStandingRule`), proposes nothing: no template text, no
 *   quoted complaint.
 * - A bare approval proposes nothing (it is evidence: see {@link turnVerdict}); an approval that also
 *   states a standing rule ("Perfect. From now on always run the migrations first.") proposes the rule
 *   in USER PREFERENCES.
 * - A failure lesson of `reflectFromTrajectories` goes to MISTAKES TO AVOID with the lesson as its text
 *   when a fix was found and its judge did not tag it `one_off`; a failure with no fix (recurring or
 *   not), one the unchanged call later got past, or a one-off fix proposes nothing.
 *
 * Pure; redaction is the caller's (the text quotes the user).
 *
 * @param insight - the insight, e.g. one of `heuristicReflect(messages)`.
 * @param turn - the user turn the insight was read from: its text, or its text and the agent message before.
 *
 * @example
 * ```ts
 * const [insight] = heuristicReflect([{ role: 'user', content: 'No, use pnpm instead of npm.' }]);
 * proposeKeyPoint(insight, 'No, use pnpm instead of npm.');
 * // { section: 'MISTAKES TO AVOID', text: 'Use pnpm instead of npm.', category: 'correction', traceRefs: ['message:m0'] }
 * ```
 */
export function proposeKeyPoint<I extends InsightLike>(
  insight: I,
  turn: string | TurnContext,
  options: ProposeOptions = {},
): KeyPointProposal<I['category']> | undefined {
  return insightProposals(insight, turn, options)[0];
}

/**
 * Every key point one insight proposes: {@link proposeKeyPoint}'s, and one more for each further
 * standing instruction of the turn (`writeKeyPoints`: "Don't use partial updates. Always use a dark
 * theme." is two lessons). All carry the insight's trace references. What the lesson pipeline, the
 * session facade and `learn` propose. Pure.
 *
 * @example
 * ```ts
 * const text = "No, don't use partial updates in this project. Always use a dark theme.";
 * const [insight] = heuristicReflect([{ role: 'user', content: text }]);
 * insightProposals(insight, text).map((p) => p.text);
 * // ["Don't use partial updates in this project.", 'Always use a dark theme.']
 * ```
 */
export function insightProposals<I extends InsightLike>(
  insight: I,
  turn: string | TurnContext,
  options: ProposeOptions = {},
): KeyPointProposal<I['category']>[] {
  const ctx: TurnContext = typeof turn === 'string' ? { text: turn } : (turn ?? { text: '' });
  const text = typeof ctx.text === 'string' ? ctx.text : '';
  const tags = Array.isArray(insight.tags) ? insight.tags : [];
  const make = (section: SectionName, keyPointText: string, context?: string) => {
    const p: KeyPointProposal<I['category']> = {
      section,
      text: keyPointText,
      category: insight.category,
      traceRefs: [...insight.traceRefs],
    };
    if (context) p.context = context;
    return p;
  };
  if (isApproval(insight)) {
    // A bare approval is evidence, not a lesson; "Perfect. From now on always run the migrations
    // first." also gives a standing rule, kept as a preference. What the person says they like in an
    // approving turn ("I like the blackmail aspect.") praises what the reply showed: no rule.
    return rules(text.replace(PRAISE, '$1'), options?.onRefused).map((r) => make('USER PREFERENCES', r));
  }
  switch (insight.category) {
    case 'correction': {
      const min = CONFIDENCE_RANK[options?.minConfidence ?? 'medium'];
      if ((CONFIDENCE_RANK[insight.confidence] ?? 0) < min) return [];
      const found = rules(text, options?.onRefused);
      const context = found.length ? correctedContext(ctx.previous) : undefined;
      return found.map((r) => make('MISTAKES TO AVOID', r, context));
    }
    case 'preference':
    case 'friction':
      return rules(text, options?.onRefused).map((r) => make('USER PREFERENCES', r));
    case 'anti_pattern': {
      const lesson = sanitizeKeyPointText(insight.recommendation ?? '');
      return keepsFailure(tags) && lesson ? [make('MISTAKES TO AVOID', lesson)] : [];
    }
    default:
      return [];
  }
}

/**
 * What one user turn says about the key points the reply before it cited: `harmful` when it corrects
 * the reply or complains without saying what to do instead (friction evidence, never a preference),
 * `helpful` when it only approves, else undefined. `insights` are the turn's own.
 *
 * @example
 * ```ts
 * turnVerdict(heuristicReflect([{ role: 'user', content: 'Perfect, thanks!' }]), 'Perfect, thanks!');
 * // { tag: 'helpful', reason: 'approved' }
 * ```
 */
export function turnVerdict(insights: readonly InsightLike[], turnText: string): TurnVerdict | undefined {
  if (!Array.isArray(insights)) return undefined;
  if (insights.some((i) => i.category === 'correction')) return { tag: 'harmful', reason: 'corrected' };
  if (insights.some((i) => i.category === 'friction') && !rules(turnText).length) {
    return { tag: 'harmful', reason: 'complained about' };
  }
  if (insights.some(isApproval)) return { tag: 'helpful', reason: 'approved' };
  return undefined;
}

/**
 * The turn's standing instructions, each as one well-formed sentence (`keyPointVerdict`); a one-off
 * request ("Rename the title", a pasted error, a question) is evidence only, and `onRefused` hears
 * why when the turn gives none.
 */
/** A sentence of liking ("I like the…", "I really love it."), with what came before it kept. */
const PRAISE = /(^|[.!?]\s+|\n)i (?:really |just |do )?(?:like|love)\b[^.!?\n]*[.!?]?/gi;

/**
 * The last turn's verdict: one turn is often two insights (a correction and friction, a preference
 * and an approval), and the writer's verdict depends on the text alone.
 */
let lastText: string | undefined;
let lastVerdict: ReturnType<typeof keyPointVerdict> | undefined;

function rules(text: string, onRefused?: (reason: string) => void): string[] {
  const verdict = text === lastText && lastVerdict ? lastVerdict : keyPointVerdict(text);
  lastText = text;
  lastVerdict = verdict;
  const { keyPoints, refused } = verdict;
  if (!keyPoints && refused !== undefined) onRefused?.(refused);
  return keyPoints ?? [];
}

/** The agent's action or claim a correction answered, on one line: a tool call or a reply's first sentence. */
function correctedContext(previous: TurnContext['previous']): string | undefined {
  if (previous === null || typeof previous !== 'object') return undefined;
  // Placeholders such as `<thinking-content-…>` or `<think>` say nothing about what was done.
  const body = contentText(previous.content)
    ?.replace(/<\/?[\w-]+>/g, ' ')
    .trim();
  if (typeof previous.toolName === 'string' && previous.toolName) {
    const what = body ? callSummary(body) : '';
    return clip(`${previous.toolName}${what ? ` ${what}` : ''}`);
  }
  if (!body) return undefined;
  const first = firstSentence(body);
  return first ? clip(first) : undefined;
}

/**
 * A reply's first sentence that says something: past a short exclamation ("Perfect!", "Yes, this
 * makes perfect sense!") and a Markdown heading when more follows; code blocks left out.
 */
function firstSentence(text: string): string {
  // Sentences are read one at a time up to the first that qualifies: a long reply is not split whole.
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, ' ');
  const boundary = /(?<=[.!?])\s|\n/g;
  let first: string | undefined;
  for (let from = 0; from <= prose.length; ) {
    const m = boundary.exec(prose);
    const to = m ? m.index : prose.length;
    const part = prose.slice(from, to).trim();
    from = m ? to + m[0].length : prose.length + 1;
    if (part === '') continue;
    first ??= part;
    if (!part.startsWith('#') && !(part.endsWith('!') && part.split(/\s+/).length <= 6)) return part;
  }
  return (first ?? '').replace(/^#+\s*/, '');
}

/** Keys of a tool input that name what the call acts on: a command, a file, a URL, a search. */
const TARGET_KEYS = [
  'command',
  'file_path',
  'path',
  'absolutePath',
  'AbsolutePath',
  'TargetFile',
  'url',
  'pattern',
  'regex',
  'query',
];
/** Keys of a tool input that hold the agent's words: a plan, an answer, a question (Cline, Claude Code). */
const PROSE_KEYS = ['response', 'result', 'question', 'plan'];

/**
 * A tool input in a few words: its command's first line, the file or URL it names, or the first
 * sentence of the words it carries (Cline's `plan_mode_respond` and `attempt_completion`).
 */
function callSummary(input: string): string {
  try {
    const v = JSON.parse(input) as Record<string, unknown>;
    for (const key of TARGET_KEYS)
      if (typeof v?.[key] === 'string') return (v[key] as string).split('\n', 1)[0]!;
    for (const key of PROSE_KEYS) if (typeof v?.[key] === 'string') return firstSentence(v[key] as string);
    return '';
  } catch {
    return input.split('\n', 1)[0]!;
  }
}

function clip(text: string): string {
  // Whitespace only: a caller printing it to a terminal strips whole control sequences, which
  // removing their ESC here would leave behind as text.
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = truncateUtf8(line, CONTEXT_BYTES);
  return cut.length < line.length ? `${cut}…` : cut;
}
