/**
 * An evidence line that is only a link in Markdown dress, or a link with one word beside it ("See a.py",
 * "ls src/", "File: a.py"), is listed as the link: it merges with the same link named elsewhere, and
 * reads as the link. A glossed path or a longer pointer sentence keeps its words.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLinks } from '../../lib/categorise/index';
import { bareLink } from '../../lib/snapshot/bare-link';
import { createSnapshotMemo, deterministicSnapshot, listedText } from '../../lib/snapshot/index';

const snap = (values: string[]) =>
  deterministicSnapshot({
    objective: 'fix the app',
    entries: values.map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i })),
  });

describe('a mention in an IDE chat (Cursor, Claude Code: `@file`)', () => {
  it('names the file after the `@`; a scoped package or an import alias keeps it', () => {
    expect(findLinks('look at @docs/PRD.md and @src/app.ts:12')).toEqual(['docs/PRD.md', 'src/app.ts:12']);
    expect(findLinks('import from @mui/material/Typography and @/lib/utils.ts')).toEqual([
      '@mui/material/Typography',
      '@/lib/utils.ts',
    ]);
    expect(findLinks('mail me@example.com/x.md')).not.toContain('example.com/x.md');
  });

  it('is listed as the link, merged with the same link named bare', () => {
    expect(snap(['@docs/TECH_SPEC.md', 'docs/TECH_SPEC.md']).requiredEvidenceLinks).toEqual([
      'docs/TECH_SPEC.md',
    ]);
    expect(snap(['@https://github.com/acme/app.git']).requiredEvidenceLinks).toEqual([
      'https://github.com/acme/app.git',
    ]);
    expect(bareLink('@https://x.dev/docs', ['https://x.dev/docs'])).toBe('https://x.dev/docs');
    // An `@` glued to a word is not a mention.
    expect(bareLink('user@https://x.dev/docs', ['https://x.dev/docs'])).toBeUndefined();
  });
});

describe('a link in Markdown dress', () => {
  it('is listed as the link, once, beside the same link named bare', () => {
    expect(bareLink('src/a.ts src/a.ts', findLinks('src/a.ts src/a.ts'))).toBe('src/a.ts');
    expect(snap(['- `src/app.js`', 'src/app.js']).requiredEvidenceLinks).toEqual(['src/app.js']);
    expect(snap(['1. `web/base.js`']).requiredEvidenceLinks).toEqual(['web/base.js']);
    // A path in bold holds no link that findLinks reads: the line stays as written.
    expect(snap(['**web/base.js**']).requiredEvidenceLinks).toEqual(['**web/base.js**']);
    expect(snap(['web/base.js:', '* `web/base.js`']).requiredEvidenceLinks).toEqual(['web/base.js']);
  });

  it('is read the same through a memo, build after build (the memo keeps what it found)', () => {
    const memo = createSnapshotMemo();
    const input = (values: string[]) => ({
      objective: 'fix the app',
      entries: values.map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i })),
    });
    const values = ['- `src/app.js`', 'web/base.js:', 'See lib/retry.ts:42'];
    const plain = deterministicSnapshot(input(values)).requiredEvidenceLinks;
    expect(plain).toEqual(expect.arrayContaining(['src/app.js', 'web/base.js', 'lib/retry.ts:42']));
    for (let build = 0; build < 3; build++)
      expect(deterministicSnapshot(input(values), { memo }).requiredEvidenceLinks).toEqual(plain);
    // A later build with the bare link too: still one item.
    const more = deterministicSnapshot(input([...values, 'src/app.js']), { memo }).requiredEvidenceLinks;
    expect(more.filter((l) => l.endsWith('src/app.js'))).toEqual(['src/app.js']);
  });

  it('lists a link with one word beside it (a label, a command, a verb) as the link', () => {
    expect(snap(['See lib/retry.ts:42']).requiredEvidenceLinks).toEqual(['lib/retry.ts:42']);
    expect(snap(['File: backend/app.py', 'backend/app.py']).requiredEvidenceLinks).toEqual([
      'backend/app.py',
    ]);
    expect(snap(['ls /srv/app/logs/']).requiredEvidenceLinks).toEqual(['/srv/app/logs/']);
    expect(snap(['> /add src/main.tsx']).requiredEvidenceLinks).toEqual(['src/main.tsx']);
  });

  it('reads a Markdown link whose label is its target as that link', () => {
    const shown = '👉 **[http://localhost:4173/](http://localhost:4173/)**';
    expect(snap([shown, 'http://localhost:4173/']).requiredEvidenceLinks).toEqual(['http://localhost:4173/']);
    expect(listedText('Open [https://x.dev/app](https://x.dev/app)')).toBe('https://x.dev/app');
    // A label that is not its target is a gloss: the line stays as written.
    expect(listedText('[the docs](https://x.dev/docs)')).toBe('[the docs](https://x.dev/docs)');
    expect(listedText('[https://x.dev/a](https://x.dev/b)')).toBe('[https://x.dev/a](https://x.dev/b)');
  });

  it('keeps the words of a glossed path, a longer pointer sentence, and a link glued to other letters', () => {
    const glossed = '`src/app.js` (the entry point)';
    expect(snap([glossed]).requiredEvidenceLinks).toContain(glossed);
    expect(snap(['`src/app.js` (main)']).requiredEvidenceLinks).toContain('`src/app.js` (main)');
    expect(snap(['src/app.js — the entry']).requiredEvidenceLinks).not.toContain('src/app.js');
    // Two links with a command: the line stays as written (one listed text an entry).
    expect(snap(['> /add src/main.tsx src/App.tsx']).requiredEvidenceLinks).toEqual([
      '> /add src/main.tsx src/App.tsx',
    ]);
  });

  it('listedText gives what the snapshot lists for an entry', () => {
    expect(listedText('- `src/app.js`')).toBe('src/app.js');
    expect(listedText('  See   lib/retry.ts:42 ')).toBe('lib/retry.ts:42');
    expect(listedText('`src/app.js` (main)')).toBe('`src/app.js` (main)');
    expect(listedText('Fix the retry.')).toBe('Fix the retry.');
    for (const value of [
      '- `src/app.js`',
      '1. `web/base.js`',
      'See lib/retry.ts:42',
      '`src/app.js` (the entry point)',
    ])
      expect(snap([value]).requiredEvidenceLinks).toContain(listedText(value));
  });

  it('never throws, and gives the one link of the text or nothing (property)', () => {
    const piece = fc.constantFrom(
      'See',
      'ls',
      'File:',
      '-',
      '1.',
      '`',
      '**',
      ' ',
      '  ',
      '(',
      ')',
      '—',
      'a',
      '转成',
      'src/a.ts',
      'a/b',
      ':',
      '.',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const links = findLinks(text);
        const got = bareLink(text, links);
        if (got !== undefined) {
          // One link, maybe named twice (`[x](x)`, or "src/a.ts src/a.ts": fuzz seed -1748229491).
          expect(new Set(links)).toEqual(new Set([got]));
          expect(text).toContain(got);
          expect(got).not.toBe(text);
        }
      }),
    );
  });
});
