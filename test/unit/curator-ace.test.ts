/**
 * Playbook import and export: ACE text and JSON round trips (property included), ACE's own sections and
 * ids, located JSON errors, and parseAceText in linear time.
 */
import fc from 'fast-check';
import {
  emptyPlaybook,
  PlaybookSchema,
  parseAceText,
  playbookFromJson,
  playbookToJson,
  SECTION_NAMES,
  toAceText,
} from 'rearview/playbook';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { fixture } from './curator-helpers';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';

describe('import / export', () => {
  it('ACE text: the paper format, lossless round trip with metadata, pure ACE without', () => {
    const pb = fixture();
    const text = toAceText(pb);
    expect(text).toContain('## PATTERNS & APPROACHES\n[pat-001] helpful=7 harmful=0 :: Add type hints');
    expect(parseAceText(text)).toEqual({ playbook: pb, warnings: [] });
    const pure = toAceText(pb, { metadata: false });
    expect(pure).not.toContain('<!--');
    const back = parseAceText(pure).playbook;
    expect(back.sections['MISTAKES TO AVOID'].map((k) => [k.name, k.text, k.helpful, k.harmful])).toEqual(
      pb.sections['MISTAKES TO AVOID'].map((k) => [k.name, k.text, k.helpful, k.harmful]),
    );
  });

  it("reads ACE's own sections and ids, skipping what it cannot read", () => {
    const { playbook, warnings } = parseAceText(
      [
        '## STRATEGIES AND HARD RULES',
        '[str-00001] helpful=5 harmful=0 :: Always check units first',
        '[str-00002] helpful=1 harmful=2 neutral=4 :: Re-read the task',
        '## COMMON MISTAKES TO AVOID',
        '- [err-00003] helpful=0 harmful=0 :: Off-by-one in date ranges',
        '## USEFUL CODE SNIPPETS',
        '[code-00004] helpful=2 harmful=0 :: use `jq -r .items[]`',
        'random prose',
        '[str-00001] helpful=9 harmful=9 :: duplicate',
      ].join('\n'),
    );
    expect(playbook.sections['PATTERNS & APPROACHES'].map((k) => k.name)).toEqual(['str-00001', 'str-00002']);
    expect(playbook.sections['PATTERNS & APPROACHES'][1]).toEqual({
      name: 'str-00002',
      text: 'Re-read the task',
      helpful: 1,
      harmful: 2,
    });
    expect(playbook.sections['MISTAKES TO AVOID'][0]!.name).toBe('err-00003');
    expect(playbook.sections.OTHERS[0]!.text).toBe('use `jq -r .items[]`');
    expect(warnings).toHaveLength(3);
    expect(v.is(PlaybookSchema, playbook)).toBe(true);
  });

  it('round-trips any valid playbook through ACE text and JSON (property)', () => {
    const kp = fc.record(
      {
        text: fc.string({ maxLength: 40 }),
        helpful: fc.nat(1000),
        harmful: fc.nat(1000),
        createdAt: fc.string({ maxLength: 10 }),
        updatedAt: fc.string({ maxLength: 10 }),
        source: fc.record(
          { session: fc.string(), traceRefs: fc.array(fc.string(), { maxLength: 3 }) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['text', 'helpful', 'harmful'] },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...SECTION_NAMES), kp, fc.boolean()), { maxLength: 15 }),
        (rows) => {
          const pb = emptyPlaybook();
          rows.forEach(([s, k, legacy], i) => {
            pb.sections[s].push({
              name: legacy ? `kpt_${i}` : `oth-${String(i + 1).padStart(3, '0')}`,
              ...k,
            });
          });
          expect(parseAceText(toAceText(pb)).playbook).toEqual(pb);
          expect(playbookFromJson(playbookToJson(pb))).toEqual(pb);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('JSON import validates, with located errors', () => {
    expect(() => playbookFromJson('{"sections": {"OTHERS": [{"name": "x"')).toThrow(/line 1/);
    expect(() =>
      playbookFromJson('{"sections": {"OTHERS": [{"name": "x", "text": "t", "helpful": -1, "harmful": 0}]}}'),
    ).toThrow(/helpful/);
    // Seed 001's playbook.json with only some sections.
    const seed = playbookFromJson(
      '{"sections": {"OTHERS": [{"name": "kpt_001", "text": "tip", "helpful": 1, "harmful": 0}]}}',
    );
    expect(seed.sections.OTHERS[0]!.name).toBe('kpt_001');
    expect(seed.sections['PATTERNS & APPROACHES']).toEqual([]);
  });
});

describe('parseAceText in linear time', () => {
  // A heading with a long run of spaces before its last word, and a metadata comment with one: the
  // heading regex split the run between a lazy name and two `\s*` every way (cubic, 26 s on 4 KB).
  it.each([
    ['a heading with a run of spaces', (n: number) => fill(n, ' ', '## a', 'x')],
    [
      'a metadata comment with a run of spaces',
      (n: number) => fill(n, ' ', '## OTHERS\n<!-- rearview ', 'x'),
    ],
  ])('%s', (_name, make) => {
    expect(parseAceText(make(300)).warnings.length).toBeGreaterThan(0);
    const g = measureGrowth(parseAceText, make, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});
