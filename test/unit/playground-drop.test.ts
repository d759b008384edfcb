/**
 * The Learn tab's drop (playground/src/learn/drop.ts) where a browser gives no file-system handles:
 * the items' entries are walked in the page. Chromium always gives handles for a real drop and
 * Playwright cannot drag a folder from the desktop, so the entry walk is checked here on objects
 * shaped like the FileSystemEntry API (batches from readEntries, unsorted), and the handle path
 * in real Chromium (e2e/learn.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import { postFiles, readDrop } from '../../playground/src/learn/drop';

type Tree = { [name: string]: string | Tree };

/** A FileSystemEntry-shaped tree; a folder hands out its entries two at a time, in reverse order. */
function entry(name: string, node: string | Tree): FileSystemEntry {
  if (typeof node === 'string') {
    return {
      name,
      isFile: true,
      isDirectory: false,
      file: (ok: (f: File) => void) => ok(new File([node], name)),
    } as unknown as FileSystemEntry;
  }
  const children = Object.entries(node)
    .reverse()
    .map(([n, v]) => entry(n, v));
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok: (e: FileSystemEntry[]) => void) => {
          ok(children.slice(at, at + 2));
          at += 2;
        },
      };
    },
  } as unknown as FileSystemEntry;
}

/** A DataTransfer-shaped drop of entries (no handles, as in Firefox and Safari). */
const drop = (items: { entry: FileSystemEntry | null; file: File | null }[]) =>
  ({
    items: items.map((i) => ({
      kind: 'file',
      webkitGetAsEntry: () => i.entry,
      getAsFile: () => i.file,
    })),
  }) as unknown as DataTransfer;

describe('readDrop without handles', () => {
  it('walks a dropped folder depth first, each folder by name, skipping node_modules and non-session files', async () => {
    const tree: Tree = {
      'b.jsonl': 'b',
      'a.md': 'a',
      sub: { 'z.json': 'z', 'y.txt': 'y', 'notes.png': 'no' },
      node_modules: { 'x.jsonl': 'no' },
      'c.log': 'c',
      README: 'no',
    };
    const d = await readDrop(drop([{ entry: entry('sessions', tree), file: null }]));
    expect(d.kind).toBe('files');
    if (d.kind !== 'files') return;
    expect(d.files.map((f) => f.name)).toEqual([
      'sessions/a.md',
      'sessions/b.jsonl',
      'sessions/c.log',
      'sessions/sub/y.txt',
      'sessions/sub/z.json',
    ]);
    expect(await d.files[3]!.file.text()).toBe('y');
  });

  it('reads a dropped file whatever its name, and items in name order', async () => {
    const d = await readDrop(
      drop([
        { entry: entry('zeta', { 'one.jsonl': '1' }), file: null },
        { entry: entry('notes.session', 'n'), file: null },
        { entry: null, file: new File(['p'], 'alpha.txt') },
      ]),
    );
    expect(d.kind === 'files' && d.files.map((f) => f.name)).toEqual([
      'alpha.txt',
      'notes.session',
      'zeta/one.jsonl',
    ]);
  });

  it('posts the files in batches of 50 with their names, the last one saying no more', () => {
    const sent: { files: File[]; names: string[]; more: boolean }[] = [];
    let closed = false;
    const port = { postMessage: (m: (typeof sent)[0]) => sent.push(m), close: () => (closed = true) };
    const files = Array.from({ length: 101 }, (_, i) => ({ file: new File([''], `${i}`), name: `d/${i}` }));
    postFiles(port as unknown as MessagePort, files);
    expect(sent.map((b) => [b.files.length, b.more])).toEqual([
      [50, true],
      [50, true],
      [1, false],
    ]);
    expect(sent[2]!.names).toEqual(['d/100']);
    expect(closed).toBe(true);
  });
});
