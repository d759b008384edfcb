/**
 * Scores, `minScore`, approval as its own category, the context signals (interrupted or rejected tool
 * calls, `/undo`, repeated requests), spelled-out negations, the non-English markers, and
 * `llmReflect`'s escalation (rearview/llm-reflect) through the real SDK against the local Messages API server.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declinedCall } from '../../lib/core/index';
import {
  classifyTurn,
  compileMarkers,
  confidenceOf,
  DEFAULT_ESCALATION_BAND,
  DEFAULT_MARKERS,
  DEFAULT_MIN_SCORE,
  extractRecommendation,
  heuristicReflect,
  loadLanguageMarkerSet,
  loadLanguageMarkers,
  type MessageLike,
  type TurnScorer,
} from '../../lib/heuristic/index';
import { repeatFinder, reportsInterrupt } from '../../lib/heuristic/score';
import { anthropicClient } from '../../lib/llm/index';
import { llmReflect } from '../../lib/llm-reflect/index';
import { parseTranscript } from '../../lib/transcript/index';
import { TURN_ADVERSARIAL } from '../adversarial';
import { DECLINED_NOTICES } from '../heuristic/notices';
import { useMockAnthropic } from '../llm/use-mock';

const user = (content: string, id?: string): MessageLike => ({
  role: 'user',
  content,
  ...(id ? { id } : {}),
});
/** The agent's reply: a turn before any reply of its session corrects nothing. */
const reply = (content = 'Done.', id?: string): MessageLike => ({
  role: 'assistant',
  content,
  ...(id ? { id } : {}),
});

describe('scores and minScore', () => {
  it('every insight has a score in [0, 1] at or above minScore, and its confidence is the score band', () => {
    const texts = fc.constantFrom(
      'No, not GraphQL. I said REST endpoint.',
      "Shouldn't that be using a fixture?",
      'Perfect, thanks!',
      'From now on, always use tabs.',
      'As I mentioned, use PostgreSQL.',
      'still doesnt work',
      'What is the weather like?',
      '/undo',
    );
    fc.assert(
      fc.property(
        fc.array(texts, { maxLength: 8 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (turns, min) => {
          const insights = heuristicReflect(
            turns.map((t) => user(t)),
            { minScore: min },
          );
          for (const i of insights) {
            expect(i.score).toBeGreaterThan(0);
            expect(i.score).toBeLessThanOrEqual(1);
            expect(i.score).toBeGreaterThanOrEqual(min);
            expect(i.confidence).toBe(confidenceOf(i.score!));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the default threshold keeps only the kinds of evidence precise on unseen authors', () => {
    const messages = [
      reply(),
      user('I like tabs.'),
      user('As I mentioned, use PostgreSQL.'),
      user('This is wrong.'),
    ];
    // A friction marker is precise enough since the "still …" markers joined its list (0.82).
    expect(heuristicReflect(messages).map((i) => i.category)).toEqual(['friction', 'correction']);
    expect(heuristicReflect(messages, { minScore: DEFAULT_MIN_SCORE })).toEqual(heuristicReflect(messages));
    const all = heuristicReflect(messages, { minScore: 0 });
    expect(all.map((i) => i.category)).toEqual(['preference', 'friction', 'correction']);
    expect(all[0]!.score).toBeLessThan(DEFAULT_MIN_SCORE);
  });

  it('reports a preference that states a rule in a short turn, not one that only likes something or runs long', () => {
    const read = (text: string) => heuristicReflect([user('Add a login page.'), reply(), user(text)]);
    const stated = [
      'From now on, always use pnpm instead of npm.',
      'I prefer tabs over spaces in this repo.',
      "I'd rather you used Vitest.",
      'Never use any in TypeScript.',
      'Please stop at each stable point and let me review your work.',
    ];
    for (const text of stated) {
      const found = read(text).filter((i) => i.category === 'preference');
      expect(found, text).toHaveLength(1);
      expect(found[0]!.score, text).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
    }
    // Liking something states no rule; the same rule deep in a long task spec is the spec's.
    expect(read('I like it.')).toEqual([]);
    expect(read('I love the new layout, thanks.')).toEqual([]);
    const spec = `${'The service keeps a queue of jobs and retries each failed one with a backoff. '.repeat(5)}Always use pnpm.`;
    expect(read(spec)).toEqual([]);
    const scores = heuristicReflect([reply(), user('I like tabs.'), user(stated[0]!)], { minScore: 0 });
    expect(scores.map((i) => [i.category, i.score])).toEqual([
      ['preference', 0.44],
      ['preference', 0.84],
    ]);
  });

  it("keeps the words before 'use' that make the rule, and the sentence a preference states its rule in", () => {
    const rec = (text: string) =>
      heuristicReflect([user('Add a login page.'), reply(), user(text)]).map((i) => i.recommendation);
    expect(rec('Never use any in TypeScript.')).toEqual(['Never use any in TypeScript']);
    expect(rec("That's wrong, do not use the global client.")).toEqual(['do not use the global client']);
    expect(rec('From now on, always use pnpm instead of npm.')).toEqual(['always use pnpm instead of npm']);
    expect(rec('No, use the fixture.')).toEqual(['use the fixture']);
    expect(rec('I prefer tabs over spaces in this repo.')).toEqual([
      'I prefer tabs over spaces in this repo',
    ]);
    expect(rec('Perfect. From now on always run the migrations first.')[0]).toBe(
      'From now on always run the migrations first',
    );
    expect(rec('No, that is wrong.')).toEqual(["Apply the user's correction."]);
  });

  it("a preference with no rule word (a scorer's, or another language's) quotes its first sentence, never the correction's placeholder", () => {
    const scorer: TurnScorer = (turn, scores) =>
      turn.text.startsWith('Add') ? scores : { ...scores, preference: 0.9 };
    const prefs = (text: string) =>
      heuristicReflect([user('Add a login page.'), reply(), user(text)], { scorer })
        .filter((i) => i.category === 'preference')
        .map((i) => i.recommendation);
    expect(prefs('Prefiero que uses pnpm en este repo. Gracias')).toEqual([
      'Prefiero que uses pnpm en este repo',
    ]);
    expect(prefs('  Tabs for indentation here')).toEqual(['Tabs for indentation here']);
    expect(extractRecommendation('Prefiero pnpm. Gracias', true)).toBe('Prefiero pnpm');
    expect(extractRecommendation('   ', true)).toBe("Apply the user's correction.");
    expect(extractRecommendation('Prefiero pnpm. Gracias')).toBe("Apply the user's correction.");
  });

  it('confidence bands', () => {
    expect([0.95, 0.8, 0.79, 0.6, 0.59, 0].map(confidenceOf)).toEqual([
      'high',
      'high',
      'medium',
      'medium',
      'low',
      'low',
    ]);
  });
});

describe('approval is its own category', () => {
  it('bare approval is approval, not a preference; a lasting rule stays a preference', () => {
    expect(heuristicReflect([user('Perfect, thanks!')])).toMatchObject([
      {
        category: 'approval',
        recommendation: 'Continue this approach.',
        tags: ['user_feedback', 'approval'],
      },
    ]);
    expect(classifyTurn('good, commit')).toMatchObject({ approval: true, preference: false });
    expect(classifyTurn('From now on, always use tabs.')).toMatchObject({
      approval: false,
      preference: true,
    });
  });

  it('approval that also corrects is a correction', () => {
    const cats = heuristicReflect(
      [reply(), user("Great work, but that's wrong: the button is still blue.")],
      {
        minScore: 0.5,
      },
    ).map((i) => i.category);
    expect(cats).toEqual(['correction']);
  });
});

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

describe('friction: a problem still there after the fix', () => {
  const afterFix = (text: string) =>
    heuristicReflect([user('Fix the save button.'), reply('Fixed it.'), user(text)]);
  const frictions = (text: string) => afterFix(text).filter((i) => i.category === 'friction');

  /** A person saying the problem is still there after the fix. */
  const stillThere = [
    "It's still not working.",
    'The button still does not save.',
    "I'm still getting the same error.",
    'Still seeing duplicate rows in the table.',
    'Levitation is still coming in as empty.',
    'the error still persists, what should we do?',
    'The issue persists after the restart.',
    'it still looks broken on mobile',
  ];

  it('"still" with what is still wrong is friction at the default threshold', () => {
    for (const text of [...stillThere, 'nope still no email received']) {
      const found = frictions(text);
      expect(found, text).toHaveLength(1);
      expect(found[0]!.score, text).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
      expect(found[0]!.traceRefs, text).toEqual(['message:m2']);
    }
  });

  it('"still" alone, a negated "still", or a problem named for the first time is not', () => {
    for (const text of [
      'I still want a dark theme for the settings page.',
      'We still need tests for the parser.',
      "It's not still failing, it works now.",
      'There is an error in the log: connection refused.',
      'Run the migrations every time the schema changes.',
    ])
      expect(frictions(text), text).toEqual([]);
  });

  it('a problem still there after the fix is a correction too: its own insight, at the default threshold', () => {
    for (const text of [
      ...stillThere,
      "the export still isn't collecting the full response",
      'Still the same issue.',
      'the total is still wrong',
    ]) {
      const found = afterFix(text);
      const correction = found.find((i) => i.category === 'correction');
      expect(correction, text).toBeDefined();
      expect(correction!.score, text).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
      // A correction cites the turn first, then what it answers.
      expect(correction!.traceRefs[0], text).toBe('message:m2');
      expect(
        found.filter((i) => i.category === 'friction'),
        text,
      ).toHaveLength(1);
    }
    // The same words with nothing still wrong, negated, or as the session's first words correct nothing.
    for (const text of [
      'I still want a dark theme for the settings page.',
      "It's not still failing, it works now.",
      'There is an error in the log: connection refused.',
    ])
      expect(
        afterFix(text).filter((i) => i.category === 'correction'),
        text,
      ).toEqual([]);
    expect(
      heuristicReflect([user('The issue persists after the restart: fix the login page.')]).filter(
        (i) => i.category === 'correction',
      ),
    ).toEqual([]);
  });

  it('reads the same in the language lists, loaded on first use', async () => {
    const markers = await loadLanguageMarkers();
    const read = (text: string) =>
      heuristicReflect([user('Arregla el botón.'), reply('Listo.'), user(text)], { markers }).map(
        (i) => i.category,
      );
    for (const text of [
      'El botón sigue igual.',
      '还是有问题，继续检查',
      '没变化',
      '変わってないです',
      'Toujours pas de réponse.',
    ])
      expect(read(text), text).toContain('friction');
    expect(read('El botón funciona bien, gracias.')).not.toContain('friction');
  });
});

describe('spelled-out negations and other languages', () => {
  it('"do not touch" counts like "don\'t touch"', () => {
    for (const [contracted, spelled] of [
      ["Don't touch the tests.", 'Do not touch the tests.'],
      ["It doesn't work.", 'It does not work.'],
      ["That isn't right.", 'That is not right.'],
      ["You didn't run the linter.", 'You did not run the linter.'],
    ]) {
      expect(classifyTurn(contracted!).correction, contracted).toBe(true);
      expect(classifyTurn(spelled!).correction, spelled).toBe(true);
    }
  });

  it('loadLanguageMarkers reads corrections in Spanish, Portuguese, French, German and Russian', async () => {
    const markers = await loadLanguageMarkers();
    for (const text of [
      'No funciona, sigue fallando.',
      'ESTÁ MAL, deshaz el cambio.',
      'Não é isso, desfaça.',
      'Ça ne marche pas.',
      'Das ist falsch, mach es rückgängig.',
      'Не работает.',
      'НЕПРАВИЛЬНО, откати.',
    ]) {
      expect(classifyTurn(text, markers).correction, text).toBe(true);
      expect(classifyTurn(text).correction, `${text} (default markers)`).toBe(false);
    }
    expect(classifyTurn('¿Cómo funciona esto?', markers).correction).toBe(false);
    expect(classifyTurn('Как это работает?', markers).correction).toBe(false);
  });

  it('loadLanguageMarkers reads Italian, Chinese and Japanese, where words are not spaced', async () => {
    const markers = await loadLanguageMarkers();
    for (const text of [
      'Non funziona ancora, annulla la modifica.',
      'È sbagliato.',
      '还是不对啊，你再看看',
      '不对，我的意思是用 pnpm',
      '刷新以后依然不显示。',
      '還是不對，請再檢查一次',
      'まだ動かないです。',
      'そうじゃなくて、pnpm を使ってください',
    ]) {
      expect(classifyTurn(text, markers).correction, text).toBe(true);
      expect(classifyTurn(text).correction, `${text} (default markers)`).toBe(false);
    }
    // A task in Chinese or Japanese is not a correction.
    expect(classifyTurn('帮我写一个登录页面', markers).correction).toBe(false);
    expect(classifyTurn('ログイン画面を作ってください。', markers).correction).toBe(false);
    expect(classifyTurn('从现在开始，始终使用 pnpm。', markers).preference).toBe(true);
    expect(classifyTurn('完美，谢谢！', markers).positive).toBe(true);
    // Full-width punctuation ends sentences and clauses: ？ makes a question, ， starts a clause.
    expect(classifyTurn('为什么删掉了测试？', markers).correction).toBe(true);
    expect(classifyTurn('为什么删掉了测试', markers).correction).toBe(false);
    expect(classifyTurn('好的，撤销刚才的修改', markers).correction).toBe(true);
    expect(classifyTurn('好的撤销刚才的修改', markers).correction).toBe(false);
  });

  it('a kana or ideograph is a word of its own in markers one writes, found inside a run', () => {
    const markers = compileMarkers({ ...DEFAULT_MARKERS, correction: ['不行'], friction: ['^又'] });
    expect(classifyTurn('这样还是不行', markers).correction).toBe(true);
    expect(classifyTurn('不', markers).correction).toBe(false);
    expect(classifyTurn('行', markers).correction).toBe(false);
    expect(classifyTurn('又错了', markers).friction).toBe(true);
    expect(classifyTurn('他又错了', markers).friction).toBe(false);
  });

  it('the language markers stay linear on ideographs and full-width punctuation', async () => {
    const markers = await loadLanguageMarkers();
    // 2 MB each (a quadratic scan would time out); the text repeats a period, so 2 MB reads as 4 KB does.
    for (const [name, make] of TURN_ADVERSARIAL)
      expect(classifyTurn(make(2_000_000), markers), name).toEqual(classifyTurn(make(4_000), markers));
    expect(classifyTurn('还是不对'.repeat(500_000), markers).correction).toBe(true);
  });

  it('loadLanguageMarkerSet gives the same lists, not compiled, appended to the lists it is given', async () => {
    const lists = await loadLanguageMarkerSet();
    for (const key of ['correction', 'challenge', 'preference', 'positive', 'friction'] as const) {
      // The English lists first, in order, then the languages'.
      expect(lists[key].slice(0, DEFAULT_MARKERS[key].length)).toEqual(DEFAULT_MARKERS[key]);
      expect(lists[key].length).toBeGreaterThan(DEFAULT_MARKERS[key].length);
    }
    expect(lists.correction).toContain('no funciona');
    const compiled = compileMarkers(lists);
    const loaded = await loadLanguageMarkers();
    for (const text of [
      'No funciona, sigue fallando.',
      'Não é isso, desfaça.',
      'Не работает.',
      'Looks good!',
      'ffs, again',
    ])
      expect(classifyTurn(text, compiled), text).toEqual(classifyTurn(text, loaded));
    // Lists of one's own keep their phrases.
    const own = await loadLanguageMarkerSet({ ...DEFAULT_MARKERS, friction: ['ffs'] });
    expect(own.friction[0]).toBe('ffs');
    expect(own.friction).toContain('otra vez');
    expect(classifyTurn('ffs', compileMarkers(own)).friction).toBe(true);
  });
});

describe('llmReflect escalation (real SDK, local Messages API server)', () => {
  const mock = useMockAnthropic();
  const conversation: MessageLike[] = [
    { id: 'u0', role: 'user', content: 'Add a footer to the page, mail jane@corp.io for the copy' },
    { id: 'a0', role: 'assistant', content: 'Added a footer.' },
    { id: 't0', role: 'tool', content: 'Edit(footer.tsx)…\nInterrupted by user' },
    { id: 'u1', role: 'user', content: 'Use the other layout file, jane@corp.io knows which.' },
    { id: 'a1', role: 'assistant', content: 'Moved it.' },
    { id: 'u2', role: 'user', content: 'No, that is wrong.' },
    { id: 'u3', role: 'user', content: 'What is a cafe latte?' },
  ];

  it('sends only the uncertain turns, redacted, in one batch, and keeps the sure ones locally', async () => {
    mock.script([{ kind: 'json', text: '{"verdicts": [{"ref": "t1", "categories": ["correction"]}]}' }]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    const insights = await llmReflect(conversation, { llm, escalate: true });
    expect(mock.requests).toHaveLength(1);
    const prompt = (mock.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    expect(prompt).toContain('[t1]');
    expect(prompt).not.toContain('[t2]');
    expect(prompt).toContain('Use the other layout file');
    // The message just before the uncertain turn is shown as what it answers.
    expect(prompt).toContain(
      '(the assistant had said: Edit(footer.tsx)…\nInterrupted by user)\nuser: Use the other',
    );
    expect(prompt).not.toContain('No, that is wrong');
    expect(prompt).not.toContain('cafe latte');
    expect(prompt).not.toContain('jane@corp.io');
    expect(insights.map((i) => [i.category, i.traceRefs[0], i.tags.includes('escalated')])).toEqual([
      ['correction', 'message:u1', true],
      ['correction', 'message:u2', false],
    ]);
  });

  it('shows a block-array reply as context too (its text blocks)', async () => {
    mock.script([{ kind: 'json', text: '{"verdicts": []}' }]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    await llmReflect(
      [
        { id: 'a0', role: 'assistant', content: [{ type: 'text', text: 'Renamed the helper.' }] },
        { id: 't0', role: 'tool', content: [{ type: 'text', text: 'Interrupted by user' }] },
        { id: 'u1', role: 'user', content: 'Use the other layout file.' },
      ],
      { llm, escalate: true },
    );
    expect(mock.requests).toHaveLength(1);
    const prompt = (mock.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    expect(prompt).toContain(
      '(the assistant had said: Interrupted by user)\nuser: Use the other layout file.',
    );
  });

  it('with the learned scorer, the band reads its scores: exactly the turns it is unsure of are sent', async () => {
    const { correctionModel } = await import('rearview/heuristic-model');
    const conversation: MessageLike[] = [
      { id: 'u0', role: 'user', content: 'Add a footer to the page, mail jane@corp.io for the copy' },
      { id: 'a0', role: 'assistant', content: 'Added a footer.' },
      { id: 'u1', role: 'user', content: 'why is the footer gone? ask jane@corp.io' },
      { id: 'a1', role: 'assistant', content: 'Restored it.' },
      { id: 'u2', role: 'user', content: 'No, that is wrong.' },
      { id: 'a2', role: 'assistant', content: 'Fixed.' },
      { id: 'u3', role: 'user', content: 'are you sure?' },
      { id: 'a3', role: 'assistant', content: 'Yes.' },
      // In the default band under the stop-27 weights (0.37): the turn that is sent, email and all.
      { id: 'u4', role: 'user', content: 'the footer is still missing, jane@corp.io says so' },
    ];
    const scored = heuristicReflect(conversation, { scorer: correctionModel, minScore: 0 });
    const [lo, hi] = DEFAULT_ESCALATION_BAND;
    const unsure = scored
      .filter((i) => (i.score ?? 0) >= lo && (i.score ?? 0) < hi)
      .map((i) => i.traceRefs[0]);
    const sure = scored.filter((i) => (i.score ?? 0) >= hi).map((i) => `${i.category} ${i.traceRefs[0]}`);
    expect(unsure.length).toBeGreaterThan(0);
    const refs = [...new Set(unsure)];
    mock.script([
      {
        kind: 'json',
        text: JSON.stringify({ verdicts: refs.map((_, k) => ({ ref: `t${k + 1}`, categories: [] })) }),
      },
    ]);
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    const insights = await llmReflect(conversation, { llm, escalate: true, scorer: correctionModel });
    expect(mock.requests).toHaveLength(1);
    const prompt = (mock.requests[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    for (let k = 1; k <= refs.length; k++) expect(prompt).toContain(`[t${k}]`);
    expect(prompt).not.toContain(`[t${refs.length + 1}]`);
    expect(prompt).not.toContain('jane@corp.io');
    // Every turn the model dropped is gone; what the scorer was sure of stays, decided locally.
    expect(insights.map((i) => `${i.category} ${i.traceRefs[0]}`).sort()).toEqual([...sure].sort());
  });

  it('no uncertain turn, no call; a verdict of nothing drops the turn', async () => {
    const llm = anthropicClient({ apiKey: 'sk-ant-test-key', baseURL: mock.url });
    const sure = await llmReflect([reply(), user('No, that is wrong.')], { llm, escalate: true });
    expect(mock.requests).toHaveLength(0);
    expect(sure.map((i) => i.category)).toEqual(['correction']);
    mock.script([{ kind: 'json', text: '{"verdicts": [{"ref": "t1", "categories": []}]}' }]);
    const dropped = await llmReflect(conversation, { llm, escalate: { batchSize: 1 } });
    expect(mock.requests).toHaveLength(1);
    expect(dropped.map((i) => i.traceRefs[0])).toEqual(['message:u2']);
    // The verdict decides the category: friction, not the correction the heuristics half-saw.
    mock.script([{ kind: 'json', text: '{"verdicts": [{"ref": "t1", "categories": ["friction"]}]}' }]);
    const friction = await llmReflect(conversation, { llm, escalate: true });
    expect(friction.map((i) => [i.category, i.traceRefs[0]])).toEqual([
      ['friction', 'message:u1'],
      ['correction', 'message:u2'],
    ]);
  });
});
