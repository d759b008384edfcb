/**
 * Growth ratios of lib/redact's scanners for unusual spellings (encoded, escaped, glued, invisible characters,
 * placeholders) on adversarial input: the median time
 * (5 runs) at 2x over the median at 1x, for 10 KB and 100 KB. Linear is about 2. Printed as JSON; not
 * enforced by a test (on a loaded machine several cases measured above 3 at 10 KB, so a threshold would
 * flake).
 *
 * Standalone: `npx tsx bench/redact-growth.bench.ts`.
 */
import { createRedactor } from '../lib/redact/index';

const ADVERSARIAL: [string, string][] = [
  ['zero-width spaces', 'a\u200b'],
  ['invisible run inside a key', 'ghp_\u200b\u00ad'],
  ['percent-encoded bytes', '%3D%40%2F'],
  ['JSON-escaped slashes', '\\/'],
  ['HTML quotes', 'password=&quot;'],
  ['placeholders wedged into keys', 'AKIA[email-1]'],
  ['glued AWS prefixes', 'xAKIA'],
  ['glued GitHub prefixes', 'ghp_'],
  ['glued Anthropic prefixes', '1sk-ant-'],
  ['vendor separators', 'npm_glpat-hvs.SG.'],
  ['vendor heads without separators', 'dapiLTAIAKCp'],
  ['underscores', '_'],
  ['addresses before glued keys', 'x@y.ioAKIAABCDEFGHIJKLMNOP'],
  ['echoed values', 'password: "abc12345xyz" abc12345xyz '],
  ['Basic', 'Basic Authorization: basic '],
  ['flattened PEM headers', '-----BEGIN PRIVATE KEY----- Proc-Type: 4 '],
  ['new setting names', ':_authToken=ADAFRUIT_IO_KEY=?sig=Pwd='],
  ['placeholders before values', 'password="[email-1]'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell syntax is the input under test
  ['shell substring expansions', '${token:0:20}'],
  ['ternaries', 'x ? "a-token" : "b'],
  ['bearer after placeholders', 'Bearer [email-1]'],
];

function medianMs(text: string, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = createRedactor();
    const t0 = performance.now();
    r.redact(text);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[runs >> 1]!;
}

const rows = ADVERSARIAL.map(([name, unit]) => {
  const make = (bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  medianMs(make(10_000), 2);
  const ratio = (size: number) =>
    Math.round((medianMs(make(2 * size)) / Math.max(medianMs(make(size)), 0.5)) * 100) / 100;
  return { name, ratio10k: ratio(10_000), ratio100k: ratio(100_000) };
});
console.log(JSON.stringify(rows, null, 2));
