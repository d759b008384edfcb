/**
 * redact's built-in kinds: each found in the settings and text it appears in (a key right after an
 * escape included), Stripe and Google keys, URL credentials and named secrets, and the things that
 * look like secrets but are not.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_KINDS, type RedactResult, redact, redactText } from '../../lib/redact/index';
import { pem } from '../../tools/shared/redact-fakes';
import { f } from './redact-helpers';

/** The single placeholder a one-secret text yields, and the check that the secret is gone. */
function only(result: RedactResult, kind: string, secret: string): string {
  expect(result.findings.map((x) => x.kind)).toEqual([kind]);
  expect(result.text).not.toContain(secret);
  return result.findings[0]!.placeholder;
}

describe('built-in kinds', () => {
  const cases: [string, string, string][] = [
    ['anthropic-key', f.anthropic, `export ANTHROPIC_API_KEY=${f.anthropic}`],
    ['anthropic-key', f.anthropicAdmin, `admin key: "${f.anthropicAdmin}"`],
    ['openai-key', f.openaiProject, `OPENAI_API_KEY='${f.openaiProject}'`],
    ['openai-key', f.openaiLegacy, `openai.api_key = "${f.openaiLegacy}"`],
    ['aws-access-key', f.awsAccess, `aws_access_key_id = ${f.awsAccess}`],
    ['aws-access-key', f.awsSession, `"AccessKeyId": "${f.awsSession}",`],
    ['github-token', f.ghp, `git clone https://${f.ghp}@github.com/org/repo`],
    ['github-token', f.gho, `token ${f.gho}`],
    ['github-token', f.ghu, `(${f.ghu})`],
    ['github-token', f.ghs, `GITHUB_TOKEN=${f.ghs}`],
    ['github-token', f.ghr, `refresh=${f.ghr};`],
    ['github-token', f.githubPat, `gh auth login --with-token <<< ${f.githubPat}`],
    ['slack-token', f.slackBot, `SLACK_BOT_TOKEN=${f.slackBot}`],
    ['slack-token', f.slackUser, `token: ${f.slackUser}`],
    ['slack-token', f.slackApp, `${f.slackApp}`],
    ['slack-token', f.slackRefresh, `refresh ${f.slackRefresh}.`],
    ['slack-token', f.slackAppLevel, `app-level ${f.slackAppLevel}`],
    ['slack-webhook', f.slackWebhook, `curl -X POST ${f.slackWebhook} -d '{"text":"hi"}'`],
    ['jwt', f.jwt, `cookie: session=${f.jwt}; Path=/`],
    ['email', 'jane.doe+work@mail.example.co.uk', 'From: Jane <jane.doe+work@mail.example.co.uk>'],
    ['email', 'o.brien@uni-example.edu', 'contact o.brien@uni-example.edu.'],
  ];
  for (const [kind, secret, text] of cases) {
    it(`${kind}: ${text.slice(0, 24)}…`, () => {
      const result = redact(text);
      const placeholder = only(result, kind, secret);
      expect(placeholder).toBe(`[${kind}-1]`);
      expect(result.text).toBe(text.replace(secret, placeholder));
      expect(result.count).toBe(1);
    });
  }

  it('AWS secret keys only in context, keeping the context', () => {
    const lines = [
      `aws_secret_access_key = ${f.awsSecret}`,
      `AWS_SECRET_ACCESS_KEY=${f.awsSecret}`,
      `"SecretAccessKey": "${f.awsSecret}"`,
      `{\\"aws_secret_access_key\\": \\"${f.awsSecret}\\"}`,
      `secret-access-key: '${f.awsSecret}'`,
    ];
    for (const line of lines) {
      const result = redact(line);
      expect(only(result, 'aws-secret-key', f.awsSecret)).toBe('[aws-secret-key-1]');
      expect(result.text).toBe(line.replace(f.awsSecret, '[aws-secret-key-1]'));
    }
    // The same 40 characters without the context are not a finding (they could be any hash).
    expect(redact(`checksum ${f.awsSecret}`).count).toBe(0);
  });

  it('bearer tokens keep the scheme and take a more specific kind when they have one', () => {
    expect(redactText(`Authorization: Bearer ${f.bearer}`)).toBe('Authorization: Bearer [bearer-token-1]');
    expect(redactText(`authorization: bearer ${f.bearer}`)).toBe('authorization: bearer [bearer-token-1]');
    expect(redactText(`-H "Authorization: Bearer ${f.bearer}"`)).toBe(
      '-H "Authorization: Bearer [bearer-token-1]"',
    );
    expect(redactText(`Bearer ${f.anthropic}`)).toBe('Bearer [anthropic-key-1]');
    expect(redactText(`Bearer ${f.jwt}`)).toBe('Bearer [jwt-1]');
    // With the specific kind off, the bearer rule still catches it.
    expect(redactText(`Bearer ${f.jwt}`, { kinds: { jwt: false } })).toBe('Bearer [bearer-token-1]');
  });

  it('PEM private keys: complete, encrypted, escaped and truncated blocks', () => {
    const blocks = [
      pem('RSA PRIVATE KEY', f.pemBody),
      pem('PRIVATE KEY', f.pemBody),
      pem('EC PRIVATE KEY', f.pemBody),
      pem('OPENSSH PRIVATE KEY', f.pemBody),
      pem('ENCRYPTED PRIVATE KEY', f.pemBody),
      pem(
        'RSA PRIVATE KEY',
        `Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n${f.pemBody}`,
      ),
      pem('PGP PRIVATE KEY BLOCK', f.pemBody),
      pem('PRIVATE KEY', f.pemBody, '\\n'), // inside a JSON string
      pem('PRIVATE KEY', f.pemBody, '\r\n'),
    ];
    for (const block of blocks) {
      const text = `key:\n${block}\nend`;
      const result = redact(text);
      expect(result.text).toBe('key:\n[private-key-1]\nend');
      expect(result.findings).toEqual([{ kind: 'private-key', placeholder: '[private-key-1]', count: 1 }]);
    }
    // Cut short (no END line): the header and the base64 lines that follow are still removed.
    const truncated = `-----BEGIN RSA PRIVATE KEY-----\n${f.pemBody}\n... (output truncated)`;
    expect(redactText(truncated)).toBe('[private-key-1]\n... (output truncated)');
    // Public keys and certificates are not secrets.
    const pub = pem('PUBLIC KEY', f.pemBody);
    const cert = pem('CERTIFICATE', f.pemBody);
    expect(redactText(`${pub}\n${cert}`)).toBe(`${pub}\n${cert}`);
  });

  it('addresses inside escaped text lose only the escape letter', () => {
    expect(redactText('"line one\\njane@corp.io\\tbob@corp.io"')).toBe('"line one\\n[email-1]\\t[email-2]"');
    // An escaped backslash does not start an escape: `\\n` then `njane`.
    expect(redactText('C:\\\\njane@corp.io')).toBe('C:\\\\[email-1]');
  });

  it('lists every built-in kind', () => {
    expect([...BUILTIN_KINDS].sort()).toEqual(
      [
        'anthropic-key',
        'aws-access-key',
        'aws-secret-key',
        'bearer-token',
        'email',
        'github-token',
        'jwt',
        'openai-key',
        'private-key',
        'secret',
        'slack-token',
        'slack-webhook',
        'stripe-key',
        'google-api-key',
        'url-credentials',
        'npm-token',
        'huggingface-token',
        'gitlab-token',
        'vendor-key',
        'basic-auth',
      ].sort(),
    );
  });
});

describe('a key right after an escape', () => {
  const keys: [string, string][] = [
    ['anthropic-key', f.anthropic],
    ['openai-key', f.openaiProject],
    ['github-token', f.ghp],
    ['github-token', f.githubPat],
    ['slack-token', f.slackBot],
    ['slack-webhook', f.slackWebhook],
    ['aws-access-key', f.awsAccess],
    ['aws-access-key', f.awsSession],
    ['jwt', f.jwt],
    // Every kind whose fixed start escapes.ts lists (KEY_START), so a kind left out there fails here.
    ['stripe-key', `sk_live_${'a1B2c3D4'.repeat(3)}`],
    ['stripe-key', `rk_test_${'a1B2c3D4'.repeat(3)}`],
    ['stripe-key', `whsec_${'x9'.repeat(16)}`],
    ['google-api-key', `AIza${'SyA1b2C3d4'.repeat(3)}12345`],
    ['slack-token', f.slackAppLevel],
  ];
  for (const [kind, key] of keys) {
    it(`${kind} after \\n, \\t, \\r, \\", \\\\, \\u003d and \\x3d`, () => {
      for (const esc of ['\\n', '\\t', '\\r', '\\"', '\\\\', '\\u003d', '\\x3d']) {
        // A Claude Code tool_use writing a .env file: the JSON text holds `\n` escapes, not newlines.
        const text = `{"content":"# keys${esc}${key}${esc}DEBUG=1"}`;
        const result = redact(text);
        expect(result.text, esc).toBe(text.replace(key, `[${kind}-1]`));
      }
    });
  }

  it('a key glued to the end of a short word is still a key; inside a long run it is not', () => {
    // `\\n` is a backslash, then the letter n: `nghp_…` is a key glued to a one-letter word.
    expect(redactText(`C:\\\\n${f.ghp}`)).toBe('C:\\\\n[github-token-1]');
    expect(redactText(`C:\\\\\\n${f.ghp}`)).toBe('C:\\\\\\n[github-token-1]');
    expect(redactText(`in${f.ghp}`)).toBe('in[github-token-1]');
    // After 16 or more word characters the prefix is part of the run (a hash, a base64 blob).
    expect(redactText(`${'a1'.repeat(8)}${f.ghp}`)).toBe(`${'a1'.repeat(8)}${f.ghp}`);
  });

  it('a prefix of seven or more characters is read after any run (an AWS key id, then sk-ant-…)', () => {
    // Found by `npm run fuzz` on "is idempotent": the 20-character key id before `sk-ant-` made the
    // Anthropic key part of a run, and the key id had no boundary after it: both stayed in clear.
    const ant = 'sk-ant-api03-ghml2iFhmce1aqrKLRZYlImka2zxUnQDv-SJvWjk2J20YBE1fhRguFpCco';
    expect(redactText(`AKIASOGCBM5N4KLTALRZ${ant}`)).toBe('[aws-access-key-1][anthropic-key-1]');
    expect(redactText(`${'a1'.repeat(20)}${ant}`)).toBe(`${'a1'.repeat(20)}[anthropic-key-1]`);
  });
});

describe('Stripe, Google, URL credentials and named secrets', () => {
  const stripe = `sk_live_${'a1B2c3D4'.repeat(3)}`;
  const google = `AIza${'SyA1b2C3d4'.repeat(3)}12345`;

  it('Stripe secret, restricted and webhook keys, live and test; publishable keys are public', () => {
    for (const key of [
      stripe,
      stripe.replace('sk_', 'rk_'),
      stripe.replace('live', 'test'),
      `whsec_${'x9'.repeat(16)}`,
    ]) {
      expect(redactText(`STRIPE=${key};`)).toBe('STRIPE=[stripe-key-1];');
    }
    const publishable = stripe.replace('sk_', 'pk_');
    expect(redactText(`Stripe(${publishable})`)).toBe(`Stripe(${publishable})`);
  });

  it('Google API keys: AIza and 35 characters, exactly', () => {
    expect(google).toHaveLength(39);
    expect(redactText(`key=${google}&q=1`)).toBe('key=[google-api-key-1]&q=1');
    expect(redactText(`${google}x`)).toBe(`${google}x`);
  });

  it('credentials in a URL of any scheme and host: the host stays', () => {
    const cases: [string, string][] = [
      [
        'postgres://app:hunter2@db.internal:5432/prod',
        'postgres://[url-credentials-1]@db.internal:5432/prod',
      ],
      ['redis://:s3cret@localhost:6379', 'redis://[url-credentials-1]@localhost:6379'],
      ['https://deploy:pa55@127.0.0.1:8443/x', 'https://[url-credentials-1]@127.0.0.1:8443/x'],
      [
        'mongodb+srv://u:p%40ss@cluster0.example.net/db',
        'mongodb+srv://[url-credentials-1]@cluster0.example.net/db',
      ],
      ['amqp://guest:g@st@[::1]:5672', 'amqp://[url-credentials-1]@[::1]:5672'],
    ];
    for (const [text, expected] of cases) expect(redactText(text)).toBe(expected);
    // No password: a user name or a token-as-user is not this kind.
    expect(redactText('https://user@example.com/x')).toBe('https://[email-1]/x');
    expect(redactText('http://localhost:3000/api?x=1')).toBe('http://localhost:3000/api?x=1');
  });

  it('.env-style and JSON settings: the value goes, the name stays', () => {
    const cases: [string, string][] = [
      ['PASSWORD=hunter2', 'PASSWORD=[secret-1]'],
      ['DB_PASSWORD="correct horse 9"', 'DB_PASSWORD="[secret-1]"'],
      ["SECRET='abc'", "SECRET='[secret-1]'"],
      ['JWT_SECRET=c0ffee', 'JWT_SECRET=[secret-1]'],
      ['SECRET_KEY=django-insecure-x7', 'SECRET_KEY=[secret-1]'],
      ['API_KEY=abc123def', 'API_KEY=[secret-1]'],
      ['export SLACK_SIGNING_TOKEN=9f8e7d', 'export SLACK_SIGNING_TOKEN=[secret-1]'],
      ['{"password": "p4ss", "user": "jo"}', '{"password": "[secret-1]", "user": "jo"}'],
      ['{\\"client_secret\\":\\"p4ss\\"}', '{\\"client_secret\\":\\"[secret-1]\\"}'],
      ['x-api-key: abc123', 'x-api-key: [secret-1]'],
      ['accessToken: "tok"', 'accessToken: "[secret-1]"'],
      ['?token=abc123&page=2', '?token=[secret-1]&page=2'],
      ['# .env\\nPASSWORD=hunter2\\nDEBUG=1', '# .env\\nPASSWORD=[secret-1]\\nDEBUG=1'],
    ];
    for (const [text, expected] of cases) expect(redactText(text), text).toBe(expected);
    // A value with a more specific shape gets that kind.
    expect(redactText(`GH_TOKEN=${f.ghp}`)).toBe('GH_TOKEN=[github-token-1]');
    expect(redactText(`"api_key": "${stripe}"`)).toBe('"api_key": "[stripe-key-1]"');
  });

  it('code and references are not values', () => {
    const code = [
      'token = tokenizer.encode(text)',
      'api_key=api_key, password=getpass()',
      'password: string; token?: string',
      'def login(password: str, token: Optional[str] = None):',
      'const token = await getToken();',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, literally
      'TOKEN=$(gh auth token) PASSWORD=${DB_PASSWORD} SECRET=<your-secret>',
      'max_tokens=4096 token_count: 12 if token == other:',
      '"password": {"type": "string"}, "token": null, "password": ""',
      'PWD=/home/dev',
    ];
    for (const text of code) expect(redactText(text), text).toBe(text);
  });
});

describe('things that are not secrets', () => {
  const negatives = [
    '@pytest.fixture\ndef client():',
    '"\\n@pytest.mark.parametrize(\\"x\\", [1])\\n@app.route(\\"/\\")"',
    "import Anthropic from '@anthropic-ai/sdk';",
    'npm i @anthropic-ai/sdk@0.30.1 lodash@4.17.21 react@latest',
    'git clone git@github.com:anthropics/anthropic-sdk-python.git',
    'ssh -T git@gitlab.com',
    'user@localhost and admin@example (no TLD) and root@127.0.0.1',
    'assets/logo@2x.png, icon@3x.webp, bundle@1.2.js',
    'pip install scikit-learn sklearn; sk-learn; sk-internationalization; sk-1234',
    'risk-assessment-framework-2024-v1234567, task-abcdefghijklmnopqrstuvwxyz0123',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, literally
    'Bearer token, Bearer <token>, Bearer ${TOKEN}, Bearer YOUR_API_KEY_HERE, "Bearer " + token',
    'version 1.2.3-beta.4, commit 3f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
    '/home/user/project/src/index.ts:42:7 and C:\\Users\\dev\\app.py',
    'AKIA1234 is too short; eyJhbGciOiJIUzI1NiJ9 alone is not a JWT',
    'ghp_short xoxb-short github_pat_short https://hooks.slack.com/services/',
    '-----BEGIN PRIVATE KEY----- (the header alone carries no secret)',
    'y = a @ b.T; z = x@w',
    'Already redacted: [email-1], [anthropic-key-2], [private-key-1].',
    'pk_live_51HqLyjWDarjtT1zdp7dcAbCdEf, git sha 3f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
    'image: ghcr.io/acme/api@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  ];
  for (const text of negatives) {
    it(text.slice(0, 40), () => {
      const result = redact(text);
      expect(result.findings).toEqual([]);
      expect(result.text).toBe(text);
    });
  }
});
