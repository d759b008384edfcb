/**
 * A streamed message is re-sent with more text each time (same id or same position): `observe` must
 * read the newest copy in place of the older one, so one message gives one key point and no key point
 * holds a fragment of a key. A key split across two consecutive messages must not be stored in part:
 * redaction sees the join.
 */

import { type KeyValueStore, memoryStore } from 'rearview/kv';
import { createRearview } from 'rearview/session';
import { describe, expect, it } from 'vitest';

const quiet = { broadcast: false as const, onWarning: () => {} };
const GH = 'ghp_R8x2Kq9ZmT4vB7nW1pL3sD6fH0jY5cX8aE2uG';

async function dump(kv: KeyValueStore): Promise<string> {
  const keys = await kv.keys();
  return JSON.stringify(await Promise.all(keys.map(async (k) => [k, await kv.get(k)])));
}

const base = [
  { role: 'user', content: 'Install the dependencies.' },
  { role: 'assistant', content: 'Running npm install.' },
];
const FULL = `No, always use pnpm instead of npm here, and push with the token ${GH} from now on.`;
const cuts = [20, 45, 70, 90, FULL.length];

describe('observe on a streamed message', () => {
  for (const [name, make] of [
    ['copies at the same position', (t: string) => ({ role: 'user', content: t })],
    ['copies with the same id', (t: string) => ({ role: 'user', id: 'u-2', content: t })],
  ] as const) {
    it(`${name}: one key point, from the whole message, no key fragment`, async () => {
      const kv = memoryStore();
      const rv = createRearview({ store: kv, storeOptions: quiet });
      for (const n of cuts) rv.observe([...base, make(FULL.slice(0, n))]);
      // What proposed() returns is redacted too (it is shown before endSession stores it).
      expect(rv.proposed().map((p) => p.text)).toEqual([
        'Always use pnpm instead of npm here, and push with the token [github-token-1] from now on.',
      ]);
      const s = await rv.endSession();
      expect(s.messages).toBe(3);
      expect(s.added.map((a) => a.text)).toEqual([
        'Always use pnpm instead of npm here, and push with the token [github-token-1] from now on.',
      ]);
      const stored = await dump(kv);
      for (let i = 4; i < GH.length; i += 4) expect(stored).not.toContain(GH.slice(0, i + 4).slice(-8));
    });
  }

  it('the same array with its last message object growing in place', () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const msg = { role: 'user', content: '' };
    const messages = [...base, msg];
    for (const n of cuts) {
      msg.content = FULL.slice(0, n);
      rv.observe(messages);
    }
    expect(rv.proposed()).toHaveLength(1);
    expect(rv.proposed()[0]!.text).toContain('[github-token-1] from now on');
    expect(rv.proposed()[0]!.text).not.toContain(GH.slice(0, 8));
    const whole = createRearview({ store: memoryStore(), storeOptions: quiet });
    whole.observe([...base, { role: 'user', content: FULL }]);
    expect(rv.insights()).toEqual(whole.insights());
  });

  it('a streamed assistant reply followed by the next user turn reads each message once', () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const reply = 'Running npm install now, then the tests.';
    const conv = [{ role: 'user', content: 'Install the dependencies.' }];
    let analysed = 0;
    for (const n of [5, 15, 30, reply.length]) {
      analysed += rv.observe([...conv, { role: 'assistant', content: reply.slice(0, n) }]).analysed;
    }
    const last = rv.observe([
      ...conv,
      { role: 'assistant', content: reply },
      { role: 'user', content: 'No, use pnpm instead of npm.' },
    ]);
    // One new message read; the reply is never read from the start of the conversation again.
    expect(last.analysed).toBe(1);
    expect(analysed).toBe(2 + 3);
    expect(rv.proposed().map((p) => p.text)).toEqual(['Use pnpm instead of npm.']);
  });

  it('equals one observe of the final conversation', () => {
    const whole = createRearview({ store: memoryStore(), storeOptions: quiet });
    const streamed = createRearview({ store: memoryStore(), storeOptions: quiet });
    const final = [...base, { role: 'user', content: FULL }, { role: 'assistant', content: 'Done.' }];
    whole.observe(final);
    for (const n of cuts) streamed.observe([...base, { role: 'user', content: FULL.slice(0, n) }]);
    for (const n of [2, 5])
      streamed.observe([...final.slice(0, 3), { role: 'assistant', content: 'Done.'.slice(0, n) }]);
    expect(streamed.proposed()).toEqual(whole.proposed());
    expect(streamed.insights()).toEqual(whole.insights());
  });
});

describe('a key split across two messages', () => {
  for (const at of [8, 20, 30]) {
    it(`split at ${at}: neither half is stored`, async () => {
      const kv = memoryStore();
      const rv = createRearview({ store: kv, storeOptions: quiet });
      const s = await rv.endSession({
        messages: [
          ...base,
          { role: 'user', content: `No, always push with the token ${GH.slice(0, at)}` },
          { role: 'user', content: `${GH.slice(at)} from now on, never use the default one.` },
        ],
      });
      expect(s.added.length).toBeGreaterThan(0);
      const out = `${await dump(kv)}${JSON.stringify(s)}`;
      expect(out).not.toContain(GH.slice(at));
      if (at >= 8) expect(out).not.toContain(GH.slice(0, at));
    });
  }

  it('observed one message at a time, with a reply between the two user turns', async () => {
    const kv = memoryStore();
    const rv = createRearview({ store: kv, storeOptions: quiet });
    const conv = [...base, { role: 'user', content: `No, always push with the token ${GH.slice(0, 20)}` }];
    rv.observe(conv);
    conv.push({ role: 'assistant', content: 'OK.' });
    rv.observe(conv);
    conv.push({ role: 'user', content: `${GH.slice(20)} is the rest. Never use the default token.` });
    rv.observe(conv);
    const s = await rv.endSession();
    const out = `${await dump(kv)}${JSON.stringify(s)}`;
    expect(s.added.length).toBeGreaterThan(0);
    expect(out).not.toContain(GH.slice(0, 20));
    expect(out).not.toContain(GH.slice(20));
  });
});
