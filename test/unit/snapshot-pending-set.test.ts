/**
 * The `pending` set (eval/snapshot/sets/pending): blind readers' labels of next-action and blocker items,
 * kept as references only. The labels are the rules' words, with distinct ids and a second reading on a
 * sample of each round; the notes reader's rounds list their rows as their groups say.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type NoteCategoriser, readSnapshotSource } from 'rearview/snapshot';
import { describe, expect, it } from 'vitest';
import {
  acted,
  actedRuns,
  aiderEdits,
  blockers,
  data,
  delivered,
  earlier,
  every,
  fixed,
  fixedRuns,
  headings,
  introducesRows,
  intros,
  labels,
  modelErrors,
  notesReaderAgentRows,
  notesReaderRows,
  overtaken,
  questions,
  renderedEdits,
  replied,
  runsSubmitted,
  runsSuperseded,
  set,
  sha,
  superseded,
  supersededAfter,
} from './snapshot-pending-set-helpers';

describe('the pending set', () => {
  it('labels every item by the rules, with distinct ids and a second reading on a sample', () => {
    for (const r of labels) expect(['pending', 'not-pending', 'not-a-step', 'unclear']).toContain(r.label);
    // intros.jsonl asks whether an item says something on its own (RULES-intros.md); every other file
    // whether an item still stands (RULES-blockers.md and its variants).
    for (const r of intros) expect(['informative', 'empty', 'unclear']).toContain(r.label);
    for (const r of introducesRows) {
      expect(['pending', 'not-pending', 'not-a-step', 'unclear']).toContain(r.label);
      expect(['introduces', 'last-words', 'kept-after-latest']).toContain(r.group);
      expect(['nextActions', 'unresolvedQuestions']).toContain(r.category);
    }
    for (const r of replied) {
      expect(['open', 'answered', 'not-a-question', 'unclear']).toContain(r.label);
      expect(['replied', 'kept-user', 'kept-assistant']).toContain(r.group);
    }
    for (const r of every.filter(
      (r) =>
        !labels.includes(r) &&
        !questions.includes(r) &&
        !intros.includes(r) &&
        !introducesRows.includes(r) &&
        !replied.includes(r) &&
        !supersededAfter.includes(r) &&
        !delivered.includes(r) &&
        !renderedEdits.includes(r) &&
        !runsSuperseded.includes(r) &&
        !runsSubmitted.includes(r) &&
        !headings.includes(r) &&
        !notesReaderRows.includes(r),
    ))
      expect(['open', 'resolved', 'not-a-problem', 'unclear']).toContain(r.label);
    for (const r of earlier) {
      expect(['before-latest-turn', 'after-latest-turn']).toContain(r.group);
      expect(['blockers', 'openHypotheses']).toContain(r.category);
    }
    for (const r of aiderEdits) {
      expect(['applied', 'not-applied']).toContain(r.group);
      expect(['blockers', 'openHypotheses', 'nextActions']).toContain(r.category);
    }
    for (const r of modelErrors) expect(['answered', 'unanswered']).toContain(r.group);
    for (const r of overtaken) {
      expect(['overtaken', 'kept-before-latest']).toContain(r.group);
      expect([r.role, r.category]).toEqual(['assistant', 'blockers']);
    }
    for (const r of superseded) {
      expect(['superseded', 'kept-before-latest']).toContain(r.group);
      expect(['assistant', 'user', 'tool']).toContain(r.role);
      expect(r.category).toBe('blockers');
    }
    for (const r of delivered) {
      expect(['delivered', 'kept-latest-turn']).toContain(r.group);
      expect([r.role, r.category]).toEqual(['user', 'nextActions']);
      expect(['pending', 'not-pending', 'not-a-step', 'unclear']).toContain(r.label);
    }
    for (const r of supersededAfter) {
      expect(['superseded-after', 'kept-after-latest']).toContain(r.group);
      expect(r.role).toBe('assistant');
      expect([
        'open',
        'resolved',
        'not-a-problem',
        'unclear',
        'pending',
        'not-pending',
        'not-a-step',
      ]).toContain(r.label);
      // Next actions are read by RULES.md, blockers by RULES-blockers.md.
      expect(r.category === 'blockers').toBe(['open', 'resolved', 'not-a-problem'].includes(String(r.label)));
    }
    for (const r of questions) {
      expect(['open', 'answered', 'not-a-question', 'unclear']).toContain(r.label);
      expect(['open', 'answered', 'not-a-question', 'unclear']).toContain(r.second);
      expect(['user-done', 'assistant-done', 'user-after', 'assistant-after']).toContain(r.group);
    }
    // Every model-error row was read twice.
    for (const r of modelErrors) expect(['open', 'resolved', 'not-a-problem', 'unclear']).toContain(r.second);
    for (const r of [...acted, ...actedRuns]) expect(['acted', 'not-acted']).toContain(r.group);
    expect(acted.filter((r) => r.second !== undefined).length).toBeGreaterThan(10);
    for (const r of [...fixed, ...fixedRuns]) expect(['fixed', 'unfixed']).toContain(r.group);
    for (const rows of [
      fixed,
      fixedRuns,
      acted,
      actedRuns,
      modelErrors,
      questions,
      aiderEdits,
      earlier,
      intros,
      overtaken,
      introducesRows,
      replied,
      superseded,
      supersededAfter,
      delivered,
      renderedEdits,
      runsSuperseded,
      runsSubmitted,
      headings,
      notesReaderRows,
    ])
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    // Agent runs' items by the rules of their heading (the round's sheet said which words to use).
    const wordsOf: Record<string, string[]> = {
      blockers: ['open', 'resolved', 'not-a-problem', 'unclear'],
      nextActions: ['pending', 'not-pending', 'not-a-step', 'unclear'],
      unresolvedQuestions: ['open', 'answered', 'not-a-question', 'unclear'],
      openHypotheses: ['open', 'resolved', 'not-a-problem', 'unclear'],
    };
    for (const r of runsSuperseded) {
      expect(['run-superseded', 'kept']).toContain(r.group);
      expect(wordsOf[String(r.category)]).toContain(r.label);
      if (r.second !== undefined) expect(wordsOf[String(r.category)]).toContain(r.second);
      expect(String(r.file)).toMatch(/^(?:mini-swe-agent|swe-agent|other-agents)\//);
    }
    expect(runsSuperseded.filter((r) => r.second !== undefined).length).toBe(25);
    // A run that submitted its work (runs-submitted.jsonl): the next actions and questions it no longer
    // lists, and next actions of the runs that did not submit.
    for (const r of runsSubmitted) {
      expect(['run-submitted', 'kept']).toContain(r.group);
      expect(['nextActions', 'unresolvedQuestions']).toContain(r.category);
      expect(wordsOf[String(r.category)]).toContain(r.label);
      if (r.second !== undefined) expect(wordsOf[String(r.category)]).toContain(r.second);
      expect(String(r.file)).toMatch(/^(?:mini-swe-agent|swe-agent|other-agents)\//);
    }
    expect(runsSubmitted.filter((r) => r.second !== undefined).length).toBe(19);
    for (const r of headings) {
      expect(['heading', 'kept']).toContain(r.group);
      expect(wordsOf[String(r.category)]).toContain(r.label);
    }
    // The second reader's words for questions: `answered` where the first said `not-a-question`.
    expect(headings.filter((r) => r.second !== undefined).length).toBe(9);
    // The notes reader's lists (notes-reader.jsonl): items it takes out, puts in, and blockers both keep.
    for (const r of notesReaderRows) {
      expect(['removed', 'added', 'kept']).toContain(r.group);
      expect(wordsOf[String(r.category)]).toContain(r.label);
      if (r.second !== undefined) expect(wordsOf[String(r.category)]).toContain(r.second);
    }
    expect(notesReaderRows.filter((r) => r.second !== undefined).length).toBe(24);
    // The reader for the agent's words only (notes-reader-agent.jsonl): blockers it takes out, controls.
    for (const r of notesReaderAgentRows) {
      expect(['removed', 'kept']).toContain(r.group);
      expect(r.category).toBe('blockers');
      expect(wordsOf.blockers).toContain(r.label);
      if (r.second !== undefined) expect(wordsOf.blockers).toContain(r.second);
    }
    expect(notesReaderAgentRows.filter((r) => r.second !== undefined).length).toBe(9);
    for (const r of renderedEdits) {
      expect(['rendered-edit', 'kept']).toContain(r.group);
      const words =
        r.category === 'blockers'
          ? ['open', 'resolved', 'not-a-problem', 'unclear']
          : ['pending', 'not-pending', 'not-a-step', 'unclear'];
      expect(words).toContain(r.label);
      if (r.second !== undefined) expect(words).toContain(r.second);
    }
    expect(renderedEdits.filter((r) => r.second !== undefined).length).toBe(17);
    expect(new Set(labels.map((r) => r.id)).size).toBe(labels.length);
    for (const round of [1, 2, 3])
      expect(labels.filter((r) => r.round === round && r.second !== undefined).length).toBeGreaterThan(10);
    expect(blockers.filter((r) => r.second !== undefined).length).toBeGreaterThan(10);
    for (const rows of [fixed, acted, actedRuns, aiderEdits, earlier])
      expect(rows.filter((r) => r.second !== undefined).length).toBeGreaterThan(10);
    // (An 11th second reading was of a row now retired: aider's launch output.)
    expect(superseded.filter((r) => r.second !== undefined).length).toBe(9);
    expect(supersededAfter.filter((r) => r.second !== undefined).length).toBe(6);
    expect(delivered.filter((r) => r.second !== undefined).length).toBe(16);
    // References only: no row carries the item's text.
    for (const r of every) expect(Object.keys(r)).not.toContain('text');
  });
});

describe("the notes reader's rounds (notes-reader.jsonl, notes-reader-agent.jsonl)", () => {
  /**
   * The reader the rounds drew and read: the weights of 5 December, kept beside the rows
   * (notes-reader-2026-12-05.json), read as `notesReader` reads its own. A refit moves the shipped
   * weights; the rows stay a measurement of the weights they were drawn with.
   */
  const readerOf5December = async (): Promise<NoteCategoriser> => {
    const { createNotesReader } = await import('rearview/categorise-model');
    const frozen = JSON.parse(readFileSync(join(set, 'notes-reader-2026-12-05.json'), 'utf8'));
    return createNotesReader({ bias: frozen.bias, weights: frozen.weights }).read;
  };
  /** `category|sha256` of each listed item of a file, by the rules and by the categoriser given. */
  const listed = async (file: string, categorise: NoteCategoriser) => {
    const { deterministicSnapshotWithTrace } = await import('rearview/snapshot');
    const src = readSnapshotSource(readFileSync(join(data, file), 'utf8'));
    const entries = src.input.entries ?? [];
    const keys = (options: Parameters<typeof deterministicSnapshotWithTrace>[1]) =>
      new Set(
        deterministicSnapshotWithTrace(src.input, options).kept.flatMap((item) => {
          const id = item.sources.find((s) => /^m\d+$/.test(s));
          const e = id ? entries[Number(id.slice(1)) - 1] : undefined;
          return e ? [`${item.category}|${sha(String(e.value).trim())}`] : [];
        }),
      );
    return { rules: keys({}), reader: keys({ categorise }) };
  };
  /**
   * Blockers the rules of 5 December listed and those of 6 December do not, all in one Chinese session
   * (`file#message#sha256`): 问题 after 高频 or 默认 names the questions the app shows, and a later plan
   * clause outweighs a guess (eval/snapshot/sets/foreign-notes/README.md), so neither reading lists them.
   */
  const unlistedSince6December = new Set(
    ['0#67f37c5c4f55', '15#8a44f3effa9f', '34#1c5402cf3686', '35#e51f7a9be40f', '55#89ec4c117686'].map(
      (m) =>
        `specstory/funnysubaru+Yuichat/.specstory__history__2026-01-20_09-39-high-frequency-issue-performance-optimization.md#${m}`,
    ),
  );
  /**
   * Guesses the reader took out and the rules no longer list either since content shown with a hedge
   * is no note ("Here is an example of how you might …", lib/categorise/english.ts `none-presented`):
   * the blind readers had judged them no guess.
   */
  for (const row of ['2sIzVyu_25.json#6#1f61a0ec7f4b', 'rZT6vVR_0.json#5#d3c9df4d8b55'])
    unlistedSince6December.add(`sharegpt/conversations/${row}`);
  /**
   * Blockers the readers judged resolved that no reading lists since 7 December: the last English stage
   * (lib/categorise/english.ts, stage `last`) reads more of their session's sentences as blockers, and
   * these older ones fall over the snapshot's cap of 25 (`over_cap`).
   */
  for (const row of [
    'specstory/closup+process-xbrl/.specstory__history__look-at-the-python-files-in-models.md#94#f945a787148a',
    'cline/mike4567+MRA04242026/api_conversation_history.json#524#1a4b50315a7b',
  ])
    unlistedSince6December.add(row);
  /** Each row is listed by the rules and/or the reader as its group says. */
  const expectGroups = async (rows: Record<string, unknown>[], categorise: NoteCategoriser) => {
    const byFile = new Map<string, Awaited<ReturnType<typeof listed>>>();
    for (const r of rows) {
      const file = String(r.file);
      if (!byFile.has(file)) byFile.set(file, await listed(file, categorise));
      const { rules, reader } = byFile.get(file)!;
      const key = `${r.category}|${r.sha256}`;
      const unlisted = unlistedSince6December.has(`${file}#${r.message}#${String(r.sha256).slice(0, 12)}`);
      expect([rules.has(key), reader.has(key)], `${file} message ${r.message}`).toEqual(
        unlisted
          ? [false, false]
          : r.group === 'removed'
            ? [true, false]
            : r.group === 'added'
              ? [false, true]
              : [true, true],
      );
    }
  };

  it.skipIf(!existsSync(data))(
    'the first round (the reader on every sentence): removed rows are listed with the rules only, added ones with the reader only',
    async () => {
      const notesReader = await readerOf5December();
      // That round read every sentence with the reader, whoever wrote it: the role is not passed.
      await expectGroups(notesReaderRows, (text) => notesReader(text));
    },
    120_000,
  );

  it.skipIf(!existsSync(data))(
    "the second round (the person's words to the rules): its removed rows, and the first round's the agent or a tool wrote, are listed with the rules only",
    async () => {
      const notesReader = await readerOf5December();
      await expectGroups(notesReaderAgentRows, notesReader);
      const earlier = notesReaderRows.filter(
        (r) => r.group === 'removed' && r.role !== 'user' && r.category === 'blockers',
      );
      expect(earlier.length).toBe(11);
      await expectGroups(earlier, notesReader);
    },
    120_000,
  );
});
