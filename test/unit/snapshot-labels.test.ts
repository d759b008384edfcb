/**
 * The snapshot's categorizer against the hand-labelled set of eval/snapshot/ (rules in
 * LABELLING.md): the set's shape, the categoriser's accuracy targets on the sources it was not tuned
 * on, and the known failures of the keyword categorizer it replaced.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LABELS,
  loadLabelled,
  oldCategorizer,
  SPLIT,
  score,
  snapshotCategorizer,
} from '../../eval/snapshot/score';
import { findLinks } from '../../lib/categorise/index';
import { isExtension } from '../../lib/categorise/pointer';
import { ownCategories } from '../../tools/shared/own-category';

const all = loadLabelled();
const crossSource = all.filter((e) => SPLIT[e.kind] !== 'tune');

describe('labelled snapshot entries', () => {
  it('hold at least 500 entries from at least four kinds of source, each with its source and label', () => {
    expect(all.length).toBeGreaterThanOrEqual(500);
    expect(new Set(all.map((e) => e.kind)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    for (const e of all) {
      expect(e.file).toMatch(/^[\w-]+\/[^/]+$/);
      expect(e.pos).not.toBe('');
      expect(e.text.length).toBeGreaterThan(0);
      expect(LABELS).toContain(e.label);
      expect(SPLIT[e.kind]).toBeDefined();
    }
    expect(all.some((e) => e.hard)).toBe(true);
    // No aider text is stored (most aider sources state no licence).
    expect(all.some((e) => e.file.startsWith('aider/'))).toBe(false);
  });

  it('meets the targets on the sources it was not tuned on', () => {
    const s = score(crossSource, snapshotCategorizer);
    expect(s.accuracy).toBeGreaterThanOrEqual(0.85);
    // Better than the categorizer it replaced, on every split.
    for (const split of ['tune', 'held-out', 'untouched']) {
      const es = all.filter((e) => SPLIT[e.kind] === split);
      expect(score(es, snapshotCategorizer).accuracy).toBeGreaterThan(score(es, oldCategorizer).accuracy);
    }
  });
});

describe('categorization by what the sentence does (known failures of the keyword rules)', () => {
  const where = (value: string) =>
    ownCategories({ objective: '', entries: [{ scope: 'notes', key: 'k', value, sourceIteration: 0 }] })[0];

  it('retires done-reports and expected failures instead of calling them blockers', () => {
    expect(where('Added 19 new regression tests for the parser, 0 failures.')).toBe('none');
    expect(where('Tests passed (with 2 expected failures, which is normal)')).toBe('none');
    expect(where('The missing colon has been added to the function definition on line 4.')).toBe('none');
    expect(where('tests no longer fail on CI')).toBe('none');
  });

  it('keeps problems that still stand, negated or not', () => {
    expect(where('Fixed the import, but the parser still fails on empty input')).toBe('blockers');
    expect(where("The endpoint isn't configured for test env.")).toBe('blockers');
    expect(where('The issue is that dict(book) returns a dict, not a Book.')).toBe('blockers');
    expect(where('The library tests mock a helper which no longer exists.')).toBe('blockers');
  });

  it('reads hedged claims as hypotheses and plans as next actions', () => {
    expect(where('It might be because there is more than one solution.')).toBe('openHypotheses');
    expect(where('Maybe because print(qs) failed early?')).toBe('openHypotheses');
    expect(where("I'll run the reproduction script again.")).toBe('nextActions');
    expect(where('We will first examine its contents.')).toBe('nextActions');
    expect(where("Since the hook won't let me commit, I have two options:")).toBe('blockers');
  });

  it('tells questions from reported doubts and sends bare paths to evidence with their text', () => {
    expect(where('Would you like me to skip the hook for this commit?')).toBe('unresolvedQuestions');
    expect(where('not sure whether the cache is shared between workers')).toBe('unresolvedQuestions');
    expect(where('/usr/bin/python3')).toBe('requiredEvidenceLinks');
    expect(where('See lib/retry.ts:42')).toBe('requiredEvidenceLinks');
  });

  it('takes a dotted name for a file only with a file extension, and a slash pair for a path only with a name', () => {
    // Attributes and modules named in code are not evidence to open (spent sets 5-8 held these four).
    expect(where('Uses `pathlib.Path`.')).toBe('none');
    expect(where('Line 197 `port=self.port,`.')).toBe('none');
    expect(where('Aberration is v/c ~ 1e-4 radians ~ 20 arcsec.')).toBe('none');
    expect(where('`Foo.x` is 2.')).toBe('none');
    // Files keep being pointers, whatever their kind.
    for (const file of [
      '`notes.md`',
      'data/books.plist',
      'Uses `setup.cfg`.',
      'run.log',
      'clip.mp4',
      'x/y.py',
    ])
      expect(where(file), file).toBe('requiredEvidenceLinks');
  });

  it("knows every extension links.ts's LINK finds in prose, so the two lists cannot drift apart", () => {
    const source = readFileSync(resolve(import.meta.dirname, '../../lib/categorise/links.ts'), 'utf8');
    const group = /\\\.\(\?:((?:[a-z0-9]+\|)+[a-z0-9]+)\)\(\?::\\d/.exec(source);
    expect(group, "LINK's extension group").not.toBeNull();
    const linkExtensions = group![1]!.split('|');
    expect(linkExtensions.length).toBeGreaterThan(30);
    for (const ext of linkExtensions) {
      expect(findLinks(`see notes.${ext} here`), ext).toEqual([`notes.${ext}`]); // the group was read right
      expect(isExtension(ext), ext).toBe(true);
    }
  });

  it('reads "If I look at <file>" as a place to look, and only with a file', () => {
    expect(where('If I look at `sphinx/writers/latex.py`:')).toBe('requiredEvidenceLinks');
    expect(where('If I look at `a/b/transforms.py`, it uses `erfa.atioq`.')).toBe('requiredEvidenceLinks');
    expect(where('If we check in src/cache.ts again.')).toBe('requiredEvidenceLinks');
    // No file: no pointer. A step being tried ("If I <verb> …:") stays one; an attribute is no file.
    expect(where('If I look at the docs again:')).toBe('nextActions');
    expect(where('If I look at `self.port`:')).toBe('none');
  });

  it('reads words quoted as code as names', () => {
    expect(where('The `missing_colon.py` file is located in the `tests` directory.')).toBe('none');
    expect(where('The `on_failure` hook is defined in `handlers.py`.')).toBe('none');
    expect(where('This will raise a `KeyError` for unknown symbols.')).toBe('blockers');
  });

  it('reads a file name that opens an entry as a name, not as its words', () => {
    // "fix", "check", "run", "next" open a plan; as a file's name they open a report.
    expect(where('fix.py was updated.')).toBe('none');
    expect(where('check.py passes now.')).toBe('none');
    expect(where('- next.config.js holds the settings.')).toBe('none');
    expect(where('▲ Next.js 15.1.0')).toBe('none');
    expect(where('test.py fails with a KeyError.')).toBe('blockers');
    // The words themselves, or a name that is no file ("e.g."), read as before.
    expect(where('Fix the parser.')).toBe('nextActions');
    expect(where('Check the parser.')).toBe('nextActions');
    expect(where('Update fix.py to add a guard.')).toBe('nextActions');
    // A library's name alone is no place to look; a file of the same name is.
    expect(where('Node.js')).toBe('none');
    expect(where('See src/next.js')).toBe('requiredEvidenceLinks');
  });
});
