/**
 * Adversarial inputs of the linear-time checks, each a function of its size in characters, shared by
 * the tests (which run them once, at a size where a quadratic scan would outlast the test's timeout by
 * orders of magnitude, and check the output) and bench/adversarial.bench.ts (which prints the time
 * ratio of two sizes in one run: ~4 for 4x the input when the scan is linear). No test compares a
 * time: a busy machine slows both sizes alike, but a threshold in milliseconds would not hold.
 */

/** Inputs for `redact`. */
export const REDACT_ADVERSARIAL: [string, (n: number) => string][] = [
  ['a@ repeated', (n) => 'a@'.repeat(n / 2)],
  ['sk- repeated', (n) => 'sk-'.repeat(n / 3)],
  ['sk-ant- repeated', (n) => 'sk-ant-'.repeat(n / 7)],
  ['base64 run', (n) => `eyJ${'A'.repeat(n)}`],
  ['JWT-like segments', (n) => 'eyJaaaaaaaaaa.'.repeat(n / 14)],
  ['BEGIN without END', (n) => '-----BEGIN PRIVATE KEY-----\n'.repeat(n / 28)],
  ['one BEGIN, long tail', (n) => `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(n)}`],
  ['long dotted domain', (n) => `x@${'a.'.repeat(n / 2)}1`],
  ['local-part run', (n) => `${'a.'.repeat(n / 2)}@x.io`],
  ['Bearer repeated', (n) => 'Bearer '.repeat(n / 7)],
  ['backslashes', (n) => `${'\\'.repeat(n)}njane@x.io`],
  ['addresses back to back', (n) => 'x@y.co'.repeat(n / 6)],
  ['settings repeated', (n) => 'a.token=a1'.repeat(n / 10)],
  ['setting names without values', (n) => 'DB_PASSWORD_TOKEN_SECRET_'.repeat(n / 25)],
  ['escapes repeated', (n) => '\\nghp_\\u003dsk-'.repeat(n / 16)],
  ['URL schemes repeated', (n) => 'a://:'.repeat(n / 5)],
  ['one long quoted value', (n) => `"password": "${'p@ss '.repeat(n / 5)}`],
  // Short key starts after 16 word characters: each is read back from for a key that ends there.
  ['key starts after a run', (n) => `${'q'.repeat(16)}${'EAAA'.repeat(n / 4)}`],
  ['separated key starts after a run', (n) => `${'a'.repeat(16)}${'hvs.'.repeat(n / 4)}`],
  ['keys glued to keys', (n) => `AKIA${'B'.repeat(16)}glpat-${'c'.repeat(30)} `.repeat(n / 57)],
];

/** User turns for `classifyTurn` of rearview/heuristic. */
export const TURN_ADVERSARIAL: [string, (n: number) => string][] = [
  ['double quotes', (n) => '"'.repeat(n)],
  ['backticks', (n) => '`'.repeat(n)],
  ['no, repeated', (n) => 'no, '.repeat(n / 4)],
  // Every "still" opens the friction markers' gap patterns ("still * not"): each tries up to 3 words.
  ['still, with gaps', (n) => 'still a b still not '.repeat(n / 20)],
  ['100-character lines', (n) => `${'a'.repeat(100)}\n`.repeat(n / 101)],
  ['dashes', (n) => '- -- — '.repeat(n / 7)],
  // Each ideograph is a word of its own (lib/heuristic/compile.ts isIdeograph): one token a character.
  ['ideographs', (n) => '还是不对'.repeat(n / 4)],
  ['full-width stops and commas', (n) => '不，对。'.repeat(n / 4)],
];

/** Notes for the snapshot's stance rules (one memory entry each). */
export const NOTE_ADVERSARIAL: [string, (n: number) => string][] = [
  ['If a, a, … would need to', (n) => `If ${'a, '.repeat(n / 3)}it would need to go`],
  ['If I x x …', (n) => `If I ${'x '.repeat(n / 2)}.`],
  ['words', (n) => 'word '.repeat(n / 5)],
  ['So so, so, …', (n) => `So ${'so, '.repeat(n / 4)}this looks fine`],
  ['so, … we should not', (n) => `${'so, '.repeat(n / 4)}we should not`],
  ['what we should …:', (n) => `${'what we should '.repeat(n / 15)}:`],
  ['x: x: …', (n) => `${'x: '.repeat(n / 3)}done.`],
  ['should probably …', (n) => 'should probably '.repeat(n / 16)],
  ['a bold run', (n) => `**${'*'.repeat(n)}** - add`],
  ['a long step number', (n) => `Step ${'1'.repeat(n)}: fix`],
  // A link in Markdown dress, trimmed from both ends (lib/snapshot/bare-link.ts).
  ['colons after a path', (n) => `- src/app.js${':'.repeat(n)}`],
  ['backticks around a path', (n) => `${'`'.repeat(n / 2)}src/app.js${'`'.repeat(n / 2)}`],
  ['a path, then spaces and a word', (n) => `- \`src/app.js${' :'.repeat(n / 2)}x`],
];
