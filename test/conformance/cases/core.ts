import {
  canonicalJson,
  estimateTokens,
  extractJson,
  isRearviewError,
  RearviewError,
  sha256Hex,
  TranscriptError,
  truncateUtf8,
  utf8ByteLength,
} from 'rearview/core';
import { check, checkEqual, checkRejects } from '../check';
import type { ConformanceCase } from '../suite';

/** Core primitives: every output here must be byte-identical in all runtimes. */
export const coreCases: ConformanceCase[] = [
  {
    name: 'core/extractJson strategies',
    run() {
      const inputs = [
        '```json\n{"a": 1}\n```',
        'Sure:\n```\n{"b": [1, 2]}\n```\nDone.',
        'Here is my analysis:\n\n{"analysis": "ok {braces} in strings", "bullet_tags": []} thanks',
        '[1, 2, 3]',
        '  "just a string"  ',
        'prose {not json} then {"x": "y"}',
        'no json at all',
        '{"unterminated": "str',
        '```json {"inline": true}```',
      ];
      const out = inputs.map((t) => extractJson(t) ?? null);
      checkEqual(out[0], { a: 1 }, 'json fence');
      checkEqual(out[2], { analysis: 'ok {braces} in strings', bullet_tags: [] }, 'prose-wrapped');
      checkEqual(out[5], { x: 'y' }, 'second balanced object after a non-JSON one');
      check(out[6] === null && out[7] === null, 'unparseable inputs give undefined');
      return out;
    },
  },
  {
    name: 'core/extractJson adversarial input stays linear',
    run() {
      const n = 200_000;
      const inputs = [
        '{'.repeat(n),
        `{"a": "${'x'.repeat(n)}`,
        '```json\n{\n'.repeat(n / 10),
        '\\"{'.repeat(n / 3),
      ];
      // A quadratic scan of 200k braces takes minutes, past every runtime's test timeout; a linear one
      // milliseconds. No clock here: bench/core.bench.ts prints the time ratios.
      const out = inputs.map((t) => extractJson(t) ?? null);
      return out;
    },
  },
  {
    name: 'core/truncateUtf8 seed vectors',
    run() {
      const out = [
        truncateUtf8('hello world', 5),
        truncateUtf8('hi', 10),
        truncateUtf8('\u{1F600}\u{1F601}\u{1F602}', 5),
        truncateUtf8('caf\u00e9', 4),
        truncateUtf8('caf\u00e9', 5),
        truncateUtf8('\ud800x', 3),
        utf8ByteLength('caf\u00e9 \u{1F600}'),
      ];
      checkEqual(out.slice(0, 4), ['hello', 'hi', '\u{1F600}', 'caf'], 'seed 004 truncate tests');
      return out;
    },
  },
  {
    name: 'core/canonicalJson python vectors',
    run() {
      const value = {
        task: 'reflect_summary',
        version: 1,
        z: [1.5, 1e-5, 1e16, 0.1, -0, 2 ** 60, null, true],
        é: 'caf\u00e9 \u{1F600} "q" \\ \n\t\u0001\u007f',
        '\uff01': 1,
        '\u{1F600}': 2,
        nested: { b: { d: 1, c: 2 }, a: [] },
      };
      const out = canonicalJson(value);
      checkEqual(
        out,
        '{"nested":{"a":[],"b":{"c":2,"d":1}},"task":"reflect_summary","version":1,"z":[1.5,1e-05,10000000000000000,0.1,0,1152921504606846976,null,true],"\\u00e9":"caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\\\ \\n\\t\\u0001\\u007f","\\uff01":1,"\\ud83d\\ude00":2}',
        'canonical form',
      );
      return out;
    },
  },
  {
    name: 'core/sha256Hex and the seed 002 prompt hash',
    async run() {
      const promptJson = canonicalJson({
        agent: 'unknown',
        plan_reflection: false,
        snippets: ['example snippet'],
        summary_tokens: 128,
        task: 'reflect_summary',
        turn: 0,
        utter: 'assistant: summary: . next: question',
        version: 1,
      });
      const out = [
        await sha256Hex('abc'),
        await sha256Hex(''),
        await sha256Hex(promptJson),
        await sha256Hex('\u{1F600}'),
      ];
      checkEqual(out[0], 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'sha256("abc")');
      // The hash Python's json.dumps + hashlib give for the seed's example prompt (section 4.3).
      checkEqual(
        out[2],
        '3482df95edf61a9160ee3b7284d0500bca8da41db91462b657c115bad495b5b1',
        'seed 002 prompt hash',
      );
      return [promptJson, ...out];
    },
  },
  {
    name: 'core/errors carry codes across realms',
    async run() {
      const err = new TranscriptError('Expected a JSON object', { format: 'jsonl', line: 3 });
      check(isRearviewError(err), 'isRearviewError');
      check(err instanceof RearviewError, 'instanceof');
      check(
        !isRearviewError(new Error('x')) && !isRearviewError({ code: 'x' }),
        'plain objects are not ours',
      );
      // A structurally identical error from "another copy" is recognised through Symbol.for.
      const foreign = Object.assign(new Error('x'), {
        code: 'store_corrupt',
        [Symbol.for('rearview.error')]: true,
      });
      check(isRearviewError(foreign), 'cross-realm marker');
      await checkRejects(
        () => canonicalJson({ f: () => 1 }),
        'validation_failed',
        'canonicalJson rejects functions',
      );
      return { name: err.name, code: err.code, message: err.message };
    },
  },
  {
    name: 'core/estimateTokens is deterministic',
    run() {
      const texts = [
        '',
        'hello world',
        'The quick brown fox jumps over the lazy dog.',
        '{"a": [1, 2, 3]}',
        '日本語のテキスト',
        '\u{1F600}'.repeat(5),
        '    indented\n\tcode();\n',
      ];
      const out = texts.map(estimateTokens);
      check(out[0] === 0, 'empty text has no tokens');
      check(
        out.every((n) => Number.isInteger(n) && n >= 0),
        'non-negative integers',
      );
      return out;
    },
  },
];
