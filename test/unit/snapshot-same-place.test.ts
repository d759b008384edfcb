/**
 * One place, one evidence item: spellings of the same file or folder (a trailing slash, `./`, `~` and
 * the home folder it stands for, a relative path beside its longer form) are listed once, in the most
 * useful spelling; places that only share a name are kept apart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deterministicSnapshot, deterministicSnapshotWithTrace } from '../../lib/snapshot/index';
import { placeKey, samePlaces } from '../../lib/snapshot/same-place';

const notes = (values: string[]) => ({
  objective: 'fix the app',
  entries: values.map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i })),
});
const evidence = (values: string[]) => deterministicSnapshot(notes(values)).requiredEvidenceLinks;
const groups = (links: string[]) => [...samePlaces(links).group];

describe('placeKey', () => {
  it('drops trailing slashes and leading ./, and writes a home folder as ~', () => {
    expect(placeKey('src/lib/')).toBe('src/lib');
    expect(placeKey('./src/a.ts')).toBe('src/a.ts');
    expect(placeKey('/Users/ana/proj/a.ts')).toBe('~/proj/a.ts');
    expect(placeKey('/home/ana/')).toBe('~');
    expect(placeKey('/root/app/a.ts')).toBe('~/app/a.ts');
    expect(placeKey('/rooted/a.ts')).toBe('/rooted/a.ts');
    expect(placeKey('https://example.com/docs/')).toBe('https://example.com/docs');
    // A URL is compared as written: no `./` or home reading inside it.
    expect(placeKey('https://example.com/Users/ana/x')).toBe('https://example.com/Users/ana/x');
    expect(placeKey('/')).toBe('/');
  });
});

describe('samePlaces', () => {
  it('groups a relative path with the one longer path it ends, and chains of them', () => {
    const links = ['admin/layout.tsx', 'web/src/app/admin/layout.tsx', 'app/admin/layout.tsx', 'README.md'];
    const { group, spelling } = samePlaces(links);
    expect([...group]).toEqual([0, 0, 0, 3]);
    // The most specific relative spelling is listed.
    expect(spelling[0]).toBe('web/src/app/admin/layout.tsx');
  });

  it('lists the relative path rather than the absolute one, and ~ rather than the home folder', () => {
    const a = samePlaces(['/Users/ana/p/app/src/Main.kt', 'app/src/Main.kt']);
    expect([...a.group]).toEqual([0, 0]);
    expect(a.spelling[0]).toBe('app/src/Main.kt');
    const b = samePlaces(['/Users/ana/.claude/settings.json', '~/.claude/settings.json']);
    expect(b.spelling[0]).toBe('~/.claude/settings.json');
    // A bare name says less than where the file is: the `~` or absolute spelling is listed.
    const d = samePlaces([
      'opencode.json',
      '/Users/ana/.config/opencode/opencode.json',
      '~/.config/opencode/opencode.json',
    ]);
    expect([...d.group]).toEqual([0, 0, 0]);
    expect(d.spelling[0]).toBe('~/.config/opencode/opencode.json');
    expect(samePlaces(['app.py', '/srv/p/app.py']).spelling[0]).toBe('/srv/p/app.py');
    const c = samePlaces(['src/lib/', './src/lib', 'src/lib']);
    expect([...c.group]).toEqual([0, 0, 0]);
    expect(c.spelling[0]).toBe('src/lib');
  });

  it('keeps apart a name that ends two different places, URLs from paths, lines from files, ../ paths', () => {
    expect(groups(['config.py', 'app/config.py', 'tests/config.py'])).toEqual([0, 1, 2]);
    expect(groups(['config.json', 'https://example.com/config.json'])).toEqual([0, 1]);
    expect(groups(['a.py:12', 'a.py', 'src/a.py:12'])).toEqual([0, 1, 0]);
    expect(groups(['../a/b.ts', 'x/a/b.ts'])).toEqual([0, 1]);
    expect(groups(['x.ts', '../up/x.ts'])).toEqual([0, 1]);
    // Absolute paths never end one another at a `/`: two projects stay two places.
    expect(groups(['/srv/a/b.ts', '/home/x/srv/a/b.ts'])).toEqual([0, 1]);
    // Nor does a relative path join the absolute path it is after a first `/`: `/inc/a.php` may be the
    // project's root-relative path or a file at the machine's root, and a project holding both spellings
    // beside the full `/Users/…/proj/inc/a.php` would list all three apart.
    expect(groups(['/src/main.tsx', 'src/main.tsx'])).toEqual([0, 1]);
    // A name both places end, when one of them ends the other, is one place.
    expect(groups(['config.py', 'app/config.py', 'backend/app/config.py'])).toEqual([0, 0, 0]);
  });

  it('finds the place of a relative path deeper than the indexed suffixes by its last eight components', () => {
    const deep = 'app/src/main/java/com/xuenn/bet/view/register/RegisterActivity.kt';
    // Listed first or last, the 11-component relative path joins the absolute path it ends.
    expect(groups([deep, `/Users/ana/Studio/${deep}`])).toEqual([0, 0]);
    expect(groups([`/Users/ana/Studio/${deep}`, 'README.md', deep])).toEqual([0, 1, 0]);
    expect(samePlaces([`/Users/ana/Studio/${deep}`, deep]).spelling[0]).toBe(deep);
    // The tail matches but the whole path does not end the longer one: two places.
    expect(
      groups([deep, `/Users/ana/Studio/other/src/main/java/com/xuenn/bet/view/register/RegisterActivity.kt`]),
    ).toEqual([0, 1]);
    // Two places end with the tail: the deep path joins neither, as a short name beside two places does.
    expect(
      groups([
        deep,
        `/srv/a/${deep}`,
        `/srv/b/x/src/main/java/com/xuenn/bet/view/register/RegisterActivity.kt`,
      ]),
    ).toEqual([0, 1, 2]);
  });

  it('gives every link a group whose representative is its first member, whatever the links', () => {
    const part = fc.constantFrom('a', 'b', 'src', '.', '..', '~', 'x.ts', 'Users', 'home', '');
    const link = fc
      .tuple(
        fc.constantFrom('', '/', './', '~/', 'https://h/'),
        fc.array(part, { maxLength: 5 }),
        fc.boolean(),
      )
      .map(([head, parts, slash]) => `${head}${parts.join('/')}${slash ? '/' : ''}`);
    fc.assert(
      fc.property(fc.array(link, { maxLength: 30 }), (links) => {
        const { group, spelling } = samePlaces(links);
        expect(group.length).toBe(links.length);
        for (let i = 0; i < links.length; i++) {
          const g = group[i]!;
          expect(g).toBeLessThanOrEqual(i);
          expect(group[g]).toBe(g);
          // The listed spelling is one of the group's own links.
          expect(links.some((l, j) => group[j] === g && l === spelling[g])).toBe(true);
          // Links with one key are always together.
          for (let j = 0; j < i; j++)
            if (placeKey(links[j]!) === placeKey(links[i]!)) expect(group[j]).toBe(g);
        }
      }),
    );
  });
});

describe('the snapshot lists one place once', () => {
  it('merges the spellings of a file named in several entries, keeping every source in the trace', () => {
    const values = [
      'Edited /Users/ana/proj/app/src/Main.kt and app/src/Main.kt compiles.',
      'The build reads app/src/Main.kt',
      'Look in ~/.claude/ and /Users/ana/.claude for the settings.',
    ];
    expect(evidence(values)).toEqual(['app/src/Main.kt', '~/.claude/']);
    const t = deterministicSnapshotWithTrace(notes(values));
    const main = t.kept.find((k) => k.text === 'app/src/Main.kt')!;
    expect(main.sources).toEqual(expect.arrayContaining(['m1', 'm2']));
    const merged = t.dropped.filter(
      (d) => d.reason === 'near_duplicate' && d.category === 'requiredEvidenceLinks',
    );
    expect(merged.map((d) => [d.text, d.into])).toEqual(
      expect.arrayContaining([
        ['/Users/ana/proj/app/src/Main.kt', 'app/src/Main.kt'],
        ['/Users/ana/.claude', '~/.claude/'],
      ]),
    );
  });

  it('frees the slots of a full list for other places', () => {
    // 30 files, each named twice (absolute and relative): 25 slots, 25 places (was 12 or 13).
    const values = Array.from({ length: 30 }, (_, i) => `Changed /home/bo/p/src/f${i}.ts and src/f${i}.ts.`);
    const listed = evidence(values);
    expect(listed).toHaveLength(25);
    expect(new Set(listed.map((l) => l.replace(/^.*src\//, ''))).size).toBe(25);
  });

  it('keeps two files that only share a name', () => {
    expect(evidence(['Both app/config.py and tests/config.py read config.py']).sort()).toEqual([
      'app/config.py',
      'config.py',
      'tests/config.py',
    ]);
  });
});

describe('the trace of a place', () => {
  it('keeps each other spelling as folded into the listed one, and never an item folded into itself', () => {
    const t = deterministicSnapshotWithTrace(
      notes(['See /home/bo/p/src/a.ts', 'Edited src/a.ts', 'Read ./src/a.ts', 'src/a.ts again']),
    );
    expect(t.snapshot.requiredEvidenceLinks).toEqual(['src/a.ts']);
    const folded = t.dropped.filter(
      (d) => d.reason === 'near_duplicate' && d.category === 'requiredEvidenceLinks',
    );
    expect(folded.map((d) => [d.text, d.into]).sort()).toEqual([
      ['./src/a.ts', 'src/a.ts'],
      ['/home/bo/p/src/a.ts', 'src/a.ts'],
    ]);
    expect(t.kept.find((k) => k.text === 'src/a.ts')?.sources).toEqual(
      expect.arrayContaining(['m1', 'm2', 'm3', 'm4']),
    );
  });
});
