/**
 * mergePlaybookDocuments on a document missing a section (a hand-edited export, another writer's
 * version) throws a typed, located ValidationError, not a TypeError from deep inside the merge.
 */
import { isRearviewError } from 'rearview/core';
import { memoryStore } from 'rearview/kv';
import { mergePlaybookDocuments, playbookStore } from 'rearview/store';
import { describe, expect, it } from 'vitest';

describe('mergePlaybookDocuments on a malformed document', () => {
  it('names the missing section', async () => {
    const store = playbookStore(memoryStore(), { broadcast: false, onWarning: () => {} });
    await store.applyDelta('p', [{ type: 'ADD', section: 'OTHERS', text: 'keep this' }]);
    const good = await store.exportDocument('p');
    const { OTHERS: _dropped, ...rest } = good.sections as Record<string, unknown>;
    const broken = { ...good, sections: rest } as unknown as typeof good;
    let caught: unknown;
    try {
      mergePlaybookDocuments(good, broken);
    } catch (err) {
      caught = err;
    }
    expect(caught).not.toBeInstanceOf(TypeError);
    expect(isRearviewError(caught)).toBe(true);
    expect((caught as { code: string }).code).toBe('validation_failed');
    expect((caught as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'b.sections.OTHERS',
    ]);
    expect(() => mergePlaybookDocuments(null as never, good)).toThrow(/a: must be a playbook document/);
  });
});
