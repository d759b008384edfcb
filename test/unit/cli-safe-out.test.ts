/**
 * The CLI prints insights quoted from the transcript: every printed line is redacted and its bidi
 * controls neutralised (U+202E would reverse what follows on the terminal), in the human report and
 * in --json. Runs main() of the built CLI (dist/cli) in-process on the built dist/lib.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fakeRandom } from '../../tools/shared/redact-fakes';
import { builtCli } from './built-cli';

const r = fakeRandom(369);
const KEY = `ghp_${r('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 36)}`;

async function run(argv: string[]): Promise<{ code: number; out: string }> {
  const { main } = (await import(pathToFileURL(await builtCli()).href)) as {
    main: (argv: string[], io: Record<string, unknown>) => Promise<number>;
  };
  let out = '';
  const sink = {
    write: (s: string) => {
      out += s;
      return true;
    },
  };
  const code = await main(argv, { stdout: sink, stderr: sink, env: {} });
  return { code, out };
}

describe('CLI output is redacted and bidi-neutral', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rv-cli-'));
  const file = join(dir, 'chat.json');
  writeFileSync(
    file,
    JSON.stringify([
      { role: 'user', content: 'Push the release.' },
      { role: 'assistant', content: 'Pushing with the default credentials.' },
      { role: 'user', content: `No, always use the token ${KEY} \u202eevil\u202c when you push.` },
      { role: 'assistant', content: 'Understood.' },
    ]),
  );

  for (const json of [false, true]) {
    it(json ? '--json' : 'human report', async () => {
      const { code, out } = await run(['reflect', file, ...(json ? ['--json'] : [])]);
      expect(code).toBe(0);
      // The correction was learned (the key's turn is in the insights)…
      expect(out).toMatch(/always use the token/);
      // …but neither the key nor a raw bidi override is printed.
      expect(out).not.toContain(KEY);
      expect(out).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      expect(out).toContain('[github-token-1]');
      if (json) expect(() => JSON.parse(out)).not.toThrow();
    });
  }
});
