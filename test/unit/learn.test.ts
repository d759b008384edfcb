/**
 * `learn` on synthetic sessions: one rule from the same correction in three sessions, with its
 * evidence and dates; private spans and planted secrets in no output; the against file (dedup and
 * contradictions); the budget; abort; bad sources skipped and reported; the outputs (a unified diff
 * applied back, and compared with `diff -u`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/core/index';
import type { FixPart } from '../../lib/failures/index';
import { opensSession } from '../../lib/heuristic/index';
import { againstSentences, contradicts, coverIndex, stance } from '../../lib/learn/against';
import {
  dropPrivate,
  judgeFailure,
  judgeRule,
  type LearnSource,
  learn,
  toJson,
  toMarkdown,
  toUnifiedDiff,
} from '../../lib/learn/index';
import { splitSessions } from '../../lib/learn/session';
import type { Message } from '../../lib/transcript/index';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';

/** A Claude Code session on `day` whose second turn corrects the agent with `correction`. */
function session(day: string, correction: string, extra: object[] = []): string {
  return [
    {
      type: 'user',
      message: { role: 'user', content: 'Install the dependencies and run the tests.' },
      uuid: 'u1',
      timestamp: `${day}T10:00:00Z`,
    },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Running npm install now.' }] },
      uuid: 'a1',
      timestamp: `${day}T10:00:05Z`,
    },
    {
      type: 'user',
      message: { role: 'user', content: correction },
      uuid: 'u2',
      timestamp: `${day}T10:01:00Z`,
    },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'OK, switching.' }] },
      uuid: 'a2',
      timestamp: `${day}T10:01:05Z`,
    },
    ...extra,
  ]
    .map((o) => JSON.stringify(o))
    .join('\n');
}

const PNPM = 'No, use pnpm instead of npm.';
const three = (correction = PNPM): LearnSource[] => [
  { name: 'b.jsonl', text: session('2025-02-01', correction) },
  { name: 'a.jsonl', text: session('2025-01-01', correction) },
  { name: 'c.jsonl', text: session('2025-03-01', correction) },
];

describe('learn: aggregation', () => {
  it('quotes an error that holds double quotes as code, so the quotes do not run together', async () => {
    // A Bash call at `time` on day `d` and its result (an error when `error` is given).
    const call = (d: string, id: string, time: string, command: string, result: string, error = false) => [
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
        uuid: `c-${id}`,
        timestamp: `${d}T10:02:${time}Z`,
      },
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: id, content: result, ...(error ? { is_error: true } : {}) },
          ],
        },
        uuid: `r-${id}`,
        timestamp: `${d}T10:02:${time}Z`,
      },
    ];
    const day = (d: string, n: string) => [
      ...call(
        d,
        `t${n}`,
        '00',
        'git commit -m x',
        '"ruff" not found. Did you forget to activate your virtualenv?',
        true,
      ),
      ...call(d, `u${n}`, '10', 'source .venv/bin/activate && git commit -m x', 'ok'),
    ];
    const r = await learn([
      { name: 'a.jsonl', text: session('2025-01-01', 'Thanks.', day('2025-01-01', '1')) },
      { name: 'b.jsonl', text: session('2025-01-02', 'Thanks.', day('2025-01-02', '2')) },
    ]);
    const failure = r.rules.find((x) => x.kind === 'failure');
    expect(failure?.text).toMatch(
      /fails with `"…" not found\. Did you forget to activate your virtualenv\?`: /,
    );
    expect(failure?.text).not.toContain('""');
  });

  it('makes the same correction in 3 sessions one rule with 3 sessions of evidence and its dates', async () => {
    const r = await learn(three());
    expect(r.rules).toHaveLength(1);
    const [rule] = r.rules;
    expect(rule).toMatchObject({
      id: 'r1',
      kind: 'rule',
      text: 'Use pnpm instead of npm.',
      sessions: 3,
      count: 3,
    });
    expect(rule!.firstDate).toBe('2025-01-01T10:01:00.000Z');
    expect(rule!.lastDate).toBe('2025-03-01T10:01:00.000Z');
    expect(rule!.evidence.map((e) => [e.session, e.message, e.line])).toEqual([
      ['a.jsonl', 'u2', 3],
      ['b.jsonl', 'u2', 3],
      ['c.jsonl', 'u2', 3],
    ]);
    expect(r.stats).toMatchObject({ files: 3, sessions: 3, humanTurns: 6 });
    expect(r.skipped).toEqual([]);
  });

  it('drops one-offs by default, lists them, and keeps them with minSessions 1', async () => {
    const one = [{ name: 'a.jsonl', text: session('2025-01-01', PNPM) }];
    const strict = await learn(one);
    expect(strict.rules).toEqual([]);
    expect(strict.oneOffCount).toBe(1);
    expect(strict.oneOffs[0]!.text).toBe('Use pnpm instead of npm.');
    const loose = await learn(one, { minSessions: 1 });
    expect(loose.rules.map((x) => x.text)).toEqual(['Use pnpm instead of npm.']);
  });

  it('counts what the key-point judge refused, by reason, and proposes none of it', async () => {
    const r = await learn(three('No, use whatever test runner you like from now on.'), {
      minSessions: 1,
    });
    expect(r.rules).toEqual([]);
    expect(r.filtered).toMatchObject({ vague: 3 });
    // A one-off or a turn with no instruction is no candidate at all: not counted as refused.
    const plain = await learn(three('No, not like that.'), { minSessions: 1 });
    expect(plain.rules).toEqual([]);
    expect(Object.keys(plain.filtered)).toEqual([]);
  });

  it('merges wordings of one instruction and a longer instruction into the shorter one it contains', async () => {
    const r = await learn([
      { name: 'a.jsonl', text: session('2025-01-01', 'No, use pnpm instead of npm!') },
      { name: 'b.jsonl', text: session('2025-01-02', 'no, Use pnpm instead of npm') },
      { name: 'c.jsonl', text: session('2025-01-03', 'No. Never add new features.') },
      {
        name: 'd.jsonl',
        text: session('2025-01-04', 'No. Never add new features, only polish the existing UI.'),
      },
    ]);
    const texts = r.rules.map((x) => [x.text, x.sessions]);
    expect(texts).toContainEqual(['Use pnpm instead of npm.', 2]);
    expect(texts).toContainEqual(['Never add new features.', 2]);
  });

  it('never merges a rule with its negation', async () => {
    const r = await learn(
      [
        { name: 'a.jsonl', text: session('2025-01-01', 'No, always use the staging database for tests.') },
        { name: 'b.jsonl', text: session('2025-01-02', 'No, never use the staging database for tests.') },
      ],
      { minSessions: 1 },
    );
    expect(r.rules).toHaveLength(2);
  });

  it('ranks by evidence, then recency', async () => {
    const r = await learn([
      ...three(),
      { name: 'd.jsonl', text: session('2024-01-01', 'No, always run the linter before committing.') },
      { name: 'e.jsonl', text: session('2024-01-02', 'No, always run the linter before committing.') },
    ]);
    expect(r.rules.map((x) => x.text)).toEqual([
      'Use pnpm instead of npm.',
      'Always run the linter before committing.',
    ]);
    expect(r.rules[0]!.score).toBeGreaterThan(r.rules[1]!.score);
  });
});

describe('learn: privacy', () => {
  const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz01234567-AbCdEf';
  const SECRET = 'hunter2-bluebird-codename';

  it('keeps <private> spans and planted keys out of every output', async () => {
    const text = `No, use pnpm instead of npm. <private>${SECRET} is the codename</private> My key is ${KEY} by the way.`;
    const sources = three(text).map((s, i) => ({ ...s, name: i === 0 ? `keys/${KEY}.jsonl` : s.name }));
    const r = await learn(sources, { minSessions: 1 });
    expect(r.rules.length).toBeGreaterThan(0);
    const outputs = [
      toJson(r),
      toMarkdown(r),
      toUnifiedDiff(r, '# Agents\n', 'AGENTS.md'),
      JSON.stringify(r),
    ];
    for (const out of outputs) {
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain('codename');
      expect(out).not.toContain(KEY.slice(0, 24));
    }
    expect(toJson(r)).toContain('[anthropic-key-1]');
  });

  it('drops private spans before parsing, an unclosed one to the end', () => {
    expect(dropPrivate('a <private>b</private> c')).toBe('a  c');
    expect(dropPrivate('a <PRIVATE>b</Private> c <private>d')).toBe('a  c ');
    expect(dropPrivate('a </private> b')).toBe('a </private> b');
  });

  it('drops private spans in linear time (growth ratio on adversarial input)', () => {
    const k = (n: number) => Math.ceil(n / 23);
    const g = measureGrowth(
      (text: string) => dropPrivate(text),
      (n) => '<private>'.repeat(k(n)) + '</private'.repeat(k(n)) + '<priv'.repeat(k(n)),
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('learn: against an existing file', () => {
  it('never proposes what the file says and reports the lines the evidence contradicts', async () => {
    const against = '# Agents\n\n- Use npm to install dependencies.\n- Run the linter before committing.\n';
    const r = await learn(
      [
        ...three(),
        { name: 'd.jsonl', text: session('2025-01-05', 'No, always run the linter before committing.') },
        { name: 'e.jsonl', text: session('2025-01-06', 'No, always run the linter before committing.') },
      ],
      { against },
    );
    expect(r.rules.map((x) => x.text)).toEqual(['Use pnpm instead of npm.']);
    // With the sessions that said it again: after the line was written, the agent did not follow it.
    expect(r.alreadyThere).toMatchObject([
      {
        rule: 'Always run the linter before committing.',
        line: { line: 4, text: '- Run the linter before committing.' },
        sessions: 2,
        count: 2,
        firstDate: '2025-01-05T10:01:00.000Z',
        lastDate: '2025-01-06T10:01:00.000Z',
      },
    ]);
    expect(r.alreadyThere[0]!.evidence.map((e) => [e.session, e.message])).toEqual([
      ['d.jsonl', 'u2'],
      ['e.jsonl', 'u2'],
    ]);
    expect(r.contradictions).toEqual([
      {
        line: 3,
        text: '- Use npm to install dependencies.',
        rule: 'Use pnpm instead of npm.',
        sessions: 3,
        firstDate: r.rules[0]!.firstDate,
        lastDate: r.rules[0]!.lastDate,
      },
    ]);
    expect(r.contradictions[0]!.lastDate).toBe('2025-03-01T10:01:00.000Z');
    expect(r.rules[0]!.contradicts).toEqual([{ line: 3, text: '- Use npm to install dependencies.' }]);
  });

  it('counts only evidence since a date, and says how much it left out', async () => {
    // three(): sessions of 2025-01-01, 02-01 and 03-01; since February, two remain.
    for (const since of ['2025-02-01', new Date('2025-02-01T00:00:00Z'), Date.parse('2025-02-01')]) {
      const r = await learn(three(), { since });
      expect(r.rules.map((x) => [x.text, x.sessions, x.firstDate?.slice(0, 10)])).toEqual([
        ['Use pnpm instead of npm.', 2, '2025-02-01'],
      ]);
      expect(r.filtered['before since']).toBe(1);
    }
    const late = await learn(three(), { since: '2025-03-01T12:00:00Z' });
    expect(late.rules).toEqual([]);
    expect(late.filtered['before since']).toBe(3);
    // Not a date: a typed error, before anything is read.
    // A day is UTC midnight, a time needs its offset: the same call means the same day in every runtime.
    expect((await learn(three(), { since: '2025-02-01T11:00:00+01:00' })).rules[0]!.sessions).toBe(2);
    for (const since of [
      'last tuesday',
      'March 1, 2025',
      '2025-02-30',
      '2025-02-01T10:00',
      Number.NaN,
      new Date('x'),
    ]) {
      const err = await learn(three(), { since }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).code).toBe('learn_invalid_option');
      expect((err as ValidationError).issues[0]!.path).toBe('since');
    }
  });

  it('reports a file line that rejects what the sessions ask for', async () => {
    const r = await learn(three('No, always use yarn for installs.'), { against: '- Never use yarn.\n' });
    expect(r.contradictions.map((c) => c.line)).toEqual([1]);
  });
});

describe('learn: budget, abort, bad sources, progress', () => {
  const many = (): LearnSource[] => {
    const rules = [
      'use pnpm instead of npm',
      'always run the linter before committing',
      'always keep functions under fifty lines',
    ];
    const out: LearnSource[] = [];
    for (const [i, r] of rules.entries()) {
      for (let s = 0; s < 3 - i + 1; s++)
        out.push({ name: `${i}-${s}.jsonl`, text: session(`2025-01-0${s + 1}`, `No, ${r}.`) });
    }
    return out;
  };

  it('fits the token budget, keeping the best ranked rules', async () => {
    const all = await learn(many());
    expect(all.rules).toHaveLength(3);
    const tight = await learn(many(), { budget: all.stats.tokens - 5 });
    expect(tight.rules.length).toBeLessThan(3);
    expect(tight.stats.tokens).toBeLessThanOrEqual(all.stats.tokens - 5);
    expect(tight.rules[0]!.text).toBe(all.rules[0]!.text);
    expect([...tight.rules, ...tight.overBudget].map((x) => x.text).sort()).toEqual(
      all.rules.map((x) => x.text).sort(),
    );
  });

  it('stops when the signal fires and returns what was read', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const r = await learn(many(), {
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p.files);
        if (p.files === 2) controller.abort();
      },
    });
    expect(r.aborted).toBe(true);
    expect(r.stats.files).toBe(2);
    expect(seen.slice(0, 2)).toEqual([1, 2]);
  });

  it('reports bad sources with typed codes and locations, and learns from the others', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode('{"type":');
      throw new Error('disk went away');
    }
    const r = await learn(
      [
        ...three(),
        { name: 'empty.md', text: '   ' },
        { name: 'LICENSE', text: 'Permission is hereby granted, free of charge, to any person' },
        { name: 'broken.jsonl', stream: failing() },
        { name: 'nothing' } as LearnSource,
        { name: 'huge.jsonl', text: 'x'.repeat(2000) },
      ],
      { maxSourceBytes: 1000 },
    );
    expect(r.rules.map((x) => x.sessions)).toEqual([3]);
    expect(r.skipped.map((s) => [s.name, s.code])).toEqual([
      ['empty.md', 'learn_source_invalid'],
      ['LICENSE', 'learn_source_unrecognised'],
      ['broken.jsonl', 'learn_source_unreadable'],
      ['nothing', 'learn_source_invalid'],
      ['huge.jsonl', 'learn_source_too_large'],
    ]);
    for (const s of r.skipped) expect(s.reason.length).toBeGreaterThan(0);
  });

  it('reads bytes, ReadableStreams and async iterables of sources, and reports progress', async () => {
    const [a, b, c] = three().map((s) => s.text!);
    async function* sources(): AsyncGenerator<LearnSource> {
      yield { name: 'a', bytes: new TextEncoder().encode(a) };
      yield { name: 'b', stream: new Blob([b!]).stream() };
      yield { name: 'c', text: c! };
    }
    const progress: { files: number; sessions: number; rules: number }[] = [];
    const r = await learn(sources(), { onProgress: (p) => progress.push(p) });
    expect(r.rules[0]!.sessions).toBe(3);
    expect(r.stats.bytes).toBe(new TextEncoder().encode(a! + b! + c!).length);
    expect(progress.at(-1)).toMatchObject({ files: 3, sessions: 3, rules: 1 });
  });

  it('asks a given model once, after showing the estimated cost, and reports the actual cost', async () => {
    const calls: string[] = [];
    const r = await learn(three(), {
      llm: {
        async complete(req) {
          calls.push(req.messages[0]!.content);
          return {
            text: '[{"id":"r1","text":"Use pnpm, never npm."}]',
            usage: { inputTokens: 120, outputTokens: 20 },
          };
        },
      },
      confirmLlm: (cost) => cost.estimatedInputTokens > 0,
    });
    expect(calls).toHaveLength(1);
    expect(r.llm).toMatchObject({ inputTokens: 120, outputTokens: 20 });
    expect(r.llm!.estimatedInputTokens).toBeGreaterThan(0);
    expect(r.rules[0]!.text).toBe('Use pnpm, never npm.');
    const declined = await learn(three(), {
      llm: { complete: () => Promise.reject(new Error('called')) },
      confirmLlm: () => false,
    });
    expect(declined.llm?.skipped).toBe('declined');
  });

  it("judges the model's rewrites as it judges every rule: a refused one keeps the rule's own text", async () => {
    const reply = (text: string) => ({
      llm: { complete: async () => ({ text, usage: { inputTokens: 1, outputTokens: 1 } }) },
    });
    const own = (await learn(three())).rules[0]!.text;
    const garbled = await learn(three(), reply('[{"id":"r1","text":"Use `pnpm( never."}]'));
    expect(garbled.rules[0]!.text).toBe(own);
    expect(garbled.llm).toMatchObject({ rewritten: 0, dropped: 0, refused: 1 });
    const vague = await learn(three(), reply('[{"id":"r1","text":"Don\'t do that again."}]'));
    expect(vague.rules[0]!.text).toBe(own);
    expect(vague.llm?.refused).toBe(1);
    const dropped = await learn(three(), reply('[{"id":"r1","text":null}]'));
    expect(dropped.rules).toHaveLength(0);
    expect(dropped.llm).toMatchObject({ rewritten: 0, dropped: 1, refused: 0 });
    expect(dropped.filtered['model: not a standing rule']).toBe(1);
    // Not JSON at all: nothing changes, nothing throws.
    const prose = await learn(three(), reply('Sure! Here are the rules you asked for.'));
    expect(prose.rules[0]!.text).toBe(own);
    expect(prose.llm).toMatchObject({ rewritten: 0, dropped: 0, refused: 0 });
  });
});

describe('learn: quality rules', () => {
  it('keeps self-contained instructions and names why others are left out', () => {
    expect(judgeRule('Use pnpm instead of npm.')).toBeUndefined();
    expect(judgeRule("Apply the user's correction.")).toBe('template');
    expect(judgeRule("Don't do that again.")).toBe('not self-contained');
    expect(judgeRule('Do the following without changing the layout.')).toBe('not self-contained');
    // A SpecStory user's request: "this approach" is the one on the session's screen.
    expect(
      judgeRule('Ask me clarifying questions about this approach in order to create an implementation plan.'),
    ).toBe('not self-contained');
    expect(judgeRule('Always keep that plan in mind.')).toBe('not self-contained');
    expect(judgeRule('Use We are also learning together, not rush to solutions.')).toBe('garbled');
    expect(judgeRule('Show only the diff for app/connection-test/page.tsx.')).toBe('task-bound');
    // A Claude Code user's first turn: one app to build, not a rule.
    expect(
      judgeRule(
        'Build a small Rails app that reproduces a specific donation page, up to (but not including) payment.',
      ),
    ).toBe('task-bound');
    expect(judgeRule('Create a new database and storage bucket for local testing.')).toBe('task-bound');
    expect(judgeRule('Create a branch for each feature.')).toBeUndefined();
    expect(judgeRule('Build a real backend structure, not a demo or pseudo-code skeleton.')).toBeUndefined();
    expect(judgeRule('Never commit [api-key-1] to git.')).toBe('secret');
    expect(judgeRule('Use `foo( bar.')).toBe('garbled');
    // A free choice granted is nothing to follow; a rule that only says "whatever" elsewhere stays.
    expect(judgeRule('Use whatever test runner you normally use.')).toBe('vague');
    expect(judgeRule('Do not add payments; pick any library you like for the rest.')).toBe('vague');
    expect(judgeRule('Feel free to rename the helpers.')).toBe('vague');
    expect(judgeRule('Whatever you change, never push to main.')).toBeUndefined();
    expect(judgeRule('Never use any library you like without asking first.')).toBeUndefined();
    // A manner or a verb with nothing to check is vague; with an object it is a rule.
    expect(judgeRule('Be very detail focused.')).toBe('vague');
    expect(judgeRule('Always be very thorough!')).toBe('vague');
    expect(judgeRule('Do NOT skip anything.')).toBe('vague');
    expect(judgeRule("Don't change anything else.")).toBe('vague');
    expect(judgeRule('Be careful with the production database.')).toBeUndefined();
    expect(judgeRule('Do not skip the migration tests.')).toBeUndefined();
    expect(judgeRule('Check everything the linter reports before committing.')).toBeUndefined();
  });
});

/** Applies a unified diff of one file: the test's own applier, so the diff is checked for what it does. */
function applyPatch(text: string, diff: string): string {
  const lines = text === '' ? [] : text.split('\n');
  const hasFinal = text.endsWith('\n');
  if (hasFinal) lines.pop();
  const patch = diff.split('\n');
  const out: string[] = [];
  let at = 0;
  let finalNewline = hasFinal;
  for (let i = 2; i < patch.length; i++) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(patch[i]!);
    if (!h) continue;
    const start = Number(h[2] ?? 1) === 0 ? Number(h[1]) : Number(h[1]) - 1;
    while (at < start) out.push(lines[at++]!);
    for (i++; i < patch.length && !patch[i]!.startsWith('@@'); i++) {
      const l = patch[i]!;
      const next = patch[i + 1];
      if (l.startsWith(' ')) {
        expect(lines[at]).toBe(l.slice(1));
        out.push(lines[at++]!);
      } else if (l.startsWith('-')) {
        expect(lines[at]).toBe(l.slice(1));
        at++;
      } else if (l.startsWith('+')) {
        out.push(l.slice(1));
        finalNewline = next !== '\\ No newline at end of file';
      }
    }
    i--;
  }
  while (at < lines.length) out.push(lines[at++]!);
  return out.join('\n') + (finalNewline && out.length ? '\n' : '');
}

describe('learn: outputs', () => {
  it('writes a markdown section and JSON with the evidence and dates', async () => {
    const r = await learn(three());
    expect(toMarkdown(r)).toBe(
      '## Learned from sessions\n\n### Corrections\n\n- Use pnpm instead of npm. _(3 sessions, 2025-01-01 – 2025-03-01)_\n',
    );
    const json = JSON.parse(toJson(r));
    expect(json.rules[0].evidence[0]).toMatchObject({
      session: 'a.jsonl',
      message: 'u2',
      line: 3,
      date: '2025-01-01T10:01:00.000Z',
    });
    expect(toMarkdown({ rules: [] })).toBe('');
    expect(toUnifiedDiff({ rules: [] }, 'x\n', 'AGENTS.md')).toBe('');
  });

  it('writes unified diffs that apply back to the file with the rules added', async () => {
    const r = await learn(three());
    const section = toMarkdown(r);
    const files = [
      '',
      '# Agents\n',
      '# Agents\n\n- Keep it short.',
      `# Agents\n\n${'- line\n'.repeat(10)}`,
      '# Agents\n\n## Learned from sessions\n\n### Corrections\n\n- Old rule. _(2 sessions)_\n\n## Other\n\n- Keep.\n',
    ];
    for (const before of files) {
      const diff = toUnifiedDiff(r, before, 'AGENTS.md');
      expect(diff.startsWith('--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ ')).toBe(true);
      const after = applyPatch(before, diff);
      if (before.includes('## Learned from sessions')) {
        // Under the section's own sub-heading, not a second one.
        const line = '- Use pnpm instead of npm. _(3 sessions, 2025-01-01 – 2025-03-01)_\n';
        expect(after).toContain(`- Old rule. _(2 sessions)_\n${line}`);
        expect(after.split('### Corrections')).toHaveLength(2);
        expect(after.replace(line, '')).toBe(before);
      } else {
        expect(after.endsWith(section)).toBe(true);
        expect(after.startsWith(before.replace(/\n?$/, ''))).toBe(true);
      }
    }
  });

  it('adds a kind the learned section has no sub-heading for under a new one, at the section end', async () => {
    const r = await learn([
      ...three(),
      ...three('No, always run the linter before committing.').map((s) => ({ ...s, name: `lint-${s.name}` })),
    ]);
    const before = '## Learned from sessions\n\n### Preferences\n\n- Old. _(2 sessions)_\n\n## Other\n';
    const after = applyPatch(before, toUnifiedDiff(r, before, 'AGENTS.md'));
    expect(after).toBe(
      '## Learned from sessions\n\n### Preferences\n\n- Old. _(2 sessions)_\n\n### Corrections\n\n' +
        `${r.rules.map((x) => `- ${x.text} _(3 sessions, 2025-01-01 – 2025-03-01)_\n`).join('')}\n## Other\n`,
    );
  });

  it('agrees with diff -u on the hunks', async (ctx) => {
    let hasDiff = true;
    try {
      execFileSync('diff', ['--version']);
    } catch {
      hasDiff = false;
    }
    if (!hasDiff) ctx.skip();
    const r = await learn(three());
    const dir = mkdtempSync(join(tmpdir(), 'learn-diff-'));
    for (const before of ['# Agents\n', '# Agents\n\n- Keep it short.', `# A\n\n${'- line\n'.repeat(10)}`]) {
      const ours = toUnifiedDiff(r, before, 'AGENTS.md');
      const after = applyPatch(before, ours);
      writeFileSync(join(dir, 'a'), before);
      writeFileSync(join(dir, 'b'), after);
      let theirs = '';
      try {
        execFileSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
      } catch (err) {
        theirs = (err as { stdout: string }).stdout;
      }
      const hunks = (d: string) => d.slice(d.indexOf('@@'));
      expect(hunks(ours)).toBe(hunks(theirs));
    }
  });
});

describe('learn: failure quality rules', () => {
  it('keeps a fix that generalises and names why others are left out', async () => {
    const { judgeFailure } = await import('../../lib/learn/index');
    expect(
      judgeFailure('(eval):N: command not found: pytest', 'first run `source .venv/bin/activate`'),
    ).toBeUndefined();
    expect(judgeFailure('ruff......................Failed', 'drop `--fix`')).toBe(
      'failure: unreadable error',
    );
    expect(judgeFailure('Error', 'drop `--fix`')).toBe('failure: unreadable error');
    expect(judgeFailure('tests/a.py::test_b FAILED', 'add `-q`')).toBe('failure: a test report');
    // The runner could not read the call (Antigravity, mini-swe-agent, Cursor): no rule in what changed.
    for (const cls of [
      'Error invalid tool call: There was a problem parsing the tool call.',
      'Please always provide EXACTLY ONE action in triple backticks, found N actions.',
      'Model provided invalid arguments to find/replace tool.',
    ])
      expect(judgeFailure(cls, 'drop `ArtifactMetadata`')).toBe('failure: a malformed call');
    expect(judgeFailure('No such option: -p', 'change `5` to `10`')).toBe('failure: a one-off argument');
    expect(judgeFailure('No such option: -p', 'add `--help`')).toBe('failure: a one-off argument');
    expect(judgeFailure('No such option: -p', 'first run `cd /Users/me/app`')).toBe(
      'failure: a one-off argument',
    );
    // errorClass's names for outputs with no error line, and npm's script banner, are no message.
    expect(judgeFailure('no output', 'drop `-i`')).toBe('failure: unreadable error');
    expect(judgeFailure('exit code N', 'drop `-i`')).toBe('failure: unreadable error');
    // A runner's exit-code notice: mini-swe-agent's "Command exited with code 1", Antigravity's
    // "The command failed with exit code: 1", as errorClass names them.
    expect(judgeFailure('Command <name> with code N', 'drop `-R`')).toBe('failure: unreadable error');
    expect(judgeFailure('The command <name> with exit code: N', 'drop `-R`')).toBe(
      'failure: unreadable error',
    );
    expect(judgeFailure('> app@N lint', 'drop `-i`')).toBe('failure: unreadable error');
    // An edit retried with other content: a value changed, whatever keys came and went.
    expect(judgeFailure('String to replace not found in file.', 'drop `Meta`, change `Content`')).toBe(
      'failure: a one-off argument',
    );
    expect(
      judgeFailure('npm error code ENOTFOUND', 'pass `with_escalated_permissions`/`justification`'),
    ).toBe('failure: a permission prompt');
    expect(judgeFailure('No such option: -p', undefined as unknown as string)).toBe(
      'failure: a one-off argument',
    );
    // A call that worked by running another argument is no lesson about the failure.
    expect(judgeFailure('Command timed out after 2m', 'add the argument `pipx`')).toBe(
      'failure: a one-off argument',
    );
  });

  it('judges a structured fix by its parts, as it judges the same fix by its words', async () => {
    const { judgeFailure } = await import('../../lib/learn/index');
    const { fixText } = await import('../../lib/failures/index');
    const cls = 'No such option: -p';
    const cases: [FixPart[], string | undefined][] = [
      [[{ kind: 'setup', values: ['source .venv/bin/activate'] }], undefined],
      [[{ kind: 'add-flag', values: ['--set-upstream'] }], undefined],
      [[{ kind: 'other-tool', values: ['Grep'] }], undefined],
      [[{ kind: 'pass', values: ['offset', 'limit'] }], undefined],
      [[{ kind: 'change-argument', values: ['5', '10'] }], 'failure: a one-off argument'],
      [[{ kind: 'add-argument', values: ['pipx'] }], 'failure: a one-off argument'],
      [[{ kind: 'drop-argument', values: ['pipx'] }], 'failure: a one-off argument'],
      [[{ kind: 'reorder', values: [] }], 'failure: a one-off argument'],
      [[{ kind: 'other-input', values: [] }], 'failure: a one-off argument'],
      [[{ kind: 'setup', values: ['cd app'] }], 'failure: a one-off argument'],
      [[{ kind: 'add-flag', values: ['--help'] }], 'failure: a one-off argument'],
      [[{ kind: 'pass', values: ['/Users/me/app'] }], 'failure: a one-off argument'],
      [
        [
          { kind: 'drop', values: ['Meta'] },
          { kind: 'change', values: ['Content'] },
        ],
        'failure: a one-off argument',
      ],
      [[{ kind: 'pass', values: ['with_escalated_permissions'] }], 'failure: a permission prompt'],
      [[{ kind: 'add-flag', values: ['--no-gpg-sign'] }], 'failure: a check turned off'],
      [[{ kind: 'add-flag', values: ['--quiet', '--no-verify'] }], 'failure: a check turned off'],
      [[{ kind: 'add-flag', values: ['--insecure'] }], 'failure: a check turned off'],
      [[{ kind: 'add-flag', values: ['--break-system-packages'] }], 'failure: a check turned off'],
      [[{ kind: 'setup', values: ['export NODE_TLS_REJECT_UNAUTHORIZED=0'] }], 'failure: a check turned off'],
      [[{ kind: 'setup', values: ['git config commit.gpgsign false'] }], 'failure: a check turned off'],
      [[], 'failure: a one-off argument'],
    ];
    for (const [parts, why] of cases) {
      expect(judgeFailure(cls, { parts }), JSON.stringify(parts)).toBe(why);
      // The words alone give the same verdict (for an empty fix: no words, nothing to keep).
      if (parts.length) expect(judgeFailure(cls, fixText(parts)), fixText(parts)).toBe(why);
    }
    // The error is judged first, whatever the fix.
    expect(judgeFailure('Error', { parts: [{ kind: 'add-flag', values: ['-q'] }] })).toBe(
      'failure: unreadable error',
    );
    expect(judgeFailure(cls, { parts: 'x' } as unknown as { parts: FixPart[] })).toBe(
      'failure: a one-off argument',
    );
  });

  it('reads back any fix fixText writes to the verdict its parts get (property)', async () => {
    // partsOfText (quality.ts) mirrors partText (lib/failures/change.ts): this holds the two together,
    // for every kind, several values and several parts, whatever a later change to either.
    const { judgeFailure } = await import('../../lib/learn/index');
    const { fixText } = await import('../../lib/failures/index');
    const value = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_./-][A-Za-z0-9_. /=-]{0,14}$/),
      fc.constantFrom(
        '--help',
        'cd app',
        'with_escalated_permissions',
        '/Users/me/app',
        'source .venv/bin/activate',
      ),
    );
    const part: fc.Arbitrary<FixPart> = fc.oneof(
      fc.record({
        kind: fc.constantFrom('pass', 'drop', 'change', 'add-flag', 'drop-flag'),
        values: fc.array(value, { minLength: 1, maxLength: 3 }),
      }),
      fc.record({
        kind: fc.constantFrom('setup', 'add-argument', 'drop-argument', 'other-tool'),
        values: fc.tuple(value),
      }),
      fc.record({ kind: fc.constantFrom('program', 'change-argument'), values: fc.tuple(value, value) }),
      fc.record({ kind: fc.constantFrom('reorder', 'other-input'), values: fc.constant([]) }),
    ) as fc.Arbitrary<FixPart>;
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
        const cls = 'No such option: -p';
        expect(judgeFailure(cls, fixText(parts)), fixText(parts)).toBe(judgeFailure(cls, { parts }));
      }),
      { numRuns: 300 },
    );
  });

  it('undoes markdown escapes and drops requests of one conversation', () => {
    expect(judgeRule('Prefer to talk about a different encounter.')).toBe('task-bound');
    expect(judgeRule('Do NOT use a global transaction; use the monitor_orgs table.".')).toBe('garbled');
    expect(judgeRule('Give that to me again, but shorter.')).toBe('not self-contained');
  });
});

describe('learn: linear scanners', () => {
  const RULES = ['Use pnpm instead of npm in this repository.', 'Never push to main without a review.'];

  it('reads an adversarial against file in linear time', () => {
    const hostile = (n: number) => {
      const k = Math.ceil(n / 16);
      return `${'- use '.repeat(k)}${'a'.repeat(k)}\n- Never use ${'x-'.repeat(k)}\n${'`'.repeat(k)}\n- ${'(('.repeat(k)}\n`;
    };
    // What a run does with the file: its sentences, the cover lookup and the contradiction test per rule.
    const read = (text: string) => {
      const sentences = againstSentences(text);
      const cover = coverIndex(sentences);
      for (const rule of RULES) {
        cover(rule);
        for (const s of sentences) contradicts(rule, s.sentence);
      }
    };
    const g = measureGrowth(read, hostile, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  // One long line each: the comments, the evidence note and the spaces before it are cut in one pass
  // (the regexes read to the end from each unclosed `<!--`, each `_(` and each space of a run: 2.8 s,
  // 4.4 s and 6.9 s on 80-160 KB).
  it.each([
    ['unclosed comments', (n: number) => fill(n, '<!--', '- use a ')],
    ['notes never closed', (n: number) => fill(n, '_(', '- use a ', ')_x')],
    ['spaces, then a word', (n: number) => fill(n, ' ', '- use ', 'x')],
    ['comments across a line break', (n: number) => fill(n, '<!-- a\r', '- use a ', '-->')],
  ])('reads an against line in linear time: %s', (_name, make) => {
    expect(againstSentences(make(200)).length).toBeGreaterThan(0);
    const g = measureGrowth(againstSentences, make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('reads a rejected term ending in a long run of dots in linear time', () => {
    const text = (n: number) => fill(n, '.', 'avoid a', 'x');
    expect(stance(text(200)).rejects).toHaveLength(1);
    const g = measureGrowth(stance, text, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  // Balanced quotes and mostly letters at every size (else 'garbled' at once), so each check runs.
  it.each([
    ['words and a dashed run', (k: number) => `Use ${'a '.repeat(k)}instead of \`${'bb-'.repeat(k)}\``],
    ['a name, a slash and no extension', (k: number) => `Keep ${'bb.'.repeat(k)}/${'cc-'.repeat(k)} here`],
    ['many slashes and no extension', (k: number) => `Keep ${'aa/'.repeat(2 * k)} tidy`],
  ])('judges an adversarial rule in linear time: %s', (_name, unit) => {
    const rule = (n: number) => unit(Math.ceil(n / 7));
    expect(judgeRule(rule(700))).not.toBe('garbled');
    const g = measureGrowth((text: string) => judgeRule(text), rule, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('judges an adversarial failure fix in linear time', () => {
    const change = (n: number) => `run \`${'b-'.repeat(Math.ceil(n / 2))}\` first`;
    const g = measureGrowth(
      (text: string) => judgeFailure('command not found: pytest', text),
      change,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it.each([
    // Every part read back and judged: keys passed, flags dropped (no verdict); words that are not
    // fixText's, an unclosed span (no lesson one can vouch for).
    [
      'one part with many keys',
      (n: number) => `pass ${Array.from({ length: Math.ceil(n / 5) }, () => '`ab`').join('/')}`,
      undefined,
    ],
    [
      'many parts',
      (n: number) => Array.from({ length: Math.ceil(n / 12) }, () => 'drop `--xy`').join(', '),
      undefined,
    ],
    [
      'a long unclosed span',
      (n: number) => `pass \`${'a`/'.repeat(Math.ceil(n / 3))}`,
      'failure: a one-off argument',
    ],
  ] as const)("reads a fix's words back into parts in linear time: %s", (_name, make, verdict) => {
    expect(judgeFailure('command not found: pytest', make(120))).toBe(verdict);
    const g = measureGrowth(
      (text: string) => judgeFailure('command not found: pytest', text),
      make,
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('still learns from the sessions when an against file is given', async () => {
    expect((await learn(three(), { against: '- use a\n' })).rules).toHaveLength(1);
  });
});

describe('splitSessions', () => {
  const header = (at: string): Message => ({
    id: at,
    role: 'system',
    content: `aider chat started at ${at}`,
    source: {},
  });
  const turn = (id: string, role: Message['role'], content: string): Message => ({
    id,
    role,
    content,
    source: {},
  });

  it("splits an aider history where heuristicReflect's opensSession does, and nowhere else", () => {
    const messages = [
      header('2025-01-02 10:00:00'),
      turn('u1', 'user', 'fix the test'),
      turn('a1', 'assistant', 'Done.'),
      // A system message that opens no session (no parser emits one today) must not cut the chat.
      turn('s1', 'system', 'Repo-map can not be computed'),
      turn('u2', 'user', 'no, use pnpm'),
      header('2025-01-03 09:00:00'),
      turn('u3', 'user', 'add a flag'),
    ];
    const sessions = splitSessions('h.md', 'aider', messages);
    expect(sessions.map((s) => s.name)).toEqual(['h.md#1', 'h.md#2']);
    expect(sessions.map((s) => s.messages.map((m) => m.id))).toEqual([
      ['2025-01-02 10:00:00', 'u1', 'a1', 's1', 'u2'],
      ['2025-01-03 09:00:00', 'u3'],
    ]);
    for (const s of sessions) expect(opensSession(s.messages[0]!, s.messages[0]!.content)).toBe(true);
    // Other formats are one session per source, whatever their system messages say.
    expect(splitSessions('x.jsonl', 'claude-code', messages)).toHaveLength(1);
  });
});
