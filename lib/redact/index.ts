/**
 * `rearview/redact`: replaces secrets and personal data — API keys, tokens, private keys, URL
 * credentials, `PASSWORD=`-style settings, email addresses and your own patterns — with stable numbered
 * placeholders before text leaves the device or is persisted. One linear pass; runs unchanged in every JavaScript runtime.
 *
 * @example
 * ```ts
 * import { redact, createRedactor } from 'rearview/redact';
 *
 * redact('mail jane@corp.io').text; // 'mail [email-1]'
 * const r = createRedactor();
 * r.redactText('a jane@corp.io'); r.redactText('b jane@corp.io'); // both say [email-1]
 * ```
 *
 * @module
 */
export { BUILTIN_KINDS, type BuiltinKind } from './kinds.js';
export {
  createRedactor,
  type RedactAllow,
  type RedactableMessage,
  type RedactFinding,
  type RedactOptions,
  type Redactor,
  type RedactPattern,
  type RedactResult,
  redact,
  redactMessages,
  redactText,
} from './redactor.js';
