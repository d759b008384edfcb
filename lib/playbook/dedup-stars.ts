/**
 * Star clustering of near-duplicate pairs: the most trusted key point takes its unassigned
 * neighbours, so A≈B and B≈C never drag a dissimilar C into A.
 *
 * @module
 * @internal
 */
import type { KeyPoint, SectionName } from './model.js';
import { compareNames, keyPointConfidence } from './score.js';

/** A group of near-duplicates and the key point they merge into. */
export interface DuplicateGroup {
  /** Survivor: the most trusted member (confidence, then helpful count, then older, then name). */
  into: string;
  /** All members, `into` first, the others by name. */
  names: string[];
  /** Section of the survivor. */
  section: SectionName;
  /** Smallest similarity between the survivor and another member. */
  similarity: number;
}

/** A key point with its section and position in the playbook, as the clustering reads it. */
export interface Item {
  kp: KeyPoint;
  section: SectionName;
  index: number;
}

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
    groups.push(groupOf(items, c, members, similarity));
  }
  return inPlaybookOrder(groups);
}

/** Key points with identical shingle sets (units) and the near-duplicate pairs between units. */
export interface UnitGraph {
  unitOf: Int32Array;
  /** Unit u's members, in playbook order: members[memberStart[u] .. memberStart[u + 1]). */
  memberStart: Int32Array;
  members: Int32Array;
  /** Whether a unit's members are mates (a non-empty shingle set). */
  matesOf: (u: number) => boolean;
  /** Each unit's neighbouring units, with the similarity every member pair of the two shares. */
  adj: [number, number][][];
}

/**
 * The {@link UnitGraph} of the unit pairs the index found (`pairA[q]`, `pairB[q]`, `pairJac[q]`), each scored
 * once through its first members.
 */
export function unitGraph(
  units: Omit<UnitGraph, 'adj'>,
  pairA: readonly number[],
  pairB: readonly number[],
  pairJac: readonly number[],
  score: (i: number, j: number, jaccard: number) => number,
): UnitGraph {
  const { members, memberStart } = units;
  const adj: [number, number][][] = Array.from({ length: memberStart.length - 1 }, () => []);
  for (let q = 0; q < pairA.length; q++) {
    const u = pairA[q]!;
    const w = pairB[q]!;
    const s = score(members[memberStart[u]!]!, members[memberStart[w]!]!, pairJac[q]!);
    if (s < 0) continue;
    adj[u]!.push([w, s]);
    adj[w]!.push([u, s]);
  }
  return { ...units, adj };
}

/**
 * {@link starClusters} when a pair's similarity depends only on the units of its key points (the
 * lexical search: identical shingle sets, identical Jaccard). The result is the same as
 * `starClusters` over every member pair, but a unit pair is visited once instead of once per member
 * pair: any key point taking members from a unit takes all of them, so a unit is either untouched or
 * wholly assigned, and a wholly assigned unit is skipped without reading its members. Linear in key
 * points plus unit pairs, where the expansion is quadratic in the size of near-duplicate groups.
 */
export function starClustersByUnit(items: Item[], g: UnitGraph): DuplicateGroup[] {
  const { unitOf, memberStart, members, adj } = g;
  const size = (u: number) => memberStart[u + 1]! - memberStart[u]!;
  const candidates = items
    .map((_, i) => i)
    .filter((i) => adj[unitOf[i]!]!.length > 0 || (g.matesOf(unitOf[i]!) && size(unitOf[i]!) > 1));
  candidates.sort((a, b) => compareSurvivor(items[a]!.kp, items[b]!.kp));
  const assigned = new Uint8Array(items.length);
  const done = new Uint8Array(adj.length);
  const groups: (DuplicateGroup & { pos: number })[] = [];
  for (const c of candidates) {
    if (assigned[c]) continue;
    const found: number[] = [];
    let similarity = 1;
    const own = unitOf[c]!;
    // Mates: the unit of c is untouched (c is unassigned), so every other member is free.
    if (g.matesOf(own)) {
      for (let a = memberStart[own]!; a < memberStart[own + 1]!; a++)
        if (members[a] !== c) found.push(members[a]!);
    }
    const touched: number[] = [];
    for (const [w, s] of adj[own]!) {
      if (done[w] || w === own) continue;
      touched.push(w);
      for (let a = memberStart[w]!; a < memberStart[w + 1]!; a++) found.push(members[a]!);
      if (s < similarity) similarity = s;
    }
    if (!found.length) continue;
    assigned[c] = 1;
    done[own] = 1;
    for (const w of touched) done[w] = 1;
    for (const j of found) assigned[j] = 1;
    groups.push(groupOf(items, c, found, similarity));
  }
  return inPlaybookOrder(groups);
}

/** The group that survivor `c` absorbs `members` into, remembering `c`'s position for ordering. */
function groupOf(
  items: Item[],
  c: number,
  members: readonly number[],
  similarity: number,
): DuplicateGroup & { pos: number } {
  const names = members.map((j) => items[j]!.kp.name).sort(compareNames);
  return {
    into: items[c]!.kp.name,
    names: [items[c]!.kp.name, ...names],
    section: items[c]!.section,
    similarity: Math.round(similarity * 1e6) / 1e6,
    pos: c,
  };
}

/** Groups in the playbook order of their survivors, without the position used to sort them. */
function inPlaybookOrder(groups: (DuplicateGroup & { pos: number })[]): DuplicateGroup[] {
  groups.sort((a, b) => a.pos - b.pos);
  return groups.map(({ pos: _pos, ...g }) => g);
}
