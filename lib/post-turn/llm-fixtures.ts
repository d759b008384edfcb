/**
 * The fixtures-only LLM backend of post-turn reflection: the canonical prompt, its hash and fixture
 * key, and an adapter that replays completions recorded in `rearview/llm`'s fixture format (read,
 * matched and written by its functions; these files spell it `{"prompt_hash", "completion"}`, as the
 * Python reference does). No network: a fixture source is inline JSONL text, or a URL fetched once
 * with a `fetch` you choose.
 */
import { canonicalJson, RearviewError, sha256Hex, ValidationError } from '../core/index.js';
import {
  FIXTURE_KEY_LENGTH,
  fixtureLookup,
  fixturesToJsonl,
  type LlmFixture,
  readFixturesJsonl,
} from '../llm/index.js';
import type { ReflectionConfig } from './config.js';
import { normalizeText } from './text.js';

/** What the prompt is built from (a subset of the reflection bundle). */
export interface ReflectionPromptInput {
  /** Agent id; default `unknown`. */
  agent?: string;
  /** Turn number; default 0. */
  turn?: number;
  /** The final user-facing utterance. */
  utter?: string;
  /** Retrieval snippets; the first `topkSnippets` are used. */
  snippets?: readonly string[];
  /** The plan's own reflection flag (`plan.reflection`), as a boolean. */
  planReflection?: boolean;
}

/** The canonical reflection prompt object, keys in the order they are serialized. */
export interface ReflectionPrompt {
  agent: string;
  plan_reflection: boolean;
  snippets: string[];
  summary_tokens: number;
  task: 'reflect_summary';
  turn: number;
  utter: string;
  version: 1;
}

/**
 * Builds the canonical prompt object: `utter` and the first `topk` snippets with whitespace
 * collapsed (punctuation and case kept), `agent` (default `unknown`), `turn` (default 0),
 * `summary_tokens`, `plan_reflection`, `task: "reflect_summary"`, `version: 1`.
 *
 * @example
 * ```ts
 * turnSummaryPrompt({ utter: 'hi  there', snippets: ['a'] }, { summaryTokens: 128, topkSnippets: 3 });
 * ```
 */
export function turnSummaryPrompt(
  input: ReflectionPromptInput,
  options: { summaryTokens: number; topkSnippets: number },
): ReflectionPrompt {
  const snippets = (input.snippets ?? []).slice(0, Math.max(0, options.topkSnippets));
  return {
    agent: input.agent === undefined || input.agent === '' ? 'unknown' : String(input.agent),
    plan_reflection: input.planReflection === true,
    snippets: snippets.map((s) => normalizeText(String(s ?? ''), { keepPunct: true })),
    summary_tokens: options.summaryTokens,
    task: 'reflect_summary',
    turn: Math.trunc(Number(input.turn ?? 0)) || 0,
    utter: normalizeText(String(input.utter ?? ''), { keepPunct: true }),
    version: 1,
  };
}

/**
 * The prompt as Python's `json.dumps(prompt, sort_keys=True, separators=(",", ":"))` writes it.
 *
 * @example
 * ```ts
 * reflectionPromptJson(prompt); // '{"agent":"unknown","plan_reflection":false,…,"version":1}'
 * ```
 */
export function reflectionPromptJson(prompt: ReflectionPrompt): string {
  return canonicalJson(prompt);
}

/**
 * SHA-256 (hex) of the prompt JSON and the fixture key: its first 12 hex characters.
 *
 * @example
 * ```ts
 * const { promptHash, fixtureKey } = await reflectionPromptHash(json); // fixtureKey: '3482df95edf6'
 * ```
 */
export async function reflectionPromptHash(
  promptJson: string,
): Promise<{ promptHash: string; fixtureKey: string }> {
  const promptHash = await sha256Hex(promptJson);
  return { promptHash, fixtureKey: promptHash.slice(0, FIXTURE_KEY_LENGTH) };
}

/**
 * One line of a reflection fixtures file: the prompt's SHA-256 (full 64 hex, or at least the 12-hex
 * key) and the completion — an {@link LlmFixture} (`key`, `text`) in the spelling the Python reference
 * reads and writes.
 */
export interface ReflectionFixture {
  prompt_hash: string;
  completion: string;
}

/**
 * A fixture is missing, unreadable, empty, or the adapter failed. The step records it as
 * `reason: "reflect_error:FixtureMissingError"` and writes nothing. Its `code` is
 * `reflect_fixture_missing`; `fixtureKey` names the missing key when there is one.
 *
 * @example
 * ```ts
 * try {
 *   await adapter.generate(promptJson, options);
 * } catch (err) {
 *   if (err instanceof FixtureMissingError) console.warn(`record a fixture for ${err.fixtureKey}`);
 * }
 * ```
 */
export class FixtureMissingError extends RearviewError {
  readonly fixtureKey: string | undefined;

  constructor(message: string, options: { fixtureKey?: string; cause?: unknown } = {}) {
    super('reflect_fixture_missing', message, { cause: options.cause });
    this.name = 'FixtureMissingError';
    this.fixtureKey = options.fixtureKey;
  }
}

/**
 * Parses fixtures JSONL: one `{"prompt_hash": "<sha256 hex>", "completion": "<text>"}` per line
 * (`rearview/llm`'s `{"key", "text"}` spelling is read too); blank lines are skipped; other keys are
 * ignored. `prompt_hash` is lowercase hex, the full digest or a prefix of at least 12 characters (the
 * fixture key).
 *
 * @throws {ValidationError} listing every bad line (`line 3: …`).
 *
 * @example
 * ```ts
 * parseReflectionFixtures('{"prompt_hash":"3482df95edf6","completion":"ok"}\n');
 * ```
 */
export function parseReflectionFixtures(text: string): ReflectionFixture[] {
  const { fixtures, issues } = readFixturesJsonl(String(text), {
    digestKeys: true,
    defaultSpelling: 'prompt_hash',
  });
  if (issues.length) {
    throw new ValidationError(
      issues.map((i) => ({ path: `line ${i.line}${i.field ? `.${i.field}` : ''}`, message: i.message })),
      { subject: 'Reflection fixtures' },
    );
  }
  return fixtures.map(toReflectionFixture);
}

/**
 * Serializes fixtures as JSONL (one canonical `{"completion","prompt_hash"}` line each, in the order
 * given).
 *
 * @example
 * ```ts
 * const jsonl = reflectionFixturesToJsonl([{ prompt_hash: hash, completion: 'ok' }]);
 * ```
 */
export function reflectionFixturesToJsonl(fixtures: readonly ReflectionFixture[]): string {
  return fixturesToJsonl(fixtures.map(toLlmFixture), { spelling: 'prompt_hash', sort: false });
}

function toLlmFixture(f: ReflectionFixture | LlmFixture): LlmFixture {
  return 'prompt_hash' in f ? { key: f.prompt_hash, text: f.completion } : f;
}

function toReflectionFixture(f: LlmFixture): ReflectionFixture {
  return { prompt_hash: f.key, completion: f.text };
}

/** Options of {@link ReflectionLlmAdapter.generate} (the Python reference's `max_tokens`, `temperature=0.0`). */
export interface GenerateOptions {
  maxTokens: number;
  temperature: 0;
  /** SHA-256 of the prompt JSON. */
  promptHash: string;
  /** First 12 hex characters of `promptHash`. */
  fixtureKey: string;
}

/** What the `llm` backend calls: returns the completion of a canonical prompt. Any error is fail-soft. */
export interface ReflectionLlmAdapter {
  generate(promptJson: string, options: GenerateOptions): string | Promise<string>;
}

/**
 * A {@link ReflectionLlmAdapter} that replays fixtures (the Python reference's `FixtureLLMAdapter`)
 * with `rearview/llm`'s replay rule ({@link fixtureLookup}): the first fixture whose `prompt_hash`
 * matches the prompt's SHA-256, in full or as a prefix of at least 12 hex characters. Fixtures in
 * `rearview/llm`'s `{ key, text }` form are accepted too.
 *
 * @throws {ValidationError} when `source` is malformed JSONL (see {@link parseReflectionFixtures}).
 *
 * @example
 * ```ts
 * const adapter = reflectionFixtureAdapter(jsonlText);
 * await reflect(bundle, config, { fixtures: adapter });
 * ```
 */
export function reflectionFixtureAdapter(
  source: string | readonly (ReflectionFixture | LlmFixture)[],
): ReflectionLlmAdapter & { size: number } {
  const fixtures = typeof source === 'string' ? parseReflectionFixtures(source) : source;
  const find = fixtureLookup(fixtures.map(toLlmFixture));
  return {
    size: fixtures.length,
    generate(_promptJson, options) {
      const found = find(options.promptHash);
      if (!found) {
        throw new FixtureMissingError(`No reflection fixture for key ${options.fixtureKey}`, {
          fixtureKey: options.fixtureKey,
        });
      }
      return found.text;
    },
  };
}

/** A `fetch`-like function: only `(url) => Promise<{ ok, status, text() }>` is used. */
export type FetchLike = (url: string) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/**
 * Loads the fixtures a config names: inline `llm.fixtures.jsonl`, or `llm.fixtures.path` fetched as a
 * URL with `options.fetch` (default: the runtime's `fetch`, looked up when called; a relative path is
 * resolved against `options.baseUrl` when given). In Node, read the file yourself and pass the text to
 * {@link reflectionFixtureAdapter} instead.
 *
 * @throws {FixtureMissingError} when fixtures are disabled, no source is configured, or the fetch fails.
 * @throws {ValidationError} when the JSONL is malformed.
 *
 * @example
 * ```ts
 * const fixtures = await loadReflectionFixtures(config, { fetch: (u) => fetch(u) });
 * ```
 */
export async function loadReflectionFixtures(
  config: Pick<ReflectionConfig, 'llm'>,
  options: { fetch?: FetchLike; baseUrl?: string } = {},
): Promise<ReflectionLlmAdapter & { size: number }> {
  const f = config.llm.fixtures;
  if (!f.enabled) throw new FixtureMissingError('LLM fixtures are not enabled (llm.fixtures.enabled)');
  if (f.jsonl !== undefined) return reflectionFixtureAdapter(f.jsonl);
  if (f.path === undefined) throw new FixtureMissingError('No fixture source configured (llm.fixtures.path)');
  const fetchFn =
    options.fetch ?? ((globalThis as { fetch?: unknown }).fetch as FetchLike | undefined)?.bind(globalThis);
  if (!fetchFn) throw new FixtureMissingError('No fetch available to load reflection fixtures');
  const url = options.baseUrl === undefined ? f.path : new URL(f.path, options.baseUrl).href;
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await fetchFn(url);
  } catch (err) {
    throw new FixtureMissingError(`Could not fetch reflection fixtures from ${url}`, { cause: err });
  }
  if (!response.ok) {
    throw new FixtureMissingError(`Fetching reflection fixtures from ${url} gave HTTP ${response.status}`);
  }
  return reflectionFixtureAdapter(await response.text());
}
