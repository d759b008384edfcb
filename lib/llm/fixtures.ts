import { canonicalJson, LlmError, sha256Hex } from '../core/index.js';
import type { LlmClient, LlmRequest, LlmResponse } from './types.js';

/** One recorded completion, keyed by {@link requestKey}. */
export interface LlmFixture {
  key: string;
  text: string;
  usage?: { inputTokens: number; outputTokens: number };
  model?: string;
}

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

/**
 * Reads fixtures from JSONL text (one {@link LlmFixture} per line; blank lines ignored).
 *
 * @throws {LlmError} code `llm_fixture_invalid` naming the line of a malformed entry.
 *
 * @example
 * ```ts
 * const fixtures = parseFixturesJsonl('{"key":"ab12…","text":"hello"}\n');
 * ```
 */
export function parseFixturesJsonl(text: string): LlmFixture[] {
  const out: LlmFixture[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new LlmError('llm_fixture_invalid', `Fixture line ${i + 1} is not valid JSON`, { cause: err });
    }
    const f = value as Partial<LlmFixture>;
    if (typeof f?.key !== 'string' || typeof f.text !== 'string') {
      throw new LlmError('llm_fixture_invalid', `Fixture line ${i + 1} needs string "key" and "text" fields`);
    }
    out.push(f as LlmFixture);
  }
  return out;
}

/**
 * Serializes fixtures as JSONL, sorted by key so recordings diff cleanly.
 *
 * @example
 * ```ts
 * const jsonl = fixturesToJsonl(recorder.fixtures());
 * ```
 */
export function fixturesToJsonl(fixtures: readonly LlmFixture[]): string {
  return [...fixtures]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((f) => `${JSON.stringify(f)}\n`)
    .join('');
}

/** Options of {@link fixtureClient}. */
export interface FixtureClientOptions {
  /** The model name folded into keys and reported in responses. Default `'fixture'`. */
  model?: string;
}

/**
 * Replays recorded completions offline: no key, no network. The request's {@link requestKey}
 * selects the fixture.
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
  const byKey = new Map(list.map((f) => [f.key, f]));
  const model = options.model ?? 'fixture';
  return {
    size: byKey.size,
    async complete(request) {
      if (request.signal?.aborted) {
        throw new LlmError('llm_aborted', 'The request was aborted by the caller', {
          cause: request.signal.reason,
        });
      }
      const started = Date.now();
      const key = await requestKey(request, options.model);
      const fixture = byKey.get(key);
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
