/**
 * rearview/heuristic: turns no person wrote (summaries, command output, harness housekeeping, an agent's
 * task) are never analysed, by heuristicReflect or by observe() in the session facade.
 */
import { describe, expect, it } from 'vitest';
import { heuristicReflect, type MessageLike } from '../../lib/heuristic/index';
import { memoryStore } from '../../lib/kv/index';
import { createRearview } from '../../lib/session/index';
import { parseTranscript } from '../../lib/transcript/index';

describe('turns no person wrote (synthetic) are never analysed', () => {
  const summary =
    'This session is being continued from a previous conversation that ran out of context. Summary: the user said "no, use REST". No, that is wrong: always use REST.';

  it('heuristicReflect skips them as if absent: no insight, not the previous turn, not the reply', () => {
    const flagged: MessageLike[] = [
      { id: 'u0', role: 'user', content: 'Add a GraphQL endpoint' },
      { id: 'a0', role: 'assistant', content: 'Added it.' },
      { id: 's', role: 'user', content: summary, synthetic: 'summary' },
      { id: 'x', role: 'assistant', content: 'Tool output the harness injected.', synthetic: 'observation' },
      { id: 'u1', role: 'user', content: "No, that's wrong. Use REST." },
    ];
    const insights = heuristicReflect(flagged);
    expect(insights.map((i) => [i.category, i.traceRefs])).toEqual([
      ['correction', ['message:u1', 'message:u0', 'message:a0']],
    ]);
    expect(insights[0]!.fact).toContain('(following: Add a GraphQL endpoint)');
    // The same turns without the flag: the summary itself is read as a user correction.
    const unflagged = heuristicReflect(flagged.map(({ synthetic: _, ...m }) => m));
    expect(unflagged.some((i) => i.traceRefs[0] === 'message:s' && i.category === 'correction')).toBe(true);
    // Any truthy flag counts; a falsy one does not.
    expect(heuristicReflect([{ role: 'user', content: 'No, use REST.', synthetic: true }])).toEqual([]);
    const reply = { role: 'assistant', content: 'Done.' };
    expect(heuristicReflect([reply, { role: 'user', content: 'No, use REST.', synthetic: true }])).toEqual(
      [],
    );
    expect(
      heuristicReflect([reply, { role: 'user', content: 'No, use REST.', synthetic: false }]),
    ).toHaveLength(1);
  });

  it('from parsed transcripts: Claude Code summaries and command output, aider housekeeping, an agent task', () => {
    const reply = JSON.stringify({
      type: 'assistant',
      uuid: 'a0',
      sessionId: 's',
      message: { role: 'assistant', content: [{ type: 'text', text: 'Added a GraphQL endpoint.' }] },
    });
    const claude = [
      { uuid: 'u1', content: "No, that's wrong. Use REST." },
      { uuid: 'u2', content: summary, isCompactSummary: true },
      { uuid: 'u3', content: '<local-command-stdout>No, that failed: always retry.</local-command-stdout>' },
    ]
      .map(({ uuid, content, ...extra }) =>
        JSON.stringify({ type: 'user', uuid, sessionId: 's', message: { role: 'user', content }, ...extra }),
      )
      .join('\n');
    expect(
      heuristicReflect(parseTranscript(`${reply}\n${claude}`).messages).map((i) => i.traceRefs[0]),
    ).toEqual(['message:u1']);
    const aider =
      '# aider chat started at 2025-01-01 00:00:00\n\n#### /add wrong.py  \n\n#### /undo  \n\n#### No, revert that.  \n';
    // `/undo` is the person rejecting the last edit: a correction of its own, and context for the next turn.
    const refs = heuristicReflect(parseTranscript(aider).messages).map((i) => i.traceRefs[0]);
    expect(refs).toEqual(['message:m5', 'message:m7']);
    const mini = {
      trajectory_format: 'mini-swe-agent-1',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Always use the logger. Never use print. Stop adding debug output again!' },
        { role: 'assistant', content: 'THOUGHT: ok\n\n```bash\nls\n```' },
      ],
    };
    expect(heuristicReflect(parseTranscript(mini).messages)).toEqual([]);
    // Read as a chat, the same message is a person's turn (its preference and friction, under the
    // default threshold; the turn before any reply corrects nothing).
    expect(
      heuristicReflect(parseTranscript({ messages: mini.messages }).messages, { minScore: 0 }).length,
    ).toBeGreaterThan(0);
  });

  it('observe() in the session facade agrees with heuristicReflect across chunks', () => {
    const all: MessageLike[] = [
      { id: 'u0', role: 'user', content: 'Add a GraphQL endpoint' },
      { id: 'a0', role: 'assistant', content: 'Added it.' },
      { id: 's', role: 'user', content: summary, synthetic: 'summary' },
      { id: 'u1', role: 'user', content: "No, that's wrong. Use REST." },
    ];
    for (let cut = 1; cut < all.length; cut++) {
      const rv = createRearview({
        store: memoryStore(),
        storeOptions: { broadcast: false, onWarning: () => {} },
      });
      const got = [...rv.observe(all.slice(0, cut)).insights, ...rv.observe(all).insights];
      expect(got, `cut at ${cut}`).toEqual(heuristicReflect(all));
    }
  });
});
