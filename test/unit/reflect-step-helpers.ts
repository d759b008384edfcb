/** Bundles, clocks, a spying store and LLM fixtures shared by the reflection step tests. */
import { canonicalJson } from 'rearview/core';
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import {
  coerceReflectionFlag,
  type ReflectionBundle,
  reflectionFixturesToJsonl,
  reflectionPromptHash,
  reflectionPromptJson,
  turnSummaryPrompt,
} from 'rearview/post-turn';

export const NOW = '2025-01-01T00:00:00Z';
export const fixedNow = () => '2025-01-01T00:00:00.000Z';

export const bundleA: ReflectionBundle = {
  agent: 'AgentA',
  turn: 1,
  nowIso: NOW,
  utter: 'Done: fixed the parser (CRLF) and added tests; next: release v1.2.3.',
  snippets: [
    'Parser: handles CRLF line endings.',
    'Tests live in test/unit.',
    'Release notes draft',
    'ignored',
  ],
  plan: { reflection: true },
};

export const ON = { allowReflection: true };

/** A KeyValueStore that counts every call made through it. */
export function spyStore(inner: KeyValueStore = memoryStore()) {
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

export async function dump(kv: KeyValueStore): Promise<string> {
  const keys = await kv.keys();
  return canonicalJson({ keys, values: (await kv.getMany(keys)).map((x) => x ?? null) });
}

/** A fixtures JSONL whose one line answers the prompt the LLM backend builds for this bundle. */
export async function llmFixtures(
  bundle: ReflectionBundle,
  completion: string,
  summaryTokens = 128,
  topk = 3,
) {
  const json = reflectionPromptJson(
    turnSummaryPrompt(
      { ...bundle, planReflection: coerceReflectionFlag(bundle.plan?.reflection) },
      { summaryTokens, topkSnippets: topk },
    ),
  );
  const { promptHash } = await reflectionPromptHash(json);
  return reflectionFixturesToJsonl([{ prompt_hash: promptHash, completion }]);
}
