/**
 * Redacts every file of the shared real data (../shared/data beside the repo) and checks the result
 * against an independent count: a deliberately simple address regex, separate from the redactor's.
 * Nothing from the data is printed except counts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fnv1a32 } from '../../lib/core/index';
import { redact } from '../../lib/redact/index';

const root = resolve(import.meta.dirname, '../..');
const dataDir = resolve(root, '../shared/data');
const present = existsSync(dataDir);

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** The independent count: local@domain.tld, nothing more. */
const SIMPLE_EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/**
 * Where the redactor deliberately differs from the simple regex. Each difference is classified; an
 * unclassified one fails the test.
 * - escape: in escaped text (JSON strings, logs) `\n` or `\t` directly before the match; the simple regex
 *   takes the escape letter as part of the address (`\njane@x.io` → `njane@x.io`). The redactor drops it,
 *   and when nothing is left (`\n@pytest.mark.foo`, a decorator on a new line) there is no address.
 * - git-remote: `git@host` is the SSH user of a git host (`git@github.com:org/repo`), not a person.
 * - file-name: the "TLD" is a file extension (`logo@2x.png`).
 */
type Difference = 'escape-decorator' | 'escape-letter' | 'git-remote' | 'file-name';

const FILE_EXTENSIONS =
  /\.(?:png|jpe?g|gif|svg|webp|ico|m?js|cjs|jsx|tsx?|json|ya?ml|toml|txt|html?|css|lock)$/i;

function expectedAddress(
  text: string,
  index: number,
  match: string,
): { address?: string; diff?: Difference } {
  let address = match;
  let slashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) slashes++;
  let diff: Difference | undefined;
  if (slashes % 2 === 1 && /^[nrtbfv]/.test(address)) {
    address = address.slice(1);
    diff = 'escape-letter';
    if (address.startsWith('@')) return { diff: 'escape-decorator' };
  } else if (slashes > 0 && /^[nrtbfv]@/.test(address)) {
    // Text escaped twice (JSON inside JSON): `\\n@pytest.fixture` is an escaped line break before a
    // decorator too, though its run of backslashes is even.
    return { diff: 'escape-decorator' };
  }
  if (address.startsWith('git@')) return { diff: 'git-remote' };
  if (FILE_EXTENSIONS.test(address)) return { diff: 'file-name' };
  return { address, diff };
}

/** Independent checks for the other kinds: any of these left in the output is a leak. */
const SIMPLE_SECRETS = [
  /sk-ant-[A-Za-z0-9_-]{20,}/g,
  /sk-proj-[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{36}/g,
  /github_pat_[A-Za-z0-9_]{22,}/g,
  /\bxox[abprs]-[0-9]{6,}-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----(?:\n|\\n)[A-Za-z0-9+/]{16}/g,
  /hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+/g,
  // The real keys the data's README names: Google keys (aider, specstory), legacy OpenAI keys
  // (specstory), database URLs with passwords (a cline history).
  /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
  /\bsk-[A-Za-z0-9]{32,}/g,
  // A Netlify token an Antigravity session passed to `netlify deploy --auth=` (other-agents).
  /\bnfp_[A-Za-z0-9]{36,40}(?![A-Za-z0-9])/g,
  /\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp):\/\/[^\s:@/"'`[\]()^*]+:[^\s@/"'`[\]()^*]{3,}@/g,
];
/** What the data's README promises is in it: each must be found in the input at least once. */
const REAL_KEY_CHECKS: [string, RegExp][] = [
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g],
  ['anthropic-key', /sk-ant-api03-[A-Za-z0-9_-]{20,}/g],
  ['aws-access-key', /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g],
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g],
  ['netlify-token', /\bnfp_[A-Za-z0-9]{36,40}(?![A-Za-z0-9])/g],
  [
    'database-url',
    /\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?):\/\/[^\s:@/"'`[\]()^*]+:[^\s@/"'`[\]()^*]{3,}@/g,
  ],
];

const PLACEHOLDER = /\[([a-z][a-z0-9_-]*)-([1-9][0-9]*)\]/g;
/** A short, stable fingerprint of a value for a failure message (FNV-1a), never the value itself. */
function hashOf(value: string): string {
  return fnv1a32(value).toString(16);
}

/** A value the redactor does not hunt elsewhere (lib/redact/echoes.ts): it is a word. */
const isWord = (v: string) => v.length < 8 || (v.length < 12 && /^[A-Za-z\s]*$/.test(v));

describe.skipIf(!present)('redact on the shared real data', () => {
  // The shared data is tens of megabytes: reading, redacting and checking it takes a minute on a busy machine.
  it('removes every address the independent count finds, and only changes what it reports', () => {
    const files = walk(dataDir);
    expect(files.length).toBeGreaterThan(300);
    const differences = new Map<Difference, number>();
    let simpleMatches = 0;
    let expectedOccurrences = 0;
    let redactedEmails = 0;
    const distinctAddresses = new Set<string>();
    const kinds = new Map<string, number>();
    let bytes = 0;
    let redactMs = 0;
    const realKeys = new Map<string, number>();

    for (const file of files) {
      const name = relative(dataDir, file);
      const text = readFileSync(file, 'utf8');
      bytes += text.length;

      // The independent count.
      const expected = new Map<string, number>();
      for (const m of text.matchAll(SIMPLE_EMAIL)) {
        simpleMatches++;
        const { address, diff } = expectedAddress(text, m.index, m[0]);
        if (diff) differences.set(diff, (differences.get(diff) ?? 0) + 1);
        if (address === undefined) continue;
        expected.set(address, (expected.get(address) ?? 0) + 1);
        expectedOccurrences++;
        distinctAddresses.add(address);
      }

      const t0 = performance.now();
      const result = redact(text, { includeOriginals: true });
      redactMs += performance.now() - t0;
      const out = result.text;

      // Reconcile: the redactor's addresses are exactly the independently counted ones, same counts.
      const found = new Map<string, number>();
      for (const x of result.findings) {
        kinds.set(x.kind, (kinds.get(x.kind) ?? 0) + x.count);
        if (x.kind === 'email') found.set(x.original!, x.count);
      }
      redactedEmails += [...found.values()].reduce((a, b) => a + b, 0);
      expect(found, name).toEqual(expected);
      for (const address of expected.keys()) expect(out.includes(address), name).toBe(false);

      // No original value survives, and no simple secret pattern matches what is left. A value found by
      // its context (`Bearer …`, `password: "…"`) is redacted wherever else it appears too, unless it is
      // a word: shorter than 8 characters, or letters only and shorter than 12 (`demo`, `admin`,
      // `postgres`), which recur in prose. Those are exempt from this check only; the restore check below
      // proves each was replaced where it was a value.
      for (const x of result.findings) {
        if (isWord(x.original!)) continue;
        expect(out.includes(x.original!), `${name}: a ${x.kind} survived`).toBe(false);
      }
      for (const re of SIMPLE_SECRETS) expect(out.match(re), `${name}: ${re.source}`).toBeNull();
      // The real keys: found independently in the input, none left in the output — compared by hash and
      // position only, so no value is ever printed.
      for (const [label, re] of REAL_KEY_CHECKS) {
        for (const m of text.matchAll(re)) {
          realKeys.set(label, (realKeys.get(label) ?? 0) + 1);
          const seen = out.includes(m[0]);
          expect(seen, `${name}: a real ${label} at offset ${m.index} (sha ${hashOf(m[0])}) survived`).toBe(
            false,
          );
        }
      }

      // Placeholders: well formed, one per distinct value per kind, each made by this call (or already in
      // the input, which no new one may equal).
      const made = new Map(result.findings.map((x) => [x.placeholder, x]));
      const perKind = new Map<string, Set<string>>();
      for (const x of result.findings) {
        expect(x.placeholder).toMatch(new RegExp(`^\\[${x.kind}-[1-9][0-9]*\\]$`));
        expect(text.includes(x.placeholder), name).toBe(false);
        if (!perKind.has(x.kind)) perKind.set(x.kind, new Set());
        perKind.get(x.kind)!.add(x.original!);
      }
      for (const [kind, values] of perKind) {
        expect(result.findings.filter((x) => x.kind === kind).length).toBe(values.size);
      }
      for (const m of out.matchAll(PLACEHOLDER)) {
        expect(made.has(m[0]) || text.includes(m[0]), `${name}: stray ${m[0]}`).toBe(true);
      }

      // Text outside the redactions is unchanged: putting the originals back gives the input.
      const restored = out.replace(PLACEHOLDER, (p) => made.get(p)?.original ?? p);
      expect(restored === text, `${name}: restore`).toBe(true);
    }

    // The numbers, for the record (no data is printed).
    console.log(
      JSON.stringify({
        files: files.length,
        megabytes: Math.round(bytes / 1e4) / 100,
        simpleRegexMatches: simpleMatches,
        differences: Object.fromEntries(differences),
        expectedAddressOccurrences: expectedOccurrences,
        distinctAddresses: distinctAddresses.size,
        redactedEmailOccurrences: redactedEmails,
        kinds: Object.fromEntries(kinds),
        redactMBps: Math.round(bytes / 1e6 / (redactMs / 1000)),
      }),
    );
    expect(redactedEmails).toBe(expectedOccurrences);
    // Every kind of real key the README names was met (the check above is not vacuous).
    console.log(JSON.stringify({ realKeysFound: Object.fromEntries(realKeys) }));
    for (const [label] of REAL_KEY_CHECKS) expect(realKeys.get(label) ?? 0, label).toBeGreaterThan(0);
    expect(expectedOccurrences).toBeGreaterThan(100);
    // Every difference is one of the documented kinds (an unexpected shape would have failed above).
    expect(
      [...differences.keys()].every((d) =>
        ['escape-decorator', 'escape-letter', 'git-remote', 'file-name'].includes(d),
      ),
    ).toBe(true);
  }, 600_000);
});

if (!present) {
  describe('redact on the shared real data', () => {
    it.skip(`skipped: ${dataDir} is absent (the shared real data is not checked in)`, () => {});
  });
}
