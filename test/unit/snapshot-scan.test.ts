/**
 * The snapshot's accelerators agree with the plain helpers they stand in for: the one-pass word scan
 * with `words`, its key hash with `comparableKey`, the flag classifier with `classify`, and the
 * deterministic snapshot is the same whether entries repeat, differ in case or need squashing.
 */
import { describe, expect, it } from 'vitest';
import { classify, classifyFlags, RESOLVED_CODE } from '../../lib/snapshot/classify';
import { CATEGORIES, deterministicSnapshotWithTrace } from '../../lib/snapshot/deterministic';
import { comparableKey, squash, words } from '../../lib/snapshot/text';
import { keyHash, scanWords, Vocabulary } from '../../lib/snapshot/vocab';

const TEXTS = [
  'CI is red: 3 retry tests failing',
  "The build isn't GREEN, it's still failing",
  'no error found in lib/a.ts',
  'Maybe the cache IS stale?',
  'I think the parser could be wrong',
  'not sure why the queue stalls',
  'Need to rerun the suite',
  'tests no longer fail',
  'errors: none',
  "can't reproduce; won't fix",
  'TODO: bump the version',
  'the flaky test is fixed',
  'Should 529 be retried like 503?',
  '',
  'x',
];

describe('snapshot word scan', () => {
  it('gives the words, key hash and classification of the plain helpers', () => {
    const vocab = new Vocabulary();
    for (const t of TEXTS) {
      const ids = scanWords(t, vocab);
      expect(ids).not.toBeNull();
      expect(ids!.map((id) => vocab.words[id])).toEqual(words(t));
      if (ids!.length > 0) expect(vocab.keyHash).toBe(keyHash(comparableKey(t)));
      const c = classify(words(t), t);
      const code = classifyFlags(ids!, vocab.flags, t);
      expect(code >= 0 && code < 4 ? CATEGORIES[code] : undefined).toBe(c.category);
      expect(code === RESOLVED_CODE).toBe(c.resolved);
    }
  });

  it('leaves text that needs squashing or is not ASCII to the general path', () => {
    const vocab = new Vocabulary();
    for (const t of [' lead', 'trail ', 'two  spaces', 'tab\there', 'café', 'Zürich 🚀']) {
      expect(scanWords(t, vocab)).toBeNull();
      expect(scanWords(squash(t), vocab) === null).toBe(/[^\x00-\x7f]/.test(t));
    }
  });

  it('collapses repeats, case and spacing variants exactly as comparable keys do', () => {
    const values = [
      'CI is red',
      'ci is RED!',
      '  CI  is red ',
      'CI is red',
      "isn't it",
      'isn t it',
      'Zürich is red',
      'zürich IS red',
    ];
    const entries = values.map((value, i) => ({
      scope: 'blockers',
      key: `k${i}`,
      value,
      sourceIteration: i,
    }));
    const t = deterministicSnapshotWithTrace({ objective: 'red', entries });
    expect(t.snapshot.blockers).toEqual(['zürich IS red', 'CI is red', 'isn t it']);
    expect(t.dropped.filter((d) => d.reason === 'duplicate')).toHaveLength(5);
  });
});
