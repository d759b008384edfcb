/**
 * The insight → key point policy of rearview/playbook over a conversation: one key point per lesson
 * through the playbook's own dedup; the session facade proposes exactly what the policy says; the
 * playground uses the same policy (and redacts).
 */
import fc from 'fast-check';
import { heuristicReflect, type MessageLike } from 'rearview/heuristic';
import { memoryStore } from 'rearview/kv';
import {
  applyDelta,
  dedupeProposals,
  emptyPlaybook,
  findDuplicates,
  proposeKeyPoints,
  turnContexts,
} from 'rearview/playbook';
import { createRearview } from 'rearview/session';
import { describe, expect, it } from 'vitest';
import { type Turn, turnsOf } from '../../playground/src/analyze';
import { insightOperations } from '../../playground/src/playbook-store';

describe('proposeKeyPoints and dedupeProposals', () => {
  const messages: MessageLike[] = [
    { role: 'assistant', content: 'Run npm install.' },
    { role: 'user', content: 'No, use pnpm instead of npm.' },
    { role: 'assistant', content: 'npm install again.' },
    { role: 'user', content: 'No! Use pnpm instead of npm, please.' },
    { role: 'user', content: 'I already told you, use pnpm instead of npm' },
    { role: 'user', content: 'No, use ruff instead of flake8.' },
  ];

  it('keeps one key point per lesson, the first, across sections', () => {
    const proposals = proposeKeyPoints(heuristicReflect(messages), turnContexts(messages));
    expect(proposals.map((p) => [p.section, p.text, p.context])).toEqual([
      ['MISTAKES TO AVOID', 'Use pnpm instead of npm.', 'Run npm install.'],
      ['MISTAKES TO AVOID', 'Use ruff instead of flake8.', undefined],
    ]);
    const { playbook } = applyDelta(
      emptyPlaybook(),
      proposals.map((p) => ({ type: 'ADD', section: p.section, text: p.text })),
    );
    expect(findDuplicates(playbook)).toEqual([]);
  });

  it('says which proposals the playbook already has', () => {
    const { playbook } = applyDelta(emptyPlaybook(), [
      { type: 'ADD', section: 'USER PREFERENCES', text: 'Use pnpm instead of npm.' },
    ]);
    const proposals = proposeKeyPoints(heuristicReflect(messages), turnContexts(messages));
    const out = dedupeProposals(proposals, playbook);
    expect(out.repeats.map((r) => [r.proposal.text, r.of])).toEqual([
      ['Use pnpm instead of npm.', 'pref-001'],
    ]);
    expect(out.kept.map((p) => p.text)).toEqual(['Use ruff instead of flake8.']);
  });

  it('is what the session facade proposes for every conversation', () => {
    const turns = [
      'How do I run the tests?',
      'No, use vitest instead of jest.',
      'I prefer short answers.',
      "Shouldn't that be using a fixture?",
      'Thanks, that works great!',
      'Actually, please use tabs for indentation.',
      'I already told you, use pnpm not npm.',
      'No, please use vitest rather than jest',
      'ok',
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.constantFrom(...turns) }),
          { maxLength: 20 },
        ),
        fc.constantFrom('high' as const, 'medium' as const),
        (list, minConfidence) => {
          const messages: MessageLike[] = list.map((m, i) => ({ ...m, id: `m${i}` }));
          const rv = createRearview({
            store: memoryStore(),
            storeOptions: { broadcast: false },
            minConfidence,
          });
          rv.observe(messages);
          const expected = proposeKeyPoints(heuristicReflect(messages), turnContexts(messages), {
            minConfidence,
          });
          expect(rv.proposed()).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the playground uses the library policy', () => {
  it('builds its ADD operations with the policy over the view, redacted, and leaves out what teaches nothing', () => {
    const messages = [
      { id: 'z', role: 'assistant' as const, content: 'Mailing the team alias.', source: {} },
      {
        id: 'a',
        role: 'user' as const,
        content: 'No, use jane.doe@example.com instead of the team alias.',
        source: {},
      },
      { id: 'b', role: 'user' as const, content: 'I already told you, use tabs not spaces.', source: {} },
      { id: 'c', role: 'user' as const, content: 'Great, thanks!', source: {} },
    ];
    const turns: Turn[] = turnsOf({
      kind: 'transcript',
      format: 'jsonl',
      transcript: { format: 'jsonl', messages, skipped: [], ignored: 0, ignoredKinds: {} },
      trajectory: null,
      input: { objective: '', entries: [] },
      chars: 0,
    });
    const insights = heuristicReflect(messages);
    insights.push({
      fact: 'Tool `Bash` failed once with "exit code N"',
      recommendation: '`Bash` failed with "exit code N" once; no later call succeeded.',
      category: 'anti_pattern',
      confidence: 'medium',
      tags: ['tool_failure', 'tool:Bash', 'no_fix'],
      traceRefs: ['message:d'],
    });
    expect(insightOperations(insights, turns)).toEqual([
      {
        type: 'ADD',
        section: 'MISTAKES TO AVOID',
        text: 'Use [email-1] instead of the team alias.',
        source: { session: 'playground', traceRefs: ['message:a', 'message:z'] },
      },
      {
        type: 'ADD',
        section: 'MISTAKES TO AVOID',
        text: 'Use tabs not spaces.',
        source: { session: 'playground', traceRefs: ['message:b', 'message:a'] },
      },
    ]);
  });
});
