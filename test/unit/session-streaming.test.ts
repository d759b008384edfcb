/**
 * A streamed message is re-sent with more text each time (same id or same position): `observe` must
 * read the newest copy in place of the older one, so one message gives one key point and no key point
 * holds a fragment of a key. A key split across two consecutive messages must not be stored in part:
 * redaction sees the join.
 */

import { heuristicReflect } from 'rearview/heuristic';
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

  // Found by `npm run fuzz`: the join of two messages ran a whole value on into the next message's
  // first word, and that word was kept as a "half" and replaced everywhere the session wrote.
  it.each([
    ['an address', 'Send the report to jane@corp.io', '[email-'],
    ['a whole key', `Push with ${GH}`, '[github-'],
  ])('keeps the next message whole after %s that ends a message', (_name, first, placeholder) => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const r = rv.observe([
      { role: 'user', content: first },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks. No, always use the staging bucket, not prod.' },
    ]);
    const facts = r.insights.map((i) => i.fact).join('\n');
    expect(facts).toContain('Thanks. No, always use the staging bucket');
    expect(facts).toContain(placeholder);
    expect(facts).not.toContain(first.split(' ').pop()!);
  });

  it('still catches an address cut in two', () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    rv.observe([
      { role: 'user', content: 'No, always send the reports to jane.doe@cor' },
      { role: 'user', content: 'poration-mail.example.com from now on, never to the team list.' },
    ]);
    const out = JSON.stringify(rv.insights()) + JSON.stringify(rv.proposed());
    expect(out).not.toContain('jane.doe@cor');
    expect(out).not.toContain('poration-mail.example.com');
  });

  it('reads no address across two messages ("A@b." then "Shouldn\'t")', () => {
    const all = [
      { role: 'user', content: 'A@A.' },
      { role: 'user', content: "Shouldn't that be using a fixture?" },
    ];
    const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
    const got = [...rv.observe(all.slice(0, 1)).insights, ...rv.observe(all).insights];
    expect(got).toEqual(heuristicReflect(all));
  });

  // The rule above (a value whole before the boundary is no split key) must not let a real half
  // through: every cut of six kinds of key, each half of 8 characters or more checked.
  it('lets no half of a key through at any cut', () => {
    const keys = [
      GH,
      'sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7dEf0hIj3kLm6nOp9qRs2tUv5wXy8zAb1dEf4hIj7kLm0nOp3q-Rs6tUv9wXyAA',
      'AKIAIOSFODNN7EXAMPLQ',
      'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
      'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    ];
    const leaks: string[] = [];
    for (const key of keys)
      for (let at = 4; at <= key.length - 4; at++) {
        const rv = createRearview({ store: memoryStore(), storeOptions: quiet });
        rv.observe([
          { role: 'user', content: `No, always push with the token ${key.slice(0, at)}` },
          { role: 'user', content: `${key.slice(at)} from now on, never use the default one.` },
        ]);
        const out = JSON.stringify(rv.insights()) + JSON.stringify(rv.proposed());
        for (const half of [key.slice(0, at), key.slice(at)])
          if (half.length >= 8 && out.includes(half)) leaks.push(`${key.slice(0, 8)}… cut at ${at}`);
      }
    expect(leaks).toEqual([]);
  });
});
