import { sha256Hex } from 'rearview/core';
import { READER_RECALL_MIN_SCORE, readerModel } from 'rearview/heuristic-model';
import { memoryStore } from 'rearview/kv';
import { createRearview, loadRearview } from 'rearview/session';
import { playbookStore } from 'rearview/store';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

/** A clock that ticks one second per call, so outputs are identical everywhere. */
function clock() {
  let t = Date.UTC(2025, 0, 1);
  return () => {
    t += 1000;
    return new Date(t).toISOString();
  };
}

function counter(prefix: string) {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

const quiet = { broadcast: false as const, onWarning: () => {} };

const SESSION_1 = [
  { role: 'user', content: 'How do I install the dependencies?' },
  { role: 'assistant', content: 'Run npm install.' },
  { role: 'user', content: 'No, use pnpm instead of npm.' },
  { role: 'assistant', content: 'Right: pnpm install.' },
  { role: 'user', content: 'I prefer short answers. Mail me at jane.doe@example.com' },
];

const SESSION_2 = [
  { role: 'user', content: 'Add lodash to the project' },
  { role: 'assistant', content: 'Following [mis-001], run pnpm add lodash.' },
  { role: 'user', content: 'Great, thanks!' },
  { role: 'user', content: 'no, use pnpm instead of npm!' },
];

/** rearview/session without a model: observe → endSession → systemPrompt, byte-identical everywhere. */
export const sessionCases: ConformanceCase[] = [
  {
    name: 'session/observe is incremental and endSession learns without a model',
    async run() {
      const store = playbookStore(memoryStore(), { ...quiet, now: clock(), replicaId: 'r1' });
      const rv = createRearview({ store, sessionId: counter('sess') });
      const grown: { role: string; content: string }[] = [];
      const analysed: number[] = [];
      for (const m of SESSION_1) {
        grown.push(m);
        analysed.push(rv.observe(grown).analysed);
      }
      checkEqual(analysed, [1, 1, 1, 1, 1], 'each observe call reads only the new message');
      const first = await rv.endSession();
      check(first.errors.length === 0, 'no errors');
      // The user's instructions as imperatives: never a quoted turn or a template.
      checkEqual(
        first.added[0] && `${first.added[0].name} ${first.added[0].text}`,
        'mis-001 Use pnpm instead of npm.',
        'heuristic key points',
      );
      check(
        first.added.every((a) => !a.text.includes('User preference:') && !a.text.includes('jane.doe')),
        'no template text, redacted',
      );
      const second = await rv.endSession({ messages: SESSION_2 });
      checkEqual(
        second.duplicates,
        [{ text: 'Use pnpm instead of npm.', section: 'MISTAKES TO AVOID', of: 'mis-001' }],
        'dedup',
      );
      checkEqual(
        second.tags,
        { applied: 1, skipped: 0, by: 'heuristic' },
        'approval tags the cited key point',
      );
      const prompt = await rv.systemPrompt({
        query: 'install dependencies with a package manager',
        tokenBudget: 400,
      });
      check(prompt.includes('- [mis-001] Use pnpm instead of npm.'), 'key point injected');
      check(prompt.includes('cite its ID'), 'citation directive');
      const pb = await rv.playbook();
      return {
        first: { ...first, sessionId: first.sessionId },
        second,
        prompt,
        promptDigest: await sha256Hex(prompt),
        playbook: pb,
        sessionId: rv.sessionId,
      };
    },
  },
  {
    name: 'session/endSession never rejects and a tiny budget keeps only the template',
    async run() {
      const rv = createRearview({
        store: memoryStore(),
        storeOptions: { ...quiet, now: clock(), replicaId: 'r2' },
        sessionId: counter('s'),
        budgets: { promptTokens: 10, playbookTokens: 160, heuristicKeyPoints: 2 },
      });
      const turns = Array.from({ length: 6 }, (_, i) => ({
        role: 'user',
        content: `No, use tool${i} alpha${i} instead of legacy${i} beta${i}.`,
      }));
      // Each session opens with the agent's reply: a turn no reply has answered yet corrects nothing.
      const reply = { role: 'assistant', content: 'Done.' };
      const a = await rv.endSession({ messages: [reply, ...turns.slice(0, 3)] });
      const b = await rv.endSession({ messages: [reply, ...turns.slice(3)] });
      checkEqual([a.added.length, b.added.length], [2, 2], 'heuristicKeyPoints caps each session');
      const empty = await rv.systemPrompt();
      check(!empty.includes('[mis-'), 'promptTokens default applies');
      const ac = new AbortController();
      ac.abort();
      const aborted = await rv.endSession({ messages: turns, signal: ac.signal });
      check(aborted.aborted && !aborted.changed, 'aborted before the start');
      return { a, b, empty, aborted, playbook: await rv.playbook() };
    },
  },
  {
    name: 'session/loadRearview reads people’s turns with the reader, imported on first use',
    async run() {
      // A repeated instruction the markers read as friction; the reader as a correction (the playground
      // sample's words: without "again" the reader's score is 0.52, under its lower threshold).
      const talk = [
        { role: 'user', content: 'Add the invoices endpoint.' },
        { role: 'assistant', content: 'Added it; the test fails: the table is missing.' },
        {
          role: 'user',
          content: "As I mentioned, run the migrations before the tests. It's in the README again.",
        },
        { role: 'assistant', content: 'Ran them; 14 passed.' },
        { role: 'user', content: 'Perfect, thanks.' },
      ];
      const read = (rv: ReturnType<typeof createRearview>) =>
        rv.observe(talk).insights.map((i) => ({ category: i.category, score: i.score, fact: i.fact }));
      const loaded = read(await loadRearview({ store: memoryStore(), sessionId: counter('l') }));
      const byHand = read(
        createRearview({
          store: memoryStore(),
          sessionId: counter('h'),
          scorer: readerModel,
          minScore: READER_RECALL_MIN_SCORE,
        }),
      );
      checkEqual(loaded, byHand, 'loadRearview = createRearview with the reader at its lower thresholds');
      const markers = read(createRearview({ store: memoryStore(), sessionId: counter('m') }));
      check(
        loaded.some((i) => i.category === 'correction') && !markers.some((i) => i.category === 'correction'),
        'the reader finds the correction the markers do not',
      );
      return { loaded, markers };
    },
  },
];
