/**
 * Spellings of secrets that once leaked: URL-encoded, JSON-escaped slashes, .npmrc,
 * Hugging Face, Basic auth, Azure and SQL connection strings, PEM variants, GCP key ids, http:// Slack
 * webhooks, keys glued to a word or a digit, backtick- and &quot;-quoted passwords, and a placeholder in
 * front of (or inside) a value. Every case must lose its secret.
 */
import { describe, expect, it } from 'vitest';
import { redact } from '../../lib/redact/index';
import { fakeRandom } from '../../tools/shared/redact-fakes';

const r = fakeRandom(364);
const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const k36 = r(A, 36);
const aws = `AKIA${r('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
const ant = `sk-ant-api03-${r(A, 40)}`;
const awsSecret = r(`${A}+/`, 20).replace(/\//g, 'x') + r(A, 20);
const b64line = r(A, 48);

/** [text, the secret that must not survive] */
const CASES: [string, string][] = [
  [`key%3D${aws}`, aws],
  [`x%20ghp_${k36}`, `ghp_${k36}`],
  [`%22${ant}%22`, ant],
  ['postgres%3A%2F%2Fadmin%3APw9xQz7%40host', 'Pw9xQz7'],
  ['mailto:jane.doe%40corp.io', 'jane.doe'],
  [`"aws_secret_access_key":"${awsSecret.slice(0, 10)}\\/${awsSecret.slice(11)}"`, awsSecret.slice(11)],
  [`https:\\/\\/hooks.slack.com\\/services\\/T0ABCDEFG\\/B0ABCDEFG\\/${k36.slice(0, 24)}`, k36.slice(0, 24)],
  [`//registry.npmjs.org/:_authToken=npm_${k36}`, `npm_${k36}`],
  [`npm_${k36}`, `npm_${k36}`],
  [`hf_${r('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 34)}`, 'hf_'],
  ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
  [`AccountName=x;AccountKey=${b64line}==;EndpointSuffix=core.windows.net`, b64line],
  [`Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${b64line}=`, b64line],
  [`https://x.blob.core.windows.net/c?sv=2020-08-04&sig=${b64line}%3D&se=2024`, b64line],
  ['Server=db;Database=app;Uid=sa;Pwd=Secr3t!x9;', 'Secr3t!x9'],
  [
    `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,ABCDEF0123456789\n\n${b64line}\n`,
    b64line,
  ],
  [`-----BEGIN PRIVATE KEY----- ${b64line} ${b64line.slice(8)}`, b64line.slice(8)],
  [`"private_key_id": "${r('0123456789abcdef', 40)}"`, '"private_key_id": "'],
  [`http://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/${k36.slice(0, 24)}`, k36.slice(0, 24)],
  [`id${aws}`, aws],
  [`MY_ghp_${k36}`, `ghp_${k36}`],
  [`1${ant}`, ant],
  ['password: `Hunter2x9!`', 'Hunter2x9!'],
  ['password=&quot;Hunter2x9!&quot;', 'Hunter2x9!'],
  ['password="[email-1]Hunter2x9!"', 'Hunter2x9!'],
  ['Bearer [email-1]abcdef1234567890abcdef', 'abcdef1234567890abcdef'],
  [`AKIA[email-1]${aws.slice(4)}`, aws.slice(4)],
  // Found by `npm run fuzz`: a setting glued to the end of a bearer token (its name ends the token).
  [`Bearer abcdefghijklmnopqrstuvwxyz.6password=${k36}`, k36],
  [
    'Bearer ebMHIMEXI4BR9rQQ5SkjWio7P95lD_AA4NU.n6L-Jn6aws_secret_access_key=AOzeACBYgB36PWHJCawxZ2eTnpqZtdZa9ToEoIoOa',
    'AOzeACBYgB36PWHJCawxZ2eTnpqZtdZa9ToEoIoOa',
  ],
];

describe('spellings that once leaked', () => {
  for (const [text, secret] of CASES) {
    it(text.slice(0, 60), () => {
      const out = redact(text).text;
      if (secret === '"private_key_id": "') expect(out).toBe('"private_key_id": "[secret-1]"');
      else if (secret === 'hf_') expect(out).toBe('[huggingface-token-1]');
      else expect(out).not.toContain(secret);
    });
  }
});

// Found by `npm run fuzz` (fresh seeds): the skeleton drops a placeholder wedged into a key, and an
// address read across the gap was not in the text the placeholder was written into, so a second pass
// rewrote the placeholder. An address now stops at such a gap, and a domain cut by one is no address.
describe('an address never reaches across a placeholder wedged into a key', () => {
  const pem = `-----BEGIN PRIVATE KEY-----\n${b64line}\n${b64line}\n-----END PRIVATE KEY-----`;
  it('a second pass keeps the placeholder (sk-ant- before a key, git@ after it)', () => {
    const once = redact(`sk-ant-----${pem}git@github.com:`).text;
    expect(once).toBe('sk-ant-----[private-key-1]git@github.com:');
    expect(redact(once).text).toBe(once);
  });
  it('fuzz seed -308292549 (path 545890:19): a key that ends where a placeholder is wedged is found whole', () => {
    // Found by `npm run fuzz` on "is idempotent": read through `[email-1]`, the marked OpenAI key ran on
    // into `eyJ…` and was no key (its body has a fixed length), glued to the address it was not one
    // either (`sk-` after a word), so only `jane@corp.iosk` went and the key's body stayed in clear. A
    // second pass, which sees the placeholder as a boundary, found it. Both readings count now.
    const key = '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';
    const text = `jane@corp.io${key}[email-1]eyJBearer ebMHIMEXI4BR9rQQ5SkjWio7P95lD_AA4NU.n6L-Jn6`;
    const once = redact(text).text;
    expect(once).toBe('[openai-key-1][email-1]eyJBearer [bearer-token-1]');
    expect(redact(once).text).toBe(once);
    // A placeholder wedged into a key that runs on after it is still read through.
    expect(redact(`${key.slice(0, 30)}[email-1]${key.slice(30)}`).text).toBe('[openai-key-1]');
  });
  it('fuzz seed 1651865282 (path 132552:2:7): an address that a key ends, not the placeholder, is an address', () => {
    // Found by `npm run fuzz` on "is idempotent": the reading that keeps `[jwt-2]` finds the AWS key and,
    // before it, the address; that address was taken for one the placeholder cut, and left in clear.
    const once = redact('jane@corp.ioAKIASOGCBM5N4KLTALRZ[jwt-2]io').text;
    expect(once).toBe('[email-1][aws-access-key-1][jwt-2]io');
    expect(redact(once).text).toBe(once);
  });
  it("a caller's placeholders inside a would-be domain stay as they are", () => {
    const options = { patterns: [{ kind: 'num', pattern: /[0-9]+/ }] };
    const once = redact('-----BEGIN PRIVATE KEY-----@pytest.fixtureAKIASOGCBM5N4KLTALRZA', options).text;
    expect(once).toBe('-----BEGIN PRIVATE KEY-----@pytest.fixtureAKIASOGCBM[num-1]N[num-2]KLTALRZA');
    expect(redact(once, options).text).toBe(once);
  });
  it('a key glued to the end of an address is redacted with it, never left headless', () => {
    // Found by `npm run fuzz`: the address took the key's start as its "TLD" (`ioxoxb`) and left the
    // rest of the Slack token in clear.
    const token = 'xoxb-157595830961-0136635664081-i519bV5tu2KQpRcph4MAppo7';
    expect(redact(`jane@corp.io${token}`).text).toBe('[slack-token-1]');
  });
  it("a key glued inside a setting's name is redacted with the value", () => {
    // Found by `npm run fuzz`: after the escape `\n` the setting's name started at `io`, and the Slack
    // token inside the name was never probed.
    const token = 'xoxb-157595830961-0136635664081-i519bV5tu2KQpRcph4MAppo7';
    const out = redact(`\\nio${token}aws_secret_access_key=AOzeACBYgB36PWHJCawxZ2eTnpqZtdZa9ToEoIoO`).text;
    expect(out).not.toContain('i519bV5tu2KQpRcph4MAppo7');
    expect(out).not.toContain('AOzeACBYgB36PWHJ');
    expect(redact(out).text).toBe(out);
  });
  it('a dropped placeholder is a boundary: a key right after it starts there', () => {
    // Found by `npm run fuzz`: `sk-…-[email-1]sk-…AKIA…` — once the placeholder was dropped, the dash
    // glued the second key to the first, and it stayed in clear.
    const key = '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';
    const once = redact(`${key}-[email-1]${key}AKIASOGCBM5N4KLTALRZ`).text;
    expect(once).toBe('[openai-key-1]-[email-1][openai-key-2]');
    expect(redact(once).text).toBe(once);
  });
  it('an address before a key glued before a key: all three found in one pass', () => {
    // Found by `npm run fuzz` once `sk-ant-` was read after any run: the AWS key id glued before it was
    // found, but the address glued before that only by a second pass.
    const ant = 'sk-ant-api03-ghml2iFhmce1aqrKLRZYlImka2zxUnQDv-SJvWjk2J20YBE1fhRguFpCco';
    const once = redact(`jane@corp.ioAKIASOGCBM5N4KLTALRZ${ant}`).text;
    expect(once).toBe('[email-1][aws-access-key-1][anthropic-key-1]');
    expect(redact(once).text).toBe(once);
  });
  it('an address after the gap is still found, from the gap on', () => {
    expect(redact('AKIA[email-7]jane@corp.io').text).toBe('AKIA[email-7][email-1]');
  });
});

// Found by `npm run fuzz`: the scan folded every character to its compatibility form, so `²` after a
// key became a `2` that made the key one character too long, and `¼` became three characters that two
// findings then shared (their originals overlapped and no longer restored the input).
describe('only look-alikes are folded', () => {
  const KEY = 'AKIAZ7QRSTUVWXYZ2345';

  it.each(['²', '¹', '¼', '½', 'ᵃ', 'ª', '①'])(
    'a key followed by %s is redacted, the character kept',
    (after) => {
      const r = redact(`key ${KEY}${after} end`, { includeOriginals: true });
      expect(r.text).toBe(`key [aws-access-key-1]${after} end`);
      expect(r.findings.map((f) => f.original)).toEqual([KEY]);
    },
  );

  it('still folds fullwidth and mathematical letters, which spell a key for a reader', () => {
    expect(redact('ｇｈｐ＿R8x2Kq9ZmT4vB7nW1pL3sD6fH0jY5cX8aE2uG').text).toBe('[github-token-1]');
    expect(redact('𝐠𝐡𝐩_R8x2Kq9ZmT4vB7nW1pL3sD6fH0jY5cX8aE2uG').text).toBe('[github-token-1]');
    expect(redact('mail ｊａｎｅ＠ｃｏｒｐ．ｉｏ now').text).toBe('mail [email-1] now');
  });

  it('gives no two findings the same character: the originals restore the input', () => {
    const s =
      'sk-ant-api03-ghml2iFhmce1aqrKLRZYlImka2zxUnQDv-SJvWjk2J20YBE1fhRguFpCco-bdWDuawTjW1KHonIXY72oa6lbTgA4TaHFvAA¼jane@corp.io:';
    const r = redact(s, { includeOriginals: true });
    let back = r.text;
    for (const f of r.findings) back = back.split(f.placeholder).join(f.original!);
    expect(back).toBe(s);
    expect(r.text).toBe('[anthropic-key-1]¼[email-1]:');
  });
});
