/**
 * Redaction of what a playbook persists and what it puts into prompts. A model's output is untrusted
 * text like any other: a Curator that echoes a key from an old playbook or invents one must not get it
 * stored or injected. Each helper makes one fresh redactor per call, so a value keeps one placeholder
 * within the call and placeholders already in the text (`[email-1]`) stay as they are.
 *
 * @module
 */
import { createRedactor, type RedactOptions, type Redactor } from '../redact/index.js';
import type { DeltaOperation } from './delta.js';
import type { Playbook } from './model.js';
import type { ReflectorResult } from './reflection-result.js';
import { sanitizeKeyPointText } from './sanitize.js';

/**
 * The redactor for a `redact` option: none for `false`, the defaults for `true` or `undefined`, else
 * the given `rearview/redact` options.
 *
 * @example
 * ```ts
 * redactorFor(false);                          // undefined
 * redactorFor({ kinds: { email: false } })?.redactText('ghp_…'); // '[github-token-1]'
 * ```
 */
export function redactorFor(redact: boolean | RedactOptions | undefined): Redactor | undefined {
  if (redact === false) return undefined;
  return createRedactor(redact === true || redact === undefined ? undefined : redact);
}

/**
 * Delta operations with every text (ADD, UPDATE, MERGE) redacted and sanitized again (a placeholder
 * can be longer than what it replaced), ready to persist. Operations without text are kept as they
 * are; `redact: false` returns the list unchanged.
 *
 * @example
 * ```ts
 * redactOperations([{ type: 'ADD', section: 'OTHERS', text: 'Mail jane@corp.io' }])[0].text;
 * // 'Mail [email-1]'
 * ```
 */
export function redactOperations(
  operations: readonly DeltaOperation[],
  redact?: boolean | RedactOptions,
): DeltaOperation[] {
  const redactor = redactorFor(redact);
  if (!redactor) return [...operations];
  return operations.map((op) =>
    'text' in op && typeof op.text === 'string'
      ? { ...op, text: sanitizeKeyPointText(redactor.redactText(op.text)) }
      : op,
  );
}

/**
 * A copy of the playbook with every key point text redacted, for building a prompt from stored text
 * that may predate redaction or come from another writer. `redact: false` returns the playbook itself.
 *
 * @example
 * ```ts
 * const safe = redactPlaybookTexts(await store.load('default'));
 * const { text } = selectForPrompt(safe, query, { tokenBudget: 800 });
 * ```
 */
export function redactPlaybookTexts(playbook: Playbook, redact?: boolean | RedactOptions): Playbook {
  const redactor = redactorFor(redact);
  if (!redactor) return playbook;
  const sections = { ...playbook.sections };
  for (const name of Object.keys(sections) as (keyof Playbook['sections'])[]) {
    const list = sections[name];
    if (!Array.isArray(list)) continue;
    sections[name] = list.map((kp) =>
      typeof kp?.text === 'string' ? { ...kp, text: redactor.redactText(kp.text) } : kp,
    );
  }
  return { ...playbook, sections };
}

/**
 * A Reflector result with its analysis and tag rationales redacted: they are shown to the user, sent
 * to the Curator and may be logged with the tags.
 *
 * @example
 * ```ts
 * redactReflection({ analysis: 'key sk-ant-api03-…', keyPointTags: [] }).analysis; // 'key [anthropic-key-1]'
 * ```
 */
export function redactReflection(
  reflection: ReflectorResult,
  redact?: boolean | RedactOptions,
): ReflectorResult {
  const redactor = redactorFor(redact);
  if (!redactor) return reflection;
  return {
    analysis: redactor.redactText(reflection.analysis),
    keyPointTags: reflection.keyPointTags.map((t) =>
      t.rationale ? { ...t, rationale: redactor.redactText(t.rationale) } : t,
    ),
  };
}
