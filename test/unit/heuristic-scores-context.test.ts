/**
 * The context signals of a turn's score: a turn no reply has answered, interrupted or rejected tool
 * calls (every notice of rearview/core's `declinedCall`), aider's `/undo`, repeated requests, and
 * custom references.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declinedCall } from '../../lib/core/index';
import {
  DEFAULT_ESCALATION_BAND,
  DEFAULT_MIN_SCORE,
  heuristicReflect,
  type MessageLike,
} from '../../lib/heuristic/index';
import { repeatFinder, reportsInterrupt } from '../../lib/heuristic/score';
import { parseTranscript } from '../../lib/transcript/index';
import { DECLINED_NOTICES } from '../heuristic/notices';
import { reply, user } from './heuristic-scores-helpers';

describe('context signals', () => {
  it('a turn no reply of its session has answered yet corrects nothing', () => {
    const corrections = (messages: MessageLike[]) =>
      heuristicReflect(messages, { minScore: 0 })
        .filter((i) => i.category === 'correction')
        .map((i) => i.traceRefs[0]);
    // The task that opens a conversation: "don't change…" states it, it corrects nothing.
    const task = user("Fix the login bug, but don't change the tests.", 'u1');
    expect(corrections([task])).toEqual([]);
    expect(corrections([user('Add login.', 'u0'), reply(), task])).toEqual(['message:u1']);
    // A request re-sent while the model kept failing: only tool notices since the first.
    const failed = { role: 'tool', content: 'litellm.APIConnectionError: connection refused' };
    expect(corrections([user('Add a login page.'), failed, user('No, add the login page.', 'u2')])).toEqual(
      [],
    );
    // An interruption or `/undo` before it is evidence enough, reply or not.
    const cut = { role: 'tool', content: 'Bash(rm -rf build)…\nInterrupted by user' };
    expect(corrections([user('Clean up.'), cut, user('No, keep the build folder.', 'u3')])).toEqual([
      'message:u3',
    ]);
    // A system message is no new session, unless it is aider's session header.
    const checkpoint = { role: 'system', content: 'The earlier parts of this conversation were truncated.' };
    expect(corrections([user('Add login.'), reply(), checkpoint, task])).toEqual(['message:u1']);
    const aider = [
      '# aider chat started at 2025-01-01 10:00:00',
      '',
      '#### add a login page  ',
      '',
      'Added `login.py`.',
      '',
      '# aider chat started at 2025-01-02 10:00:00',
      '',
      "#### No, don't touch the tests and fix the login bug  ",
      '',
      'Fixed it.',
      '',
      '#### No, use bcrypt for the passwords  ',
      '',
    ].join('\n');
    const parsed = parseTranscript(aider).messages;
    const texts = heuristicReflect(parsed, { minScore: 0 })
      .filter((i) => i.category === 'correction')
      .map((i) => i.fact);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('bcrypt');
    // A scorer is still told the turn's signals: the rule is the markers' score, not the evidence.
    const seen: boolean[] = [];
    heuristicReflect([task], {
      scorer: (turn, scores) => {
        seen.push(turn.signals.correction);
        return scores;
      },
    });
    expect(seen).toEqual([true]);
  });

  it('an interrupted or rejected tool call before a turn raises its correction score', () => {
    const plain = heuristicReflect([user('Add a test'), reply(), user('No, use the fixture.')], {
      minScore: 0,
    });
    for (const notice of [
      { role: 'tool', content: 'Bash(touch tests/__init__.py)…\nInterrupted by user' },
      {
        role: 'tool',
        content: 'Read 80 lines (ctrl+o to expand)\nInterrupted · What should Claude do instead?',
      },
      // Every kind of notice; Claude Code writes its interruption in the person's seat.
      ...DECLINED_NOTICES.map((content) => ({
        role: content.startsWith('[Request') ? 'user' : 'tool',
        content,
      })),
    ]) {
      const after = heuristicReflect([user('Add a test'), notice, user('No, use the fixture.', 'u2')], {
        minScore: 0,
      });
      const correction = after.find((i) => i.category === 'correction')!;
      expect(correction.traceRefs[0], notice.content).toBe('message:u2');
      // A turn that only says something after an interruption is uncertain: escalated, not reported.
      const bare = heuristicReflect([user('Add a test'), notice, user('Use the other file.', 'u3')], {
        minScore: 0,
      });
      expect(bare.map((i) => [i.category, i.traceRefs[0]])).toEqual([['correction', 'message:u3']]);
      expect(bare[0]!.score).toBeLessThan(DEFAULT_MIN_SCORE);
      expect(bare[0]!.score).toBeGreaterThanOrEqual(DEFAULT_ESCALATION_BAND[0]);
      // The interruption notice itself is not a turn.
      expect(after.every((i) => i.traceRefs[0] !== 'message:m1')).toBe(true);
    }
    expect(plain.find((i) => i.category === 'correction')!.score).toBe(0.83);
  });

  it("a console copy's later notices, as the console reader gives them, mark the next turn interrupted", () => {
    const notices = [
      '  ⎿  Interrupted · What should Claude do instead?',
      '  ⎿  No (tell Claude what to do differently)',
      '  ⎿  User rejected update to src/app.py',
    ];
    for (const notice of notices) {
      const text = [
        '> Add a health check to the server.',
        '',
        "⏺ I'll add the route.",
        '',
        '⏺ Update(src/app.py)',
        notice,
        '',
        '> Use the existing router instead.',
        '',
      ].join('\n');
      const seen: boolean[] = [];
      heuristicReflect(parseTranscript(text).messages, {
        scorer: (turn, scores) => {
          seen.push(turn.interrupted);
          return scores;
        },
      });
      expect(seen, notice).toEqual([false, true]);
    }
  });

  it('every notice of a declined or stopped call (`declinedCall` of rearview/core) marks the next turn', () => {
    // Two lists of the same notices (the heuristic entry's 8 KB cannot hold core's): kept in step here.
    for (const notice of [
      ...DECLINED_NOTICES,
      "User rejected Claude's plan:",
      "[replace_in_file for 'a.ts'] Result:\nThe user denied this operation.",
    ]) {
      expect(declinedCall(notice), notice).toBe(true);
      expect(reportsInterrupt(notice), notice).toBe(true);
    }
  });

  it('a tool output or reply that only mentions an interruption or a rejection is none', () => {
    for (const said of [
      'The test checks that an interrupted run is retried.',
      'I will handle the case where the user rejected the change.',
      'Cancelled orders are kept for 30 days.',
    ]) {
      const insights = heuristicReflect(
        [user('Add a test'), { role: 'assistant', content: said }, user('Use the other file.', 'u3')],
        { minScore: 0 },
      );
      expect(insights, said).toEqual([]);
    }
  });

  it("aider's /undo is a correction, and parsed aider histories give it one", () => {
    const history = '# aider chat started at 2025-01-01 00:00:00\n\n#### add a footer  \n\n#### /undo  \n';
    const insights = heuristicReflect(parseTranscript(history).messages);
    expect(insights.map((i) => [i.category, i.score])).toEqual([['correction', 0.94]]);
  });

  it('a repeat of an earlier request is friction evidence (weak alone: below every default)', () => {
    const ask = 'create flutter project for macos desktop in this directory';
    const insights = heuristicReflect([user(ask), user(`${ask}. Do it as a call to flutter binary.`)], {
      minScore: 0,
    });
    expect(insights.map((i) => i.category)).toEqual(['friction']);
    expect(insights[0]!.score).toBeLessThan(DEFAULT_ESCALATION_BAND[0]);
    // Short turns ("continue", "yes") repeat without friction.
    expect(heuristicReflect([user('continue'), user('continue')], { minScore: 0 })).toEqual([]);
  });

  it('a repeat is looked for in the last eight user turns, short ones included', () => {
    const ask = 'create flutter project for macos desktop in this directory';
    const between = (k: number) => Array.from({ length: k }, (_, j) => user(`ok ${j}`));
    const categories = (k: number) =>
      heuristicReflect([user(ask), ...between(k), user(ask)], { minScore: 0 }).map((i) => i.category);
    expect(categories(7)).toEqual(['friction']); // the ask is the 8th turn back
    expect(categories(8)).toEqual([]); // the 9th: out of the window
    // The window slides: the ring keeps the latest eight, whatever the conversation's length.
    expect(categories(30)).toEqual([]);
    const late = [...between(20), user(ask), ...between(3), user(ask)];
    expect(heuristicReflect(late, { minScore: 0 }).map((i) => i.category)).toEqual(['friction']);
  });

  it('the repeat finder agrees with comparing every earlier opening in full (property)', () => {
    // The reference: each turn's opening (64 characters) against the last eight, both ways.
    const reference = (turns: string[]) => {
      const earlier: string[] = [];
      return turns.map((t, i) => {
        const key = t.slice(0, 64);
        const found =
          key.length >= 24 && earlier.some((k) => k.length >= 24 && (key.startsWith(k) || k.startsWith(key)));
        earlier[i % 8] = key;
        return found;
      });
    };
    // Turns built from few pieces, so that openings often agree on their hashed characters.
    const piece = fc.constantFrom('run the tests ', 'again ', 'please ', 'x', 'é', '😀', ' ', 'now');
    const turn = fc.array(piece, { maxLength: 14 }).map((ps) => ps.join(''));
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 30 }), (turns) => {
        const repeats = repeatFinder();
        expect(turns.map((t) => repeats(t))).toEqual(reference(turns));
      }),
    );
  });

  it('a custom ref names the same turns, and is asked only for the references it gives', () => {
    const messages: MessageLike[] = [
      user('add a footer'),
      { role: 'assistant', content: 'Added the footer.' },
      user('thanks'),
      { role: 'assistant', content: 'You are welcome.' },
      user("No, that's wrong: don't put it in the header."),
    ];
    const asked: number[] = [];
    const ref = (_m: MessageLike, index: number) => {
      asked.push(index);
      return `turn-${index}`;
    };
    const insights = heuristicReflect(messages, { ref });
    const correction = insights.find((i) => i.category === 'correction')!;
    // The turn, the previous user turn and the reply it answers, as with the default references.
    expect(correction.traceRefs).toEqual(['turn-4', 'turn-2', 'turn-3']);
    expect(heuristicReflect(messages).find((i) => i.category === 'correction')!.traceRefs).toEqual([
      'message:m4',
      'message:m2',
      'message:m3',
    ]);
    // Turns without evidence (the first request, the first reply) are never named, so never asked for.
    expect([...new Set(asked)].sort()).toEqual([2, 3, 4]);
  });
});
