/**
 * Size budget of rearview/heuristic: built with Vite's API, fully minified, gzipped. A bundle that
 * imports only `heuristicReflect` and the whole entry (the LLM half included) stay under 8 KB, and
 * neither pulls in an LLM SDK or valibot.
 */
import { describe, expect, it } from 'vitest';
import { heuristicSizes } from '../../eval/heuristic/size';

describe('rearview/heuristic size budget', () => {
  it('stays under 8 KB minified + gzipped', async () => {
    const sizes = await heuristicSizes();
    console.log(`heuristic size: ${JSON.stringify(sizes)}`);
    expect(sizes.heuristicReflect.gzipped).toBeLessThan(8 * 1024);
    expect(sizes.wholeEntry.gzipped).toBeLessThan(8 * 1024);
    expect(sizes.heuristicReflect.gzipped).toBeLessThan(sizes.wholeEntry.gzipped);
    expect(sizes.heuristicReflect.imports).toEqual([]);
    expect(sizes.wholeEntry.imports).toEqual([]);
  });
});
