import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, type RedactFinding, redact } from '../../lib/redact/index';
import { KEY_RUN_BEFORE } from '../../lib/redact/skeleton';
import { makeFakes, pem } from '../../tools/shared/redact-fakes';

const f = makeFakes(11);

/** Pieces that sit on the edges of every rule, glued together in random orders. */
const fragments = [
  f.anthropic,
  f.openaiLegacy,
  f.openaiProject,
  f.awsAccess,
  `aws_secret_access_key=${f.awsSecret}`,
  f.ghp,
  f.githubPat,
  f.slackBot,
  f.slackWebhook,
  `Bearer ${f.bearer}`,
  f.jwt,
  pem('PRIVATE KEY', f.pemBody),
  pem('RSA PRIVATE KEY', f.pemBody, '\\n'),
  '-----BEGIN PRIVATE KEY-----',
  '-----END PRIVATE KEY-----',
  '-----',
  'jane@corp.io',
  'o.brien+x@mail.example.co.uk',
  'git@github.com:',
  '@pytest.fixture',
  '@',
  '.',
  '-',
  '_',
  '\\',
  '\\n',
  '\n',
  ' ',
  '[',
  ']',
  '[email-1]',
  '[email-',
  '[jwt-2]',
  'sk-',
  'sk-ant-',
  'ghp_',
  'eyJ',
  'AKIA',
  'Bearer ',
  'xoxb-',
  'com',
  'io',
  'png',
];

const text = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...fragments) },
      { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9._%+-]{0,24}$/) },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

/** Undoes the redaction with the placeholder map; placeholders that were already in the text stay. */
function restore(redacted: string, findings: RedactFinding[]): string {
  const map = new Map(findings.map((x) => [x.placeholder, x.original!]));
  return redacted.replace(/\[[a-z][a-z0-9_-]*-[1-9][0-9]*\]/g, (p) => map.get(p) ?? p);
}

/** A placeholder as the redactor writes it. */
const PLACEHOLDER = /\[[a-z][a-z0-9_-]*-[1-9][0-9]*\]/g;
/** A key's fixed start and the run after it, up to a placeholder (as lib/redact/skeleton.ts reads it). */
const KEY_RUN = new RegExp(`${KEY_RUN_BEFORE}$`);
/** Whether the placeholder at [start, end) of `t` is wedged into a key: a second pass reads through it. */
const wedgedAt = (t: string, start: number, end: number) =>
  KEY_RUN.test(t.slice(Math.max(0, start - 80), start)) && /[A-Za-z0-9]/.test(t.charAt(end));
/** `Bearer ` and the placeholders after it, at the end of a text. */
const AFTER_BEARER_PH = /(?:[Bb]earer|BEARER|[Bb]asic|BASIC)[ \t]{1,16}(?:\[[^\]\n]{1,80}\]){1,4}$/;
/** Whether a second pass reads the placeholder at [start, end) as part of a value (README: Limitations). */
const readThrough = (t: string, start: number, end: number) =>
  wedgedAt(t, start, end) ||
  /(?:[Bb]earer|BEARER|[Bb]asic|BASIC)[ \t]{1,16}(?:\[[^\]\n]{1,80}\]){0,4}$/.test(t.slice(0, start));

/**
 * A second pass over `once` (a first pass's output) changes nothing, or only what the documented
 * exception allows (lib/redact/README.md, Limitations): it reads through a placeholder the first wrote
 * where a pasted one could hide a secret (inside a key's run, right after `Bearer `) and over-redacts
 * there. Anything else a second pass changes fails.
 */
function expectSecondPassClean(once: string): void {
  const twice = redact(once);
  if (twice.text === once) {
    expect(twice.count).toBe(0);
    return;
  }
  // A placeholder may stand more than once (the same secret twice): the places the second pass
  // rewrote are counted, and at least as many of its places must be ones it reads through.
  const places = new Map<string, number[]>();
  for (const m of once.matchAll(PLACEHOLDER)) places.set(m[0], [...(places.get(m[0]) ?? []), m.index]);
  let rewritten = 0;
  for (const [ph, at] of places) {
    const lost = at.length - (twice.text.split(ph).length - 1);
    if (lost <= 0) continue;
    rewritten += lost;
    const through = at.filter((i) => readThrough(once, i, i + ph.length)).length;
    expect(through, `${ph} in ${JSON.stringify(once)}`).toBeGreaterThanOrEqual(lost);
  }
  if (rewritten > 0) return;
  // No placeholder rewritten: the second pass read the text right after `Bearer [ph]` as a token.
  let d = 0;
  while (d < once.length && once.charCodeAt(d) === twice.text.charCodeAt(d)) d++;
  expect(AFTER_BEARER_PH.test(once.slice(0, d)), `second pass on ${JSON.stringify(once)}`).toBe(true);
}

describe('redact properties', () => {
  it('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), text), (s) => {
        redact(s);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent: a second pass changes nothing', () => {
    fc.assert(
      fc.property(text, (s) => expectSecondPassClean(redact(s).text)),
      { numRuns: 3000 },
    );
  });

  it('counts a placeholder that stands twice (fuzz seed -924399316)', () => {
    // Found by `npm run fuzz`: the same private key before `Bearer ` and after `Bearer sk-ant-`, so
    // `[private-key-1]` stands twice and a second pass reads the second one into a bearer token. That
    // is the documented read-through; the check had taken the placeholder as kept because its first
    // place was.
    const block = pem('PRIVATE KEY', f.pemBody);
    const once = redact(`${block}Bearer sk-ant-${block}a00-a.+_A`).text;
    expect(once).toBe('[private-key-1]Bearer sk-ant-[private-key-1]a00-a.+_A');
    expect(redact(once).text).toBe('[private-key-1]Bearer [bearer-token-1]');
    expectSecondPassClean(once);
    // A rewrite where the second pass does not read through still fails the check.
    expect(() => expectSecondPassClean('[email-1] jane@corp.io [email-1]')).toThrow();
  });

  it('maps placeholders consistently and reversibly', () => {
    fc.assert(
      fc.property(text, (s) => {
        const result = redact(s, { includeOriginals: true });
        const placeholders = result.findings.map((x) => x.placeholder);
        const originals = result.findings.map((x) => x.original);
        // One placeholder per value and one value per placeholder.
        expect(new Set(placeholders).size).toBe(placeholders.length);
        expect(new Set(originals).size).toBe(originals.length);
        for (const x of result.findings) {
          expect(x.placeholder).toMatch(new RegExp(`^\\[${x.kind}-[1-9][0-9]*\\]$`));
          // New placeholders never collide with text already in the input.
          expect(s.includes(x.placeholder)).toBe(false);
          expect(result.text.split(x.placeholder).length - 1).toBe(x.count);
        }
        expect(result.findings.reduce((n, x) => n + x.count, 0)).toBe(result.count);
        // Everything outside the redactions is unchanged.
        expect(restore(result.text, result.findings)).toBe(s);
      }),
      { numRuns: 3000 },
    );
  });

  it('a redactor gives a value the same placeholder in every call', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (texts) => {
        const r = createRedactor({ includeOriginals: true });
        const byValue = new Map<string, string>();
        for (const t of texts) {
          const result = r.redact(t);
          for (const x of result.findings) {
            const seen = byValue.get(x.original!);
            if (seen !== undefined) expect(x.placeholder).toBe(seen);
            byValue.set(x.original!, x.placeholder);
          }
          expect(restore(result.text, result.findings)).toBe(t);
        }
        const all = r.findings();
        expect(all.length).toBe(byValue.size);
        expect(new Set(all.map((x) => x.placeholder)).size).toBe(all.length);
      }),
      { numRuns: 500 },
    );
  });

  it('caller patterns never touch a placeholder', () => {
    // Full idempotence is a property of the built-in kinds only: a caller's match can sit where an
    // address's boundary check looks (`jane@x.io0` with a `/[0-9]+/` pattern), so a second pass may find
    // more. What must hold is that no placeholder is ever rewritten, but for one documented case: a
    // placeholder wedged into a key (after a key's fixed start, before a letter or digit) is read
    // through, so a key cut by one is still found (lib/redact/skeleton.ts). A caller's digit pattern
    // inside `AKIASOGCBM5N4KLTALRZ0` (no key: 17 characters follow AKIA) leaves `AKIASOGCBM[num-1]N4…`,
    // which reads as a key once the placeholder is gone (found by `npm run fuzz`): over-redaction, not
    // a leak. Such placeholders are not counted.
    const placeholder = PLACEHOLDER;
    fc.assert(
      fc.property(text, (s) => {
        const options = {
          patterns: [
            { kind: 'num', pattern: /[0-9]+/ },
            { kind: 'io', pattern: 'io' },
          ],
        };
        const once = redact(s, options).text;
        const twice = redact(once, options).text;
        const count = (t: string) => {
          const n = new Map<string, number>();
          for (const m of t.matchAll(placeholder)) {
            const end = m.index + m[0].length;
            if (wedgedAt(t, m.index, end)) continue;
            n.set(m[0], (n.get(m[0]) ?? 0) + 1);
          }
          return n;
        };
        const after = count(twice);
        for (const [p, n] of count(once)) expect(after.get(p) ?? 0).toBeGreaterThanOrEqual(n);
      }),
      { numRuns: 1000 },
    );
  });
});
