/**
 * The folder a session worked in, read from its paths when the export records none
 * (lib/snapshot/infer-root.ts): files the session names both absolute and relative vote for the folder
 * their relative paths start in; `readSnapshotSource` uses it and says so (`rootFrom`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deterministicSnapshot, inferRoot, readSnapshotSource } from '../../lib/snapshot/index';

const shop = [
  '/Users/ana/shop/src/cart.ts',
  'src/cart.ts',
  '/Users/ana/shop/lib/tax.ts:12',
  'lib/tax.ts',
  'https://example.com/docs/src/cart.ts',
];

describe('inferRoot', () => {
  it('reads the folder two or more files named both ways start in', () => {
    expect(inferRoot(shop)).toBe('/Users/ana/shop');
    // Windows paths, either separator, a line suffix and a trailing separator.
    expect(
      inferRoot(['C:\\work\\repo\\src\\a.ts', 'src/a.ts', 'c:/work/repo/docs/b.md:3', './docs/b.md']),
    ).toBe('C:/work/repo');
  });

  it('says nothing on one pair, a tie, a narrow lead or a home folder', () => {
    expect(inferRoot(shop.slice(0, 2))).toBeUndefined();
    // Relative paths that start in two folders alike: the agent moved; no folder is clear.
    expect(
      inferRoot([
        '/r/app/src/a.ts',
        'src/a.ts',
        '/r/app/src/b.ts',
        'src/b.ts',
        '/r/app/web/src/c.ts',
        'web/src/c.ts',
        '/r/app/web/src/d.ts',
        'src/d.ts',
      ]),
    ).toBeUndefined();
    // A home folder is no project folder.
    expect(
      inferRoot(['/Users/ana/notes/a.md', 'notes/a.md', '/Users/ana/todo/b.md', 'todo/b.md']),
    ).toBeUndefined();
    expect(inferRoot([])).toBeUndefined();
    for (const bad of [null, undefined, 42, {}, [null, 3, {}]])
      expect(inferRoot(bad as unknown as Iterable<string>)).toBeUndefined();
    expect(inferRoot(['src/a.ts', 'a.ts', '/x/y/z.ts'])).toBeUndefined();
  });

  it('finds the folder of files named both ways, whatever the folder and the files', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 2, maxLength: 4 }),
        fc.uniqueArray(fc.tuple(name, name), {
          minLength: 2,
          maxLength: 6,
          selector: ([a, b]) => `${a}/${b}`,
        }),
        (folders, files) => {
          const root = `/srv/${folders.join('/')}`;
          const links = files.flatMap(([dir, file]) => [`${root}/${dir}/${file}`, `${dir}/${file}`]);
          expect(inferRoot(links)).toBe(root);
        },
      ),
    );
  });

  it('never throws and returns a folder some absolute link starts with', () => {
    const segment = fc.constantFrom('src', 'lib', 'a.ts', 'b.md', 'Users', 'ana', 'app', '..', '.', '');
    const link = fc
      .tuple(fc.constantFrom('/', 'C:\\', '', './', '~/', 'https://'), fc.array(segment, { maxLength: 6 }))
      .map(([start, parts]) => start + parts.join(start.includes('\\') ? '\\' : '/'));
    fc.assert(
      fc.property(fc.array(link, { maxLength: 30 }), (links) => {
        const root = inferRoot(links);
        if (root !== undefined)
          expect(
            links.some((l) => l.replaceAll('\\', '/').toUpperCase().startsWith(`${root.toUpperCase()}/`)),
          ).toBe(true);
      }),
    );
  });
});

describe('readSnapshotSource with no recorded folder', () => {
  // A SpecStory export records no folder; its tool calls name files absolute, its prose relative.
  const export_ = [
    '# Fix the cart (2025-07-18 01:12Z)',
    '',
    '_**User**_',
    '',
    'The cart total is wrong, fix it',
    '',
    '---',
    '',
    '_**Assistant**_',
    '',
    'I read /Users/ana/shop/src/cart.ts and /Users/ana/shop/lib/tax.ts first.',
    'The bug is in `src/cart.ts`: it adds the tax from `lib/tax.ts` twice.',
    '',
  ].join('\n');

  it('reads the folder from its paths, says so, and lists evidence relative to it', () => {
    const source = readSnapshotSource(export_);
    expect(source.transcript?.meta?.cwd).toBeUndefined();
    expect(source.input.root).toBe('/Users/ana/shop');
    expect(source.rootFrom).toBe('paths');
    const listed = deterministicSnapshot(source.input).requiredEvidenceLinks;
    expect(listed).toContain('src/cart.ts');
    expect(listed.some((e) => e.startsWith('/Users/ana'))).toBe(false);
  });

  it('keeps a recorded folder, and names it the transcript’s', () => {
    const jsonl = JSON.stringify({
      type: 'user',
      uuid: 'u0',
      cwd: '/Users/ana/other',
      message: {
        role: 'user',
        content:
          'Read /Users/ana/shop/src/cart.ts and src/cart.ts, /Users/ana/shop/lib/tax.ts and lib/tax.ts',
      },
    });
    const source = readSnapshotSource(jsonl);
    expect(source.input.root).toBe('/Users/ana/other');
    expect(source.rootFrom).toBe('transcript');
  });
});
