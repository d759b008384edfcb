import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConfigError,
  formatLocation,
  isRearviewError,
  LlmError,
  RearviewError,
  StoreError,
  sha256Hex,
  TranscriptError,
  toHex,
  ValidationError,
} from '../../lib/core/index';

describe('RearviewError', () => {
  it('carries code, name, message and cause', () => {
    const cause = new TypeError('root');
    const err = new RearviewError('something_failed', 'It failed', { cause });
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(RearviewError);
    expect(err.code).toBe('something_failed');
    expect(err.name).toBe('RearviewError');
    expect(err.message).toBe('It failed');
    expect(err.cause).toBe(cause);
    expect(String(err)).toBe('RearviewError: It failed');
    expect(err.stack).toContain('It failed');
    expect(isRearviewError(err)).toBe(true);
  });

  it('has no cause property unless one is given', () => {
    const err = new RearviewError('x', 'y');
    expect('cause' in err).toBe(false);
    expect(new RearviewError('x', 'y', {}).cause).toBeUndefined();
    expect(new RearviewError('x', 'y', { cause: 0 }).cause).toBe(0);
  });

  it('the realm marker is not enumerable (JSON and spreads stay clean)', () => {
    const err = new RearviewError('x', 'y');
    const marker = Symbol.for('rearview.error');
    expect((err as unknown as Record<symbol, unknown>)[marker]).toBe(true);
    expect(Object.getOwnPropertyDescriptor(err, marker)?.enumerable).toBe(false);
    expect(Object.getOwnPropertySymbols({ ...err })).toStrictEqual([]);
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ code: 'x' });
  });
});

describe('subclasses', () => {
  it('TranscriptError: format, line, index and path in the message', () => {
    const cause = new SyntaxError('bad json');
    const err = new TranscriptError('Expected a JSON object', {
      format: 'claude-code-jsonl',
      line: 12,
      index: 3,
      path: 'messages[3].content',
      cause,
    });
    expect(err).toBeInstanceOf(RearviewError);
    expect(err.name).toBe('TranscriptError');
    expect(err.code).toBe('transcript_invalid');
    expect(err.format).toBe('claude-code-jsonl');
    expect(err.location).toStrictEqual({ line: 12, index: 3, path: 'messages[3].content' });
    expect(err.cause).toBe(cause);
    expect(err.message).toBe(
      '[claude-code-jsonl] Expected a JSON object (at messages[3].content, line 12, index 3)',
    );
    expect(isRearviewError(err)).toBe(true);
  });

  it('TranscriptError: a custom code, and no location at all', () => {
    const err = new TranscriptError('Unknown format', { code: 'transcript_unsupported' });
    expect(err.code).toBe('transcript_unsupported');
    expect(err.format).toBeUndefined();
    expect(err.message).toBe('Unknown format');
    expect(new TranscriptError('x').code).toBe('transcript_invalid');
  });

  it('formatLocation', () => {
    expect(formatLocation(undefined)).toBe('');
    expect(formatLocation({})).toBe('');
    expect(formatLocation({ line: 3 })).toBe(' (line 3)');
    expect(formatLocation({ path: 'a.b' })).toBe(' (at a.b)');
    expect(formatLocation({ index: 0 })).toBe(' (index 0)');
  });

  it('ValidationError lists every issue with its path', () => {
    const issues = [
      { path: 'name', message: 'must be a string' },
      { path: 'options.limit', message: 'must be positive' },
      { path: '', message: 'root problem' },
    ];
    const err = new ValidationError(issues);
    expect(err).toBeInstanceOf(RearviewError);
    expect(err.name).toBe('ValidationError');
    expect(err.code).toBe('validation_failed');
    expect(err.issues).toBe(issues);
    expect(err.message).toBe(
      'Input is invalid: name: must be a string; options.limit: must be positive; root problem',
    );
    expect(new ValidationError([]).message).toBe('Input is invalid: no details');
    expect(new ValidationError(issues, { code: 'record_invalid', subject: 'Record' }).message).toMatch(
      /^Record is invalid: name: /,
    );
  });

  it('ConfigError is a ValidationError with its own code and name', () => {
    const cause = new Error('inner');
    const err = new ConfigError(
      [
        { path: 'reflection.backend', message: 'must be "rulebased" or "llm"' },
        { path: 'reflection.summaryTokens', message: 'must be an integer' },
      ],
      { cause },
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toBeInstanceOf(RearviewError);
    expect(err.name).toBe('ConfigError');
    expect(err.code).toBe('config_invalid');
    expect(err.cause).toBe(cause);
    expect(err.issues).toHaveLength(2);
    expect(err.message).toBe(
      'Config is invalid: reflection.backend: must be "rulebased" or "llm"; reflection.summaryTokens: must be an integer',
    );
  });

  it('StoreError keeps its code and key', () => {
    const err = new StoreError('store_quota', 'Quota exceeded', { key: 'playbook/main' });
    expect(err).toBeInstanceOf(RearviewError);
    expect(err.name).toBe('StoreError');
    expect(err.code).toBe('store_quota');
    expect(err.key).toBe('playbook/main');
    expect(err.message).toBe('Quota exceeded (key playbook/main)');
    const bare = new StoreError('store_unavailable', 'IndexedDB is not available');
    expect(bare.key).toBeUndefined();
    expect(bare.message).toBe('IndexedDB is not available');
    expect('cause' in bare).toBe(false);
  });

  it('LlmError keeps status and attempts', () => {
    const cause = new Error('HTTP 429');
    const err = new LlmError('llm_rate_limited', 'Rate limited after 4 attempts', {
      status: 429,
      attempts: 4,
      cause,
    });
    expect(err).toBeInstanceOf(RearviewError);
    expect(err.name).toBe('LlmError');
    expect(err.code).toBe('llm_rate_limited');
    expect(err.status).toBe(429);
    expect(err.attempts).toBe(4);
    expect(err.cause).toBe(cause);
    const plain = new LlmError('llm_failed', 'No response');
    expect(plain.status).toBeUndefined();
    expect(plain.attempts).toBeUndefined();
  });
});

describe('isRearviewError', () => {
  it('recognises an error from another realm by its Symbol.for marker, where instanceof fails', () => {
    const foreign: unknown = runInNewContext(`
      const err = new Error('from another realm');
      err.code = 'store_corrupt';
      Object.defineProperty(err, Symbol.for('rearview.error'), { value: true });
      err;
    `);
    expect(foreign instanceof Error).toBe(false);
    expect(foreign instanceof RearviewError).toBe(false);
    expect(isRearviewError(foreign)).toBe(true);
    if (isRearviewError(foreign)) expect(foreign.code).toBe('store_corrupt');
  });

  it('rejects look-alikes', () => {
    const unmarked: unknown = runInNewContext(`const e = new Error('x'); e.code = 'store_corrupt'; e;`);
    expect(isRearviewError(unmarked)).toBe(false);
    const noCode = new Error('x');
    Object.defineProperty(noCode, Symbol.for('rearview.error'), { value: true });
    expect(isRearviewError(noCode)).toBe(false);
    const wrongMarker = Object.assign(new Error('x'), { code: 'c', [Symbol.for('rearview.error')]: 'yes' });
    expect(isRearviewError(wrongMarker)).toBe(false);
    const localSymbol = Object.assign(new Error('x'), { code: 'c', [Symbol('rearview.error')]: true });
    expect(isRearviewError(localSymbol)).toBe(false);
    for (const v of [
      null,
      undefined,
      'rearview',
      42,
      {},
      new Error('plain'),
      Object.assign(new Error('e'), { code: 'c' }),
    ]) {
      expect(isRearviewError(v)).toBe(false);
    }
  });

  it('a plain object with the marker and a string code counts (cross-copy duck typing)', () => {
    expect(isRearviewError({ code: 'c', [Symbol.for('rearview.error')]: true })).toBe(true);
  });
});

describe('sha256Hex', () => {
  const nodeSha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

  it('known vectors', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(await sha256Hex('The quick brown fox jumps over the lazy dog')).toBe(
      'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    );
  });

  it('hashes strings as UTF-8', async () => {
    expect(await sha256Hex('café \u{1F600}')).toBe(nodeSha(Buffer.from('café \u{1F600}', 'utf8')));
  });

  it('a 1 MB string matches node:crypto', async () => {
    const big = 'rearview ∑ 😀\n'.repeat(Math.ceil(1_000_000 / 16)).slice(0, 1_000_000);
    expect(await sha256Hex(big)).toBe(nodeSha(Buffer.from(big, 'utf8')));
  });

  it('Uint8Array input, including a view into a larger buffer', async () => {
    const bytes = new Uint8Array(1000).map((_, i) => (i * 31) & 0xff);
    expect(await sha256Hex(bytes)).toBe(nodeSha(bytes));
    const view = bytes.subarray(100, 300);
    expect(await sha256Hex(view)).toBe(nodeSha(view));
    expect(await sha256Hex(new Uint8Array())).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('matches node:crypto for arbitrary strings (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), async (s) => {
        expect(await sha256Hex(s)).toBe(nodeSha(Buffer.from(s, 'utf8')));
      }),
      { numRuns: 200 },
    );
  });

  describe('without Web Crypto', () => {
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it('throws unsupported_runtime when crypto is missing', async () => {
      vi.stubGlobal('crypto', undefined);
      const err = await sha256Hex('abc').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RearviewError);
      expect(isRearviewError(err) && err.code).toBe('unsupported_runtime');
      expect((err as Error).message).toMatch(/crypto\.subtle/);
    });

    it('throws unsupported_runtime when crypto.subtle is missing', async () => {
      vi.stubGlobal('crypto', { getRandomValues: () => undefined });
      await expect(sha256Hex('abc')).rejects.toMatchObject({
        code: 'unsupported_runtime',
        name: 'RearviewError',
      });
    });

    it('works again once crypto is restored', async () => {
      vi.stubGlobal('crypto', undefined);
      vi.unstubAllGlobals();
      expect(globalThis.crypto?.subtle).toBeDefined();
      expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });
  });
});

describe('toHex', () => {
  it('lowercase, zero-padded', () => {
    expect(toHex(new Uint8Array([]))).toBe('');
    expect(toHex(new Uint8Array([0, 1, 15, 16, 127, 128, 255]))).toBe('00010f107f80ff');
  });

  it('matches Buffer hex for arbitrary bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        expect(toHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
      }),
      { numRuns: 300 },
    );
  });
});
