/**
 * The gate of post-turn reflection: it runs only when allowed, asked for by the planner, and not a
 * dry run; and the sanitizer that turns a planner's loose reflection flag into a boolean.
 */

import type { ReflectionBundle, ReflectionSkip } from './bundle.js';
import type { ReflectionConfig } from './config.js';

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'on']);

/**
 * The planner flag sanitizer: `true`, non-zero finite numbers and the strings `true`, `1`, `yes`,
 * `y`, `on` (any case, trimmed) are `true`; everything else is `false`.
 *
 * @example
 * ```ts
 * coerceReflectionFlag('True'); // true
 * coerceReflectionFlag(0); // false
 * ```
 */
export function coerceReflectionFlag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) && value !== 0;
  if (typeof value === 'string') return TRUE_WORDS.has(value.trim().toLowerCase());
  return false;
}

/**
 * A plan with its `reflection` flag coerced to a boolean (planner output sanitizer).
 *
 * @example
 * ```ts
 * sanitizePlanReflection({ speak: 'hi', reflection: 'yes' }); // { speak: 'hi', reflection: true }
 * ```
 */
export function sanitizePlanReflection<T extends object>(
  plan: T,
): Omit<T, 'reflection'> & { reflection: boolean } {
  return { ...plan, reflection: coerceReflectionFlag((plan as { reflection?: unknown }).reflection) };
}

/**
 * Whether the planner asked for reflection: `plan.reflection`, or the flag an LLM planner stashed in
 * `policyState.reflection`.
 *
 * @example
 * ```ts
 * planRequestsReflection({ plan: { reflection: false }, policyState: { reflection: 'true' } }); // true
 * ```
 */
export function planRequestsReflection(bundle: Pick<ReflectionBundle, 'plan' | 'policyState'>): boolean {
  return (
    coerceReflectionFlag(bundle?.plan?.reflection) || coerceReflectionFlag(bundle?.policyState?.reflection)
  );
}

/**
 * The gate: reflection runs only when `allowReflection` is on, the planner asks, and it is not a dry run.
 *
 * @example
 * ```ts
 * reflectionGate(config, bundle, { dryRun: false }); // { run: true }
 * ```
 */
export function reflectionGate(
  config: Pick<ReflectionConfig, 'allowReflection'>,
  bundle: Pick<ReflectionBundle, 'plan' | 'policyState'>,
  options: { dryRun?: boolean } = {},
): { run: true } | { run: false; skipped: ReflectionSkip } {
  if (config.allowReflection !== true) return { run: false, skipped: 'disabled' };
  if (!planRequestsReflection(bundle)) return { run: false, skipped: 'not_requested' };
  if (options.dryRun === true) return { run: false, skipped: 'dry_run' };
  return { run: true };
}
