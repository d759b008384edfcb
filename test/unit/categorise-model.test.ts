/**
 * `rearview/categorise-model` (the notes reader) and the snapshot's `categorise` option: integer
 * weights, what the snapshot does with an injected categoriser, the entry's size, and that the shipped
 * data is exactly what the training script gives.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { haveSharedData } from '../../eval/heuristic/data';
import {
  BUCKETS,
  createNotesReader,
  NOTE_CLASSES,
  noteBuckets,
  noteFeatures,
  noteLogits,
  notesReader,
} from '../../lib/categorise-model/index';
import { BIAS, TRAINED, WEIGHTS } from '../../lib/categorise-model/weights';
import { ValidationError } from '../../lib/core/index';
import {
  CATEGORIES,
  createSnapshotMemo,
  deterministicSnapshot,
  entriesFromMessages,
  type MemoryEntry,
  type NoteCategoriser,
  readSnapshotSource,
  type SnapshotInput,
} from '../../lib/snapshot/index';
import { CONVERSATION_FOLDERS, METADATA_FILE, sharedDataDir, walkFiles } from '../../tools/shared/data';
import { bundle } from '../../tools/shared/heuristic-size';

const NOTES = [
  'The issue might be with how I am running it.',
  'API Error: Request was aborted.',
  'All subtasks complete: 26 regression tests pass.',
  'Should we rename it to with_common_list_options?',
  "Let's run the retry suite with the jitter pinned.",
  'See lib/retry.ts:42 for the cap.',
  'Zürich 🚀 deploy blocked by quota',
];
const inputOf = (texts: readonly string[]): SnapshotInput => ({
  objective: '',
  entries: texts.map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i })),
});

/** The person's sentences (entries of role `user`) of every shared transcript, each once. */
function personSentences(): string[] {
  const root = sharedDataDir()!;
  const out = new Set<string>();
  for (const folder of CONVERSATION_FOLDERS)
    for (const path of walkFiles(join(root, folder))) {
      if (METADATA_FILE.test(path)) continue;
      let src: ReturnType<typeof readSnapshotSource>;
      try {
        src = readSnapshotSource(readFileSync(path, 'utf8'));
      } catch {
        continue; // a file no reader knows (the shared data's README explains them)
      }
      if (src.kind !== 'transcript') continue;
      for (const e of entriesFromMessages(src.transcript!.messages).entries)
        if (e.role === 'user') out.add(e.value);
    }
  return [...out];
}

describe('notes reader data', () => {
  it('holds integer weights for six classes, buckets in range, ascending', () => {
    expect(BIAS).toHaveLength(NOTE_CLASSES.length);
    expect(BIAS.every(Number.isInteger)).toBe(true);
    let bucket = 0;
    for (const entry of WEIGHTS.split(' ')) {
      const parts = entry.split(':');
      const delta = Number.parseInt(parts[0]!, 36);
      expect(delta).toBeGreaterThan(bucket === 0 ? -1 : 0);
      bucket += delta;
      expect(parts.slice(1)).toHaveLength(NOTE_CLASSES.length);
    }
    expect(bucket).toBeLessThan(BUCKETS);
  });

  it('gives each note one class from integer logits, the same on every call', () => {
    for (const t of NOTES) {
      const z = noteLogits(t);
      expect(z.every(Number.isInteger)).toBe(true);
      const best = NOTE_CLASSES[z.indexOf(Math.max(...z))];
      expect(notesReader(t)).toBe(best === 'irrelevant' ? undefined : best);
      expect(noteBuckets(t)).toEqual(noteBuckets(t));
    }
    // The rules' own answer is a feature: a plain plan and a plain question keep theirs.
    expect(noteFeatures('Run the tests next.')).toContain('r:nextActions');
    expect(notesReader('Should we rename it to with_common_list_options?')).toBe('unresolvedQuestions');
  });

  it('reads a bounded prefix: a 1 MB note costs what its first 600 characters do', () => {
    const big = `Maybe the cache is stale. ${'x '.repeat(500_000)}`;
    expect(noteBuckets(big)).toEqual(noteBuckets(big.slice(0, 600)));
  });
});

describe('snapshot categorise option', () => {
  it('puts each note where the categoriser says; forced scopes keep theirs', () => {
    const s = deterministicSnapshot(inputOf(NOTES), { categorise: notesReader });
    for (const t of NOTES) {
      const c = notesReader(t);
      if (c && c !== 'requiredEvidenceLinks') expect(s[c]).toContain(t);
      for (const other of CATEGORIES)
        if (other !== c && other !== 'requiredEvidenceLinks') expect(s[other]).not.toContain(t);
    }
    const all = deterministicSnapshot(
      {
        objective: '',
        entries: [
          { scope: 'notes', key: 'a', value: 'the build passes now', sourceIteration: 1 },
          { scope: 'questions', key: 'b', value: 'the build passes now too', sourceIteration: 1 },
        ],
      },
      { categorise: () => 'blockers' },
    );
    expect(all.blockers).toEqual(['the build passes now']);
    expect(all.unresolvedQuestions).toEqual(['the build passes now too']);
  });

  it('gives the same snapshot through a memo, however often it is reused', () => {
    const memo = createSnapshotMemo();
    const plain = deterministicSnapshot(inputOf(NOTES), { categorise: notesReader });
    deterministicSnapshot(inputOf(NOTES), { memo });
    expect(deterministicSnapshot(inputOf(NOTES), { memo, categorise: notesReader })).toEqual(plain);
    expect(deterministicSnapshot(inputOf(NOTES), { memo })).toEqual(deterministicSnapshot(inputOf(NOTES)));
  });

  it("passes each entry's role, and reads a text again when it comes in another role", () => {
    const calls: string[] = [];
    const categorise: NoteCategoriser = (text, role) => {
      calls.push(`${role ?? '-'}:${text}`);
      return role === 'user' ? 'blockers' : undefined;
    };
    const memo = createSnapshotMemo();
    const entries: MemoryEntry[] = [
      { scope: 'notes', key: 'a', value: 'it fails on login', sourceIteration: 1, role: 'user' },
      { scope: 'notes', key: 'b', value: 'it fails on login', sourceIteration: 2, role: 'user' },
    ];
    expect(deterministicSnapshot({ objective: '', entries }, { memo, categorise }).blockers).toEqual([
      'it fails on login',
    ]);
    // Once per text and role, across builds of one memo.
    deterministicSnapshot({ objective: '', entries }, { memo, categorise });
    expect(calls).toEqual(['user:it fails on login']);
    const agent = entries.map((e) => ({ ...e, role: 'assistant' as const }));
    expect(deterministicSnapshot({ objective: '', entries: agent }, { memo, categorise }).blockers).toEqual(
      [],
    );
    const unknown = entries.map(({ role: _, ...e }) => e);
    deterministicSnapshot({ objective: '', entries: unknown }, { memo, categorise });
    expect(calls).toEqual(['user:it fails on login', 'assistant:it fails on login', '-:it fails on login']);
  });

  it("gives a person's words the rules' answer: the snapshot of the person's sentences is the rules' one", () => {
    // Every person's sentence of the shared transcripts when they are here, else a few of their kind.
    const said = haveSharedData()
      ? personSentences()
      : [...NOTES, 'it is still not working', 'I get this error: x is undefined'];
    expect(said.length).toBeGreaterThan(haveSharedData() ? 1000 : 5);
    for (let at = 0; at < said.length; at += 200) {
      const chunk = said.slice(at, at + 200);
      const input: SnapshotInput = {
        objective: '',
        entries: chunk.map((value, i) => ({
          scope: 'notes',
          key: `k${i}`,
          value,
          sourceIteration: i,
          role: 'user',
        })),
      };
      expect(deterministicSnapshot(input, { categorise: notesReader })).toEqual(deterministicSnapshot(input));
    }
    // The agent's words are the reader's: some of these sentences it reads otherwise.
    expect(said.some((t) => notesReader(t) !== notesReader(t, 'user'))).toBe(true);
  });

  it('rejects a categoriser that is not a function, or answers with no category', () => {
    expect(() => deterministicSnapshot(inputOf(NOTES), { categorise: 'x' as never })).toThrow(
      ValidationError,
    );
    expect(() => deterministicSnapshot(inputOf(NOTES), { categorise: () => 'irrelevant' as never })).toThrow(
      ValidationError,
    );
  });
});

describe('createNotesReader', () => {
  it('reads with the weights it is given: biases alone pick one class for every sentence', () => {
    expect(createNotesReader({ bias: [0, 0, 0, 0, 0, 1], weights: '' }).read(NOTES[0]!)).toBeUndefined();
    const blockers = createNotesReader({ bias: [0, 5, 0, 0, 0, 1], weights: '' });
    expect(NOTES.map((t) => blockers.read(t))).toEqual(NOTES.map(() => 'blockers'));
    // A person's words keep the rules' answer, whatever the weights.
    expect(blockers.read('Should we rename it?', 'user')).toBe('unresolvedQuestions');
  });

  it('checks its weights on the first sentence it reads, with a ValidationError naming what is wrong', () => {
    const bad = [
      { bias: [0, 0, 0], weights: '' },
      { bias: [0, 0, 0, 0, 0, 0.5], weights: '' },
      { bias: [0, 0, 0, 0, 0, 0], weights: '2hb:1:2' },
      { bias: [0, 0, 0, 0, 0, 0], weights: '2hb:1:2:3:4:5:x!' },
    ];
    for (const w of bad) {
      const reader = createNotesReader(w); // creating it reads nothing yet
      expect(() => reader.read('x')).toThrow(ValidationError);
      expect(() => reader.logits('x')).toThrow(/Notes reader data is invalid: (bias|weights\[0\])/);
    }
  });
});

describe('notes reader size', () => {
  it('the categorise-model entry stays under 60 KB gzipped', async () => {
    const entry = new URL('../../lib/categorise-model/index.ts', import.meta.url).pathname;
    const model = await bundle(`export * from ${JSON.stringify(entry)};`);
    console.log(`notes reader: entry ${model.gzipped} B gzipped (${model.minified} B minified)`);
    expect(model.gzipped).toBeLessThan(60 * 1024);
  }, 120_000);
});

describe('notes reader training', () => {
  // Sets 2 and 30 keep no text: they are re-read from ../shared/data, so the refit needs it.
  it.runIf(haveSharedData())(
    'is deterministic: the shipped data is exactly what the training script gives',
    async () => {
      const { shippedModel } = await import('../../eval/snapshot/notes-reader-ship');
      const { encodeWeights } = await import('../../eval/snapshot/notes-reader-report');
      const { readFileSync } = await import('node:fs');
      const { logits } = await import('../../eval/snapshot/notes-reader-model');
      const { rowOf } = await import('../../eval/snapshot/notes-reader-ship');
      const { loadGrouped } = await import('../../eval/snapshot/notes-reader-data');
      const model = shippedModel(TRAINED);
      // The library reads a sentence exactly as the evaluation scored the model: same buckets, same sums.
      for (const e of loadGrouped().filter((_, i) => i % 7 === 0))
        expect(noteLogits(e.text)).toEqual([
          ...logits(model, rowOf(noteFeatures(e.text, TRAINED.featureSet))),
        ]);
      const text = encodeWeights(model, { ...TRAINED, n: 0 });
      const file = new URL('../../lib/categorise-model/weights.ts', import.meta.url);
      // The file is the script's output after the formatter: compare the data, not the layout.
      const data = (s: string) => [
        s.match(/BIAS[^=]*=\s*(\[[^\]]*\])/)?.[1]?.replace(/\s+/g, ''),
        s.match(/WEIGHTS[^=]*=\s*'([^']*)'/)?.[1],
      ];
      expect(data(text)[1]?.length).toBeGreaterThan(0);
      expect(data(text)).toEqual(data(readFileSync(file, 'utf8')));
    },
    600_000,
  );
});
