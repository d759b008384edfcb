/**
 * A key split by an invisible character (a zero-width space, a soft hyphen, a word joiner, a bidi
 * control) must not come out whole anywhere: the prompt sanitizer deletes those characters after
 * redaction, so a redactor that did not see through them handed the re-joined key to the playbook, the
 * Reflector and Curator requests and the summary.
 */

import { type KeyValueStore, memoryStore } from 'rearview/kv';
import type { LlmRequest } from 'rearview/llm';
import { createRearview } from 'rearview/session';
import { playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../lib/redact/index';
import { fakeRandom } from '../../tools/shared/redact-fakes';
import { scriptedLlm } from '../llm/scripted';

const quiet = { broadcast: false as const, onWarning: () => {} };
const r = fakeRandom(361);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const GH = `ghp_R8x2${r(ALNUM, 32)}`;
const ANT = `sk-ant-api03-${r(`${ALNUM}-_`, 60)}AA`;
const AWS = `AKIA${r('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;

/** Every invisible character the prompt sanitizer deletes, and fullwidth spelling. */
const split = (key: string, at: number, ch: string) => key.slice(0, at) + ch + key.slice(at);
const SPELLINGS: [string, string][] = [
  ['zero-width space', split(GH, 4, '\u200b')],
  ['soft hyphen', split(ANT, 7, '\u00ad')],
  ['word joiner', split(AWS, 4, '\u2060')],
  ['ZWNJ + ZWJ', split(split(GH, 10, '\u200c'), 5, '\u200d')],
  ['BOM', split(ANT, 12, '\ufeff')],
  ['variation selector', split(AWS, 8, '\ufe0f')],
  ['bidi override', split(GH, 6, '\u202e')],
  ['tag character', split(ANT, 9, '\u{e0041}')],
  ['control character', split(GH, 4, '\u0007')],
];

/** What a reader of the text sees: invisible characters gone (as the sanitizer leaves it). */
const visible = (s: string) => s.replace(/[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}]/gu, '');

async function dump(kv: KeyValueStore): Promise<string> {
  const keys = await kv.keys();
  return JSON.stringify(await Promise.all(keys.map(async (k) => [k, await kv.get(k)])));
}

function requestsText(requests: readonly LlmRequest[]): string {
  return JSON.stringify(requests);
}

describe('keys split by invisible characters', () => {
  for (const [name, spelled] of SPELLINGS) {
    it(`redactText sees through a ${name}`, () => {
      const out = redactText(`No, always use the token ${spelled} when you push.`);
      expect(out).toMatch(/\[(github-token|anthropic-key|aws-access-key)-1\]/);
      for (const key of [GH, ANT, AWS]) expect(visible(out)).not.toContain(key.slice(0, 20));
    });
  }

  it('never reach the playbook, the Reflector and Curator requests, the summary or the prompt', async () => {
    const kv = memoryStore();
    const store = playbookStore(kv, quiet);
    const llm = scriptedLlm([
      JSON.stringify({ analysis: 'The user corrected the push token.', bullet_tags: [] }),
      JSON.stringify({
        operations: [{ type: 'ADD', section: 'OTHERS', text: 'Push with the token the user gave.' }],
      }),
    ]);
    const rv = createRearview({ store, llm });
    const turns = SPELLINGS.map(([, s]) => s);
    const summary = await rv.endSession({
      messages: [
        { role: 'user', content: 'Push the release.' },
        { role: 'assistant', content: 'Pushing with the default credentials.' },
        { role: 'user', content: `No, always use the token ${turns[0]} when you push.` },
        { role: 'assistant', content: 'Understood.' },
        { role: 'user', content: `No, never use ${turns[1]}; use ${turns[2]} instead.` },
        { role: 'assistant', content: 'OK.' },
        { role: 'user', content: `Actually, the right ones are ${turns.slice(3).join(' and ')}.` },
      ],
    });
    expect(llm.requests.length).toBeGreaterThan(0);
    const surfaces = {
      store: await dump(kv),
      requests: requestsText(llm.requests),
      summary: JSON.stringify(summary),
      prompt: await rv.systemPrompt({ query: 'push token release' }),
    };
    // The heuristic saw the corrections: something was learned from the turns that held the keys.
    expect(surfaces.store).toMatch(/token/i);
    for (const [where, text] of Object.entries(surfaces)) {
      // JSON.stringify writes the invisible characters as they are (or as \u escapes): strip both.
      const seen = visible(JSON.parse(JSON.stringify(text)).replace(/\\u[0-9a-fA-F]{4}/g, ''));
      for (const key of [GH, ANT, AWS]) {
        expect(seen.includes(key), `${where} holds ${key.slice(0, 6)}…`).toBe(false);
        expect(seen.includes(key.slice(8, 28)), `${where} holds part of ${key.slice(0, 6)}…`).toBe(false);
      }
    }
  });
});
