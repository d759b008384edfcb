/**
 * Star clustering of near-duplicate pairs: the most trusted key point takes its unassigned
 * neighbours, so A≈B and B≈C never drag a dissimilar C into A.
 *
 * @module
 * @internal
 */
import type { DuplicateGroup, Item } from './dedup-index.js';
import type { KeyPoint } from './model.js';
import { compareNames, keyPointConfidence } from './score.js';

/** Survivor order: most trusted first (confidence, helpful count, older, name). */
function compareSurvivor(a: KeyPoint, b: KeyPoint): number {
  const ca = keyPointConfidence(a);
  const cb = keyPointConfidence(b);
  if (ca !== cb) return cb - ca;
  if (a.helpful !== b.helpful) return b.helpful - a.helpful;
  const ta = a.createdAt ?? '';
  const tb = b.createdAt ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return compareNames(a.name, b.name);
}

/** Greedy star clustering: the best unassigned key point takes its unassigned neighbours. */
export function starClusters(
  items: Item[],
  adj: [number, number][][],
  mates: (i: number) => ArrayLike<number> = () => [],
): DuplicateGroup[] {
  const candidates = items.map((_, i) => i).filter((i) => adj[i]!.length > 0 || mates(i).length > 1);
  candidates.sort((a, b) => compareSurvivor(items[a]!.kp, items[b]!.kp));
  const assigned = new Uint8Array(items.length);
  const taken = new Int32Array(items.length).fill(-1);
  const groups: (DuplicateGroup & { pos: number })[] = [];
  for (const c of candidates) {
    if (assigned[c]) continue;
    const members: number[] = [];
    let similarity = 1;
    taken[c] = c;
    const m = mates(c);
    for (let k = 0; k < m.length; k++) {
      const j = m[k]!;
      if (assigned[j] || taken[j] === c) continue;
      taken[j] = c;
      members.push(j);
    }
    for (const [j, s] of adj[c]!) {
      if (assigned[j] || taken[j] === c) continue;
      taken[j] = c;
      members.push(j);
      if (s < similarity) similarity = s;
    }
    if (!members.length) continue;
    assigned[c] = 1;
    for (const j of members) assigned[j] = 1;
    const names = members.map((j) => items[j]!.kp.name).sort(compareNames);
    groups.push({
      into: items[c]!.kp.name,
      names: [items[c]!.kp.name, ...names],
      section: items[c]!.section,
      similarity: Math.round(similarity * 1e6) / 1e6,
      pos: c,
    });
  }
  groups.sort((a, b) => a.pos - b.pos);
  return groups.map(({ pos: _pos, ...g }) => g);
}
