/**
 * The Curator (ACE's third role): turns a Reflector result into delta operations (ADD, UPDATE, MERGE,
 * REMOVE). The model proposes; {@link normalizeCuratorOperations} validates and sanitizes; `applyDelta`
 * applies deterministically and rejects any operation whose target does not exist — a missing or
 * unknown target is never guessed or redirected.
 *
 * @module
 */
import { describeError, extractJson, truncateUtf8 } from '../core/index.js';
import type { LlmClient } from '../llm/index.js';
import type { RedactOptions } from '../redact/index.js';
import type { DeltaOperation, Provenance } from './delta.js';
import { formatKeyPoints } from './format.js';
import { type Playbook, SECTION_NAMES, SECTION_SLUGS, type SectionName } from './model.js';
import { type PlaybookDiagnostic, replyOrReport, safeReporter } from './model-call.js';
import { redactOperations, redactorFor } from './redaction.js';
import type { ReflectorResult } from './reflector.js';
import { type SanitizeOptions, sanitizeKeyPointText, sanitizeProvenance } from './sanitize.js';
import { CURATOR_TEMPLATE, fillTemplate } from './templates.js';

/** A Curator diagnostic: an absorbed failure or a repaired reply. */
/** A diagnostic of {@link runCurator}: see {@link PlaybookDiagnostic}. */
export type CuratorDiagnostic = PlaybookDiagnostic;

/** Options of {@link runCurator}. */
export interface CuratorOptions {
  llm: LlmClient;
  /**
   * Cancels the call; an aborted call gives no operations and an `llm_aborted` diagnostic at once,
   * even when the client ignores the signal.
   */
  signal?: AbortSignal;
  /**
   * Time limit of the model call in milliseconds, retries included: past it there are no operations
   * and an `llm_timeout` diagnostic. Default {@link DEFAULT_MODEL_TIMEOUT_MS} (60,000); `Infinity` turns
   * it off.
   */
  timeoutMs?: number;
  /**
   * Redact the prompt (playbook, analysis, rationales) and the texts of the operations returned, which
   * are persisted and later put into system prompts. Default true; false opts out; an object tunes it.
   */
  redact?: boolean | RedactOptions;
  onDiagnostic?: (diagnostic: CuratorDiagnostic) => void;
  /** Most operations accepted from one reply (the rest are rejected). Default 10. */
  maxOperations?: number;
  /** Provenance stamped on added, updated and merged key points. */
  source?: Provenance;
  /** Bound on key point text. */
  sanitize?: SanitizeOptions;
  /** Output token cap. Default 2048. */
  maxTokens?: number;
  model?: string;
  /** Default 0. */
  temperature?: number;
  /** Replaces {@link CURATOR_TEMPLATE} (same placeholders). */
  template?: string;
}

/** What {@link runCurator} returns. */
export interface CuratorResult {
  /** Validated, sanitized operations, ready for `applyDelta` / `PlaybookStore.applyDelta`. */
  operations: DeltaOperation[];
  /** Proposals refused before application, with the reason. */
  rejected: { op: unknown; reason: string }[];
  /** The model's reasoning ('' when absent). */
  reasoning: string;
  /** False when no model call was made (nothing to curate). */
  called: boolean;
}

/**
 * Asks the model for delta operations that fold a Reflector result into the playbook. Skips the call
 * (`called: false`) when the reflection is empty — the Reflector failed or found nothing. Never rejects:
 * failures (an abort, the time limit `timeoutMs`) give no operations and a diagnostic. Operation texts
 * are redacted unless `redact: false`.
 *
 * @example
 * ```ts
 * const reflection = await runReflector(messages, pb, cited, { llm });
 * const { operations } = await runCurator(reflection, pb, { llm, source: { session: 'sess-42' } });
 * const { playbook, rejected } = applyDelta(pb, operations);
 * ```
 */
export async function runCurator(
  reflection: ReflectorResult,
  playbook: Playbook,
  options: CuratorOptions,
): Promise<CuratorResult> {
  const empty = (called: boolean): CuratorResult => ({ operations: [], rejected: [], reasoning: '', called });
  const report = safeReporter(options?.onDiagnostic);
  const analysis = typeof reflection?.analysis === 'string' ? reflection.analysis : '';
  const tags = Array.isArray(reflection?.keyPointTags) ? reflection.keyPointTags : [];
  if (!analysis.trim() && !tags.length) return empty(false);
  const reply = await replyOrReport(
    options,
    () => buildCuratorPrompt(reflection, playbook, options),
    report,
    'Curator',
  );
  if (reply === undefined) return empty(true);
  try {
    const json = extractJson(reply);
    const obj = json as { operations?: unknown; reasoning?: unknown } | undefined;
    const list = Array.isArray(json) ? json : obj?.operations;
    if (!Array.isArray(list)) {
      report({
        stage: json === undefined ? 'parse' : 'shape',
        code: 'reply_unparseable',
        message: 'Curator reply holds no list of operations',
        reply: truncateUtf8(reply, 2000),
      });
      return empty(true);
    }
    const normalized = normalizeCuratorOperations(list, options);
    const operations = redactOperations(normalized.operations, options?.redact);
    const rejected = normalized.rejected;
    if (rejected.length) {
      report({
        stage: 'shape',
        code: 'reply_partial',
        message: `Curator proposals refused: ${rejected.map((r) => r.reason).join('; ')}`,
        reply: truncateUtf8(reply, 2000),
      });
    }
    const reasoning =
      !Array.isArray(json) && typeof obj?.reasoning === 'string' ? truncateUtf8(obj.reasoning, 8000) : '';
    return { operations, rejected, reasoning, called: true };
  } catch (error) {
    report({ stage: 'internal', code: 'internal_error', message: describeError(error), error });
    return empty(true);
  }
}

/**
 * The Curator prompt: {@link CURATOR_TEMPLATE} with the playbook (ids and counts), the analysis and the
 * tags, redacted through one redactor unless `redact: false`.
 *
 * @example
 * ```ts
 * const prompt = buildCuratorPrompt(reflection, pb);
 * ```
 */
export function buildCuratorPrompt(
  reflection: ReflectorResult,
  playbook: Playbook,
  options: Pick<CuratorOptions, 'template' | 'maxOperations' | 'redact'> = {},
): string {
  // One redactor for the whole prompt, in prompt order: a value keeps one placeholder throughout.
  const redactor = redactorFor(options.redact);
  const clean = (text: string) => (redactor ? redactor.redactText(text) : text);
  const playbookText = clean(formatKeyPoints(playbook, { counts: true, empty: '(the playbook is empty)' }));
  const analysis =
    typeof reflection?.analysis === 'string' && reflection.analysis.trim()
      ? clean(reflection.analysis)
      : '(none)';
  const tags = (Array.isArray(reflection?.keyPointTags) ? reflection.keyPointTags : []).map(
    (t) => `- ${t.name}: ${t.tag}${t.rationale ? ` — ${clean(sanitizeKeyPointText(t.rationale))}` : ''}`,
  );
  return fillTemplate(options.template ?? CURATOR_TEMPLATE, {
    playbook: playbookText,
    analysis,
    bullet_tags: tags.length ? tags.join('\n') : '(none)',
    sections: SECTION_NAMES.map((s) => JSON.stringify(s)).join(', '),
    max_operations: String(options.maxOperations ?? 10),
  });
}

/** A section from its name (any case) or slug. */
function sectionFor(key: unknown): SectionName | undefined {
  if (typeof key !== 'string') return undefined;
  const k = key.trim().toLowerCase();
  return SECTION_NAMES.find((s) => s.toLowerCase() === k || SECTION_SLUGS[s] === k);
}

/**
 * Validates and cleans proposed operations: the type is matched case-insensitively; an ADD's section
 * may be given by name (any case) or slug and any `name` it proposes is dropped (ids are allocated, not
 * chosen by the model); texts are sanitized and bounded; UPDATE and REMOVE need an explicit `name`,
 * MERGE at least two distinct `names` — a missing target is rejected, never guessed. Provenance from
 * `options.source` is attached to ADD, UPDATE and MERGE. At most `maxOperations` are kept.
 *
 * @example
 * ```ts
 * normalizeCuratorOperations([{ type: 'update', text: 'x' }]).rejected[0].reason; // 'UPDATE without a target name'
 * ```
 */
export function normalizeCuratorOperations(
  list: readonly unknown[],
  options: Pick<CuratorOptions, 'maxOperations' | 'source' | 'sanitize'> = {},
): { operations: DeltaOperation[]; rejected: { op: unknown; reason: string }[] } {
  const max = options.maxOperations ?? 10;
  const source = sanitizeProvenance(options.source);
  const operations: DeltaOperation[] = [];
  const rejected: { op: unknown; reason: string }[] = [];
  const text = (t: unknown) => sanitizeKeyPointText(t, options.sanitize);
  const target = (n: unknown) => (typeof n === 'string' ? n.trim().replace(/^\[(.*)\]$/, '$1') : '');
  for (const raw of Array.isArray(list) ? list : []) {
    const reject = (reason: string) => rejected.push({ op: raw, reason });
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      reject('not an operation object');
      continue;
    }
    if (operations.length >= max) {
      reject(`over the limit of ${max} operations`);
      continue;
    }
    const o = raw as Record<string, unknown>;
    const type = typeof o.type === 'string' ? o.type.trim().toUpperCase() : '';
    switch (type) {
      case 'ADD': {
        const section = sectionFor(o.section);
        if (!section) {
          reject(`ADD with unknown section ${JSON.stringify(o.section)}`);
          break;
        }
        const t = text(o.text);
        if (!t) {
          reject('ADD without text');
          break;
        }
        operations.push({ type: 'ADD', section, text: t, ...(source ? { source } : {}) });
        break;
      }
      case 'UPDATE': {
        const name = target(o.name);
        if (!name) {
          reject('UPDATE without a target name');
          break;
        }
        const t = text(o.text);
        if (!t) {
          reject(`UPDATE of ${name} without text`);
          break;
        }
        operations.push({ type: 'UPDATE', name, text: t, ...(source ? { source } : {}) });
        break;
      }
      case 'MERGE': {
        const names = Array.isArray(o.names) ? o.names.map(target).filter(Boolean) : [];
        if (names.length < 2 || new Set(names).size !== names.length) {
          reject('MERGE needs at least two distinct target names');
          break;
        }
        const t = text(o.text);
        if (!t) {
          reject('MERGE without text');
          break;
        }
        const into = o.into === undefined ? undefined : target(o.into);
        if (o.into !== undefined && !into) {
          reject('MERGE with an empty "into"');
          break;
        }
        operations.push({
          type: 'MERGE',
          names,
          text: t,
          ...(into ? { into } : {}),
          ...(source ? { source } : {}),
        });
        break;
      }
      case 'REMOVE': {
        const name = target(o.name);
        if (!name) {
          reject('REMOVE without a target name');
          break;
        }
        operations.push({ type: 'REMOVE', name });
        break;
      }
      default:
        reject(`unknown operation type ${JSON.stringify(o.type)}`);
    }
  }
  return { operations, rejected };
}
