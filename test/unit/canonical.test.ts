import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, compareCodePoints, isRearviewError, ValidationError } from '../../lib/core/index';

interface Vector {
  name: string;
  input: string;
  expected: string;
  note?: string;
}

const fixturePath = fileURLToPath(new URL('../fixtures/canonical-vectors.json', import.meta.url));
const generatorPath = fileURLToPath(new URL('../fixtures/make-canonical-vectors.py', import.meta.url));
const { vectors } = JSON.parse(readFileSync(fixturePath, 'utf8')) as { vectors: Vector[] };

const hasPython = spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;

/** JSON text with every non-ASCII code unit escaped, so the Python side never depends on a locale. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const PY_DUMPS =
  "import json,sys; print('\\n'.join(json.dumps(v, sort_keys=True, separators=(',',':')) for v in json.load(sys.stdin)))";

/** Python's canonical form of each value, one per line, from a live python3. */
function pythonCanonical(values: readonly unknown[]): string[] {
  const run = spawnSync('python3', ['-c', PY_DUMPS], {
    input: asciiJson(values),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout.replace(/\n$/, '').split('\n');
}

describe('canonicalJson: committed Python vectors', () => {
  it('has vectors for every required area', () => {
    const names = vectors.map((v) => v.name).join('\n');
    for (const needle of [
      'astral after U+FF01',
      'lone surrogates',
      'short escapes',
      'all control characters',
      'DEL',
      'emoji',
      'float 1e-05',
      'float 0.0001',
      'float 5e-324',
      'integral double 1e+22',
      'integral double 1.7976931348623157e+308',
      'int 1152921504606846976',
      'empty object',
      'unicode words',
    ]) {
      expect(names).toContain(needle);
    }
    expect(vectors.length).toBeGreaterThan(50);
  });

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, vector) => {
    expect(canonicalJson(JSON.parse(vector.input))).toBe(vector.expected);
  });

  it.skipIf(!hasPython)('the committed vectors are what the generator makes now', () => {
    const run = spawnSync('python3', [generatorPath], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as { vectors: Vector[] }).vectors).toStrictEqual(vectors);
  });
});

/** One UTF-16 unit of any kind, lone surrogates included, or one whole code point. */
const anyUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\uff01', '\ue000', '\u{1f600}', '\u{10000}', '\u{10ffff}', '\u007f', '\u0000'),
);
const anyString = fc.string({ unit: anyUnit, maxLength: 8 });

/** Numbers both languages read the same way: safe integers and non-integer finite doubles. */
const pyNumber = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
  fc.constantFrom(1e-5, 1e-4, 0.1, 1.5, 5e-324, 123456789.123, -2.5e-7, 0.1 + 0.2, 2 ** 53 - 0.5),
);

const { value: pyValue } = fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown> }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(null, true, false),
      pyNumber,
      anyString,
      tie('array'),
      tie('object'),
    ),
    array: fc.array(tie('value'), { maxLength: 5 }),
    object: fc.dictionary(anyString, tie('value'), { maxKeys: 6 }),
  }),
);

describe('canonicalJson: live python3 comparison (property)', () => {
  it.skipIf(!hasPython)('matches json.dumps(v, sort_keys=True, separators=(",", ":")) for 300 values', () => {
    fc.assert(
      fc.property(fc.array(pyValue, { minLength: 100, maxLength: 100 }), (values) => {
        const python = pythonCanonical(values);
        expect(python).toHaveLength(values.length);
        values.forEach((v, i) => {
          expect(canonicalJson(v), `value ${asciiJson(v)}`).toBe(python[i]);
        });
      }),
      { numRuns: 3 },
    );
  });

  it.skipIf(!hasPython)('matches Python for key sets built from the troublesome characters', () => {
    const keyUnit = fc.constantFrom(
      'a',
      '\uff01',
      '\ue000',
      '\ud7ff',
      '\ud800',
      '\udbff',
      '\udc00',
      '\ud83d',
      '\ude00',
    );
    const keys = fc.uniqueArray(fc.string({ unit: keyUnit, maxLength: 4 }), { maxLength: 12 });
    const objects = fc.sample(
      keys.map((ks) => Object.fromEntries(ks.map((k, i) => [k, i]))),
      { numRuns: 200, seed: 8 },
    );
    const python = pythonCanonical(objects);
    objects.forEach((o, i) => {
      expect(canonicalJson(o), `object ${asciiJson(o)}`).toBe(python[i]);
    });
  });
});

describe('canonicalJson: JavaScript-only values', () => {
  function expectInvalid(value: unknown, path: string, what: string | RegExp): void {
    let thrown: unknown;
    try {
      canonicalJson(value);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(isRearviewError(thrown)).toBe(true);
    const err = thrown as ValidationError;
    expect(err.code).toBe('validation_failed');
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]!.path).toBe(path);
    expect(err.message).toContain(path);
    expect(err.message).toMatch(what);
  }

  it('functions are rejected with their key path', () => {
    expectInvalid({ a: { b: () => 1 } }, '$.a.b', /function/);
    expectInvalid(() => 1, '$', /function/);
  });

  it('symbols are rejected with their key path', () => {
    expectInvalid({ list: [1, Symbol('s')] }, '$.list[1]', /symbol/);
  });

  it('Map, Set and class instances are rejected', () => {
    expectInvalid([new Map([['a', 1]])], '$[0]', /Map is not a plain object/);
    expectInvalid({ s: new Set([1]) }, '$.s', /Set is not a plain object/);
    class Point {
      x = 1;
    }
    expectInvalid({ p: { q: [0, new Point()] } }, '$.p.q[1]', /Point is not a plain object/);
    expectInvalid({ r: /re/ }, '$.r', /RegExp/);
  });

  it('cycles are rejected, shared (acyclic) references are not', () => {
    const o: Record<string, unknown> = { a: {} };
    (o.a as Record<string, unknown>).self = o;
    expectInvalid(o, '$.a.self', /circular/);
    const arr: unknown[] = [1];
    arr.push([arr]);
    expectInvalid(arr, '$[1][0]', /circular/);
    const shared = { z: 1 };
    expect(canonicalJson({ b: shared, a: [shared, shared] })).toBe('{"a":[{"z":1},{"z":1}],"b":{"z":1}}');
  });

  it('undefined properties are omitted; undefined array items and holes become null', () => {
    expect(canonicalJson({ b: undefined, a: 1, c: { d: undefined } })).toBe('{"a":1,"c":{}}');
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(canonicalJson([undefined, , 1])).toBe('[null,null,1]');
    expectInvalid(undefined, '$', /undefined/);
  });

  it('toJSON is used (Date), and its result is canonicalised too', () => {
    const date = new Date(Date.UTC(2020, 0, 2, 3, 4, 5));
    expect(canonicalJson({ when: date })).toBe('{"when":"2020-01-02T03:04:05.000Z"}');
    expect(canonicalJson({ x: { toJSON: () => ({ b: 2, a: [1] }) } })).toBe('{"x":{"a":[1],"b":2}}');
  });

  it('bigint is written as an integer', () => {
    expect(canonicalJson({ n: 2n ** 70n, m: -(10n ** 30n), z: 0n })).toBe(
      '{"m":-1000000000000000000000000000000,"n":1180591620717411303424,"z":0}',
    );
  });

  it('NaN and ±Infinity are written as Python writes them (allow_nan=True)', () => {
    // python3 -c 'import json; print(json.dumps([float("nan"), float("inf"), float("-inf")]))'
    expect(canonicalJson([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])).toBe(
      '[NaN,Infinity,-Infinity]',
    );
  });

  it('-0 is the integer 0 (as json.loads("-0") is in Python)', () => {
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(JSON.parse('[-0, -0.0]'))).toBe('[0,0]');
  });

  it('null-prototype objects are plain; symbol keys are ignored', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    expect(canonicalJson(bare)).toBe('{"a":2,"b":1}');
    expect(canonicalJson({ [Symbol('k')]: 1, k: 2 })).toBe('{"k":2}');
  });

  it('the documented example', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'é'] })).toBe('{"a":[true,null,"\\u00e9"],"b":1}');
  });
});

describe('compareCodePoints', () => {
  function reference(a: string, b: string): number {
    const x = [...a].map((c) => c.codePointAt(0)!);
    const y = [...b].map((c) => c.codePointAt(0)!);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  }

  const tricky = fc.string({
    unit: fc.constantFrom(
      'a',
      'b',
      '\uff01',
      '\ue000',
      '\ud7ff',
      '\ud800',
      '\udbff',
      '\udc00',
      '\ud83d',
      '\ude00',
      '\u{1f600}',
    ),
    maxLength: 6,
  });

  it('orders like a comparison of code point arrays (property)', () => {
    for (const strings of [tricky, anyString, fc.string({ unit: 'binary' })]) {
      fc.assert(
        fc.property(strings, strings, (a, b) => {
          expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(reference(a, b)));
        }),
        { numRuns: 2000 },
      );
    }
  });

  it('is zero exactly for equal strings and antisymmetric (property)', () => {
    fc.assert(
      fc.property(tricky, tricky, (a, b) => {
        expect(compareCodePoints(a, a)).toBe(0);
        expect(compareCodePoints(a, b) === 0).toBe(a === b);
        expect(Math.sign(compareCodePoints(a, b)) + Math.sign(compareCodePoints(b, a))).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('puts astral characters after U+FF01, and lone surrogates before both', () => {
    expect(['\u{1f600}', '\uff01', '\ud800', 'a'].sort(compareCodePoints)).toStrictEqual([
      'a',
      '\ud800',
      '\uff01',
      '\u{1f600}',
    ]);
    expect(['\u{1f600}', '\udbff'].sort(compareCodePoints)).toStrictEqual(['\udbff', '\u{1f600}']);
    expect(['\ud83d\uff01', '\u{1f600}', '\ud83d'].sort(compareCodePoints)).toStrictEqual([
      '\ud83d',
      '\ud83d\uff01',
      '\u{1f600}',
    ]);
  });
});
