import { isRearviewError } from 'rearview/core';
import { createRedactor, type RedactOptions, redact, redactMessages, redactText } from 'rearview/redact';
import { check, checkEqual, checkRejects } from '../check';
import type { ConformanceCase } from '../suite';

/**
 * Fake secrets of every shape, built from fixed pieces at run time (no file holds a whole fake key, so
 * secret scanners stay quiet). None is or was a real credential.
 */
const A = 'AbCdEfGhIjKlMnOpQrSt';
const D = '0123456789';
const fake = {
  anthropic: `sk-ant-api03-${A}${D}${A}-${A}_${D}AA`,
  openaiProject: `sk-proj-${A}${D}_${A}-${D}`,
  openaiLegacy: `sk-${A}T3BlbkFJ${D}${A}`,
  awsAccess: `AKIA${'QWERTYUIOP234567'}`,
  awsSecret: `${A}${D}/+${A.slice(0, 8)}`,
  ghp: `ghp_${A}${D}${A.slice(0, 6)}`,
  githubPat: `github_pat_${A}${D.slice(0, 2)}_${A}${D}${A}`,
  slack: `xoxb-${D}12-${D}123-${A}${D.slice(0, 4)}`,
  slackWebhook: `https://hooks.slack.com/services/T${'ABCDEFGH'}/B${'IJKLMNOP'}/${A}${D.slice(0, 4)}`,
  bearer: `${A}${D}.${A}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${A}${D}_-${A}`,
  pemBody: `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${A}${D}\n${A}${D}${A}${D}==`,
};
const pem = (label: string, nl = '\n') =>
  `-----BEGIN ${label}-----${nl}${fake.pemBody.split('\n').join(nl)}${nl}-----END ${label}-----`;

/** Redaction: every output here must be byte-identical in all runtimes. */
export const redactCases: ConformanceCase[] = [
  {
    // A value found by its context and pasted bare elsewhere: the second round for echoes replays the
    // first scan's steps and searches (lib/redact/trace.ts) around the echoes it finds.
    name: 'redact/echoes of values found by their context',
    run() {
      const pw = `Xq9${D.slice(0, 4)}vT2mLp`;
      const filler = 'The build runs npm test in ci_runner-2.yml; see docs/setup.md.\n'.repeat(3);
      const text = `${filler}DB_PASSWORD=${pw}\n${filler}echo ${pw} ${fake.ghp}\n${filler}Authorization: Bearer ${fake.bearer}\nagain ${fake.bearer} and ${pw}`;
      const r = redact(text);
      check(!r.text.includes(pw) && !r.text.includes(fake.bearer), 'no echo left in clear');
      checkEqual(
        r.findings.map((f) => [f.kind, f.count]),
        [
          ['secret', 3],
          ['github-token', 1],
          ['bearer-token', 2],
        ],
        'each value with every echo counted',
      );
      checkEqual(redact(r.text).count, 0, 'a second pass finds nothing');
      return r;
    },
  },
  {
    name: 'redact/every built-in kind',
    run() {
      const text = [
        `ANTHROPIC_API_KEY=${fake.anthropic}`,
        `OPENAI_API_KEY=${fake.openaiProject} legacy ${fake.openaiLegacy}`,
        `aws_access_key_id = ${fake.awsAccess}`,
        `aws_secret_access_key = ${fake.awsSecret}`,
        `GH_TOKEN=${fake.ghp} pat ${fake.githubPat}`,
        `SLACK_BOT_TOKEN=${fake.slack} hook ${fake.slackWebhook}`,
        `Authorization: Bearer ${fake.bearer}`,
        `session=${fake.jwt}`,
        pem('RSA PRIVATE KEY'),
        'From: Jane Doe <jane.doe+work@mail.example.co.uk>',
      ].join('\n');
      const result = redact(text);
      checkEqual(
        result.text,
        [
          'ANTHROPIC_API_KEY=[anthropic-key-1]',
          'OPENAI_API_KEY=[openai-key-1] legacy [openai-key-2]',
          'aws_access_key_id = [aws-access-key-1]',
          'aws_secret_access_key = [aws-secret-key-1]',
          'GH_TOKEN=[github-token-1] pat [github-token-2]',
          'SLACK_BOT_TOKEN=[slack-token-1] hook [slack-webhook-1]',
          'Authorization: Bearer [bearer-token-1]',
          'session=[jwt-1]',
          '[private-key-1]',
          'From: Jane Doe <[email-1]>',
        ].join('\n'),
        'every kind replaced',
      );
      check(result.count === 13 && result.findings.length === 13, 'thirteen findings');
      check(!JSON.stringify(result).includes(fake.anthropic), 'originals stay out of the result');
      return result;
    },
  },
  {
    name: 'redact/negatives stay as they are',
    run() {
      const texts = [
        '@pytest.fixture\n"\\n@pytest.mark.parametrize(\\"x\\", [1])"',
        "import Anthropic from '@anthropic-ai/sdk'; npm i @scope/pkg@1.2.3 lodash@4.17.21",
        'git clone git@github.com:org/repo.git; ssh -T git@gitlab.com',
        'user@localhost admin@example logo@2x.png',
        'scikit-learn sklearn sk-learn sk-internationalization risk-assessment-framework-2024-v12345678',
        'Bearer token, Bearer <token>, Bearer YOUR_API_KEY_HERE',
        'v1.2.3-beta.4 3f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 /home/user/src/index.ts',
        `${pem('PUBLIC KEY')}\n-----BEGIN PRIVATE KEY----- (header only)`,
        'Already redacted: [email-1] [jwt-2]',
      ];
      const out = texts.map((t) => redact(t));
      out.forEach((r, i) => {
        checkEqual(r.text, texts[i], `negative ${i}`);
      });
      return out.map((r) => r.count);
    },
  },
  {
    name: 'redact/placeholders: stable, numbered by first appearance, never colliding',
    run() {
      const result = redact('see [email-2]; b@x.io a@x.io b@x.io; keys sk-ant-x', { includeOriginals: true });
      checkEqual(
        result.text,
        'see [email-2]; [email-1] [email-3] [email-1]; keys sk-ant-x',
        'numbering skips [email-2]',
      );
      checkEqual(
        result.findings,
        [
          { kind: 'email', placeholder: '[email-1]', count: 2, original: 'b@x.io' },
          { kind: 'email', placeholder: '[email-3]', count: 1, original: 'a@x.io' },
        ],
        'findings with originals',
      );
      checkEqual(redactText(result.text), result.text, 'idempotent');
      const escaped = redactText('"hi\\njane@corp.io\\n@app.route(\\"/\\")"');
      checkEqual(
        escaped,
        '"hi\\n[email-1]\\n@app.route(\\"/\\")"',
        'escape letters are not part of an address',
      );
      return [result, escaped];
    },
  },
  {
    name: 'redact/custom patterns, disabled kinds and allowlists',
    run() {
      const options: RedactOptions = {
        patterns: [
          { kind: 'ticket', pattern: /TCK-\d+/ },
          { kind: 'codename', pattern: 'Bluebird' },
        ],
        kinds: { 'github-token': false },
        allow: ['noreply@anthropic.com', /.*@example\.org/],
      };
      const text = `TCK-1 TCK-22 TCK-1 Bluebird ${fake.ghp} Claude <noreply@anthropic.com> x@example.org y@corp.io [ticket-1]`;
      const result = redact(text, options);
      checkEqual(
        result.text,
        `[ticket-2] [ticket-3] [ticket-2] [codename-1] ${fake.ghp} Claude <noreply@anthropic.com> x@example.org [email-1] [ticket-1]`,
        'custom kinds, a disabled kind and allowed values',
      );
      const predicate = redactText('a@x.io b@y.io', { allow: (value) => value.startsWith('a@') });
      checkEqual(predicate, 'a@x.io [email-1]', 'predicate allowlist');
      return [result, predicate];
    },
  },
  {
    name: 'redact/a redactor shares placeholders across messages',
    run() {
      const r = createRedactor();
      const first = r.redactText('from jane@corp.io');
      const second = r.redact(`to bob@corp.io cc jane@corp.io key ${fake.slack}`);
      const messages = redactMessages([
        { role: 'user', content: 'I am jane@corp.io' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hi jane@corp.io, bob@corp.io' }] },
      ]);
      checkEqual(first, 'from [email-1]', 'first call');
      checkEqual(second.text, 'to [email-2] cc [email-1] key [slack-token-1]', 'second call');
      checkEqual(
        messages,
        [
          { role: 'user', content: 'I am [email-1]' },
          { role: 'assistant', content: [{ type: 'text', text: 'Hi [email-1], [email-2]' }] },
        ],
        'messages',
      );
      return { first, second, all: r.findings(), count: r.count, messages };
    },
  },
  {
    name: 'redact/rejects malformed options',
    async run() {
      await checkRejects(
        () => redact('x', { kinds: { emails: false } } as never),
        'validation_failed',
        'unknown kind',
      );
      await checkRejects(
        () => redact('x', { patterns: [{ kind: 'Bad Kind', pattern: /x/ }] }),
        'validation_failed',
        'bad kind name',
      );
      try {
        redact(42 as never);
      } catch (err) {
        check(isRearviewError(err), 'a rearview error');
        return (err as Error).message;
      }
      throw new Error('redact(42) did not throw');
    },
  },
  {
    name: 'redact/adversarial input stays linear',
    run() {
      const n = 400_000;
      const inputs = [
        'a@'.repeat(n / 2),
        'sk-'.repeat(n / 3),
        `eyJ${'A'.repeat(n)}`,
        '-----BEGIN PRIVATE KEY-----\n'.repeat(n / 28),
        `x@${'a.'.repeat(n / 2)}1`,
        'Bearer '.repeat(n / 7),
      ];
      // A quadratic scan of these takes minutes, past every runtime's test timeout; a linear one
      // milliseconds. No clock here: bench/redact.bench.ts prints the time ratios.
      const out = inputs.map((t) => redact(t).count);
      return out;
    },
  },
];
