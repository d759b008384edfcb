/**
 * The raw `…/rpc` endpoint of a PlaybookObject in workerd, called as a hostile HTTP client would:
 * every write path redacts the key point texts it stores (applyDelta, save, importDocument,
 * importJson), and an oversize body answers 413 `durable_too_large` before the object reads it whole,
 * whether its size is declared (Content-Length) or streamed (chunked).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDurableWorker, type DurableServer, startDurableWorkerd } from './workers/durable-server';

let server: DurableServer;
let storage: string;

beforeAll(async () => {
  const dir = await buildDurableWorker();
  storage = mkdtempSync(join(tmpdir(), 'rearview-do-intake-'));
  server = await startDurableWorkerd(dir, storage);
});

afterAll(async () => {
  await server?.stop();
  if (storage) rmSync(storage, { recursive: true, force: true });
});

// Made-up values of the shapes the redactor knows (a GitHub token, an email address, an AWS key id).
const TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'}`;
const EMAIL = 'jane.doe@example.org';
const AWS = `AKIA${'Q3EGRX7ZWMPL4KTN'}`;
const SECRETS = [TOKEN, EMAIL, AWS];

const headers = { authorization: 'Bearer alice', 'content-type': 'application/json' };

async function rpc(
  method: string,
  args: unknown[],
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/playbook/rpc`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ method, args }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Everything the object answers about a playbook: its content, its prompt text and its export. */
async function everything(id: string): Promise<string> {
  const parts = await Promise.all([
    rpc('load', [id]),
    rpc('format', [id]),
    rpc('exportJson', [id]),
    rpc('history', [id]),
  ]);
  for (const p of parts) expect(p.status, JSON.stringify(p.body)).toBe(200);
  return JSON.stringify(parts.map((p) => p.body));
}

/**
 * The answer to a POST written by hand on a socket: the head (with `header`), then `body` pieces,
 * and never the end of the body. Resolves with the answer once its JSON has arrived; a write refused
 * because the server already answered and closed is no failure.
 */
function rawPost(header: string, body: readonly string[]): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if (/\r\n\r\n[\s\S]*\}/.test(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', (err) => (text ? resolve(text) : reject(err)));
    socket.write(
      `POST /playbook/rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer alice\r\n` +
        `Content-Type: application/json\r\n${header}\r\n\r\n`,
    );
    for (const piece of body) socket.write(piece);
  });
}

describe('the RPC write paths redact what they store', () => {
  it('applyDelta: ADD and UPDATE texts', async () => {
    const added = await rpc('applyDelta', [
      'rpc-delta',
      [
        { type: 'ADD', section: 'PATTERNS & APPROACHES', text: `Use the token ${TOKEN} for the registry` },
        { type: 'ADD', section: 'OTHERS', text: `Mail ${EMAIL} before a deploy` },
      ],
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const name = ((added.body.result as { applied: { name: string }[] }).applied[0] as { name: string }).name;
    const updated = await rpc('applyDelta', [
      'rpc-delta',
      [{ type: 'UPDATE', name, text: `Key ${AWS} goes first` }],
    ]);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const out = await everything('rpc-delta');
    for (const s of SECRETS) expect(out).not.toContain(s);
    expect(out).toContain('[email-1]');
    expect(out).toContain('[aws-access-key-1]');
  });

  it('save, importDocument and importJson', async () => {
    const seeded = await rpc('applyDelta', [
      'rpc-doc',
      [{ type: 'ADD', section: 'OTHERS', text: 'A plain key point' }],
    ]);
    expect(seeded.status).toBe(200);
    const loaded = (await rpc('load', ['rpc-doc'])).body.result as {
      sections: Record<string, { text: string }[]>;
    };
    loaded.sections.OTHERS![0]!.text = `Deploy with ${TOKEN}`;
    const saved = await rpc('save', ['rpc-save', loaded]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const doc = JSON.parse((await rpc('exportJson', ['rpc-doc'])).body.result as string) as {
      sections: Record<string, { text: string }[]>;
    };
    doc.sections.OTHERS![0]!.text = `Ask ${EMAIL} for access`;
    const imported = await rpc('importDocument', [doc, { id: 'rpc-import-doc' }]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    doc.sections.OTHERS![0]!.text = `The key is ${AWS}`;
    const importedJson = await rpc('importJson', [JSON.stringify(doc), { id: 'rpc-import-json' }]);
    expect(importedJson.status, JSON.stringify(importedJson.body)).toBe(200);

    for (const id of ['rpc-save', 'rpc-import-doc', 'rpc-import-json']) {
      const out = await everything(id);
      for (const s of SECRETS) expect(out, id).not.toContain(s);
    }
    expect(await everything('rpc-save')).toContain('[github-token-1]');
    expect(await everything('rpc-import-doc')).toContain('[email-1]');
    expect(await everything('rpc-import-json')).toContain('[aws-access-key-1]');
  });

  it('malformed writes still get the store’s own answers', async () => {
    // Operations the store cannot apply are rejected one by one, as without redaction.
    const bad = await rpc('applyDelta', ['rpc-bad', [42, null, { type: 'ADD', section: 'OTHERS', text: 7 }]]);
    expect(bad.status, JSON.stringify(bad.body)).toBe(200);
    expect((bad.body.result as { rejected: unknown[] }).rejected).toHaveLength(3);
    const badJson = await rpc('importJson', ['{"sections": [', { id: 'rpc-bad-json' }]);
    expect(badJson.status).toBe(400);
    expect(JSON.stringify(badJson.body)).toMatch(/invalid|validation/);
  });
});

describe('oversize bodies answer 413 before they are read whole', () => {
  const big = (bytes: number) =>
    JSON.stringify({
      method: 'applyDelta',
      args: ['rpc-big', [{ type: 'ADD', section: 'OTHERS', text: 'x'.repeat(bytes) }]],
    });

  it('a declared 10 MB body: answered before the body is even sent', async () => {
    // Only the head and a few bytes go out: the answer cannot have waited for the rest.
    const answer = await rawPost('Content-Length: 10000000', ['{"method":"applyDelta",']);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('durable_too_large');
  });

  it('a streamed (chunked) body, with no Content-Length: refused once it passes the cap', async () => {
    const chunk = 'x'.repeat(256 * 1024);
    const chunks = [
      '{"method":"applyDelta","args":["rpc-big",[{"type":"ADD","section":"OTHERS","text":"',
      ...Array.from({ length: 12 }, () => chunk), // 3 MiB, over the 2 MiB cap; the body never ends
    ].map((c) => `${c.length.toString(16)}\r\n${c}\r\n`);
    const answer = await rawPost('Transfer-Encoding: chunked', chunks);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('durable_too_large');
  });

  it('nothing of a refused write is stored, and a body under the cap still works', async () => {
    const listed = await rpc('list', []);
    expect(listed.status).toBe(200);
    expect(listed.body.result).not.toContain('rpc-big');
    const ok = await fetch(`${server.url}/playbook/rpc`, { method: 'POST', headers, body: big(100_000) });
    expect(ok.status).toBe(200);
  });
});
