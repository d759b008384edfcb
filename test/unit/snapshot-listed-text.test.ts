/**
 * What a snapshot lists for a note (lib/snapshot/sentences.ts `withoutListMarker`, read by `listedText`): the sentence without the
 * list marker and checklist box it had in its message; evidence links are listed as they are.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deterministicSnapshot, listedText } from '../../lib/snapshot/index';
import { withoutListMarker } from '../../lib/snapshot/sentences';
import { notesInput } from '../fixtures/notes-input';

describe('withoutListMarker', () => {
  it('drops a bullet, a number and a checklist box before the sentence', () => {
    expect(withoutListMarker('1. **Schema mismatch**: the tags are nested.')).toBe(
      '**Schema mismatch**: the tags are nested.',
    );
    expect(withoutListMarker('2) The daemon failed to start.')).toBe('The daemon failed to start.');
    expect(withoutListMarker('- [-] Add a playbook for the tests')).toBe('Add a playbook for the tests');
    expect(withoutListMarker('* [ ] Add the migration')).toBe('Add the migration');
    expect(withoutListMarker('• Check the logs')).toBe('Check the logs');
    expect(withoutListMarker('+ Run the linter')).toBe('Run the linter');
  });

  it('keeps what is no list marker: a sign, a version, a box alone, a bare marker', () => {
    for (const t of ['-1 is the default value.', '1.2.3 is the version we pin.', '[ ] is a box', '- ', '1.'])
      expect(withoutListMarker(t), t).toBe(t);
  });

  it('returns a non-empty end of its input', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (t) => {
        const out = withoutListMarker(t);
        expect(out.length).toBeGreaterThan(0);
        expect(t.endsWith(out)).toBe(true);
      }),
    );
  });
});

describe('a snapshot lists notes without their list markers', () => {
  it('lists a numbered blocker and a bulleted step as sentences, and evidence as it is', () => {
    const s = deterministicSnapshot(
      notesInput(
        [
          '1. **Missing `package-lock.json`**: the Dockerfile runs `npm ci`, which fails without it.',
          '- [ ] Add the lockfile to the backend image',
          'See `docker/backend.Dockerfile` for the build.',
        ],
        'ship the images',
      ),
    );
    expect(s.blockers).toEqual([
      '**Missing `package-lock.json`**: the Dockerfile runs `npm ci`, which fails without it.',
    ]);
    expect(s.nextActions).toEqual(['Add the lockfile to the backend image']);
    expect(s.requiredEvidenceLinks).toContain('docker/backend.Dockerfile');
    // listedText finds each entry's item: the note without its marker, the pointer as its link.
    expect(s.nextActions).toContain(listedText('- [ ] Add the lockfile to the backend image'));
    expect(listedText('- `docker/backend.Dockerfile`')).toBe('docker/backend.Dockerfile');
  });

  it('lists a glossed pointer without its list marker', () => {
    const value = '12. `web/src/state/cart.ts` (cart totals)';
    const s = deterministicSnapshot(notesInput([value], 'fix the totals'));
    expect(s.requiredEvidenceLinks).toContain('`web/src/state/cart.ts` (cart totals)');
    expect(listedText(value)).toBe('`web/src/state/cart.ts` (cart totals)');
  });
});
