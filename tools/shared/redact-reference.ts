/**
 * The reference set: one realistic fake for each secret kind of secretlint's recommended rule set
 * (@secretlint/secretlint-rule-preset-recommend 13.1.0) and for the prefixed and keyword formats of
 * gitleaks' default configuration (config/gitleaks.toml), each planted in every position a key takes
 * when it leaks: plain, JSON-escaped (slashes as `\/`), URL-encoded, quoted (`"`, `'`, backtick,
 * `&quot;`), glued to a word or a digit, split by an invisible character, and across two messages of
 * one transcript. Plus look-alikes that are not secrets. Built from a seed; none of these is or was a
 * real credential (documentation example keys are published by their vendors as examples).
 */
import { createRedactor, redact } from '../../lib/redact/index';
import { gitleaksKinds } from './gitleaks-rules';
import { fakeRandom } from './redact-fakes';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;

/** One reference kind: where it comes from, the planted text and the secret in it. */
export interface ReferenceKind {
  /** `secretlint/<rule>` or `gitleaks/<rule id>`. */
  ref: string;
  /** The planted text (context included). */
  text: string;
  /** What must not survive, in any spelling. */
  value: string;
}

/** Every reference kind, from `seed`. */
export function referenceKinds(seed: number): ReferenceKind[] {
  const r = fakeRandom(seed);
  const k = (ref: string, value: string, text = value): ReferenceKind => ({ ref, text, value });
  const urlPw = `${r(ALNUM, 14)}9x`;
  const pemBody = Array.from({ length: 4 }, () => r(B64, 64)).join('\n');
  const pem = `-----BEGIN PRIVATE KEY-----\n${pemBody}\n-----END PRIVATE KEY-----`;
  const awsSecret = r(B64, 40);
  return [
    // secretlint recommended (one entry per rule; several formats where the rule has them)
    k('secretlint/1password', `ops_eyJ${r(B64, 300)}`),
    k(
      'secretlint/1password',
      `A3-${r(UPPER + DIGITS, 6)}-${r(UPPER + DIGITS, 11)}-${r(UPPER, 5)}-${r(UPPER, 5)}-${r(UPPER, 5)}`,
    ),
    k('secretlint/anthropic', `sk-ant-api03-${r(B64URL, 93)}AA`),
    k('secretlint/aws', `AKIA${r('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`),
    k('secretlint/aws', awsSecret, `aws_secret_access_key = ${awsSecret}`),
    k('secretlint/basicauth', urlPw, `https://deploy:${urlPw}@git.example.com/repo.git`),
    k('secretlint/cloudflare', r(B64URL, 40), ''),
    k('secretlint/database-connection-string', `Zx${r(ALNUM, 14)}`, ''),
    k('secretlint/databricks', `dapi${r(HEX, 32)}`),
    k('secretlint/docker', `dckr_pat_${r(B64URL, 27)}`),
    k('secretlint/figma', `figd_${r(B64URL, 40)}`),
    k('secretlint/gcp', `AIza${r(B64URL, 35)}`),
    k(
      'secretlint/gcp',
      pemBody.split('\n')[1]!,
      `{"type": "service_account", "private_key": ${JSON.stringify(pem)}}`,
    ),
    k('secretlint/github', `ghp_${r(ALNUM, 36)}`),
    k('secretlint/github', `github_pat_${r(ALNUM, 22)}_${r(ALNUM, 59)}`),
    k('secretlint/gitlab', `glpat-${r(B64URL, 20)}`),
    k('secretlint/groq', `gsk_${r(ALNUM, 52)}`),
    k('secretlint/grafana', `glc_${r(B64, 80)}`),
    k('secretlint/grafana', `glsa_${r(ALNUM, 32)}_${r(HEX, 8)}`),
    k('secretlint/hashicorp-vault', `hvs.${r(B64URL, 92)}`),
    k('secretlint/huggingface', `hf_${r(UPPER + LOWER, 34)}`),
    k('secretlint/linear', `lin_api_${r(ALNUM, 40)}`),
    k('secretlint/notion', `ntn_${r(DIGITS, 11)}${r(ALNUM, 35)}`),
    k('secretlint/npm', `npm_${r(ALNUM, 36)}`),
    k('secretlint/openai', `sk-proj-${r(B64URL, 120)}`),
    k('secretlint/privatekey', pemBody.split('\n')[2]!, pem.replace(/PRIVATE KEY/g, 'RSA PRIVATE KEY')),
    k('secretlint/sendgrid', `SG.${r(B64URL, 22)}.${r(B64URL, 43)}`),
    k('secretlint/shopify', `shpat_${r(HEX, 32)}`),
    k('secretlint/slack', `xoxb-${r(DIGITS, 12)}-${r(DIGITS, 13)}-${r(ALNUM, 24)}`),
    k('secretlint/slack', `https://hooks.slack.com/services/T${r(UPPER, 8)}/B${r(UPPER, 8)}/${r(ALNUM, 24)}`),
    k('secretlint/stripe', `sk_live_${r(ALNUM, 24)}`),
    k('secretlint/tailscale', `tskey-auth-k${r(ALNUM, 10)}CNTRL-${r(ALNUM, 32)}`),
    k('secretlint/vercel', r(ALNUM, 24), ''),
    // Formats of later gitleaks releases than the configuration read (see gitleaks-rules.ts), kept.
    k('extra/hubspot-api-key', `pat-na1-${r(HEX, 8)}-${r(HEX, 4)}-${r(HEX, 4)}-${r(HEX, 4)}-${r(HEX, 12)}`),
    k('extra/xai-api-key', `xai-${r(ALNUM, 80)}`),
    // Seen in a public aider history (an `--api-key` value aider echoed back) that the redactor missed.
    k('extra/nvidia-api-key', `nvapi-${r(B64URL, 64)}`),
    k('extra/openrouter-api-key', `sk-or-v1-${r(HEX, 64)}`),
    // Seen in a public Antigravity session (`netlify deploy --auth=…`) that the redactor missed.
    k('extra/netlify-personal-access-token', `nfp_${r(ALNUM, 36)}`),
    k('extra/replicate-api-token', `r8_${r(ALNUM, 37)}`),
    k('extra/gcp-oauth-access-token', `ya29.${r(B64URL, 120)}`),
    k('extra/mapbox-api-token', `sk.eyJ${r(B64URL, 60)}.${r(B64URL, 22)}`),
    k('extra/azure-storage-account-key', `${r(B64, 86)}==`, ''),
    k('extra/azure-sas-signature', `${r(ALNUM, 20)}%2B${r(ALNUM, 20)}%3D`, ''),
    k('extra/mssql-password', `Zq${r(ALNUM, 12)}!`, ''),
    ...gitleaksKinds(seed),
  ].map(withContext);
}

/** The context of the keyword and connection-string kinds (their text left empty above). */
function withContext(k: ReferenceKind): ReferenceKind {
  if (k.text !== '') return k;
  const v = k.value;
  const text: Record<string, string> = {
    'secretlint/cloudflare': `CLOUDFLARE_API_TOKEN=${v}`,
    'secretlint/database-connection-string': `postgres://admin:${v}@db.internal:5432/app`,
    // Quoted, as a .env written by `vercel env pull` has it (an unquoted value of letters only is kept).
    'secretlint/vercel': `VERCEL_TOKEN="${v}"`,
    'extra/azure-storage-account-key': `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${v};EndpointSuffix=core.windows.net`,
    'extra/azure-sas-signature': `https://acme.blob.core.windows.net/c/f?sv=2022-11-02&se=2030-01-01&sig=${v}`,
    'extra/mssql-password': `Server=db;Database=app;Uid=sa;Pwd=${v};`,
  };
  return { ...k, text: text[k.ref]! };
}

/** A position: the document a planted text becomes (one string, or the messages of a transcript). */
export interface ReferencePosition {
  name: string;
  place: (text: string, value: string) => string | string[];
}

/** Splits the value in its middle with `ch`. */
const split = (text: string, value: string, ch: string) =>
  text.replace(value, value.slice(0, value.length >> 1) + ch + value.slice(value.length >> 1));

/** The positions every reference kind is planted in. */
export const REFERENCE_POSITIONS: readonly ReferencePosition[] = [
  { name: 'plain', place: (t) => `the tool printed ${t} and stopped` },
  { name: 'JSON-escaped', place: (t) => `{"content":${JSON.stringify(`x\n${t}\n`).replace(/\//g, '\\/')}}` },
  { name: 'URL-encoded', place: (t) => `GET /cb?state=1&key%3D${encodeURIComponent(t)}%20ok` },
  { name: 'quoted "', place: (t) => `value: "${t}"` },
  { name: "quoted '", place: (t) => `value: '${t}'` },
  { name: 'quoted `', place: (t) => `value: \`${t}\`` },
  { name: 'quoted &quot;', place: (t) => `<pre>value=&quot;${t}&quot;</pre>` },
  { name: 'glued to a word', place: (t) => `MY_${t}` },
  { name: 'glued to a digit', place: (t) => `1${t}` },
  { name: 'split by ZWSP', place: (t, v) => `key ${split(t, v, '\u200b')}` },
  { name: 'split by soft hyphen', place: (t, v) => `key ${split(t, v, '\u00ad')}` },
  { name: 'split by a bidi control', place: (t, v) => `key ${split(t, v, '\u202e')}` },
  // Two consecutive messages of one transcript: the key, then the value repeated on its own.
  { name: 'across messages', place: (t, v) => [`Use this: ${t}`, `Again, it is ${v} — keep it.`] },
];

/** How a reader sees a text: invisible characters dropped, NFKC, %XX, `\/`, `&quot;` and `\"` decoded. */
export function asRead(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cc}]/gu, '')
    .replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\\\//g, '/')
    .replace(/&quot;/g, '"')
    .replace(/\\n/g, '\n')
    .replace(/\\"/g, '"');
}

/** Whether any half of `value` is left in the output as read. */
export function leaked(output: string, value: string): boolean {
  const seen = asRead(output);
  const half = value.length >> 1;
  return seen.includes(value.slice(0, half)) || seen.includes(value.slice(half));
}

/** Look-alikes, by class: none is a secret; a redaction of one is a false positive. */
export function lookAlikes(seed: number): { cls: string; text: string }[] {
  const r = fakeRandom(seed + 7);
  const hex = (n: number) => r(HEX, n);
  return [
    { cls: 'git SHA', text: `commit ${hex(40)}` },
    { cls: 'git SHA', text: `git checkout ${hex(12)}` },
    { cls: 'sha256 hex', text: `sha256sum: ${hex(64)}  dist.tgz` },
    { cls: 'UUID', text: `request id ${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}` },
    { cls: 'npm integrity', text: `"integrity": "sha512-${r(B64, 86)}=="` },
    { cls: 'base64 image', text: `<img src="data:image/png;base64,iVBORw0KGgo${r(B64, 600)}=">` },
    { cls: 'documentation example key', text: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE' },
    {
      cls: 'documentation example key',
      text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    },
    { cls: 'documentation example key', text: 'SLACK_BOT_TOKEN=xoxb-your-token' },
    { cls: 'documentation example key', text: 'OPENAI_API_KEY=sk-...' },
    { cls: 'documentation example key', text: 'export GITHUB_TOKEN=<your-token>' },
    // Vendors' names in settings and code that are not secrets (gitleaks' keyword rules read these names).
    { cls: 'vendor name, no secret', text: 'JIRA_URL=https://acme.atlassian.net/browse/ABC-1234' },
    { cls: 'vendor name, no secret', text: 'transition: opacity 0.25s linear, transform 0.25s linear' },
    { cls: 'vendor name, no secret', text: '"@sentry/nextjs": "^7.119.0",' },
    { cls: 'vendor name, no secret', text: 'SENTRY_ORG=acme-inc\nSENTRY_PROJECT=web-frontend' },
    { cls: 'vendor name, no secret', text: 'twitter: "@acme_support", discord: "https://discord.gg/acme"' },
    {
      cls: 'vendor name, no secret',
      text: `const url = this.baseUrl + os.path.join(${JSON.stringify(hex(8))})`,
    },
  ];
}

/** Redacts one document: a string, or the messages of one transcript with one redactor. */
export function redactDoc(doc: string | string[]): string {
  if (typeof doc === 'string') return redact(doc).text;
  const r = createRedactor();
  return r
    .redactMessages(doc.map((content) => ({ role: 'user', content })))
    .map((m) => m.content)
    .join('\n');
}

/** Misses (kind, position) over every kind and position for `seed`, and how many were planted. */
export function scoreReference(seed: number): {
  planted: number;
  missed: string[];
  recallByPosition: Record<string, number>;
  recallByKind: Record<string, number>;
} {
  const byPosition: Record<string, [number, number]> = {};
  const byKind: Record<string, [number, number]> = {};
  const missed: string[] = [];
  let planted = 0;
  for (const k of referenceKinds(seed)) {
    for (const p of REFERENCE_POSITIONS) {
      planted++;
      const miss = leaked(redactDoc(p.place(k.text, k.value)), k.value);
      if (miss) missed.push(`${k.ref} | ${p.name}`);
      for (const [table, key] of [
        [byPosition, p.name],
        [byKind, k.ref],
      ] as const) {
        table[key] ??= [0, 0];
        table[key][1]++;
        if (!miss) table[key][0]++;
      }
    }
  }
  const ratio = (t: Record<string, [number, number]>) =>
    Object.fromEntries(Object.entries(t).map(([k, [found, all]]) => [k, found / all]));
  return { planted, missed, recallByPosition: ratio(byPosition), recallByKind: ratio(byKind) };
}

/** Look-alikes changed by redaction, counted per class. */
export function falsePositives(seed: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { cls, text } of lookAlikes(seed)) {
    out[cls] ??= 0;
    if (redact(text).count > 0) out[cls]++;
  }
  return out;
}
