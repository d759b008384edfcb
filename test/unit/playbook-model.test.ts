import fc from 'fast-check';
import {
  applyDelta,
  applyKeyPointTags,
  emptyPlaybook,
  formatKeyPointId,
  highWaterOf,
  isKeyPointName,
  type Playbook,
  PlaybookSchema,
  parseAceText,
  parseKeyPointId,
  SECTION_NAMES,
  tallyKeyPointTags,
  toAceText,
} from 'rearview/playbook';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';

const kp = (name: string, text: string, helpful = 0, harmful = 0) => ({ name, text, helpful, harmful });

function seedPlaybook(): Playbook {
  const pb = emptyPlaybook();
  pb.sections['PATTERNS & APPROACHES'].push(kp('pat-001', 'use types', 3, 1));
  pb.sections.OTHERS.push(kp('oth-001', 'legacy tip'));
  return pb;
}

describe('applyKeyPointTags (seed 001, REQ-REFL-007)', () => {
  it('SCN-REFL-006-01: helpful and harmful add one, in place, returning the same object', () => {
    const pb = seedPlaybook();
    const out = applyKeyPointTags(pb, [
      { name: 'pat-001', tag: 'helpful', rationale: 'Applied correctly' },
      { name: 'oth-001', tag: 'harmful', rationale: 'Led to wrong approach' },
    ]);
    expect(out).toBe(pb);
    expect(pb.sections['PATTERNS & APPROACHES'][0]).toMatchObject({ helpful: 4, harmful: 1 });
    expect(pb.sections.OTHERS[0]).toMatchObject({ helpful: 0, harmful: 1 });
  });

  it('SCN-REFL-006-02: neutral changes nothing and warns about nothing', () => {
    const pb = seedPlaybook();
    const onWarning = vi.fn();
    applyKeyPointTags(pb, [{ name: 'pat-001', tag: 'neutral' }], { onWarning });
    expect(pb.sections['PATTERNS & APPROACHES'][0]).toMatchObject({ helpful: 3, harmful: 1 });
    expect(onWarning).not.toHaveBeenCalled();
  });

  it('SCN-REFL-004-02: unknown names and unknown tag values are skipped with a warning, no exception', () => {
    const pb = seedPlaybook();
    const onWarning = vi.fn();
    applyKeyPointTags(
      pb,
      [
        { name: 'pat-999', tag: 'helpful', rationale: 'Phantom entry' },
        { name: 'pat-001', tag: 'great' },
      ],
      { onWarning },
    );
    expect(pb).toEqual(seedPlaybook());
    expect(onWarning).toHaveBeenCalledTimes(2);
    expect(onWarning.mock.calls[0]![0]).toContain('pat-999');
  });

  it('warns through console.warn by default, looked up at call time', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    applyKeyPointTags(seedPlaybook(), [{ name: 'nope', tag: 'helpful' }]);
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it('INV-REFL-004: repeated tags all apply; INV-REFL-003: counters only grow', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.constantFrom('pat-001', 'oth-001', 'x-1'),
            tag: fc.constantFrom('helpful', 'harmful', 'neutral', 'odd'),
          }),
        ),
        (tags) => {
          const pb = applyKeyPointTags(seedPlaybook(), tags, { onWarning: () => {} });
          const count = (name: string, tag: string) =>
            tags.filter((t) => t.name === name && t.tag === tag).length;
          expect(pb.sections['PATTERNS & APPROACHES'][0]!.helpful).toBe(3 + count('pat-001', 'helpful'));
          expect(pb.sections['PATTERNS & APPROACHES'][0]!.harmful).toBe(1 + count('pat-001', 'harmful'));
          expect(pb.sections.OTHERS[0]!.harmful).toBe(count('oth-001', 'harmful'));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('applyDelta', () => {
  const now = () => '2025-06-01T00:00:00.000Z';

  it('adds with per-section ids, updates, merges (summing counters) and removes, without touching the input', () => {
    const pb = seedPlaybook();
    const before = structuredClone(pb);
    const { playbook, applied, rejected, highWater } = applyDelta(
      pb,
      [
        { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'write tests' },
        { type: 'ADD', section: 'MISTAKES TO AVOID', text: 'swallowing errors' },
        { type: 'UPDATE', name: 'oth-001', text: 'updated tip' },
        { type: 'MERGE', names: ['pat-001', 'pat-002'], text: 'types and tests' },
        { type: 'REMOVE', name: 'oth-001' },
      ],
      { now },
    );
    expect(pb).toEqual(before);
    expect(rejected).toEqual([]);
    expect(applied.map((o) => o.type)).toEqual(['ADD', 'ADD', 'UPDATE', 'MERGE', 'REMOVE']);
    expect(applied[0]).toMatchObject({ name: 'pat-002' });
    expect(applied[3]).toMatchObject({ into: 'pat-001' });
    expect(playbook.sections['PATTERNS & APPROACHES']).toEqual([
      { name: 'pat-001', text: 'types and tests', helpful: 3, harmful: 1, updatedAt: now() },
    ]);
    expect(playbook.sections['MISTAKES TO AVOID'][0]).toMatchObject({
      name: 'mis-001',
      text: 'swallowing errors',
    });
    expect(playbook.sections.OTHERS).toEqual([]);
    expect(highWater).toEqual({ pat: 2, mis: 1, pref: 0, ctx: 0, oth: 1 });
  });

  it('never reuses a removed id and never redirects an operation whose target is missing', () => {
    const first = applyDelta(seedPlaybook(), [{ type: 'REMOVE', name: 'pat-001' }], { now });
    const second = applyDelta(
      first.playbook,
      [
        { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'new' },
        { type: 'UPDATE', name: 'pat-001', text: 'gone' },
        { type: 'MERGE', names: ['pat-001', 'pat-002'], text: 'x' },
        { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'reuse', name: 'pat-001' },
      ],
      { now, highWater: first.highWater },
    );
    expect(second.applied).toEqual([
      { type: 'ADD', section: 'PATTERNS & APPROACHES', text: 'new', name: 'pat-002' },
    ]);
    expect(second.rejected.map((r) => r.reason)).toEqual([
      'key point pat-001 not found',
      'key points not found: pat-001',
      'id pat-001 was already allocated and is never reused',
    ]);
  });

  it('rejects malformed operations with a reason and applies the rest', () => {
    const { applied, rejected } = applyDelta(
      seedPlaybook(),
      [
        { type: 'ADD', section: 'NOPE', text: 'x' },
        { type: 'MERGE', names: ['pat-001'], text: 'x' },
        { type: 'MERGE', names: ['pat-001', 'oth-001'], text: 'x', into: 'mis-001' },
        null,
        { type: 'REMOVE', name: 'oth-001' },
      ],
      { now },
    );
    expect(applied).toEqual([{ type: 'REMOVE', name: 'oth-001' }]);
    expect(rejected).toHaveLength(4);
    expect(rejected[0]!.reason).toMatch(/invalid operation: section/);
  });

  it('is deterministic: same input, same output', () => {
    const ops = [
      { type: 'ADD', section: 'OTHERS', text: 'a' },
      { type: 'ADD', section: 'OTHERS', text: 'b' },
      { type: 'MERGE', names: ['oth-002', 'oth-003'], text: 'ab', into: 'oth-003' },
    ];
    expect(applyDelta(seedPlaybook(), ops, { now })).toEqual(applyDelta(seedPlaybook(), ops, { now }));
  });
});

describe('model helpers and schemas', () => {
  it('formats and parses ids; legacy ids have no section', () => {
    expect(formatKeyPointId('USER PREFERENCES', 7)).toBe('pref-007');
    expect(formatKeyPointId('OTHERS', 1234)).toBe('oth-1234');
    expect(parseKeyPointId('ctx-010')).toEqual({ slug: 'ctx', number: 10 });
    expect(parseKeyPointId('kpt_001')).toBeUndefined();
    expect(highWaterOf(seedPlaybook())).toEqual({ pat: 1, mis: 0, pref: 0, ctx: 0, oth: 1 });
  });

  it('validates playbooks: every section, non-negative integer counters, unique names', () => {
    expect(v.safeParse(PlaybookSchema, seedPlaybook()).success).toBe(true);
    const bad = seedPlaybook();
    bad.sections.OTHERS.push(kp('pat-001', 'duplicate'));
    expect(v.safeParse(PlaybookSchema, bad).success).toBe(false);
    const negative = seedPlaybook();
    negative.sections.OTHERS[0]!.helpful = -1;
    expect(v.safeParse(PlaybookSchema, negative).success).toBe(false);
    expect(SECTION_NAMES).toHaveLength(5);
  });
});

describe('key point names', () => {
  const names = fc.oneof(
    fc.string(),
    fc.constantFrom('constructor', '__proto__', 'pat-001]\n# SYSTEM', 'PAT-001', 'kpt_7', 'str-00001'),
    fc.tuple(fc.stringMatching(/^[a-z]{1,5}$/), fc.nat()).map(([slug, n]) => `${slug}-${n}`),
  );

  it('a playbook validates exactly when its names follow the grammar; valid names stay one ACE line (property)', () => {
    fc.assert(
      fc.property(names, (name) => {
        const pb = emptyPlaybook();
        pb.sections.OTHERS.push(kp(name, 'tip'));
        const valid = /^(?:[a-z]+-\d+|kpt_\d+)$/.test(name);
        expect(isKeyPointName(name)).toBe(valid);
        expect(v.safeParse(PlaybookSchema, pb).success).toBe(valid);
        expect(tallyKeyPointTags(new Set([name]), [{ name, tag: 'helpful' }]).increments.size).toBe(1);
        if (!valid) return;
        const text = toAceText(pb, { metadata: false });
        expect(text.split('\n').filter((l) => l.startsWith('['))).toEqual([
          `[${name}] helpful=0 harmful=0 :: tip`,
        ]);
        expect(parseAceText(text).playbook.sections.OTHERS.map((k) => k.name)).toEqual([name]);
      }),
      { numRuns: 500 },
    );
  });
});
