/**
 * The entry bench/secretlint-bundle.ts bundles for the browser: secretlint's core and recommended
 * preset, and, when loaded as a worker, a message handler that lints each posted text and answers with
 * the rule of every report.
 */
import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';

const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };

/** The rule ids secretlint reports on `content`, in its order. */
export async function scanRules(content: string): Promise<string[]> {
  const result = await lintSource({
    source: { content, filePath: '/virtual/input.txt', contentType: 'text' },
    options: { config, noPhysicFilePath: true, maskSecrets: true },
  });
  return result.messages.map((m) => m.ruleId);
}

const scope = globalThis as {
  onmessage?: unknown;
  postMessage?: (data: unknown) => void;
  document?: unknown;
};
if (scope.document === undefined && typeof scope.postMessage === 'function') {
  scope.onmessage = async (event: MessageEvent<string[]>) => {
    try {
      const out: string[][] = [];
      for (const text of event.data) out.push(await scanRules(text));
      scope.postMessage?.({ ok: true, out });
    } catch (err) {
      scope.postMessage?.({ ok: false, error: String((err as Error)?.stack ?? err) });
    }
  };
}
