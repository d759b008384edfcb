/**
 * `learn` on synthetic sessions: one rule from the same correction in three sessions, with its
 * evidence and dates; private spans and planted secrets in no output; the against file (dedup and
 * contradictions, evidence since a date); aider histories split into sessions.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/core/index';
import { opensSession } from '../../lib/heuristic/index';
import { dropPrivate, learn, toJson, toMarkdown, toUnifiedDiff } from '../../lib/learn/index';
import { splitSessions } from '../../lib/learn/session';
import type { Message } from '../../lib/transcript/index';
import { PNPM, session, three } from './learn-helpers';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

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
