/**
 * redact's placeholders: numbered per kind, never colliding with text already there, idempotent, and
 * shared across the calls of one redactor (createRedactor, redactMessages), a placeholder pasted back
 * in replaced so restoring keeps it literal.
 */
import { describe, expect, it } from 'vitest';
import { redactForRequest } from '../../lib/llm/index';
import { createRedactor, redact, redactMessages, redactText } from '../../lib/redact/index';
import { pem } from '../../tools/shared/redact-fakes';
import { f } from './redact-helpers';

describe('placeholders', () => {
  it('numbers per kind by first appearance; the same value keeps its placeholder', () => {
    const text = `b@x.io a@x.io ${f.ghp} b@x.io ${f.gho} a@x.io`;
    const result = redact(text);
    expect(result.text).toBe('[email-1] [email-2] [github-token-1] [email-1] [github-token-2] [email-2]');
    expect(result.findings).toEqual([
      { kind: 'email', placeholder: '[email-1]', count: 2 },
      { kind: 'email', placeholder: '[email-2]', count: 2 },
      { kind: 'github-token', placeholder: '[github-token-1]', count: 1 },
      { kind: 'github-token', placeholder: '[github-token-2]', count: 1 },
    ]);
    expect(result.count).toBe(6);
  });

  it('keeps originals out of the result unless asked', () => {
    const text = `mail jane@corp.io with ${f.anthropic}`;
    const plain = redact(text);
    expect(JSON.stringify(plain)).not.toContain('jane@corp.io');
    expect(JSON.stringify(plain)).not.toContain(f.anthropic);
    const withOriginals = redact(text, { includeOriginals: true });
    expect(withOriginals.findings.map((x) => x.original)).toEqual(['jane@corp.io', f.anthropic]);
  });

  it('never collides with placeholders already in the text', () => {
    const result = redact('see [email-1] and [email-3]; new: a@x.io b@x.io c@x.io');
    expect(result.text).toBe('see [email-1] and [email-3]; new: [email-2] [email-4] [email-5]');
  });

  it('does not touch placeholders, even for caller patterns that would match them', () => {
    const patterns = [{ kind: 'number', pattern: /\d+/ }];
    const result = redact('[email-1] 42 [number-7] [ticket-3]', { patterns });
    expect(result.text).toBe('[email-1] [number-1] [number-7] [ticket-[number-2]]');
  });

  it('is idempotent', () => {
    const text = `jane@corp.io ${f.anthropic} Bearer ${f.bearer}\n${pem('PRIVATE KEY', f.pemBody)}`;
    const once = redactText(text);
    expect(redactText(once)).toBe(once);
  });
});

describe('createRedactor and redactMessages', () => {
  it('shares placeholders across calls', () => {
    const r = createRedactor();
    expect(r.redactText('from jane@corp.io')).toBe('from [email-1]');
    const second = r.redact(`to bob@corp.io, cc jane@corp.io, key ${f.ghp}`);
    expect(second.text).toBe('to [email-2], cc [email-1], key [github-token-1]');
    // Per-call findings cover this call only; the redactor's cover every call.
    expect(second.findings.map((x) => [x.placeholder, x.count])).toEqual([
      ['[email-2]', 1],
      ['[email-1]', 1],
      ['[github-token-1]', 1],
    ]);
    expect(r.findings()).toEqual([
      { kind: 'email', placeholder: '[email-1]', count: 2 },
      { kind: 'email', placeholder: '[email-2]', count: 1 },
      { kind: 'github-token', placeholder: '[github-token-1]', count: 1 },
    ]);
    expect(r.count).toBe(4);
  });

  it('reserves numbers seen in any call', () => {
    const r = createRedactor();
    expect(r.redactText('earlier output mentions [email-1]')).toBe('earlier output mentions [email-1]');
    expect(r.redactText('a@x.io')).toBe('[email-2]');
  });

  it('a placeholder handed out earlier and pasted back in is replaced, so restoring keeps it literal', () => {
    // Found by the property test: 'jane@corp.io' then 'jane@corp.io[email-1]' restored to jane twice.
    const r = createRedactor({ includeOriginals: true });
    expect(r.redactText('jane@corp.io')).toBe('[email-1]');
    const second = r.redact('jane@corp.io[email-1], see [placeholder-1]');
    expect(second.text).toBe('[email-1][placeholder-2], see [placeholder-1]');
    expect(second.findings).toEqual([
      { kind: 'email', placeholder: '[email-1]', count: 1, original: 'jane@corp.io' },
      { kind: 'placeholder', placeholder: '[placeholder-2]', count: 1, original: '[email-1]' },
    ]);
    // The same literal keeps its placeholder; an unassigned one ([placeholder-1]) stays as it is.
    expect(r.redactText('[placeholder-1] [email-1] [email-9]')).toBe(
      '[placeholder-1] [placeholder-2] [email-9]',
    );
    // A single call never needs this: its own placeholders are numbered around the ones in the text.
    expect(redact('[email-1] jane@corp.io').text).toBe('[email-1] [email-2]');
  });

  it('fuzz seed 1404418995 (path 32267:1:5:3:4): a pasted-back placeholder wedged into a key is replaced too', () => {
    // Found by `npm run fuzz` on "a redactor gives a value the same placeholder in every call": after
    // a key's start (`xoxb-`) the scan reads through a placeholder (it could hide the key's rest), and
    // the one this redactor had given out stayed literal, so restoring made it the address.
    const r = createRedactor({ includeOriginals: true });
    expect(r.redactText('o.brien+x@mail.example.co.uk')).toBe('[email-1]');
    const second = r.redact('xoxb-[email-1]o.brien+x@mail.example.co.uk');
    expect(second.text).toBe('xoxb-[placeholder-1][email-1]');
    expect(second.findings).toContainEqual({
      kind: 'placeholder',
      placeholder: '[placeholder-1]',
      count: 1,
      original: '[email-1]',
    });
    expect(r.redactText('sk-[email-1]abc')).toBe('sk-[placeholder-1]abc');
    // A key found through the placeholder takes it with it: no literal is cut out of a finding.
    const key = 'xoxb-157595830961-0136635664081-i519bV5tu2KQpRcph4MAppo7aws';
    expect(r.redactText(`${key.slice(0, 20)}[email-1]${key.slice(20)}`)).toBe('[slack-token-1]');
  });

  it('redactForRequest restores a pasted-back placeholder as the literal text it was', () => {
    const { request, restore } = redactForRequest({
      maxTokens: 256,
      messages: [
        { role: 'user', content: 'Mail jane@corp.io about the deploy.' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'The log says "sent to [email-1]": what is that?' },
      ],
    });
    expect(request.messages.map((m) => m.content)).toEqual([
      'Mail [email-1] about the deploy.',
      'Done.',
      'The log says "sent to [placeholder-1]": what is that?',
    ]);
    expect(restore('I mailed [email-1]; the log line "sent to [placeholder-1]" is redacted output.')).toBe(
      'I mailed jane@corp.io; the log line "sent to [email-1]" is redacted output.',
    );
  });

  it('redactMessages returns new objects with shared placeholders', () => {
    const messages = [
      { role: 'user', content: 'I am jane@corp.io' },
      { role: 'assistant', content: `Hello jane@corp.io, your key is ${f.openaiProject}` },
      {
        role: 'user',
        content: [{ type: 'text', text: 'mail bob@corp.io' }, { type: 'image', source: {} }, 'jane@corp.io'],
      },
    ];
    const copy = structuredClone(messages);
    const out = redactMessages(messages);
    expect(out).toEqual([
      { role: 'user', content: 'I am [email-1]' },
      { role: 'assistant', content: 'Hello [email-1], your key is [openai-key-1]' },
      {
        role: 'user',
        content: [{ type: 'text', text: 'mail [email-2]' }, { type: 'image', source: {} }, '[email-1]'],
      },
    ]);
    expect(messages).toEqual(copy);
    expect(out[0]).not.toBe(messages[0]);
  });
});
