/**
 * The reflection loop's ready components: the tool-backed critiquer, and the LLM-backed generator,
 * critiquer and reviser through the real SDK against the local Messages API server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropicClient, type LlmClient } from '../../lib/llm/index';
import {
  combinedSeverity,
  llmCritiquer,
  llmGenerator,
  llmReviser,
  runReflectionLoop,
  toolCritiquer,
} from '../../lib/loop/index';
import { type MockAnthropic, startMockAnthropic } from '../llm/mock-anthropic';

describe('toolCritiquer', () => {
  it('turns a validator’s issues into a critique with combined severity and feedback', async () => {
    const critiquer = toolCritiquer(
      (content) => {
        const issues: { message: string; severity?: number; path?: string }[] = [];
        if (!content.includes('SELECT')) issues.push({ message: 'not a query' });
        if (!content.includes('GROUP BY'))
          issues.push({ message: 'missing GROUP BY', severity: 0.8, path: 'sql' });
        return issues;
      },
      { name: 'sql' },
    );
    const c = await critiquer.critique('p', { content: 'count users', metadata: {} });
    expect(c.issues).toEqual(['[sql] not a query', '[sql] sql: missing GROUP BY']);
    expect(c.severity).toBeCloseTo(1 - 0.5 * 0.2);
    expect(c.score).toBeCloseTo(0.5 * 0.2);
    expect(c.feedback).toBe('Fix these problems:\n- [sql] not a query\n- [sql] sql: missing GROUP BY');
    expect(combinedSeverity([])).toBe(0);
  });

  it('accepts booleans and { issues, score, feedback }', async () => {
    const pass = await toolCritiquer(() => true).critique('p', { content: '', metadata: {} });
    expect(pass).toMatchObject({ issues: [], severity: 0, score: 1 });
    const fail = await toolCritiquer(() => false).critique('p', { content: '', metadata: {} });
    expect(fail).toMatchObject({ issues: ['check failed'], severity: 0.5 });
    const rich = await toolCritiquer(async () => ({
      issues: ['2 of 10 tests fail'],
      score: 0.8,
      feedback: 'see log',
    })).critique('p', {
      content: '',
      metadata: {},
    });
    expect(rich).toMatchObject({ severity: 0.5, score: 0.8, feedback: 'see log' });
  });

  it('reports a throwing check as one issue of severity 1, or rethrows when asked to', async () => {
    const throwing = () => JSON.parse('{nope');
    const c = await toolCritiquer(throwing).critique('p', { content: '', metadata: {} });
    expect(c.severity).toBe(1);
    expect(c.issues[0]).toMatch(/^check failed: /);
    await expect(
      toolCritiquer(throwing, { errorsAsIssues: false }).critique('p', { content: '', metadata: {} }),
    ).rejects.toThrow(SyntaxError);
  });

  it('never trusts the tool output shape', async () => {
    const bad = toolCritiquer(() => ({ problems: ['x'] }) as never);
    await expect(bad.critique('p', { content: '', metadata: {} })).rejects.toMatchObject({
      code: 'component_invalid',
    });
    const outOfRange = toolCritiquer(() => [{ message: 'x', severity: 3 }]);
    await expect(outOfRange.critique('p', { content: '', metadata: {} })).rejects.toMatchObject({
      code: 'component_invalid',
    });
  });

  it('drives the loop: a test-run critiquer and a scripted fixer converge on low severity', async () => {
    const tests: ((src: string) => string | true)[] = [
      (src: string) => src.includes('function add') || 'add is not defined',
      (src: string) => src.includes('a + b') || 'add(1, 2) should be 3',
      (src: string) => src.includes('export') || 'add is not exported',
    ];
    const critiquer = toolCritiquer(
      (src) => tests.map((t) => t(src)).filter((r): r is string => r !== true),
      { name: 'tests' },
    );
    const fixes: Record<string, string> = {
      'add is not defined': 'function add(a, b) { return a - b; }',
      'add(1, 2) should be 3': 'function add(a, b) { return a + b; }',
      'add is not exported': 'export function add(a, b) { return a + b; }',
    };
    const r = await runReflectionLoop({
      prompt: 'Write add(a, b)',
      initialCandidate: '',
      critiquer,
      reviser: (_p, _c, critique) => fixes[critique.issues[0]!.replace('[tests] ', '')]!,
      maxIterations: 5,
    });
    expect(r).toMatchObject({ reason: 'low_severity', converged: true, iterations: 4 });
    expect(r.best.content).toBe('export function add(a, b) { return a + b; }');
    expect(r.history.map((h) => h.critique.issues.length)).toEqual([3, 2, 1, 0]);
  });
});

describe('LLM-backed components through the real SDK against the local Messages API', () => {
  let mock: MockAnthropic;
  let llm: LlmClient;
  beforeAll(async () => {
    mock = await startMockAnthropic();
    llm = anthropicClient({
      apiKey: 'sk-ant-test',
      baseURL: mock.url,
      retry: { random: () => 0, sleep: async () => {} },
    });
  });
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());

  const json = (value: unknown, prose = true) => ({
    kind: 'json' as const,
    text: prose
      ? `Here is my assessment:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``
      : JSON.stringify(value),
    usage: { input_tokens: 20, output_tokens: 10 },
  });
  const bodies = () =>
    mock.requests.map((r) => r.body as { system?: string; messages: { role: string; content: string }[] });

  it('generates, critiques and revises until low severity, counting usage', async () => {
    mock.script([
      {
        kind: 'json',
        text: 'Paris is the capital of Germany.',
        usage: { input_tokens: 30, output_tokens: 8 },
      },
      json({
        issues: ['Paris is the capital of France, not Germany'],
        severity: 0.9,
        score: 0.1,
        feedback: 'Fix the country.',
      }),
      json({ content: 'Paris is the capital of France.', changes: ['Corrected the country'] }, false),
      json({ issues: [], severity: 0, score: 1 }),
    ]);
    const r = await runReflectionLoop({
      prompt: 'What is Paris the capital of?',
      generator: llmGenerator({ llm }),
      critiquer: llmCritiquer({ llm }),
      reviser: llmReviser({ llm }),
    });
    expect(r).toMatchObject({ reason: 'low_severity', converged: true, iterations: 2 });
    expect(r.best).toMatchObject({
      content: 'Paris is the capital of France.',
      score: 1,
      metadata: { changes: ['Corrected the country'] },
    });
    expect(r.usage).toEqual({ llmCalls: 4, inputTokens: 90, outputTokens: 38, tokens: 128 });
    const [gen, crit, rev] = bodies();
    expect(gen!.messages[0]!.content).toContain('Task:\nWhat is Paris the capital of?');
    expect(crit!.system).toContain('Reply with only a JSON object');
    expect(crit!.messages[0]!.content).toContain('Answer to judge:\nParis is the capital of Germany.');
    expect(rev!.messages[0]!.content).toContain('- Paris is the capital of France, not Germany');
    expect(rev!.messages[0]!.content).toContain('Feedback: Fix the country.');
  });

  it('never trusts the reply shape: a malformed critique gets one repair request', async () => {
    mock.script([
      { kind: 'json', text: 'Sure! The answer looks {great} to me, severity: low' },
      json({ issues: [{ description: 'too vague' }], severity: 'medium' }),
    ]);
    const c = await llmCritiquer({ llm }).critique('Explain DNS', {
      content: 'It resolves names.',
      metadata: {},
    });
    expect(c).toMatchObject({ issues: ['too vague'], severity: 0.5 });
    expect(mock.requests).toHaveLength(2);
    const repair = bodies()[1]!.messages;
    expect(repair.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair[2]!.content).toMatch(/could not be used \(the reply contains no JSON\)/);
  });

  it('rejects a reply that stays malformed with llm_reply_invalid, naming the bad fields', async () => {
    mock.script([
      json({ issues: 'everything', severity: 4 }),
      json({ issues: ['x'], severity: 1.5, score: -1 }),
    ]);
    const err = await llmCritiquer({ llm })
      .critique('p', { content: 'a', metadata: {} })
      .catch((e) => e);
    expect(err.code).toBe('llm_reply_invalid');
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['severity', 'score']),
    );
    expect(bodies()[1]!.messages[2]!.content).toMatch(/issues: /);
  });

  it('ends the loop with reason error when the critiquer keeps replying garbage', async () => {
    mock.script([{ kind: 'json', text: 'not json' }]);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: llmCritiquer({ llm, maxRepairs: 0 }),
      reviser: llmReviser({ llm }),
    });
    expect(r).toMatchObject({
      reason: 'error',
      error: { code: 'llm_reply_invalid' },
      usage: { llmCalls: 1 },
    });
  });

  it('rejects an empty revision', async () => {
    mock.script([json({ content: '   ', changes: [] }), json({ content: 'fixed', changes: 'one change' })]);
    const r = await llmReviser({ llm }).revise(
      'p',
      { content: 'a', metadata: {} },
      { issues: ['x'], severity: 0.5 },
    );
    expect(r).toMatchObject({ content: 'fixed', metadata: { changes: ['one change'] } });
  });

  it('stops on the LLM call budget', async () => {
    mock.script([
      json({ issues: ['x'], severity: 0.8, score: 0.2 }),
      json({ content: 'b', changes: [] }),
      json({ issues: [], severity: 0 }),
    ]);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: llmCritiquer({ llm }),
      reviser: llmReviser({ llm }),
      budget: { llmCalls: 2 },
    });
    expect(r).toMatchObject({
      reason: 'budget_exhausted',
      iterations: 1,
      usage: { llmCalls: 2, tokens: 60 },
    });
    expect(mock.requests).toHaveLength(2);
  });

  it('aborts a slow request through the SDK and resolves with reason aborted', async () => {
    // The reply would come after the test's timeout: only the abort can end the loop in time.
    mock.script([{ kind: 'json', text: '{"issues":[],"severity":0}', delayMs: 50_000 }]);
    const r = await runReflectionLoop({
      prompt: 'p',
      initialCandidate: 'a',
      critiquer: llmCritiquer({ llm }),
      reviser: llmReviser({ llm }),
      signal: AbortSignal.timeout(100),
    });
    expect(r).toMatchObject({ reason: 'aborted', iterations: 0, best: { content: 'a' } });
  });
});
