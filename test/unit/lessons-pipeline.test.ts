/**
 * One lesson pipeline everywhere: on every shared Claude Code (JSONL and console), aider,
 * mini-swe-agent and SWE-agent file, the CLI (`main --json`, on the built dist/lib), the playground's
 * pure analysis (parseInput → computeView → its key points), the session facade (`loadRearview`:
 * observe, observeTrajectory, insights, proposed) and the edge example's handler (POST the file, read
 * the summary) give the same insights and the same key points at their shared default (people's turns
 * read by the reader at its lower thresholds) — all equal to `lessons` of rearview/session with that
 * reader; `createRearview`, which reads with the markers, equals `lessons` without it (the CLI's with its dictionary: `isWord`, typos in key points repaired, and on a
 * session whose people write in one of eight more languages with those languages' markers, which the
 * CLI reads then and says so: `languages: true`). The example redacts the transcript before anything is
 * analysed (on purpose), so it is compared with `lessons` of the redacted messages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadLanguageMarkers } from 'rearview/heuristic';
import { READER_RECALL_MIN_SCORE, readerModel } from 'rearview/heuristic-model';
import { memoryStore } from 'rearview/kv';
import { sanitizeKeyPointText } from 'rearview/playbook';
import { redactMessages, redactText } from 'rearview/redact';
import { createRearview, lessons, loadRearview, type Rearview } from 'rearview/session';
import { parseTranscript } from 'rearview/transcript';
import { beforeAll, describe, expect, it } from 'vitest';
import { safeOut } from '../../cli/io';
import { loadDictionary } from '../../cli/spelling';
import { agentRuns } from '../../examples/shared/edge';
import { createHandler } from '../../examples/vercel-edge/handler';
import { computeView, DEFAULT_SETTINGS, loadScorer, parseInput } from '../../playground/src/analyze';
import { insightKeyPoints } from '../../playground/src/playbook-store';
import type { LearnedDetector } from '../../playground/src/scorers';
import { type CliMain, loadCliMain } from './built-cli';

const root = join(import.meta.dirname, '../..');
/** What the CLI, the playground, `loadRearview` and the examples read people's turns with by default. */
const READER = { scorer: readerModel, minScore: READER_RECALL_MIN_SCORE };
const DATA = join(root, '../shared/data');

const DIRS: [string, (f: string) => boolean][] = [
  ['claude-code-jsonl', (f) => f.endsWith('.jsonl')],
  ['claude-code-console', (f) => /^day-\d+\.md$/.test(f)],
  ['aider', (f) => f.endsWith('.md')],
  ['mini-swe-agent', (f) => f.endsWith('.traj.json')],
  ['swe-agent', (f) => f.endsWith('.traj')],
];
const files = existsSync(DATA)
  ? DIRS.flatMap(([dir, keep]) =>
      readdirSync(join(DATA, dir))
        .filter(keep)
        .sort()
        .map((f) => `${dir}/${f}`),
    )
  : [];

let main: CliMain;
/** The dictionary the CLI repairs key points with (the other front ends take none). */
let isWord: ((word: string) => boolean) | undefined;
/** The eight more languages' markers the CLI reads a session with when its people write in them. */
let markers: Awaited<ReturnType<typeof loadLanguageMarkers>>;
/** Files the CLI read with them: the rule is exercised, not only skipped. */
let readInOtherLanguages = 0;

beforeAll(async () => {
  main = await loadCliMain();
  isWord = await loadDictionary();
  markers = await loadLanguageMarkers();
}, 120_000);

async function cli(path: string) {
  let stdout = '';
  const code = await main(['reflect', path, '--json'], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: () => true, isTTY: false },
    env: {},
  });
  expect(code).toBe(0);
  return JSON.parse(stdout) as { insights: unknown[]; keyPoints: unknown[]; languages?: true };
}

/** The JSON round trip every front end's output takes (a worker message, an HTTP body, stdout). */
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A facade's insights and key points after it observed a file's messages and agent runs (then closed). */
function observed(
  rv: Rearview,
  messages: Parameters<Rearview['observe']>[0],
  trajectories: readonly Parameters<Rearview['observeTrajectory']>[0][],
) {
  rv.observe(messages);
  for (const t of trajectories) rv.observeTrajectory(t);
  const out = { insights: json(rv.insights()), proposed: json(rv.proposed()) };
  rv.close();
  return out;
}

/** Key points compared so far: agreement on empty lists only would prove nothing. */
let comparedKeyPoints = 0;

describe.skipIf(!files.length)('the four front ends agree on every shared file', () => {
  it.each(files)(
    '%s',
    async (file) => {
      const text = readFileSync(join(DATA, file), 'utf8');
      let messages: ReturnType<typeof parseTranscript>['messages'];
      try {
        ({ messages } = parseTranscript(text, { lenient: true }));
      } catch {
        // Not a transcript (day-001.md is a note): every front end refuses it, nothing to compare.
        expect(parseInput(text).ok).toBe(false);
        return;
      }
      const trajectories = agentRuns(text);
      const expected = json(lessons({ messages, trajectories }, READER));
      comparedKeyPoints += expected.proposed.length;

      // The CLI: the same pipeline, with its dictionary repairing typos in key points.
      const printed = await cli(join(DATA, file));
      if (printed.languages) readInOtherLanguages++;
      const spelt = json(
        lessons(
          { messages, trajectories },
          { ...READER, ...(isWord ? { isWord } : {}), ...(printed.languages ? { markers } : {}) },
        ),
      );
      // What the CLI prints is redacted as a whole document (an address in a turn the reader reports too).
      const asPrinted = JSON.parse(
        safeOut(JSON.stringify({ insights: spelt.insights, keyPoints: spelt.proposed }), {
          redactText,
          json: true,
        }),
      );
      expect(printed.insights).toEqual(asPrinted.insights);
      expect(printed.keyPoints).toEqual(asPrinted.keyPoints);

      // The playground's analysis module.
      const parsed = parseInput(text);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const view = computeView(
        parsed.value,
        DEFAULT_SETTINGS,
        text,
        await loadScorer(DEFAULT_SETTINGS.detector as LearnedDetector),
      );
      expect(json(view.insights)).toEqual(expected.insights);
      // The key points the page lists and adds are the view's, from the same lessons() run.
      expect(json(view.keyPoints)).toEqual(expected.proposed);

      // The session facade, with the reader and (synchronous, no scorer) with the markers; unredacted,
      // to compare with lessons (the facade's redaction is tested in session-secrets.test.ts).
      const options = { store: memoryStore(), storeOptions: { broadcast: false }, redact: false } as const;
      expect(observed(await loadRearview(options), messages, trajectories)).toEqual({
        insights: expected.insights,
        proposed: expected.proposed,
      });
      const byMarkers = json(lessons({ messages, trajectories }));
      expect(observed(createRearview({ ...options, store: memoryStore() }), messages, trajectories)).toEqual({
        insights: byMarkers.insights,
        proposed: byMarkers.proposed,
      });
      // The playground with the markers chosen; there, the key points of its insights alone are
      // lessons' too (with a scorer they are not: key points come only from the turns the markers report).
      const markersView = computeView(parsed.value, { ...DEFAULT_SETTINGS, detector: 'markers' }, text);
      expect(json(markersView.insights)).toEqual(byMarkers.insights);
      expect(json(markersView.keyPoints)).toEqual(byMarkers.proposed);
      expect(json(insightKeyPoints(markersView.insights, markersView.turns))).toEqual(byMarkers.proposed);

      // The edge example's handler: the transcript is redacted before it is analysed.
      const handler = createHandler({
        authenticate: () => ({ id: 't', playbookId: 'user-t' }),
        store: memoryStore(),
      });
      const res = await handler(new Request('https://app.example/reflect', { method: 'POST', body: text }));
      const body = (await res.json()) as { insights: unknown[]; added: { text: string; section: string }[] };
      const redacted = json(lessons({ messages: redactMessages(messages), trajectories }, READER));
      expect(body.insights).toEqual(redacted.insights);
      expect(body.added.map((a) => [a.section, a.text])).toEqual(
        redacted.proposed
          .slice(0, 10)
          .map((p) => [p.section, sanitizeKeyPointText(redactText(p.text))] as [string, string])
          .filter(([, t]) => t),
      );
    },
    60_000,
  );

  // Runs after the cases above (tests in a file run in order): the shared files do hold lessons.
  it('compared real key points, not only empty lists', () => {
    expect(comparedKeyPoints).toBeGreaterThan(0);
    // Six aider histories are written in Spanish, Portuguese or Russian (6 December).
    expect(readInOtherLanguages).toBeGreaterThanOrEqual(6);
  });
});

describe('keyPointOf', () => {
  it("links an insight to the key point written from its own turn, never to one whose 'turn before' it is", async () => {
    const { keyPointOf } = await import('rearview/session');
    const { insights, proposed } = lessons({
      messages: [
        { role: 'user', content: 'Set up the project.' },
        { role: 'assistant', content: 'Done, I fixed the tests.' },
        { role: 'user', content: 'No, that is still broken, the login page shows a blank screen.' },
        { role: 'assistant', content: 'Run npm install.' },
        { role: 'user', content: 'No, always use pnpm instead of npm in this repository.' },
      ],
    });
    // The key point names the complaint's turn as its second reference: the complaint is still no key point.
    expect(proposed[0]!.traceRefs).toContain(insights[0]!.traceRefs[0]);
    expect(keyPointOf(insights, proposed)).toEqual([[], [0]]);
    expect(keyPointOf(null as never, proposed)).toEqual([]);
    expect(keyPointOf([{}, { traceRefs: [] }, null as never], null as never)).toEqual([[], [], []]);
  });
});

describe('one key point per standing instruction', () => {
  it('proposes each rule of a turn apart, so a rule repeated beside a new one is found as a repeat', async () => {
    const { keyPointOf } = await import('rearview/session');
    // A Cline user's two turns (shortened): the second repeats the first turn's rule beside a new one.
    const { insights, proposed } = lessons({
      messages: [
        { role: 'user', content: 'Migrate the app to the new project.' },
        { role: 'assistant', content: 'I will delete the old bucket first.' },
        { role: 'user', content: 'No! Do NOT touch or destroy any resources in the old project, ever.' },
        { role: 'assistant', content: 'Understood. Running gcloud sql instances delete old-db.' },
        {
          role: 'user',
          content:
            'Stop. Always explain each command before you ask to run it. Do NOT touch or destroy any resources in the old project, ever.',
        },
      ],
    });
    expect(proposed.map((p) => p.text)).toEqual([
      'Do NOT touch or destroy any resources in the old project, ever.',
      'Always explain each command before you ask to run it.',
    ]);
    // Both turns' insights link to the key points of their own turn: the second to its new rule only.
    expect(keyPointOf(insights, proposed).filter((k) => k.length)).toEqual([[0], [1]]);
  });
});
