/**
 * The scanner's warm-up (lib/heuristic/exercise.ts): its texts take every branch of the scanner, so
 * that V8 optimises it with every branch seen (a branch first met later throws the optimised code
 * away, and some processes then ran about 12 % slower for good). Checked with V8's own block
 * coverage, on a fresh copy of the modules. Also: the warm-up changes no result, and the scanner's
 * local copies of compile.ts's constants are the same values.
 */

import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { describe, expect, it, vi } from 'vitest';
import * as compile from '../../lib/heuristic/compile';
import { WARM_AFTER } from '../../lib/heuristic/exercise';
import { DEFAULT_MARKERS } from '../../lib/heuristic/markers';

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface Coverage {
  url: string;
  functions: { functionName: string; ranges: Range[] }[];
}

/** The branches the texts may leave untaken: a hash collision in `lookup`, a turn that is no string. */
const MAY_STAY_UNTAKEN = ['lookup', 'scanTurn'];

describe('the scanner warm-up', () => {
  it('takes every branch of scan, matchSentence, matchFrom, codesOf and the character tests', async () => {
    const session = new Session();
    session.connect();
    try {
      await session.post('Profiler.enable');
      await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
      // A fresh copy of the modules, compiled with coverage counters, never called before.
      vi.resetModules();
      const scanner = await import('../../lib/heuristic/scanner');
      const compiled = scanner.compileMarkers(DEFAULT_MARKERS);
      scanner.scanTurn('x', compiled);
      expect(compiled.scanned).toBeLessThan(WARM_AFTER); // a short first call pays nothing
      scanner.scanTurn('x'.repeat(1 << 14), compiled); // 16 K characters in all: the warm-up
      expect(compiled.scanned).toBeGreaterThanOrEqual(WARM_AFTER);
      const { result } = (await session.post('Profiler.takePreciseCoverage')) as { result: Coverage[] };
      const untaken: string[] = [];
      const checked = new Set<string>();
      for (const file of ['heuristic/scanner', 'heuristic/compile', 'heuristic/units']) {
        const script = result.find((r) => r.url.includes(`/lib/${file}.ts`));
        expect(script, file).toBeDefined();
        for (const f of script!.functions) {
          if (!HOT.includes(f.functionName)) continue;
          checked.add(f.functionName);
          // The first range is the whole function (called, so counted); the others are its blocks.
          for (const r of f.ranges.slice(1))
            if (r.count === 0 && !MAY_STAY_UNTAKEN.includes(f.functionName))
              untaken.push(`${f.functionName} @${r.startOffset}-${r.endOffset}`);
        }
      }
      expect([...checked].sort()).toEqual([...HOT].sort());
      expect(untaken).toEqual([]);
    } finally {
      await session.post('Profiler.stopPreciseCoverage').catch(() => {});
      session.disconnect();
    }
  });

  it('changes no result: a turn scores the same before and after the warm-up', async () => {
    vi.resetModules();
    const { classifyTurn, compileMarkers } = await import('../../lib/heuristic/index');
    const markers = compileMarkers(DEFAULT_MARKERS);
    const turns = ["No, that's wrong. Use the fixture instead.", 'Perfect, thanks!', 'hmm', 'está mal'];
    const first = turns.map((t) => classifyTurn(t, markers));
    expect(markers.scanned).toBeLessThan(WARM_AFTER); // not warmed up yet
    classifyTurn('x '.repeat(WARM_AFTER), markers); // past the threshold: the warm-up runs here
    expect(markers.scanned).toBeGreaterThanOrEqual(WARM_AFTER);
    expect(turns.map((t) => classifyTurn(t, markers))).toEqual(first);
    expect(first[0]!.correction).toBe(true);
    expect(first[1]!.approval).toBe(true);
  });

  it("keeps the scanner's copies of compile.ts's constants equal to them", () => {
    // Read from the source: the copies are module constants, on purpose not exported (see scanner.ts).
    const source = readFileSync(new URL('../../lib/heuristic/scanner.ts', import.meta.url), 'utf8');
    for (const name of COPIED) {
      const expr = new RegExp(`^const ${name} = ([^;]+);$`, 'm').exec(source)?.[1];
      expect(expr, name).toBeDefined();
      expect(new Function(`return ${expr}`)(), name).toBe(
        (compile as unknown as Record<string, number>)[name],
      );
    }
  });
});

/** The constants scanner.ts copies from compile.ts, in its order. */
const COPIED = [
  'UNKNOWN',
  'COMMA',
  'GAP',
  'MAX_GAP',
  'MAX_SENTENCE',
  'MAX_WORD',
  'SYMBOL',
  'PASTE_LEAD',
  'WORD',
  'POSITIVE',
  'FNV_OFFSET',
  'FNV_PRIME',
];

/** The functions the exercise must take down every branch. */
const HOT = [
  'scan',
  'matchSentence',
  'matchFrom',
  'lookup',
  'scanTurn',
  'isHex',
  'isWordCode',
  'lower',
  'isApostrophe',
  'codesOf',
  'grown',
];
