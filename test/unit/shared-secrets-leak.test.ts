/**
 * The real keys in ../shared/data (its README names them: Google `AIza…` keys, an `sk-ant-api03…` key,
 * `sk-…`/`AKIA…` values, a private key block, database URLs with passwords) never reach a model
 * request, a store, a log or a printed line. The secrets are found here by patterns of this file's own,
 * independent of the redactor; then every file holding one goes through each path that writes or sends
 * text: the session facade with a model (Reflector and Curator requests, the key-value store, errors,
 * the summary, the system prompt), `learn` (markdown, diff and JSON) and the CLI (`reflect` and `learn`,
 * human and `--json`, stdout and stderr). A failure names the file and the surface, never the value.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fnv1a32 } from 'rearview/core';
import type { MessageLike } from 'rearview/heuristic';
import { type KeyValueStore, memoryStore } from 'rearview/kv';
import { learn, toJson, toMarkdown, toUnifiedDiff } from 'rearview/learn';
import { createRearview } from 'rearview/session';
import { parseTranscript } from 'rearview/transcript';
import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedLlm } from '../llm/scripted';
import { type CliMain, loadCliMain } from './built-cli';

const root = join(import.meta.dirname, '../..');
const DATA = join(root, '../shared/data');

/**
 * Secret shapes the data's README names, written here without the redactor's tables. A capture group,
 * where present, is the secret part (a URL's password); otherwise the whole match.
 */
const SHAPES: RegExp[] = [
  /AIza[0-9A-Za-z_-]{35}/g,
  /sk-ant-api03-[A-Za-z0-9_-]{20,}/g,
  /AKIA[0-9A-Z]{16}/g,
  /\bsk-[A-Za-z0-9]{32,}/g,
  /ghp_[A-Za-z0-9]{36}/g,
  /(?:postgres|postgresql|mysql|mongodb(?:\+srv)?):\/\/([^:/\s"'`]+):([^@/\s"'`]+)@/g,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----(?:\\n|\s)+([A-Za-z0-9+/]{40})/g,
];

/**
 * A URL password worth hunting in output: not a template (`${DB_PASS}`, `<password>`), not a bare
 * placeholder word, not the user name again (which stays readable), long enough to be unlikely prose.
 */
function isPassword(user: string, v: string): boolean {
  if (v.length < 6 || v === user || /[{}$<>[\]()*\\]/.test(v)) return false;
  // A letters-only password shorter than 12 is a word (`postgress`): prose uses it too, and the
  // redactor hunts it only where its context is, as lib/redact/echoes.ts explains.
  if (/^[A-Za-z]+$/.test(v) && v.length < 12) return false;
  return !/^(?:password|passwd|pass|secret|changeme|example)$/i.test(v);
}

function secretsIn(text: string): string[] {
  const found = new Set<string>();
  for (const re of SHAPES)
    for (const m of text.matchAll(re)) {
      if (m[2] !== undefined) {
        if (isPassword(m[1]!, m[2])) found.add(m[2]);
      } else found.add(m[1] ?? m[0]);
    }
  return [...found];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const present = existsSync(DATA);
const holders = present
  ? walk(DATA)
      .filter((p) => !/README|SOURCES|LICENSE/i.test(p))
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
      .map((f) => ({ ...f, secrets: secretsIn(f.text) }))
      .filter((f) => f.secrets.length > 0)
  : [];

/** Every spelling a surface could carry a value in: as is, and as a JSON string body. */
function leaks(surface: string, secrets: readonly string[]): string[] {
  return secrets
    .filter((s) => surface.includes(s) || surface.includes(JSON.stringify(s).slice(1, -1)))
    .map((s) => `value #${fnv1a32(s).toString(16)}`);
}

async function dump(kv: KeyValueStore): Promise<string> {
  const keys = await kv.keys();
  return JSON.stringify(await Promise.all(keys.map(async (k) => [k, await kv.get(k)])));
}

function messagesOf(text: string): MessageLike[] {
  try {
    return parseTranscript(text, { lenient: true }).messages as MessageLike[];
  } catch {
    return [];
  }
}

let main: CliMain;

beforeAll(async () => {
  main = await loadCliMain();
}, 120_000);

async function cli(argv: string[]): Promise<string> {
  let out = '';
  const sink = {
    write: (s: string) => {
      out += s;
      return true;
    },
    isTTY: false,
  };
  await main(argv, { stdout: sink, stderr: sink, env: {} });
  return out;
}

describe.skipIf(!present)('the real keys of the shared data stay out of every output', () => {
  it('finds the keys the data README names in the files that hold them', () => {
    expect(holders.length).toBeGreaterThanOrEqual(10);
    const all = holders.flatMap((h) => h.secrets);
    expect(all.some((s) => s.startsWith('AIza'))).toBe(true);
    expect(all.some((s) => s.startsWith('sk-ant-api03-'))).toBe(true);
    expect(all.some((s) => s.startsWith('AKIA'))).toBe(true);
  });

  for (const h of holders) {
    const name = relative(DATA, h.path);
    it(`${name}: no key in the requests, store, errors, summary, prompt, learn output or CLI output`, async () => {
      const messages = messagesOf(h.text);
      const kv = memoryStore();
      const errors: string[] = [];
      const llm = scriptedLlm([
        JSON.stringify({ analysis: 'The user corrected the setup.', bullet_tags: [] }),
        JSON.stringify({ operations: [{ type: 'ADD', section: 'OTHERS', text: 'Check the setup first.' }] }),
      ]);
      const rv = createRearview({
        store: kv,
        storeOptions: { broadcast: false },
        llm,
        onError: (e) => errors.push(`${e.message} ${JSON.stringify(e)}`),
      });
      const summary = await rv.endSession({ messages });
      const learned = await learn([{ name, text: h.text }], { minSessions: 1 });
      const surfaces: Record<string, string> = {
        requests: JSON.stringify(llm.requests),
        store: await dump(kv),
        'session errors': errors.join('\n'),
        summary: JSON.stringify(summary),
        prompt: await rv.systemPrompt({ query: 'setup keys database' }),
        'learn markdown': toMarkdown(learned),
        'learn diff': toUnifiedDiff(learned, ''),
        'learn json': toJson(learned),
        'cli reflect': await cli(['reflect', h.path]),
        'cli reflect --json': await cli(['reflect', h.path, '--json']),
        'cli learn': await cli(['learn', h.path, '--min-sessions', '1']),
        'cli learn --json': await cli(['learn', h.path, '--json', '--min-sessions', '1']),
      };
      const found = Object.entries(surfaces).flatMap(([where, text]) =>
        leaks(text, h.secrets).map((v) => `${where}: ${v}`),
      );
      expect(found, `${name} leaks`).toEqual([]);
    }, 120_000);
  }
});
