/**
 * A value found by its context is redacted wherever else it appears; and the shapes of code that once
 * made the redactor "find" a value it then left elsewhere in clear (shell substring expansions,
 * ternaries, optional chaining, scope resolution, stand-ins). Both broke the shared-data check that no
 * found value survives in the output.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor, redact, redactMessages, redactText } from '../../lib/redact/index';
import { fakeRandom } from '../../tools/shared/redact-fakes';

const r = fakeRandom(36);
const hex = r('0123456789abcdef', 64);

describe('a value found by its context is redacted wherever it appears', () => {
  it('a bearer token repeated bare in the same text', () => {
    const text = `curl -H "Authorization: Bearer ${hex}" …\nYour CRON_SECRET is \`${hex}\`.`;
    const out = redact(text);
    expect(out.text).not.toContain(hex);
    expect(out.text).toBe(
      'curl -H "Authorization: Bearer [bearer-token-1]" …\nYour CRON_SECRET is `[bearer-token-1]`.',
    );
    expect(out.findings).toEqual([{ kind: 'bearer-token', placeholder: '[bearer-token-1]', count: 2 }]);
  });

  it('the bare copy before the one with context, and in later messages of one redactor', () => {
    const pw = `Zq${r('abcdefghijklmnop0123456789', 14)}!`;
    expect(redactText(`use ${pw} to log in; password: "${pw}"`)).toBe(
      'use [secret-1] to log in; password: "[secret-1]"',
    );
    const msgs = redactMessages([
      { role: 'user', content: `DB_PASSWORD=${pw}` },
      { role: 'assistant', content: `I will connect with ${pw}.` },
    ]);
    expect(msgs.map((m) => m.content)).toEqual(['DB_PASSWORD=[secret-1]', 'I will connect with [secret-1].']);
    const red = createRedactor();
    red.redactText(`token: ${hex}`);
    expect(red.redactText(`echo ${hex}`)).toBe('echo [secret-1]');
  });

  it('short values and plain numbers are not hunted elsewhere (they are words)', () => {
    expect(redactText('password: "demo" — see the demo')).toBe('password: "[secret-1]" — see the demo');
    expect(redactText('token: 2024-01-01 and on 2024-01-01 again')).toBe(
      'token: [secret-1] and on 2024-01-01 again',
    );
  });

  it('stays idempotent when the bare copy is glued to more text', () => {
    const text = `Bearer ${hex} then ${hex}sk-ant-api03-${r('abcdefghijkl0123456789', 40)}`;
    const once = redactText(text);
    expect(once).not.toContain(hex);
    expect(redactText(once)).toBe(once);
  });
});

describe('code that looks like a setting is not a value', () => {
  const code = [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell substring expansion, literally
    'echo "token: ${token:0:20}..." and ${TOKEN: -4}',
    'return secure ? "__Secure-authjs.session-token" : "authjs.session-token";',
    'if (!options?.apiKey) { apiKey: options?.apiKey }',
    '$apiToken = ApiToken::where($hash)->first();',
    'GOOGLE_GEMINI_API_KEY="[MASKED_GEMINI_KEY]" and password: [REDACTED]',
    'CLERK_SECRET_KEY="sk_test_••••••••••••" api_key=abc********',
    '{"text":"then check the app_user password:\\",\\"call_id\\":\\"\\"}',
    'x = "\\\\n\\\\n\\\\n@pytest.fixture\\\\ndef app():"',
  ];
  for (const text of code) {
    it(text.slice(0, 48), () => {
      expect(redact(text).findings).toEqual([]);
    });
  }

  it('a default in a shell expansion is still a value', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell default, literally
    expect(redactText('${DB_PASSWORD:-s3cret9x}')).toBe('${DB_PASSWORD:[secret-1]}');
  });
});

describe('a conversation is redacted as a whole', () => {
  const PW = 'Kx9vQ2mT7wLp';
  const conversation = () => [
    { role: 'user', content: `mongosh -u admin -p ${PW} shows no documents` },
    {
      role: 'assistant',
      content: [{ type: 'text', text: `Connect with mongodb://admin:${PW}@db:27017 instead.` }],
    },
    { role: 'user', content: 'Thanks, that works.' },
  ];

  it('redacts a value typed bare before the message that shows it in its context', () => {
    const r = createRedactor();
    const out = r.redactMessages(conversation());
    const text = JSON.stringify(out);
    expect(text).not.toContain(PW);
    // The URL's `admin:…` is the first value found; the password alone, echoed, the second.
    expect(out[0]!.content).toBe('mongosh -u admin -p [url-credentials-2] shows no documents');
    expect(out[2]!.content).toBe('Thanks, that works.');
    // The first message was read twice; what it holds is counted once.
    expect(r.findings()).toEqual([
      { kind: 'url-credentials', placeholder: '[url-credentials-1]', count: 1 },
      { kind: 'url-credentials', placeholder: '[url-credentials-2]', count: 1 },
    ]);
    expect(r.count).toBe(2);
  });

  it('reads nothing twice when no later message teaches a value', () => {
    const r = createRedactor();
    const out = r.redactMessages([
      { role: 'user', content: 'mail jane@corp.io' },
      { role: 'assistant', content: 'Mailed jane@corp.io.' },
    ]);
    expect(out.map((m) => m.content)).toEqual(['mail [email-1]', 'Mailed [email-1].']);
    expect(r.count).toBe(2);
  });
});

describe('token shapes taken from secretlint', () => {
  const r = fakeRandom(40);
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  it.each([
    ['Cloudflare user token', `cfut_${r(ALNUM, 40)}${r('0123456789abcdef', 8)}`],
    ['Cloudflare account token', `cfat_${r(ALNUM, 48)}`],
    ['Vercel personal token', `vcp_${r(ALNUM, 24)}`],
    ['Vercel integration token', `vci_${r(ALNUM, 32)}`],
  ])('redacts a %s on its own', (_, token) => {
    expect(redactText(`deploy with ${token} today`)).toBe('deploy with [vendor-key-1] today');
  });
  it('leaves identifiers that only start the same way', () => {
    expect(redactText('vcp_enabled and cfut_count are flags')).toBe('vcp_enabled and cfut_count are flags');
  });
});
