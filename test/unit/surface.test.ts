/**
 * The public surface is frozen in api/surface.json (each subpath's names, kinds and signatures, read
 * from the emitted .d.ts files), so a change to it is a decision made on purpose. When this fails
 * after a deliberate change, run `npm run surface`, review the diff of api/surface.json, and list the
 * change in CHANGELOG.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentSurface, SURFACE_FILE } from '../../scripts/surface.mjs';

describe('public surface', () => {
  it('matches api/surface.json (regenerate with `npm run surface`)', () => {
    const live = JSON.parse(currentSurface()) as Record<string, Record<string, { kind: string }>>;
    const committed = JSON.parse(readFileSync(SURFACE_FILE, 'utf8')) as typeof live;
    // Every name has a kind the parser recognised, so the comparison covers real declarations.
    const unknown = Object.entries(live).flatMap(([sub, names]) =>
      Object.entries(names)
        .filter(([, d]) => d.kind === 'unknown')
        .map(([n]) => `${sub}: ${n}`),
    );
    expect(unknown).toEqual([]);
    expect(Object.keys(live.rearview ?? {}).length).toBeLessThanOrEqual(50);
    expect(live, 'the public surface changed: run `npm run surface` and commit api/surface.json').toEqual(
      committed,
    );
  }, 120_000);
});
