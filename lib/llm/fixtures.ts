import { canonicalJson, LlmError, sha256Hex } from '../core/index.js';
import type { LlmClient, LlmRequest, LlmResponse } from './types.js';

/**
 * One recorded completion. The one fixture-replay format of rearview: `fixtureClient` replays it for
 * {@link LlmClient} requests, post-turn reflection for its canonical prompts. In JSONL it is spelled
 * `{"key", "text", "usage"?, "model"?}`, or `{"prompt_hash", "completion"}` (the spelling of the
 * Python reference's reflection fixtures, read as `key` and `text`).
 */
export interface LlmFixture {
  /**
   * What the completion answers: a request's {@link requestKey}, or the SHA-256 (hex) of a prompt
   * text. A key of at least {@link FIXTURE_KEY_LENGTH} characters also matches every longer key it
   * is a prefix of, so a fixture may be recorded under a short key.
   */
  key: string;
  text: string;
  usage?: { inputTokens: number; outputTokens: number };
  model?: string;
}

/**
 * The shortest fixture key that matches as a prefix: 12 characters (48 bits of a SHA-256 digest),
 * the fixture key post-turn reflection logs. Shorter keys match only exactly.
 *
 * @example
 * ```ts
 * const fixtureKey = (await sha256Hex(promptJson)).slice(0, FIXTURE_KEY_LENGTH);
 * ```
 */
export const FIXTURE_KEY_LENGTH = 12;

/**
 * The replay key of a request: SHA-256 (hex) of the canonical JSON of what determines the answer —
 * model, system, messages, maxTokens, temperature. Signals and streaming do not change the key.
 *
 * @example
 * ```ts
 * const key = await requestKey({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 });
 * ```
 */
export async function requestKey(request: LlmRequest, model?: string): Promise<string> {
  return sha256Hex(
    canonicalJson({
      model: request.model ?? model ?? null,
      system: request.system ?? null,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      maxTokens: request.maxTokens,
      temperature: request.temperature ?? null,
    }),
  );
}

/** How a fixture line is spelled: `{"key", "text"}` or `{"prompt_hash", "completion"}`. */
export type FixtureSpelling = 'key' | 'prompt_hash';

/** What is wrong with one line of a fixtures file. */
export interface FixtureLineIssue {
  /** 1-based line number. */
  line: number;
  /** The spelling the line was read in; absent when it is not a JSON object. */
  spelling?: FixtureSpelling;
  /** The offending field (`key`, `text`, `prompt_hash` or `completion`), if one. */
  field?: string;
  message: string;
  /** The `JSON.parse` error of an unparsable line. */
  cause?: unknown;
}

/** Options of {@link readFixturesJsonl}. */
export interface ReadFixturesOptions {
  /**
   * Keys must be SHA-256 digests: 12 to 64 lowercase hex characters (the full digest or a prefix).
   * Default `false`: any string (a `prompt_hash` is always checked).
   */
  digestKeys?: boolean;
  /**
   * The spelling tried first: a line with both spellings' fields, or neither, is read in it. Default
   * `key`.
   */
  defaultSpelling?: FixtureSpelling;
}

const DIGEST_KEY = /^[0-9a-f]{12,64}$/;
const DIGEST_MESSAGE = 'must be 12 to 64 lowercase hex characters';

/**
 * Reads fixtures JSONL in either spelling, collecting every bad line instead of stopping at the first:
 * one issue per line (not JSON, not an object, a bad key, a non-string text). Blank lines are skipped;
 * a `key`-spelled line keeps its other fields (`usage`, `model`), a `prompt_hash` line has none.
 *
 * @example
 * ```ts
 * const { fixtures, issues } = readFixturesJsonl('{"prompt_hash":"3482df95edf6","completion":"ok"}\n');
 * // fixtures: [{ key: '3482df95edf6', text: 'ok' }], issues: []
 * ```
 */
export function readFixturesJsonl(
  text: string,
  options: ReadFixturesOptions = {},
): { fixtures: LlmFixture[]; issues: FixtureLineIssue[] } {
  const fixtures: LlmFixture[] = [];
  const issues: FixtureLineIssue[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      issues.push({ line: i + 1, message: 'is not valid JSON', cause: err });
      continue;
    }
    const read = readFixture(value, options);
    if ('fixture' in read) fixtures.push(read.fixture);
    else issues.push({ line: i + 1, ...read });
  }
  return { fixtures, issues };
}

const FIELDS = { key: ['key', 'text'], prompt_hash: ['prompt_hash', 'completion'] } as const;

/** The spelling whose key field the line has (the default one's first), else whose text field it has. */
function spellingOf(f: Record<string, unknown>, preferred: FixtureSpelling): FixtureSpelling {
  const other: FixtureSpelling = preferred === 'key' ? 'prompt_hash' : 'key';
  for (const index of [0, 1] as const) {
    for (const spelling of [preferred, other]) if (FIELDS[spelling][index] in f) return spelling;
  }
  return preferred;
}

function readFixture(
  value: unknown,
  options: ReadFixturesOptions,
): { fixture: LlmFixture } | Omit<FixtureLineIssue, 'line'> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { message: 'must be a JSON object' };
  }
  const f = value as Record<string, unknown>;
  const spelling = spellingOf(f, options.defaultSpelling ?? 'key');
  const [keyField, textField] = FIELDS[spelling];
  const key = f[keyField];
  const digest = spelling === 'prompt_hash' || options.digestKeys === true;
  if (typeof key !== 'string' || (digest && !DIGEST_KEY.test(key))) {
    return { spelling, field: keyField, message: digest ? DIGEST_MESSAGE : 'must be a string' };
  }
  if (typeof f[textField] !== 'string') return { spelling, field: textField, message: 'must be a string' };
  const fixture = spelling === 'key' ? (f as unknown as LlmFixture) : { key, text: f[textField] as string };
  return { fixture };
}

/**
 * Reads fixtures from JSONL text (one {@link LlmFixture} per line, in either spelling; blank lines
 * ignored).
 *
 * @throws {LlmError} code `llm_fixture_invalid` naming the line of the first malformed entry.
 *
 * @example
 * ```ts
 * const fixtures = parseFixturesJsonl('{"key":"ab12…","text":"hello"}\n');
 * ```
 */
export function parseFixturesJsonl(text: string): LlmFixture[] {
  const { fixtures, issues } = readFixturesJsonl(text);
  const issue = issues[0];
  if (!issue) return fixtures;
  const where = `Fixture line ${issue.line}`;
  if (issue.cause !== undefined) {
    throw new LlmError('llm_fixture_invalid', `${where} is not valid JSON`, { cause: issue.cause });
  }
  throw new LlmError(
    'llm_fixture_invalid',
    issue.spelling === 'prompt_hash'
      ? `${where}: "${issue.field}" ${issue.message}`
      : `${where} needs string "key" and "text" fields`,
  );
}

/** Options of {@link fixturesToJsonl}. */
export interface FixturesToJsonlOptions {
  /** `key` (default): each fixture as it is; `prompt_hash`: canonical `{"completion","prompt_hash"}`. */
  spelling?: FixtureSpelling;
  /** Sort by key so recordings diff cleanly (default `true`); `false` keeps the order given. */
  sort?: boolean;
}

/**
 * Serializes fixtures as JSONL, by default sorted by key so recordings diff cleanly.
 *
 * @example
 * ```ts
 * const jsonl = fixturesToJsonl(recorder.fixtures());
 * ```
 */
export function fixturesToJsonl(
  fixtures: readonly LlmFixture[],
  options: FixturesToJsonlOptions = {},
): string {
  const list = options.sort === false ? fixtures : [...fixtures].sort((a, b) => compareStrings(a.key, b.key));
  const line =
    options.spelling === 'prompt_hash'
      ? (f: LlmFixture) => canonicalJson({ completion: f.text, prompt_hash: f.key })
      : (f: LlmFixture) => JSON.stringify(f);
  return list.map((f) => `${line(f)}\n`).join('');
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The replay rule: the first fixture whose key equals `key`, or (when at least
 * {@link FIXTURE_KEY_LENGTH} characters long) is a prefix of it. Only the fixtures sharing the key's
 * first 12 characters are compared.
 *
 * @example
 * ```ts
 * const find = fixtureLookup(parseFixturesJsonl(jsonl));
 * find(await requestKey(request))?.text;
 * ```
 */
export function fixtureLookup(fixtures: Iterable<LlmFixture>): (key: string) => LlmFixture | undefined {
  const buckets = new Map<string, LlmFixture[]>();
  for (const f of fixtures) {
    const bucket = f.key.slice(0, FIXTURE_KEY_LENGTH);
    const list = buckets.get(bucket);
    if (list) list.push(f);
    else buckets.set(bucket, [f]);
  }
  return (key) =>
    buckets
      .get(key.slice(0, FIXTURE_KEY_LENGTH))
      ?.find((f) => (f.key.length >= FIXTURE_KEY_LENGTH ? key.startsWith(f.key) : f.key === key));
}

/** Options of {@link fixtureClient}. */
export interface FixtureClientOptions {
  /** The model name folded into keys and reported in responses. Default `'fixture'`. */
  model?: string;
}

/**
 * Replays recorded completions offline: no key, no network. The request's {@link requestKey}
 * selects the fixture ({@link fixtureLookup}); a later fixture with the same key replaces an earlier
 * one, so re-recordings can be appended to a file.
 *
 * @throws {LlmError} code `llm_fixture_missing`, naming the key, when no fixture matches.
 *
 * @example
 * ```ts
 * const llm = fixtureClient(parseFixturesJsonl(await (await fetch('/fixtures.jsonl')).text()));
 * const reply = await llm.complete(request);
 * ```
 */
export function fixtureClient(
  fixtures: Iterable<LlmFixture> | string,
  options: FixtureClientOptions = {},
): LlmClient & { size: number } {
  const list = typeof fixtures === 'string' ? parseFixturesJsonl(fixtures) : [...fixtures];
  const latest = [...new Map(list.map((f) => [f.key, f])).values()];
  const find = fixtureLookup(latest);
  const model = options.model ?? 'fixture';
  return {
    size: latest.length,
    async complete(request) {
      if (request.signal?.aborted) {
        throw new LlmError('llm_aborted', 'The request was aborted by the caller', {
          cause: request.signal.reason,
        });
      }
      const started = Date.now();
      const key = await requestKey(request, options.model);
      const fixture = find(key);
      if (!fixture) {
        throw new LlmError('llm_fixture_missing', `No recorded completion for request key ${key}`);
      }
      return {
        text: fixture.text,
        usage: fixture.usage ?? { inputTokens: 0, outputTokens: 0 },
        latencyMs: Date.now() - started,
        model: fixture.model ?? model,
        attempts: 1,
      };
    },
  };
}

/**
 * Wraps a client and records every completion it returns, for replay with {@link fixtureClient}.
 *
 * @example
 * ```ts
 * const recorder = recordingClient(anthropicClient({ apiKey }));
 * await recorder.complete(request);
 * const jsonl = fixturesToJsonl(recorder.fixtures());
 * ```
 */
export function recordingClient(
  inner: LlmClient,
  options: FixtureClientOptions = {},
): LlmClient & { fixtures(): LlmFixture[] } {
  const recorded = new Map<string, LlmFixture>();
  return {
    async complete(request) {
      const response: LlmResponse = await inner.complete(request);
      const key = await requestKey(request, options.model);
      recorded.set(key, { key, text: response.text, usage: response.usage, model: response.model });
      return response;
    },
    fixtures: () => [...recorded.values()],
  };
}
