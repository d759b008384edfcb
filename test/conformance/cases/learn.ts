import {
  correctionModel,
  READER_MIN_SCORE,
  READER_RECALL_MIN_SCORE,
  readerModel,
} from 'rearview/heuristic-model';
import { dropPrivate, judgeRule, learn, toJson, toMarkdown, toUnifiedDiff } from 'rearview/learn';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

/** A Claude Code session on `day`: a task, the agent's reply, then `turn`. */
function session(day: string, turn: string, failure = false): string {
  const lines: object[] = [
    {
      type: 'user',
      message: { role: 'user', content: 'Install the deps and run the tests.' },
      uuid: 'u1',
      timestamp: `${day}T10:00:00Z`,
    },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Running npm install — café ☕.' }] },
      uuid: 'a1',
      timestamp: `${day}T10:00:05Z`,
    },
    { type: 'user', message: { role: 'user', content: turn }, uuid: 'u2', timestamp: `${day}T10:01:00Z` },
  ];
  if (failure) {
    lines.push(
      {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'git push' } }],
        },
        uuid: 'c1',
        timestamp: `${day}T10:02:00Z`,
      },
      {
        type: 'user',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              is_error: true,
              content: 'fatal: The current branch feature has no upstream branch.',
            },
          ],
        },
        uuid: 'r1',
        timestamp: `${day}T10:02:01Z`,
      },
      {
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 't2',
              name: 'Bash',
              input: { command: 'git push --set-upstream origin feature' },
            },
          ],
        },
        uuid: 'c2',
        timestamp: `${day}T10:02:10Z`,
      },
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }] },
        uuid: 'r2',
        timestamp: `${day}T10:02:11Z`,
      },
    );
  }
  return lines.map((o) => JSON.stringify(o)).join('\n');
}

const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz01234567-AbCdEf';
const FIX = `No, use pnpm instead of npm. <private>the codename is bluebird</private> My key is ${KEY} ok.`;
const AGAINST = '# Agents\n\n- Use npm to install dependencies.\n- Run the linter before committing.\n';

export const learnCases: ConformanceCase[] = [
  {
    name: 'learn: sessions to rules with evidence, against-file dedup, contradictions, budget, outputs',
    async run() {
      const sources = [
        { name: 'b.jsonl', text: session('2025-02-01', FIX, true) },
        { name: 'a.jsonl', bytes: new TextEncoder().encode(session('2025-01-01', FIX, true)) },
        { name: 'c.jsonl', text: session('2025-03-01', FIX) },
        { name: 'd.jsonl', text: session('2025-03-02', 'No, always run the linter before committing.') },
        { name: 'e.jsonl', text: session('2025-03-03', 'No, always run the linter before committing.') },
        {
          name: 'f.md',
          text: 'User: write it\nAssistant: done with tabs.\nUser: No, always indent with two spaces.\n',
        },
        { name: 'LICENSE', text: 'Permission is hereby granted, free of charge' },
      ];
      const result = await learn(sources, { against: AGAINST });
      checkEqual(
        result.rules.map((r) => [r.kind, r.text, r.sessions, r.firstDate, r.lastDate]),
        [
          ['rule', 'Use pnpm instead of npm.', 3, '2025-01-01T10:01:00.000Z', '2025-03-01T10:01:00.000Z'],
          [
            'failure',
            'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.',
            2,
            '2025-01-01T10:02:01.000Z',
            '2025-02-01T10:02:01.000Z',
          ],
        ],
        'rules',
      );
      checkEqual(
        result.contradictions.map((c) => c.line),
        [3],
        'contradicted lines',
      );
      checkEqual(
        result.alreadyThere.map((a) => a.line.line),
        [4],
        'lines already there',
      );
      checkEqual(
        result.skipped.map((s) => s.code),
        ['learn_source_unrecognised'],
        'skipped',
      );
      const json = toJson(result);
      check(
        !json.includes('bluebird') && !json.includes(KEY.slice(0, 20)),
        'private span or key in the output',
      );
      const budgeted = await learn(sources, { against: AGAINST, budget: 40 });
      check(budgeted.stats.tokens <= 40 && budgeted.overBudget.length > 0, 'budget');
      return {
        json,
        markdown: toMarkdown(result),
        diff: toUnifiedDiff(result, AGAINST, 'AGENTS.md'),
        budgeted: budgeted.rules.map((r) => r.text),
        oneOffs: (await learn(sources, { minSessions: 1 })).rules.map((r) => [r.text, r.sessions, r.score]),
        judged: ['Use pnpm.', "Don't do that again.", 'Keep `x( tidy.'].map((t) => judgeRule(t) ?? null),
        dropped: dropPrivate('a <PRIVATE>b</private> c <private>d'),
      };
    },
  },
  {
    name: "learn: people's turns read by a learned scorer (the reader, the correction model)",
    async run() {
      const turns = [
        FIX,
        "No, that's wrong. Always install with pnpm in this repository.",
        'Always install with pnpm in this repository.',
        'That did not work, the build still fails. Use the lockfile next time.',
      ];
      const sources = turns.flatMap((t, i) =>
        ['2025-01-01', '2025-02-01'].map((d) => ({ name: `${i}-${d}.jsonl`, text: session(d, t) })),
      );
      const byMarkers = await learn(sources, { minSessions: 1 });
      const byReader = await learn(sources, {
        minSessions: 1,
        scorer: readerModel,
        minScore: READER_MIN_SCORE,
      });
      const byModel = await learn(sources, { minSessions: 1, scorer: correctionModel });
      const byRecall = await learn(sources, {
        minSessions: 1,
        scorer: readerModel,
        minScore: READER_RECALL_MIN_SCORE,
      });
      const rules = (r: typeof byMarkers) => r.rules.map((x) => [x.kind, x.text, x.sessions]);
      check(byReader.skipped.length === 0 && byModel.skipped.length === 0, 'every source read');
      check(JSON.stringify(rules(byReader)) !== JSON.stringify(rules(byMarkers)), 'the reader decides');
      const refused = await learn(sources, { scorer: 'reader' as never }).catch(
        (e: { code?: string }) => e.code,
      );
      checkEqual(refused, 'learn_invalid_option', 'a scorer that is not a function');
      return {
        markers: rules(byMarkers),
        reader: rules(byReader),
        readerRecall: rules(byRecall),
        correctionModel: rules(byModel),
        thresholds: [READER_MIN_SCORE, READER_RECALL_MIN_SCORE],
      };
    },
  },
];
