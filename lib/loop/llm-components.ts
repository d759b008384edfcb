/**
 * LLM-backed generator, critiquer and reviser. Replies are parsed with `extractJson` and validated
 * with valibot: a reply of the wrong shape is answered once with a repair request naming the problem,
 * then rejected with a `ValidationError` (code `llm_reply_invalid`). Every call honours the step's
 * signal and reports its usage to the run's meter, so budgets see it.
 */
import * as v from 'valibot';
import { extractJson, ValidationError } from '../core/index.js';
import {
  type LlmClient,
  type LlmMessage,
  type LlmRequest,
  type LlmResponse,
  withRedaction,
} from '../llm/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { Candidate, Critique, StepContext } from './types.js';

/** Options shared by the three LLM components. */
export interface LlmComponentOptions {
  llm: LlmClient;
  /** Replaces the component's system prompt. */
  system?: string;
  /** Output token cap per call. Defaults: generator 1024, critiquer 512, reviser 2048. */
  maxTokens?: number;
  temperature?: number;
  /** Overrides the client's model. */
  model?: string;
  /**
   * Redact secrets and personal data from every request (placeholders in the reply are restored).
   * Default `true`; `false` sends text as given; an object tunes `rearview/redact`.
   */
  redact?: boolean | RedactOptions;
}

/** Options of {@link llmCritiquer} and {@link llmReviser}, which ask for JSON replies. */
export interface LlmJsonComponentOptions extends LlmComponentOptions {
  /** Repair requests after a reply of the wrong shape. Default 1. */
  maxRepairs?: number;
}

/**
 * Calls `llm` with the step's signal, checking the budget first and recording the usage after.
 *
 * @example
 * ```ts
 * const critiquer = async (prompt, candidate, ctx) => {
 *   const res = await meteredComplete(llm, { messages: [...], maxTokens: 200 }, ctx);
 *   return parseMyCritique(res.text);
 * };
 * ```
 */
export async function meteredComplete(
  llm: LlmClient,
  request: LlmRequest,
  ctx?: Pick<StepContext, 'signal' | 'usage'>,
): Promise<LlmResponse> {
  ctx?.usage?.assertAvailable();
  const res = await llm.complete(ctx?.signal ? { ...request, signal: ctx.signal } : request);
  ctx?.usage?.record(res.usage);
  return res;
}

/**
 * The default system prompt of {@link llmGenerator}; pass `system` to replace it.
 *
 * @example
 * ```ts
 * const generator = llmGenerator({ llm, system: `${GENERATOR_SYSTEM} Answer in French.` });
 * ```
 */
export const GENERATOR_SYSTEM =
  'You are a careful expert. Answer the task directly and completely. When lessons from earlier ' +
  'attempts are given, apply them: do not repeat the mistakes they describe.';

/**
 * The default system prompt of {@link llmCritiquer}: asks for a JSON object matching
 * {@link CritiqueReplySchema}. A replacement `system` must ask for the same shape.
 *
 * @example
 * ```ts
 * const critiquer = llmCritiquer({ llm, system: `${CRITIQUER_SYSTEM}\nBe especially strict about SQL.` });
 * ```
 */
export const CRITIQUER_SYSTEM =
  'You are a strict reviewer. Judge the answer to the task: list every concrete problem (errors, ' +
  'omissions, unclear parts). Reply with only a JSON object, no prose:\n' +
  '{"issues": ["..."], "severity": 0.0, "score": 0.0, "feedback": "..."}\n' +
  'severity is in [0, 1]: 0 means nothing to fix, 1 means wrong or unusable. score is in [0, 1], ' +
  'higher is better. feedback says how to fix the issues. Use an empty issues list when the answer is right.';

/**
 * The default system prompt of {@link llmReviser}: asks for a JSON object matching
 * {@link RevisionReplySchema}. A replacement `system` must ask for the same shape.
 *
 * @example
 * ```ts
 * const reviser = llmReviser({ llm, system: `${REVISER_SYSTEM}\nKeep the answer under 200 words.` });
 * ```
 */
export const REVISER_SYSTEM =
  'You revise answers. Fix every issue the critique lists and keep everything that is correct. Reply ' +
  'with only a JSON object, no prose:\n' +
  '{"content": "the full revised answer", "changes": ["what you changed and why"]}';

/**
 * A generator that asks the model for an answer, with retrieved lessons as context.
 *
 * @example
 * ```ts
 * const generator = llmGenerator({ llm: anthropicClient({ apiKey }) });
 * ```
 */
export function llmGenerator(options: LlmComponentOptions): {
  generate(prompt: string, ctx?: StepContext): Promise<Candidate>;
} {
  return {
    async generate(prompt, ctx) {
      const content = `${ctx?.memoryPrompt ? `${ctx.memoryPrompt}\n\n` : ''}Task:\n${prompt}`;
      const res = await meteredComplete(
        llm(options),
        request(options, GENERATOR_SYSTEM, 1024, [user(content)]),
        ctx,
      );
      const text = res.text.trim();
      if (!text) {
        throw new ValidationError([{ path: 'text', message: 'the reply is empty' }], {
          code: 'llm_reply_invalid',
          subject: 'Generator reply',
        });
      }
      return { content: text, metadata: { model: res.model, usage: { ...res.usage } } };
    },
  };
}

const unit = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const SEVERITY_WORDS: Record<string, number> = {
  none: 0,
  low: 0.25,
  minor: 0.25,
  medium: 0.5,
  moderate: 0.5,
  high: 0.75,
  major: 0.75,
  critical: 1,
};
const issueText = v.union([
  v.pipe(v.string(), v.trim(), v.minLength(1)),
  v.pipe(
    v.looseObject({
      description: v.optional(v.string()),
      message: v.optional(v.string()),
      issue: v.optional(v.string()),
    }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const text = (dataset.value.description ?? dataset.value.message ?? dataset.value.issue ?? '').trim();
      if (!text) {
        addIssue({ message: 'an issue object needs a description, message or issue string' });
        return NEVER;
      }
      return text;
    }),
  ),
]);

/**
 * valibot schema of a critiquer reply: `issues` (strings, or objects with a description), `severity`
 * in [0, 1] or a word (`low` 0.25, `medium` 0.5, `high` 0.75, `critical` 1, …), optional `score` and
 * `feedback`.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 *
 * v.parse(CritiqueReplySchema, { issues: ['off by one'], severity: 'high' }).severity; // 0.75
 * ```
 */
export const CritiqueReplySchema = v.object({
  issues: v.array(issueText),
  severity: v.union([
    unit,
    v.pipe(
      v.string(),
      v.transform((s) => s.trim().toLowerCase()),
      v.picklist(Object.keys(SEVERITY_WORDS)),
      v.transform((s) => SEVERITY_WORDS[s]!),
    ),
  ]),
  score: v.nullish(unit),
  feedback: v.nullish(v.string()),
});

/**
 * valibot schema of a reviser reply: a non-empty `content` and optional `changes` (a string or a list
 * of strings).
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 *
 * v.safeParse(RevisionReplySchema, { content: 'SELECT 1', changes: ['fixed the join'] }).success; // true
 * ```
 */
export const RevisionReplySchema = v.object({
  content: v.pipe(
    v.string(),
    v.check((s) => s.trim().length > 0, 'must not be empty'),
  ),
  changes: v.nullish(v.union([v.array(v.string()), v.string()])),
});

/**
 * A critiquer that asks the model for `{ issues, severity, score, feedback }`.
 *
 * @example
 * ```ts
 * const critiquer = llmCritiquer({ llm, maxRepairs: 1 });
 * ```
 */
export function llmCritiquer(options: LlmJsonComponentOptions): {
  critique(prompt: string, candidate: Candidate, ctx?: StepContext): Promise<Critique>;
} {
  return {
    async critique(prompt, candidate, ctx) {
      const content =
        `Task:\n${prompt}\n\n` +
        (ctx?.memoryPrompt
          ? `${ctx.memoryPrompt}\n\nCheck in particular that these mistakes are not repeated.\n\n`
          : '') +
        `Answer to judge:\n${candidate.content}`;
      const { value, res } = await askJson(
        options,
        CRITIQUER_SYSTEM,
        512,
        content,
        CritiqueReplySchema,
        'Critique',
        ctx,
      );
      return {
        issues: value.issues,
        severity: value.severity,
        ...(typeof value.score === 'number' ? { score: value.score } : {}),
        ...(value.feedback ? { feedback: value.feedback } : {}),
        metadata: { model: res.model, usage: { ...res.usage } },
      };
    },
  };
}

/**
 * A reviser that asks the model for `{ content, changes }`; `changes` lands in `metadata.changes`
 * (and becomes the lesson the loop remembers).
 *
 * @example
 * ```ts
 * const reviser = llmReviser({ llm });
 * ```
 */
export function llmReviser(options: LlmJsonComponentOptions): {
  revise(prompt: string, candidate: Candidate, critique: Critique, ctx?: StepContext): Promise<Candidate>;
} {
  return {
    async revise(prompt, candidate, critique, ctx) {
      const issues = critique.issues.length
        ? critique.issues.map((i) => `- ${i}`).join('\n')
        : '- (none listed)';
      const content =
        `Task:\n${prompt}\n\n` +
        (ctx?.memoryPrompt ? `${ctx.memoryPrompt}\n\n` : '') +
        `Current answer:\n${candidate.content}\n\n` +
        `Critique (severity ${critique.severity}):\n${issues}` +
        (critique.feedback ? `\n\nFeedback: ${critique.feedback}` : '');
      const { value, res } = await askJson(
        options,
        REVISER_SYSTEM,
        2048,
        content,
        RevisionReplySchema,
        'Revision',
        ctx,
      );
      const changes = typeof value.changes === 'string' ? [value.changes] : (value.changes ?? []);
      return { content: value.content, metadata: { changes, model: res.model, usage: { ...res.usage } } };
    },
  };
}

async function askJson<S extends v.GenericSchema>(
  options: LlmJsonComponentOptions,
  system: string,
  maxTokens: number,
  content: string,
  schema: S,
  subject: string,
  ctx: StepContext | undefined,
): Promise<{ value: v.InferOutput<S>; res: LlmResponse }> {
  const messages: LlmMessage[] = [user(content)];
  const repairs = options.maxRepairs ?? 1;
  for (let attempt = 0; ; attempt++) {
    const res = await meteredComplete(llm(options), request(options, system, maxTokens, messages), ctx);
    const outcome = parseReply(schema, res.text);
    if (outcome.ok) return { value: outcome.value, res };
    const problems = outcome.issues;
    if (attempt >= repairs) {
      throw new ValidationError(problems, { code: 'llm_reply_invalid', subject: `${subject} reply` });
    }
    const described = problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ');
    messages.push(
      { role: 'assistant', content: res.text || '(empty reply)' },
      user(
        `That reply could not be used (${described}). Reply again with only the JSON object described above.`,
      ),
    );
  }
}

type Parsed<T> = { ok: true; value: T } | { ok: false; issues: { path: string; message: string }[] };

/** extractJson, then the schema: the reply's shape is never trusted. */
function parseReply<S extends v.GenericSchema>(schema: S, text: string): Parsed<v.InferOutput<S>> {
  const json = extractJson(text);
  if (json === undefined) return { ok: false, issues: [{ path: '', message: 'the reply contains no JSON' }] };
  const parsed = v.safeParse(schema, json);
  if (parsed.success) return { ok: true, value: parsed.output };
  return {
    ok: false,
    issues: parsed.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message })),
  };
}

/** The component's client, redacting requests unless the caller opted out. */
function llm(options: LlmComponentOptions): LlmClient {
  return withRedaction(options.llm, options.redact);
}

function user(content: string): LlmMessage {
  return { role: 'user', content };
}

function request(
  options: LlmComponentOptions,
  system: string,
  maxTokens: number,
  messages: LlmMessage[],
): LlmRequest {
  return {
    system: options.system ?? system,
    messages: [...messages],
    maxTokens: options.maxTokens ?? maxTokens,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.model !== undefined ? { model: options.model } : {}),
  };
}
