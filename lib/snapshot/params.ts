/**
 * The tunable numbers of trajectory reduction, described once: default, valid range, step, unit, help
 * text, the playground's URL key and the CLI's flag. The playground's sliders and shared URLs, its
 * worker and the `rearview` CLI all read these specs, so a range cannot drift between them.
 */

import { DIET_A, DIET_B, DIET_THETA } from '../compress/index.js';
import { ValidationError } from '../core/index.js';
import { MIN_SAVINGS_TOKENS, MIN_SNAPSHOT_TOKENS } from './constants.js';
import { MAX_CATEGORY_ITEMS, MAX_TEXT_LENGTH, NEAR_DUPLICATE_THRESHOLD } from './deterministic.js';

/**
 * The name of a tunable parameter: the option of the same name of `deterministicSnapshot` /
 * `computeTrajectoryReduction`, or AgentDiet's `a`, `b`, `theta` (`reduceTrajectory`; `a` is also
 * `compactTrajectory`'s `keepRecent`).
 *
 * @example
 * ```ts
 * const name: ParamName = 'maxCategoryItems';
 * ```
 */
export type ParamName =
  | 'minSnapshotTokens'
  | 'minSavingsTokens'
  | 'maxCategoryItems'
  | 'maxTextLength'
  | 'nearDuplicateThreshold'
  | 'a'
  | 'b'
  | 'theta';

/**
 * One value per parameter.
 *
 * @example
 * ```ts
 * const values: ParamValues = { ...PARAM_DEFAULTS, maxCategoryItems: 10 };
 * ```
 */
export type ParamValues = Record<ParamName, number>;

/**
 * How a parameter is shown, shared and parsed.
 *
 * @example
 * ```ts
 * const spec: ParamSpec = PARAM_SPECS.maxTextLength;
 * spec.min; // 20
 * ```
 */
export interface ParamSpec {
  name: ParamName;
  /** The library's own default. */
  default: number;
  /** Smallest valid value (inclusive). */
  min: number;
  /** Largest value offered (inclusive). */
  max: number;
  /** Slider increment. */
  step: number;
  /** Whole numbers only. */
  integer: boolean;
  unit: 'tokens' | 'items' | 'characters' | 'similarity' | 'steps';
  /** Short label for a control. */
  label: string;
  help: string;
  /** Key in the playground's query string (kept short: links are shared). */
  query: string;
  /** CLI option, without the leading `--`. */
  flag: string;
  /**
   * What reads it: `caps` shape the snapshot itself (`SnapshotOptions`), `gates` decide whether a
   * reflection runs and is adopted (`computeTrajectoryReduction`), `diet` is AgentDiet step compression.
   */
  group: 'caps' | 'gates' | 'diet';
}

type SpecBody = Omit<ParamSpec, 'name'>;

// Ranges: the gates take any count of tokens, so their maxima are where a slider stops being useful
// (well above a default snapshot); a cap below 1 item or 20 characters leaves nothing readable; a
// similarity of 0 would merge unrelated items; AgentDiet needs a ≥ 1 (a = 0 rewrites the step in
// progress) and θ ≥ 10 (a smaller θ calls the model for steps too small to save anything).
const SPECS: { [K in ParamName]: SpecBody } = {
  minSnapshotTokens: {
    default: MIN_SNAPSHOT_TOKENS,
    min: 0,
    max: 5000,
    step: 10,
    integer: true,
    unit: 'tokens',
    label: 'Reflect from snapshot size',
    help: 'Reflect only when the deterministic snapshot has at least this many tokens.',
    query: 'minSnap',
    flag: 'min-snapshot-tokens',
    group: 'gates',
  },
  minSavingsTokens: {
    default: MIN_SAVINGS_TOKENS,
    min: 0,
    max: 5000,
    step: 10,
    integer: true,
    unit: 'tokens',
    label: 'Adopt from savings',
    help: 'Adopt the reflection only when it saves at least this many tokens.',
    query: 'minSave',
    flag: 'min-savings-tokens',
    group: 'gates',
  },
  maxCategoryItems: {
    default: MAX_CATEGORY_ITEMS,
    min: 1,
    max: 100,
    step: 1,
    integer: true,
    unit: 'items',
    label: 'Items per category (cap)',
    help: 'At most this many items in each list.',
    query: 'items',
    flag: 'max-category-items',
    group: 'caps',
  },
  maxTextLength: {
    default: MAX_TEXT_LENGTH,
    min: 20,
    max: 2000,
    step: 10,
    integer: true,
    unit: 'characters',
    label: 'Characters per item (cap)',
    help: 'Longer items are cut.',
    query: 'len',
    flag: 'max-text-length',
    group: 'caps',
  },
  nearDuplicateThreshold: {
    default: NEAR_DUPLICATE_THRESHOLD,
    min: 0.05,
    max: 1,
    step: 0.05,
    integer: false,
    unit: 'similarity',
    label: 'Near-duplicate similarity',
    help: 'Jaccard similarity from which two items are consolidated.',
    query: 'near',
    flag: 'near-duplicate-threshold',
    group: 'caps',
  },
  a: {
    default: DIET_A,
    min: 1,
    max: 8,
    step: 1,
    integer: true,
    unit: 'steps',
    label: 'AgentDiet a (delay)',
    help: 'At step s, step s − a is compressed; the last a steps are kept.',
    query: 'a',
    flag: 'keep-recent',
    group: 'diet',
  },
  b: {
    default: DIET_B,
    min: 0,
    max: 8,
    step: 1,
    integer: true,
    unit: 'steps',
    label: 'AgentDiet b (context)',
    help: 'Steps before the target shown to the model.',
    query: 'b',
    flag: 'diet-b',
    group: 'diet',
  },
  theta: {
    default: DIET_THETA,
    min: 10,
    max: 5000,
    step: 10,
    integer: true,
    unit: 'tokens',
    label: 'AgentDiet θ (tokens)',
    help: 'Compress only steps of at least θ tokens, saving at least θ.',
    query: 'theta',
    flag: 'diet-theta',
    group: 'diet',
  },
};

/**
 * Every tunable parameter's spec, by name.
 *
 * @example
 * ```ts
 * const { min, max, step } = PARAM_SPECS.nearDuplicateThreshold; // 0.05, 1, 0.05
 * ```
 */
export const PARAM_SPECS: Readonly<{ [K in ParamName]: Readonly<ParamSpec> }> = Object.freeze(
  Object.fromEntries(
    Object.entries(SPECS).map(([name, body]) => [name, Object.freeze({ name, ...body })]),
  ) as { [K in ParamName]: ParamSpec },
);

/**
 * The parameter names in display order (snapshot caps and gates, then AgentDiet).
 *
 * @example
 * ```ts
 * for (const name of PARAM_NAMES) console.log(`--${PARAM_SPECS[name].flag}`);
 * ```
 */
export const PARAM_NAMES: readonly ParamName[] = Object.freeze(Object.keys(SPECS) as ParamName[]);

/**
 * The library's defaults, one per parameter.
 *
 * @example
 * ```ts
 * deterministicSnapshot(input, { ...PARAM_DEFAULTS, maxCategoryItems: 10 });
 * ```
 */
export const PARAM_DEFAULTS: Readonly<ParamValues> = Object.freeze(
  Object.fromEntries(PARAM_NAMES.map((n) => [n, SPECS[n].default])) as ParamValues,
);

/**
 * A value brought into a parameter's range: rounded when the parameter is whole, clamped to
 * `[min, max]`; anything that is not a finite number becomes the default. For forgiving inputs such as
 * a shared URL.
 *
 * @example
 * ```ts
 * clampParam('maxCategoryItems', 500); // 100
 * clampParam('a', Number('x')); // 2
 * ```
 */
export function clampParam(name: ParamName, value: number): number {
  const spec = PARAM_SPECS[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) return spec.default;
  const v = spec.integer ? Math.round(value) : value;
  return Math.min(spec.max, Math.max(spec.min, v));
}

/**
 * The values of the parameters in `groups`, taken from `values` where set: `caps` for
 * `deterministicSnapshot`, `caps` and `gates` for `computeTrajectoryReduction`, `diet` for AgentDiet.
 *
 * @example
 * ```ts
 * deterministicSnapshot(input, pickParams(settings, 'caps'));
 * computeTrajectoryReduction(input, { llm, ...pickParams(settings, 'caps', 'gates') });
 * ```
 */
export function pickParams(
  values: Partial<ParamValues>,
  ...groups: ParamSpec['group'][]
): Partial<ParamValues> {
  const out: Partial<ParamValues> = {};
  for (const name of PARAM_NAMES) {
    if (groups.includes(PARAM_SPECS[name].group) && values[name] !== undefined) out[name] = values[name];
  }
  return out;
}

/** Why `text` is not a valid value of `spec`, or null. */
function problem(spec: ParamSpec, text: string): string | null {
  const n = text.trim() === '' ? Number.NaN : Number(text);
  const range = `${spec.integer ? 'a whole number' : 'a number'} from ${spec.min} to ${spec.max}`;
  if (!Number.isFinite(n) || (spec.integer && !Number.isInteger(n)) || n < spec.min || n > spec.max)
    return `must be ${range} (got ${JSON.stringify(text)})`;
  return null;
}

/**
 * Reads a parameter strictly, for inputs that should be refused rather than corrected (a CLI flag):
 * the text must be a finite number in range, whole when the parameter is. Throws a `ValidationError`
 * (code `validation_failed`) naming the parameter and its range.
 *
 * @example
 * ```ts
 * parseParam('maxTextLength', '300'); // 300
 * parseParam('maxTextLength', '5'); // throws: maxTextLength must be a whole number from 20 to 2000 (got "5")
 * ```
 */
export function parseParam(name: ParamName, text: string): number {
  const spec = PARAM_SPECS[name];
  const why = problem(spec, String(text));
  if (why) throw new ValidationError([{ path: name, message: why }], { subject: 'Parameter' });
  return Number(text);
}
