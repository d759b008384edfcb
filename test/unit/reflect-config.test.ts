// Seed 002, section 8 "Config validation" (tests/config/test_validate_reflection.py): defaults, typing,
// backend enum, unknown keys, budget bounds, fixtures-only LLM backend, non-empty fixture source.
import fc from 'fast-check';
import { ConfigError, isRearviewError } from 'rearview/core';
import {
  defaultReflectionConfig,
  fromSeedConfig,
  ReflectionConfigSchema,
  safeValidateReflectionConfig,
  validateReflectionConfig,
} from 'rearview/post-turn';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';

const issuesOf = (input: unknown) => safeValidateReflectionConfig(input).issues;

describe('reflection config: defaults (section 3.1)', () => {
  it('fills every key with the seed default; reflection is off', () => {
    expect(defaultReflectionConfig()).toEqual({
      allowReflection: false,
      reflection: { backend: 'rulebased', summaryTokens: 128, embed: true, log: true, topkSnippets: 3 },
      budgets: { timeMsReflection: 6000, opsReflection: 5 },
      llm: { fixtures: { enabled: false } },
    });
    expect(validateReflectionConfig(undefined)).toEqual(defaultReflectionConfig());
    expect(validateReflectionConfig({ reflection: { summaryTokens: 7 } }).reflection).toEqual({
      backend: 'rulebased',
      summaryTokens: 7,
      embed: true,
      log: true,
      topkSnippets: 3,
    });
  });

  it('accepts the seed LLM example and zero budgets', () => {
    const config = validateReflectionConfig({
      allowReflection: true,
      reflection: { backend: 'llm' },
      llm: { fixtures: { enabled: true, path: 'tests/fixtures/reflection_llm.jsonl' } },
      budgets: { timeMsReflection: 6000, opsReflection: 5 },
    });
    expect(config.reflection.backend).toBe('llm');
    expect(config.llm.fixtures).toEqual({ enabled: true, path: 'tests/fixtures/reflection_llm.jsonl' });
    const zero = validateReflectionConfig({
      reflection: { summaryTokens: 0, topkSnippets: 0 },
      budgets: { timeMsReflection: 0, opsReflection: 0 },
    });
    expect([
      zero.reflection.summaryTokens,
      zero.budgets.opsReflection,
      zero.budgets.timeMsReflection,
    ]).toEqual([0, 0, 0]);
    // The valibot schema is exported for composition.
    expect(v.safeParse(ReflectionConfigSchema, {}).success).toBe(true);
  });

  it('does not mutate its input', () => {
    const input = { reflection: { backend: 'rulebased' as const } };
    const before = JSON.stringify(input);
    validateReflectionConfig(input);
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe('reflection config: validator rules', () => {
  it('rejects unknown keys at every level, naming the allowed ones', () => {
    expect(issuesOf({ reflection: { backend: 'rulebased', sumary_tokens: 1 } })).toEqual([
      {
        path: 'reflection.sumary_tokens',
        message: 'unknown key (allowed: backend, summaryTokens, embed, log, topkSnippets)',
      },
    ]);
    expect(issuesOf({ extra: 1 }).map((i) => i.path)).toEqual(['extra']);
    expect(issuesOf({ budgets: { timeMsT1: 5 } }).map((i) => i.path)).toEqual(['budgets.timeMsT1']);
    expect(issuesOf({ llm: { fixtures: { enabled: false, dir: 'x' } } }).map((i) => i.path)).toEqual([
      'llm.fixtures.dir',
    ]);
  });

  it('enforces the backend enum', () => {
    expect(issuesOf({ reflection: { backend: 'gpt' } })).toEqual([
      { path: 'reflection.backend', message: 'must be "rulebased" or "llm"' },
    ]);
    expect(issuesOf({ reflection: { backend: 'LLM' } })).toHaveLength(1);
  });

  it('enforces non-negative integers on summaryTokens, topkSnippets, timeMsReflection, opsReflection', () => {
    for (const bad of [-1, 1.5, '3', Number.NaN, Number.POSITIVE_INFINITY, null, true]) {
      const issues = issuesOf({
        reflection: { summaryTokens: bad, topkSnippets: bad },
        budgets: { timeMsReflection: bad, opsReflection: bad },
      });
      expect(issues, String(bad)).toEqual(
        [
          'reflection.summaryTokens',
          'reflection.topkSnippets',
          'budgets.timeMsReflection',
          'budgets.opsReflection',
        ].map((path) => ({ path, message: 'must be a non-negative integer' })),
      );
    }
  });

  it('types booleans strictly (no coercion of config values)', () => {
    expect(
      issuesOf({
        allowReflection: 'true',
        reflection: { embed: 1, log: 'no' },
        llm: { fixtures: { enabled: 'yes' } },
      }),
    ).toEqual([
      { path: 'allowReflection', message: 'must be a boolean' },
      { path: 'reflection.embed', message: 'must be a boolean' },
      { path: 'reflection.log', message: 'must be a boolean' },
      { path: 'llm.fixtures.enabled', message: 'must be a boolean' },
    ]);
    expect(issuesOf({ reflection: 'rulebased' })).toEqual([
      { path: 'reflection', message: 'must be an object' },
    ]);
    expect(issuesOf([])).toEqual([{ path: '', message: 'must be an object' }]);
  });

  it('allows the LLM backend only with fixtures enabled (when reflection is allowed)', () => {
    expect(issuesOf({ allowReflection: true, reflection: { backend: 'llm' } })).toEqual([
      {
        path: 'llm.fixtures.enabled',
        message:
          'must be true when reflection.backend is "llm" and allowReflection is true (the LLM backend replays fixtures only)',
      },
    ]);
    expect(
      issuesOf({
        allowReflection: true,
        reflection: { backend: 'llm' },
        llm: { fixtures: { enabled: false, path: 'f' } },
      }),
    ).toHaveLength(1);
    // Gate off: the seed only errors when allow_reflection is true.
    expect(issuesOf({ allowReflection: false, reflection: { backend: 'llm' } })).toEqual([]);
  });

  it('requires a non-empty fixture source', () => {
    expect(issuesOf({ llm: { fixtures: { enabled: true, path: '' } } })).toEqual([
      { path: 'llm.fixtures.path', message: 'must be a non-empty string' },
    ]);
    expect(issuesOf({ llm: { fixtures: { enabled: false, path: '   ' } } })).toEqual([
      { path: 'llm.fixtures.path', message: 'must be a non-empty string' },
    ]);
    expect(issuesOf({ llm: { fixtures: { enabled: true } } })).toEqual([
      {
        path: 'llm.fixtures.path',
        message:
          'is required when fixtures are enabled: a URL or file path (path) or inline JSONL text (jsonl)',
      },
    ]);
    expect(issuesOf({ llm: { fixtures: { enabled: true, jsonl: '' } } })).toEqual([
      { path: 'llm.fixtures.jsonl', message: 'must be a non-empty string' },
    ]);
    expect(issuesOf({ llm: { fixtures: { enabled: true, path: 'a', jsonl: 'b' } } })).toEqual([
      { path: 'llm.fixtures', message: 'give either path or jsonl, not both' },
    ]);
    expect(issuesOf({ llm: { fixtures: { enabled: true, path: 7 } } })).toEqual([
      { path: 'llm.fixtures.path', message: 'must be a non-empty string' },
    ]);
    expect(
      issuesOf({ llm: { fixtures: { enabled: true, jsonl: '{"prompt_hash":"a","completion":"b"}' } } }),
    ).toEqual([]);
  });

  it('reports every problem at once in a ConfigError with key paths', () => {
    const input = {
      allowReflection: true,
      reflection: { backend: 'llm', summaryTokens: -5, extra: true },
      budgets: { opsReflection: 2.5 },
      llm: { fixtures: { enabled: false, path: '' } },
    };
    let caught: unknown;
    try {
      validateReflectionConfig(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect(isRearviewError(caught) && caught.code).toBe('config_invalid');
    const err = caught as ConfigError;
    expect(err.issues.map((i) => i.path)).toEqual([
      'reflection.summaryTokens',
      'reflection.extra',
      'budgets.opsReflection',
      'llm.fixtures.path',
      'llm.fixtures.enabled',
    ]);
    expect(err.message).toMatch(
      /^Config is invalid: reflection\.summaryTokens: must be a non-negative integer; /,
    );
    const safe = safeValidateReflectionConfig(input);
    expect(safe.success).toBe(false);
    expect(safe.config).toBeUndefined();
    expect(safe.issues).toEqual(err.issues);
  });
});

describe('fromSeedConfig', () => {
  it('maps the seed YAML layout (snake_case) and keeps unknown reflection keys for the validator', () => {
    const seed = {
      t3: {
        allow_reflection: true,
        reflection: { backend: 'llm', summary_tokens: 64, topk_snippets: 2, embed: false, log: true },
        llm: { fixtures: { enabled: true, path: 'tests/fixtures/reflection_llm.jsonl' } },
        tokens: 256,
      },
      scheduler: { budgets: { time_ms_reflection: 100, ops_reflection: 1, t1_iters: 50 } },
    };
    expect(validateReflectionConfig(fromSeedConfig(seed))).toEqual({
      allowReflection: true,
      reflection: { backend: 'llm', summaryTokens: 64, embed: false, log: true, topkSnippets: 2 },
      budgets: { timeMsReflection: 100, opsReflection: 1 },
      llm: { fixtures: { enabled: true, path: 'tests/fixtures/reflection_llm.jsonl' } },
    });
    expect(issuesOf(fromSeedConfig({ t3: { reflection: { bogus: 1 } } })).map((i) => i.path)).toEqual([
      'reflection.bogus',
    ]);
    expect(validateReflectionConfig(fromSeedConfig({}))).toEqual(defaultReflectionConfig());
  });
});

describe('safeValidateReflectionConfig: never throws', () => {
  const throwingGetter = (value: Record<string, unknown>, key: string, thrown: unknown) =>
    Object.defineProperty(value, key, {
      enumerable: true,
      get() {
        throw thrown;
      },
    });

  it('regression: a getter that throws gives one issue at its key', () => {
    const config = { reflection: throwingGetter({ backend: 'llm' }, 'summaryTokens', new Error('boom')) };
    expect(safeValidateReflectionConfig(config)).toEqual({
      success: false,
      config: undefined,
      issues: [{ path: 'reflection.summaryTokens', message: 'could not be read: boom' }],
    });
    const root = throwingGetter({}, 'allowReflection', { toString: 0 });
    const r = safeValidateReflectionConfig(root);
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]!.path).toBe('allowReflection');
    expect(r.issues[0]!.message).toMatch(/^could not be read: /);
  });

  it('regression: a Proxy whose traps throw, or a revoked one, gives an issue', () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('keys trap');
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    for (const config of [trap, { llm: trap }, revocable.proxy, { budgets: revocable.proxy }]) {
      const r = safeValidateReflectionConfig(config);
      expect(r.success).toBe(false);
      expect(r.issues).toHaveLength(1);
      expect(r.issues[0]!.message).toMatch(/^could not be read: /);
    }
    expect(() => validateReflectionConfig(trap)).toThrow(ConfigError);
  });

  it('never throws, and succeeds exactly when there is no issue (property)', () => {
    const withThrowingGetter = fc
      .tuple(fc.dictionary(fc.string(), fc.anything()), fc.string(), fc.anything())
      .map(([obj, key, thrown]) => throwingGetter(obj, key, thrown));
    const section = fc.oneof(fc.anything(), withThrowingGetter);
    const config = fc.oneof(
      fc.anything(),
      withThrowingGetter,
      fc.record(
        {
          allowReflection: fc.anything(),
          reflection: section,
          budgets: section,
          llm: fc.record({ fixtures: section }),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(config, (input) => {
        const r = safeValidateReflectionConfig(input);
        expect(r.success).toBe(r.issues.length === 0);
        if (r.success) expect(typeof r.config.allowReflection).toBe('boolean');
        else expect(r.config).toBeUndefined();
        for (const issue of r.issues) {
          expect(typeof issue.path).toBe('string');
          expect(typeof issue.message).toBe('string');
        }
      }),
      { numRuns: 500 },
    );
  });
});
