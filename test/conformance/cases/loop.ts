import { memoryStore } from 'rearview/kv';
import type { LlmClient, LlmRequest } from 'rearview/llm';
import {
  type Candidate,
  type Critique,
  checkConvergence,
  contentChange,
  formatLessons,
  improvementScore,
  jaccard,
  keywords,
  type LoopResult,
  llmCritiquer,
  llmReviser,
  normalizePrompt,
  type ReflectionLoopOptions,
  ReflexionMemory,
  runReflectionLoop,
  type StepContext,
  toolCritiquer,
} from 'rearview/loop';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

type Row = { severity: number; score?: number; issues?: string[]; feedback?: string };

const TABLE: Record<string, Row> = {
  v0: {
    severity: 0.8,
    score: 0.2,
    issues: ['wrong unit', 'no example'],
    feedback: 'Use metres; add an example.',
  },
  v1: { severity: 0.5, score: 0.5, issues: ['no example'], feedback: 'Add an example.' },
  v2: { severity: 0.3, score: 0.75, issues: ['terse'] },
  good: { severity: 0, score: 1, issues: [] },
  flat: { severity: 0.6, score: 0.4, issues: ['meh'] },
  flat2: { severity: 0.55, score: 0.45, issues: ['meh'] },
  spaced: { severity: 0.6, issues: ['layout'] },
};
const NEXT: Record<string, string> = {
  v0: 'v1',
  v1: 'v2',
  v2: 'good',
  flat: 'flat2',
  flat2: 'good',
  spaced: '  spaced \n',
};

function scripted(overrides: Partial<ReflectionLoopOptions> = {}): ReflectionLoopOptions {
  return {
    prompt: 'Explain the speed of light',
    initialCandidate: 'v0',
    critiquer: (_p: string, c: Candidate): Critique => {
      const row = TABLE[c.content];
      if (!row) throw new Error(`unscripted ${c.content}`);
      return { issues: row.issues ?? [], ...row };
    },
    reviser: (_p: string, c: Candidate) => NEXT[c.content] ?? `${c.content}+`,
    clock: () => 0,
    ...overrides,
  };
}

/** A run without timings, for the digest. */
function summary(r: LoopResult) {
  return {
    reason: r.reason,
    converged: r.converged,
    iterations: r.iterations,
    best: { content: r.best.content, score: r.best.score ?? null },
    history: r.history.map((h) => ({
      candidate: h.candidate.content,
      score: h.candidate.score ?? null,
      severity: h.critique.severity,
      revision: h.revision?.content ?? null,
      improvement: h.improvement ?? null,
      change: h.change ?? null,
    })),
    usage: r.usage,
    error: r.error ?? null,
    stored: r.memory.stored,
  };
}

/** A deterministic LLM double that replays texts and records requests. */
function replay(texts: string[]): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const text = texts[Math.min(requests.length - 1, texts.length - 1)]!;
      return { text, usage: { inputTokens: 11, outputTokens: 4 }, latencyMs: 0, model: 'replay' };
    },
  };
}

function counter(start: number) {
  let t = start;
  return () => t++;
}

/** The reflection loop and reflexion memory: scripted components, deterministic clocks, no timings. */
export const loopCases: ConformanceCase[] = [
  {
    name: 'loop/stop reasons with scripted components',
    async run() {
      const metered = (tokens: number) => ({
        critiquer: (p: string, c: Candidate, ctx: StepContext) => {
          ctx.usage.record({ inputTokens: tokens, outputTokens: 1 });
          return (scripted().critiquer as (p: string, c: Candidate) => Critique)(p, c);
        },
      });
      const controller = new AbortController();
      const runs = {
        low_severity: await runReflectionLoop(scripted({ maxIterations: 5 })),
        score_plateau: await runReflectionLoop(scripted({ initialCandidate: 'flat' })),
        minimal_change: await runReflectionLoop(scripted({ initialCandidate: 'spaced' })),
        max_iterations: await runReflectionLoop(scripted({ maxIterations: 2 })),
        budget_exhausted: await runReflectionLoop(
          scripted({ ...metered(9), budget: { llmCalls: 2 }, maxIterations: 5 }),
        ),
        error: await runReflectionLoop(
          scripted({
            reviser: (_p, c) => {
              if (c.content === 'v1') throw new Error('reviser crashed');
              return NEXT[c.content]!;
            },
          }),
        ),
        aborted: await runReflectionLoop(
          scripted({
            critiquer: (_p, c) => {
              if (c.content === 'v1') controller.abort();
              return { issues: [], ...TABLE[c.content]! };
            },
            signal: controller.signal,
          }),
        ),
      };
      const out = Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, summary(r)]));
      for (const [expected, r] of Object.entries(runs))
        checkEqual(r.reason, expected, `reason of the ${expected} run`);
      checkEqual(runs.low_severity.iterations, 4, 'low severity after three revisions');
      checkEqual(runs.minimal_change.best.content, 'spaced', 'a whitespace-only revision is not adopted');
      checkEqual(runs.budget_exhausted.usage.llmCalls, 2, 'budget stops after two calls');
      check(
        runs.max_iterations.iterations === 2 && !runs.max_iterations.converged,
        'max iterations enforced',
      );
      return out;
    },
  },
  {
    name: 'loop/best candidate and never more than maxIterations',
    async run() {
      const scores = [0.3, 0.8, 0.5, 0.9, 0.1, 0.85];
      const out = [];
      for (let max = 1; max <= 6; max++) {
        let n = 0;
        const r = await runReflectionLoop({
          prompt: 'p',
          initialCandidate: 'c0',
          critiquer: () => ({ issues: ['x'], severity: 0.5, score: scores[n++]! }),
          reviser: (_p, c) => `${c.content}'`,
          convergenceThreshold: 0,
          maxIterations: max,
          clock: () => 0,
        });
        check(r.iterations <= max, 'iterations ≤ maxIterations');
        check(
          r.best.score === Math.max(...r.history.map((h) => h.candidate.score!)),
          'best has the best score',
        );
        out.push(summary(r));
      }
      return out;
    },
  },
  {
    name: 'loop/convergence helpers',
    run() {
      const cand = (content: string, score?: number): Candidate => ({
        content,
        metadata: {},
        ...(score === undefined ? {} : { score }),
      });
      const crit = (severity: number): Critique => ({ issues: [], severity });
      const out = {
        change: [
          contentChange('abcd', 'abXd'),
          contentChange('same text', '  same\n\ttext '),
          contentChange('abc', 'xyz'),
          contentChange('caf\u00e9', 'cafe\u0301'),
          contentChange('aaaa', 'aaaaaa'),
        ],
        improvement: [
          improvementScore({ score: 0.5 }, { score: 0.8 }),
          improvementScore({ severity: 0.7 }, { severity: 0.2 }),
          improvementScore({}, {}),
        ],
        checks: [
          checkConvergence(undefined, { candidate: cand('a'), critique: crit(0.05) }),
          checkConvergence(
            { candidate: cand('a', 0.5), critique: crit(0.5) },
            { candidate: cand('b', 0.55), critique: crit(0.4) },
          ),
          checkConvergence(undefined, {
            candidate: cand('x y'),
            critique: crit(0.5),
            revision: cand(' x   y '),
          }),
          checkConvergence(
            undefined,
            { iteration: 3, candidate: cand('a'), critique: crit(0.9) },
            { maxIterations: 3 },
          ),
        ],
      };
      checkEqual(out.change.slice(0, 3), [0.25, 0, 1], 'contentChange');
      checkEqual(out.change[3], 0, 'NFC makes composed and decomposed é equal');
      checkEqual(
        out.checks.map((c) => c.reason),
        ['low_severity', 'score_plateau', 'minimal_change', 'max_iterations'],
        'convergence reasons',
      );
      return out;
    },
  },
  {
    name: 'loop/tool critiquer',
    async run() {
      const critiquer = toolCritiquer(
        (content) => [
          ...(content.includes('SELECT') ? [] : ['not a query']),
          ...(content.includes('GROUP BY')
            ? []
            : [{ message: 'missing GROUP BY', severity: 0.6, path: 'sql' }]),
        ],
        { name: 'sql' },
      );
      const fixes: Record<string, string> = {
        '': 'SELECT country, COUNT(*) FROM users',
        'SELECT country, COUNT(*) FROM users': 'SELECT country, COUNT(*) FROM users GROUP BY country',
      };
      const r = await runReflectionLoop({
        prompt: 'Count users per country',
        initialCandidate: '',
        critiquer,
        reviser: (_p, c) => fixes[c.content]!,
        clock: () => 0,
      });
      const thrown = await toolCritiquer(() => {
        throw new Error('tests crashed');
      }).critique('p', { content: '', metadata: {} });
      checkEqual(r.reason, 'low_severity', 'tool-backed loop converges');
      return { run: summary(r), critiques: r.history.map((h) => h.critique), thrown };
    },
  },
  {
    name: 'loop/llm components never trust the reply shape',
    async run() {
      const llm = replay([
        'Looks fine to me! severity: low',
        '```json\n{"issues": [{"description": "too vague"}, "no example"], "severity": "medium", "score": 0.4}\n```',
      ]);
      const critique = await llmCritiquer({ llm }).critique('Explain DNS', {
        content: 'It resolves names.',
        metadata: {},
      });
      const bad = replay(['{"issues": "all", "severity": 3}']);
      let code = '';
      let paths: string[] = [];
      try {
        await llmCritiquer({ llm: bad }).critique('p', { content: 'a', metadata: {} });
      } catch (err) {
        code = (err as { code: string }).code;
        paths = (err as { issues: { path: string }[] }).issues.map((i) => i.path);
      }
      const reviser = replay(['{"content": "It maps names to IP addresses.", "changes": "more precise"}']);
      const revision = await llmReviser({ llm: reviser }).revise(
        'Explain DNS',
        { content: 'a', metadata: {} },
        critique,
      );
      checkEqual(critique.severity, 0.5, 'severity words are mapped');
      checkEqual(llm.requests.length, 2, 'one repair request');
      checkEqual(code, 'llm_reply_invalid', 'persistent garbage is rejected');
      return {
        critique,
        repair: llm.requests[1]!.messages.map((m) => m.role),
        repairText: llm.requests[1]!.messages[2]!.content,
        code,
        paths,
        badCalls: bad.requests.length,
        revision,
        reviserPrompt: reviser.requests[0]!.messages[0]!.content,
      };
    },
  },
  {
    name: 'memory/keywords, store, retrieve and format',
    async run() {
      const memory = new ReflexionMemory({ now: counter(1_700_000_000_000), similarityThreshold: 0.5 });
      const stored = await memory.storeMany([
        {
          prompt: 'Write a SQL query counting users per country',
          mistake: 'Forgot GROUP BY',
          correction: 'GROUP BY country',
        },
        { prompt: 'Translate this poem into French', mistake: 'Too literal', correction: 'Keep the rhyme' },
        {
          prompt: 'write the SQL query counting orders per country',
          mistake: 'Counted NULLs',
          correction: 'COUNT(id)',
        },
        { prompt: 'Café crème: 排序 users’ tests', mistake: 'm', correction: 'c' },
      ]);
      const hits = await memory.retrieveSimilar('Write SQL that counts users per country', { limit: 5 });
      const out = {
        keywords: [
          'How do I sort the Users by age?',
          'Café crème: 排序 users’ tests',
          'counting counted string',
        ].map(keywords),
        jaccard: jaccard(['a', 'b', 'c'], ['b', 'c', 'd']),
        normalized: normalizePrompt('  Sort\tUSERS  '),
        stored,
        hits,
        none: await memory.retrieveSimilar('bake bread'),
        prompt: memory.formatForPrompt(hits),
        long: formatLessons([{ prompt: 'p', mistake: 'x'.repeat(30), correction: 'a\nb' }], { maxChars: 10 }),
        count: memory.count(),
      };
      checkEqual(
        hits.map((h) => h.mistake),
        ['Forgot GROUP BY', 'Counted NULLs'],
        'similar prompts, most similar first',
      );
      return out;
    },
  },
  {
    name: 'memory/eviction, dedupe and persistence',
    async run() {
      const store = memoryStore();
      const memory = await ReflexionMemory.open({ store, maxEntries: 3, namespace: 'conf', now: counter(1) });
      for (let i = 0; i < 5; i++)
        await memory.store({ prompt: `task number ${i}`, mistake: `m${i}`, correction: `c${i}` });
      await memory.store({ prompt: 'Task  number 4', mistake: 'M4', correction: 'c4 again' });
      await store.set('reflexion:conf:entry:000000000999:bad', { v: 1, seq: -1 });
      const reopened = await ReflexionMemory.open({ store, namespace: 'conf' });
      const other = await ReflexionMemory.open({ store, namespace: 'other' });
      const keys = await store.keys('reflexion:conf:');
      await reopened.clear();
      const out = {
        entries: memory.entries(),
        reopened: reopened.lastLoad,
        reopenedEntries: (await ReflexionMemory.open({ store, namespace: 'conf' })).count(),
        keys,
        other: other.count(),
      };
      checkEqual(
        memory.entries().map((e) => e.mistake),
        ['m2', 'm3', 'M4'],
        'oldest evicted, duplicate replaced',
      );
      checkEqual(reopened.lastLoad?.loaded, 3, 'reloaded from the store');
      checkEqual(reopened.lastLoad?.skipped.length, 1, 'invalid document skipped');
      return out;
    },
  },
  {
    name: 'loop/cross-episode learning through memory',
    async run() {
      const memory = await ReflexionMemory.open({ store: memoryStore(), now: counter(100) });
      const episode = (prompt: string) =>
        runReflectionLoop(
          scripted({
            prompt,
            initialCandidate: undefined,
            generator: (_p, ctx) => ctx.memory[0]?.correction ?? 'v0',
            memory,
            maxIterations: 5,
          }),
        );
      const first = await episode('Explain the speed of light in vacuum');
      const second = await episode('explain the speed of light in a vacuum');
      checkEqual([first.iterations, second.iterations], [4, 1], 'the second episode starts from the lesson');
      return {
        first: summary(first),
        second: summary(second),
        retrieved: second.memory.retrieved,
        entries: memory.entries(),
      };
    },
  },
];
