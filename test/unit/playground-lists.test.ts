/**
 * The worker's long lists sent in pieces (playground/src/lists.ts): taken out of a view without
 * touching it, cut by size, and put back into the same shape the page would have received whole.
 */
import { describe, expect, it } from 'vitest';
import {
  LIST_PATHS,
  PIECE_CHARS,
  PIECE_ITEMS,
  pieces,
  putLists,
  takeLists,
} from '../../playground/src/lists';

const view = () => ({
  kind: 'transcript',
  turns: Array.from({ length: 5000 }, (_, i) => ({ ref: `message:${i}`, preview: 'x'.repeat(i % 700) })),
  insights: [{ id: 'i1' }],
  snapshot: {
    tokens: 12,
    trace: { snapshot: { blockers: [] }, kept: [{ text: 'k' }], dropped: [{ text: 'd' }, { text: 'e' }] },
    retired: [],
    previous: null,
  },
  compaction: null,
  input: { objective: 'o', entries: [{ text: 'a' }, { text: 'b' }] },
  ms: 3,
});

describe('takeLists / putLists', () => {
  it('empties every long list in a copy, leaves the original whole, and puts them back', () => {
    const original = view();
    const before = structuredClone(original);
    const { shell, lists } = takeLists(original);
    expect(original).toEqual(before);
    expect(shell.turns).toEqual([]);
    expect(shell.snapshot.trace.dropped).toEqual([]);
    expect(shell.input.entries).toEqual([]);
    expect(shell.snapshot.trace.snapshot).toBe(original.snapshot.trace.snapshot);
    // compaction is null: its path leads nowhere and is skipped.
    expect(lists.map(([p]) => p)).toEqual(LIST_PATHS.filter((p) => p !== 'compaction.steps'));

    const received = structuredClone(shell);
    const byPath = new Map<string, unknown[]>();
    for (const [path, list] of lists)
      for (const items of pieces(list)) byPath.set(path, [...(byPath.get(path) ?? []), ...items]);
    putLists(received, byPath);
    expect(received).toEqual(before);
  });

  it('reads an update, which holds only some of the paths', () => {
    const { shell, lists } = takeLists({ compaction: { steps: [1, 2, 3], savedPercent: 4 } });
    expect(shell).toEqual({ compaction: { steps: [], savedPercent: 4 } });
    expect(lists).toEqual([['compaction.steps', [1, 2, 3]]]);
  });
});

describe('pieces', () => {
  it('cuts by size and by count, in order, with nothing lost', () => {
    const { turns } = view();
    const cut = [...pieces(turns)];
    expect(cut.flat()).toEqual(turns);
    expect(cut.length).toBeGreaterThan(1);
    for (const piece of cut.slice(0, -1)) {
      const chars = piece.reduce((n, t) => n + t.preview.length + t.ref.length, 0);
      expect(chars <= PIECE_CHARS + 800 || piece.length === PIECE_ITEMS).toBe(true);
    }
    const small = Array.from({ length: 5000 }, (_, i) => i);
    expect([...pieces(small)].map((p) => p.length)).toEqual([PIECE_ITEMS, PIECE_ITEMS, 1000]);
    expect([...pieces([])]).toEqual([]);
  });
});
