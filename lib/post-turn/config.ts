/**
 * The reflection config (reference design, section 3.1) in camelCase, its valibot schema and the validator
 * that enforces every rule of the reference design and reports all problems at once.
 */
import * as v from 'valibot';
import { ConfigError, describeError, type Issue } from '../core/index.js';
import { isBlank } from './text.js';

/** Reflection backends: a deterministic rule-based summariser, or an LLM replayed from fixtures. */
export type ReflectionBackend = 'rulebased' | 'llm';

/** A validated reflection config: every key present, defaults applied. */
export interface ReflectionConfig {
  /** The global gate (`t3.allow_reflection`). Default `false`: reflection never runs. */
  allowReflection: boolean;
  reflection: {
    /** Default `rulebased`; `llm` needs `llm.fixtures.enabled` (fixtures only, no network). */
    backend: ReflectionBackend;
    /** Whitespace-token cap of the summary. Default 128. */
    summaryTokens: number;
    /** Attach a deterministic 32-dimension embedding of the summary to each entry. Default `true`. */
    embed: boolean;
    /** Write a `t3_reflection.jsonl` record per reflection. Default `true`. */
    log: boolean;
    /** How many retrieval snippets the summariser sees. Default 3. */
    topkSnippets: number;
  };
  budgets: {
    /** Time budget in ms; on expiry `reason: "reflection_timeout"` and nothing is written. Default 6000. */
    timeMsReflection: number;
    /** Most memory entries one reflection may write. Default 5. */
    opsReflection: number;
  };
  llm: {
    fixtures: {
      /** Must be `true` to use the `llm` backend. Default `false`. */
      enabled: boolean;
      /**
       * Where the JSONL fixtures are: a URL fetched with `fetch` (browsers, workers, Deno, Bun, Node),
       * or a file path that the caller reads (Node, Deno, Bun) and passes as `options.fixtures`.
       */
      path?: string;
      /** The JSONL fixtures inline, for runtimes without files (browsers, workers). */
      jsonl?: string;
    };
  };
}

const NON_NEGATIVE = 'must be a non-negative integer';
const NonNegativeInt = v.pipe(
  v.number(NON_NEGATIVE),
  v.integer(NON_NEGATIVE),
  v.minValue(0, NON_NEGATIVE),
  v.maxValue(Number.MAX_SAFE_INTEGER, NON_NEGATIVE),
);
const Bool = v.boolean('must be a boolean');
const NonEmptyString = v.pipe(
  v.string('must be a non-empty string'),
  v.check((s) => !isBlank(s), 'must be a non-empty string'),
);

/**
 * valibot schema of the reflection config input, with the reference design's defaults. Unknown keys are
 * rejected at every level. Cross-key rules (fixtures-only LLM backend, a fixture source when
 * fixtures are enabled) are checked by {@link validateReflectionConfig}.
 *
 * @example
 * ```ts
 * import * as v from 'valibot';
 *
 * v.parse(ReflectionConfigSchema, {}).reflection.summaryTokens; // 128
 * v.safeParse(ReflectionConfigSchema, { allowReflection: true, extra: 1 }).success; // false: unknown key
 * ```
 */
export const ReflectionConfigSchema = v.strictObject({
  allowReflection: v.optional(Bool, false),
  reflection: v.optional(
    v.strictObject({
      backend: v.optional(v.picklist(['rulebased', 'llm'], 'must be "rulebased" or "llm"'), 'rulebased'),
      summaryTokens: v.optional(NonNegativeInt, 128),
      embed: v.optional(Bool, true),
      log: v.optional(Bool, true),
      topkSnippets: v.optional(NonNegativeInt, 3),
    }),
    {},
  ),
  budgets: v.optional(
    v.strictObject({
      timeMsReflection: v.optional(NonNegativeInt, 6000),
      opsReflection: v.optional(NonNegativeInt, 5),
    }),
    {},
  ),
  llm: v.optional(
    v.strictObject({
      fixtures: v.optional(
        v.strictObject({
          enabled: v.optional(Bool, false),
          path: v.optional(NonEmptyString),
          jsonl: v.optional(NonEmptyString),
        }),
        {},
      ),
    }),
    {},
  ),
});

/** What {@link validateReflectionConfig} accepts: any subset of the keys; the rest take defaults. */
export type ReflectionConfigInput = v.InferInput<typeof ReflectionConfigSchema>;

/** Keys allowed in each object, for the "unknown key" message. */
const ALLOWED: Record<string, readonly string[]> = {
  '': ['allowReflection', 'reflection', 'budgets', 'llm'],
  reflection: ['backend', 'summaryTokens', 'embed', 'log', 'topkSnippets'],
  budgets: ['timeMsReflection', 'opsReflection'],
  llm: ['fixtures'],
  'llm.fixtures': ['enabled', 'path', 'jsonl'],
};

/** The result of {@link safeValidateReflectionConfig}. */
export type SafeReflectionConfigResult =
  | { success: true; config: ReflectionConfig; issues: [] }
  | { success: false; config: undefined; issues: Issue[] };

/**
 * Validates a reflection config and returns every problem instead of throwing. Never throws: a config
 * that cannot be read (a getter or a Proxy trap that throws) gives one issue at the key that threw.
 *
 * @example
 * ```ts
 * const r = safeValidateReflectionConfig({ reflection: { backend: 'gpt' } });
 * if (!r.success) console.log(r.issues); // [{ path: 'reflection.backend', message: 'must be "rulebased" or "llm"' }]
 * ```
 */
export function safeValidateReflectionConfig(input: unknown): SafeReflectionConfigResult {
  try {
    return validate(input);
  } catch (err) {
    const issue = unreadable(input, '', 0) ?? {
      path: '',
      message: `could not be read: ${describeError(err)}`,
    };
    return { success: false, config: undefined, issues: [issue] };
  }
}

/**
 * The first key of `value` (to the config's depth) whose read throws, as an issue; undefined when
 * every key reads.
 */
function unreadable(value: unknown, path: string, depth: number): Issue | undefined {
  let at = path;
  try {
    if (typeof value !== 'object' || value === null) return undefined;
    Array.isArray(value); // throws for a revoked Proxy
    for (const key of Object.keys(value)) {
      at = path ? `${path}.${key}` : key;
      const child = (value as Record<string, unknown>)[key];
      const inner = depth < 2 ? unreadable(child, at, depth + 1) : undefined;
      if (inner) return inner;
    }
    return undefined;
  } catch (err) {
    return { path: at, message: `could not be read: ${describeError(err)}` };
  }
}

function validate(input: unknown): SafeReflectionConfigResult {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  const add = (path: string, message: string) => {
    const id = `${path}\u0000${message}`;
    if (seen.has(id)) return;
    seen.add(id);
    issues.push({ path, message });
  };

  // valibot's objects accept arrays; a config section never is one.
  const arrays = (['', 'reflection', 'budgets', 'llm', 'llm.fixtures'] as const).filter((path) =>
    Array.isArray(
      path === ''
        ? input
        : path.split('.').reduce<unknown>((o, k) => (isRecord(o) ? o[k] : undefined), input),
    ),
  );
  for (const path of arrays) add(path, 'must be an object');
  const parsed = v.safeParse(ReflectionConfigSchema, input === undefined ? {} : input);
  for (const issue of parsed.issues ?? []) {
    const path = v.getDotPath(issue) ?? '';
    if (issue.type === 'strict_object' && issue.expected === 'never') {
      const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
      add(path, `unknown key (allowed: ${(ALLOWED[parent] ?? []).join(', ')})`);
    } else if (issue.type === 'strict_object') {
      add(path, 'must be an object');
    } else {
      add(path, issue.message);
    }
  }

  // Cross-key rules, checked on the raw input so they are reported together with the rest.
  const raw = isRecord(input) ? input : {};
  const reflection = isRecord(raw.reflection) ? raw.reflection : {};
  const llm = isRecord(raw.llm) ? raw.llm : {};
  const fixtures = isRecord(llm.fixtures) ? llm.fixtures : {};
  const backend = reflection.backend ?? 'rulebased';
  const allow = raw.allowReflection ?? false;
  const enabled = fixtures.enabled ?? false;
  if (backend === 'llm' && allow === true && enabled === false) {
    add(
      'llm.fixtures.enabled',
      'must be true when reflection.backend is "llm" and allowReflection is true (the LLM backend replays fixtures only)',
    );
  }
  if (enabled === true && fixtures.path === undefined && fixtures.jsonl === undefined) {
    add(
      'llm.fixtures.path',
      'is required when fixtures are enabled: a URL or file path (path) or inline JSONL text (jsonl)',
    );
  }
  if (fixtures.path !== undefined && fixtures.jsonl !== undefined) {
    add('llm.fixtures', 'give either path or jsonl, not both');
  }

  if (issues.length || !parsed.success) return { success: false, config: undefined, issues };
  return { success: true, config: parsed.output as ReflectionConfig, issues: [] };
}

/**
 * Validates a reflection config (reference design, section 3.1), applying defaults. Rules: unknown keys are
 * rejected; `reflection.backend` is `rulebased` or `llm`; `summaryTokens`, `topkSnippets`,
 * `timeMsReflection` and `opsReflection` are non-negative integers; booleans are booleans; with
 * `backend: "llm"` and `allowReflection: true`, `llm.fixtures.enabled` must be `true`; when fixtures
 * are enabled a non-empty source (`path` or `jsonl`) is required, and a given `path` or `jsonl`
 * must be non-empty.
 *
 * @throws {ConfigError} code `config_invalid`, listing every problem with its key path.
 *
 * @example
 * ```ts
 * const config = validateReflectionConfig({ allowReflection: true });
 * config.reflection.summaryTokens; // 128
 * ```
 */
export function validateReflectionConfig(input: unknown): ReflectionConfig {
  const r = safeValidateReflectionConfig(input);
  if (!r.success) throw new ConfigError(r.issues);
  return r.config;
}

/**
 * The defaults of section 3.1: reflection off, rule-based, 128 tokens, embedding and log on, top 3
 * snippets, 6000 ms, 5 entries, fixtures off.
 *
 * @example
 * ```ts
 * defaultReflectionConfig().allowReflection; // false
 * ```
 */
export function defaultReflectionConfig(): ReflectionConfig {
  return validateReflectionConfig({});
}

const SEED_KEYS: Record<string, string> = {
  allow_reflection: 'allowReflection',
  summary_tokens: 'summaryTokens',
  topk_snippets: 'topkSnippets',
  time_ms_reflection: 'timeMsReflection',
  ops_reflection: 'opsReflection',
};

/**
 * Maps the reference design's snake_case layout (`{ t3: { allow_reflection, reflection, llm }, scheduler:
 * { budgets } }`, e.g. a parsed `configs/config.yaml`) to a {@link ReflectionConfigInput}. Other `t3`
 * and `scheduler.budgets` keys (those of other stages) are ignored; unknown keys under
 * `t3.reflection` and `t3.llm.fixtures` are kept so the validator rejects them.
 *
 * @example
 * ```ts
 * validateReflectionConfig(fromSeedConfig({ t3: { allow_reflection: true, reflection: { summary_tokens: 64 } } }));
 * ```
 */
export function fromSeedConfig(seed: unknown): Record<string, unknown> {
  const root = isRecord(seed) ? seed : {};
  const t3 = isRecord(root.t3) ? root.t3 : {};
  const scheduler = isRecord(root.scheduler) ? root.scheduler : {};
  const budgets = isRecord(scheduler.budgets) ? scheduler.budgets : {};
  const camel = (obj: unknown) =>
    isRecord(obj) ? Object.fromEntries(Object.entries(obj).map(([k, x]) => [SEED_KEYS[k] ?? k, x])) : obj;
  const out: Record<string, unknown> = {};
  if (t3.allow_reflection !== undefined) out.allowReflection = t3.allow_reflection;
  if (t3.reflection !== undefined) out.reflection = camel(t3.reflection);
  const b: Record<string, unknown> = {};
  if (budgets.time_ms_reflection !== undefined) b.timeMsReflection = budgets.time_ms_reflection;
  if (budgets.ops_reflection !== undefined) b.opsReflection = budgets.ops_reflection;
  if (Object.keys(b).length) out.budgets = b;
  const llm = isRecord(t3.llm) ? t3.llm : undefined;
  if (llm && llm.fixtures !== undefined) out.llm = { fixtures: llm.fixtures };
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
