import { reflectFromTrajectories } from 'rearview/failures';
import {
  classifyTurn,
  compileMarkers,
  DEFAULT_MARKERS,
  heuristicReflect,
  loadLanguageMarkers,
} from 'rearview/heuristic';
import {
  correctionModel,
  correctionScore,
  ownsMistake,
  READER_MIN_SCORE,
  READER_RECALL_MIN_SCORE,
  readerBuckets,
  readerModel,
  readerScores,
  turnFeatures,
} from 'rearview/heuristic-model';
import { memoryStore } from 'rearview/kv';
import { guessLanguage, otherLanguages } from 'rearview/language';
import { insightPrompt, parseReflectionResponse } from 'rearview/llm-reflect';
import { insightMetadata } from 'rearview/playbook';
import { createRearview, lessons } from 'rearview/session';
import { parseTrajectory, parseTranscript } from 'rearview/transcript';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

const NOW = '2025-06-01T12:00:00.000Z';

const SESSION = [
  'User: Add a REST endpoint for books',
  'Assistant: I will add a GraphQL mutation.',
  'User: No, not GraphQL. I said REST endpoint. As I mentioned, use PostgreSQL not SQLite.',
  'Assistant: Done, using REST.',
  "User: Shouldn't that be using a fixture?",
  'Assistant: Fixed.',
  'User: Perfect! From now on, always use fixtures in specs.',
  'Assistant: Noted.',
  'User: Here is the log:\n```\nno, connection refused — revert\n```\nwhat is it? Is 49 a perfect square? Try again later.',
  `${'User: café ☕ '.repeat(1)}No. Rewind. ${'é'.repeat(120)}`,
].join('\n');

/** rearview/heuristic: identical insights, references and provenance in every runtime. */
export const heuristicCases: ConformanceCase[] = [
  {
    // Hashing (Math.imul), lower-casing, \p{L} words, CJK runs and the integer sums: byte-identical
    // scores in every runtime.
    name: 'heuristic-model/reader scores',
    run() {
      const { messages } = parseTranscript(SESSION, { format: 'plain' });
      const insights = heuristicReflect(messages, { scorer: readerModel, minScore: 0 });
      const kept = heuristicReflect(messages, { scorer: readerModel, minScore: READER_MIN_SCORE });
      check(insights.length > 0, 'the reader reads the turns');
      const signals = {
        correction: false,
        challenge: false,
        preference: false,
        approval: false,
        friction: false,
      };
      const turns = [
        'Нет, это снова не работает. ОШИБКА!',
        '还是不行，按钮没有反应',
        'ボタンがまだ動きません',
        'Não, ainda não funciona, de novo o mesmo erro',
        '## User Input\n\n```text\nadd tests\n```\nYou **MUST** consider the user input',
        'wait, why did you remove the tests? Always keep them. Café ☕',
        '/undo',
      ].map((text, i) => ({
        text,
        signals,
        interrupted: i === 2,
        repeat: false,
        undo: i === 6,
        first: i === 0,
        reply: i === 1 ? 'I have fixed the handler, it should work now.' : undefined,
      }));
      const scores = turns.map(readerScores);
      check(
        scores.every((s) => Object.values(s).every((x) => x >= 0 && x <= 1)),
        'scores in [0, 1]',
      );
      return { insights, kept, scores, buckets: turns.map(readerBuckets) };
    },
  },
  {
    // The session scores a turn again when the agent's reply owns a mistake: the same correction,
    // score and references whole and message by message, in every runtime.
    name: 'session/a correction the agent’s reply confirms (reader)',
    run() {
      const messages = [
        { role: 'user', content: 'Add a retry to the fetch.' },
        { role: 'assistant', content: 'Added a retry.' },
        { role: 'user', content: 'The retry should use exponential backoff here, café ☕.' },
        { role: 'assistant', content: "You're absolutely right, I'll switch to exponential backoff." },
        { role: 'user', content: 'Thanks, looks good!' },
      ];
      const options = { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE };
      const whole = lessons({ messages }, options).insights;
      const rv = createRearview({ store: memoryStore(), ...options });
      for (let i = 1; i <= messages.length; i++) rv.observe(messages.slice(0, i));
      checkEqual(rv.insights(), whole, 'message by message as whole');
      check(
        whole.some((i) => i.tags.includes('acknowledged')),
        'the reply confirms the correction',
      );
      return { whole, owns: ['I apologize for that.', 'Done.', '  **Good catch**!'].map(ownsMistake) };
    },
  },
  {
    name: 'heuristic-model/learned correction scores',
    run() {
      const { messages } = parseTranscript(SESSION, { format: 'plain' });
      const insights = heuristicReflect(messages, { scorer: correctionModel, minScore: 0 });
      check(insights.length > 0, 'the scorer reads the turns');
      // Non-ASCII words (lower-casing, \p{L}) and every feature kind, in every runtime.
      const turns = [
        'Нет, это снова не работает. ОШИБКА!',
        'Não, ainda não funciona, de novo o mesmo erro',
        '    Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad\nstill failing??',
        'wait, why did you remove the tests? That is wrong',
        '/undo',
      ].map((text, i) => ({
        text,
        signals: {
          correction: i === 3,
          challenge: false,
          preference: false,
          approval: false,
          friction: false,
        },
        interrupted: i === 2,
        repeat: false,
        undo: i === 4,
        first: i === 0,
        reply: i === 1 ? 'Shall I continue?' : undefined,
      }));
      const scores = turns.map(correctionScore);
      check(
        scores.every((x) => x >= 0 && x <= 1),
        'scores in [0, 1]',
      );
      return { insights, scores, features: turns.map(turnFeatures) };
    },
  },
  {
    name: 'heuristic/heuristicReflect on a plain transcript',
    run() {
      const { messages } = parseTranscript(SESSION, { format: 'plain' });
      const insights = heuristicReflect(messages);
      checkEqual(
        insights.map((i) => i.category),
        // "From now on, always use fixtures in specs." states a rule in a short turn: a preference;
        // "As I mentioned" repeats an earlier request: friction as well as a correction.
        ['correction', 'friction', 'correction', 'preference', 'approval', 'correction'],
        'categories',
      );
      check(
        insights[0]!.traceRefs.length === 3,
        'a correction references the turn, the previous user turn and the reply',
      );
      check(insights[5]!.fact.length > 0 && !insights[5]!.fact.includes('\ufffd'), 'UTF-8 safe truncation');
      // Every score, below the default threshold too, is the same number in every runtime.
      return {
        insights,
        again: heuristicReflect(messages),
        all: heuristicReflect(messages, { minScore: 0 }),
      };
    },
  },
  {
    // String.prototype.normalize runs on each runtime's own Unicode tables: same output everywhere.
    name: 'heuristic/decomposed (NFD) accents read as composed',
    async run() {
      const markers = await loadLanguageMarkers();
      const texts = ['ESTÁ MAL, deshaz el cambio.', 'Não é isso, desfaça.', 'Всё ещё не работает.'];
      const nfd = texts.map((t) => t.normalize('NFD'));
      check(
        nfd.every((t, i) => t !== texts[i]),
        'the inputs really are decomposed',
      );
      const composed = texts.map((t) => classifyTurn(t, markers));
      const decomposed = nfd.map((t) => classifyTurn(t, markers));
      checkEqual(decomposed, composed, 'same signals');
      check(
        decomposed.every((s) => s.correction),
        'corrections found',
      );
      const messages = nfd.flatMap((content, i) => [
        { id: `a${i}`, role: 'assistant' as const, content: 'Hecho.' },
        { id: `u${i}`, role: 'user' as const, content },
      ]);
      return {
        decomposed,
        insights: heuristicReflect(messages, { markers, scorer: correctionModel, minScore: 0 }),
        features: nfd.map((text) =>
          turnFeatures({
            text,
            signals: {
              correction: true,
              challenge: false,
              preference: false,
              approval: false,
              friction: false,
            },
            interrupted: false,
            repeat: false,
            undo: false,
            first: false,
            reply: 'Hecho.',
          }),
        ),
      };
    },
  },
  {
    // Each kana or ideograph is a word of its own and 。！，？ end sentences and clauses, in every runtime.
    name: 'heuristic/Chinese, Japanese and Italian turns with the language markers',
    async run() {
      const markers = await loadLanguageMarkers();
      const texts = [
        '还是不对啊，你再看看',
        '好的，撤销刚才的修改',
        '为什么删掉了测试？',
        '帮我写一个登录页面',
        'まだ動かないです。',
        'ログイン画面を作ってください。',
        'Non funziona ancora, annulla la modifica.',
      ];
      const signals = texts.map((t) => classifyTurn(t, markers));
      checkEqual(
        signals.map((s) => s.correction),
        [true, true, true, false, true, false, true],
        'corrections, not tasks',
      );
      checkEqual(
        texts.map((t) => classifyTurn(t).correction),
        texts.map(() => false),
        'the default markers read English only',
      );
      checkEqual(texts.map(guessLanguage), ['zh', 'zh', 'zh', 'zh', 'ja', 'ja', 'it'], 'their languages');
      return { signals, languages: texts.map(guessLanguage), other: otherLanguages(texts) };
    },
  },
  {
    name: 'heuristic/classifyTurn context rules',
    run() {
      const texts = [
        'try again later',
        'Is 49 a perfect square?',
        'Log:\n```\nno, actually, revert\n```\nok?',
        'git log:\n3f2a1b9c Revert "x"',
        'No. Rewind.',
        "Shouldn't that be using a fixture?",
        'still doesnt work',
        'You did it again!',
        'Perfect!',
        'It is not perfect.',
      ];
      const out = texts.map((t) => classifyTurn(t));
      check(
        !out[0]!.friction && !out[1]!.preference && !out[2]!.correction && !out[3]!.correction,
        'negatives',
      );
      check(out[4]!.correction && out[5]!.challenge && out[6]!.correction && out[7]!.friction, 'positives');
      check(out[8]!.positive && !out[9]!.preference, 'approval and negation');
      return out;
    },
  },
  {
    // The scanner's warm-up (lib/heuristic/exercise.ts) runs once a marker set has scanned 16 K
    // characters: here, in every runtime, and it changes no result.
    name: 'heuristic/the scanner warm-up changes nothing',
    run() {
      const markers = compileMarkers(DEFAULT_MARKERS);
      const turns = SESSION.split('\n');
      const before = turns.map((t) => classifyTurn(t, markers));
      // 16 K characters: exercise.ts's WARM_AFTER, which the public entry does not export.
      check(markers.scanned < 16 * 1024, 'no warm-up yet');
      classifyTurn(`${'No, that is still wrong. '.repeat(700)}`, markers);
      check(markers.scanned >= 16 * 1024, 'the warm-up ran');
      const after = turns.map((t) => classifyTurn(t, markers));
      checkEqual(after, before, 'the same signals after the warm-up');
      return after;
    },
  },
  {
    name: 'heuristic/reflectFromTrajectories mini-swe-agent and Claude Code',
    run() {
      const mini = JSON.stringify({
        instance_id: 'demo__demo-1',
        info: { exit_status: 'Submitted', submission: '' },
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: 'Fix the bug.' },
          { role: 'assistant', content: 'THOUGHT: list\n```bash\nls\n```' },
          { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' },
          { role: 'assistant', content: 'THOUGHT: run\n```bash\npython a.py\n```' },
          {
            role: 'user',
            content: '<returncode>1</returncode>\n<output>\nTraceback: café ☕ error\n</output>',
          },
        ],
      });
      const cc = [
        { type: 'user', uuid: 'u1', sessionId: 'sess-1', message: { role: 'user', content: 'test' } },
        {
          type: 'assistant',
          uuid: 'a1',
          sessionId: 'sess-1',
          message: {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'x' } }],
          },
        },
        {
          type: 'user',
          uuid: 'u2',
          sessionId: 'sess-1',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'boom' }],
          },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n');
      const failed = reflectFromTrajectories([
        parseTrajectory(mini, { resolved: false }),
        parseTrajectory(cc, { resolved: false }),
      ]);
      const solved = reflectFromTrajectories([parseTrajectory(mini, { resolved: true })]);
      checkEqual(
        failed.map((i) => i.traceRefs[0]),
        ['trajectory:demo__demo-1:event:1', 'trajectory:sess-1:event:0'],
        'event references',
      );
      checkEqual(solved, [], 'nothing from a solved run');
      return failed;
    },
  },
  {
    name: 'heuristic/insightMetadata and the model half',
    run() {
      const insights = parseReflectionResponse(
        'Here:\n```json\n{"insights":[{"fact":"f","recommendation":"r","category":"preference","trace_refs":["message:m1"]},{"fact":""}]}\n```',
      );
      checkEqual(insights.length, 1, 'malformed items skipped');
      const meta = insightMetadata(insights[0]!, NOW);
      checkEqual(
        meta.provenance[1],
        { source: 'trace', reference: 'message:m1', date: NOW },
        'trace provenance',
      );
      const prompt = insightPrompt([
        { role: 'user', content: 'No, use REST.', id: 'm1' },
        { role: 'assistant', content: 'OK' },
      ]);
      check(prompt.includes('[message:m1] user: No, use REST.'), 'prompt lists references');
      return { insights, meta, prompt };
    },
  },
];
