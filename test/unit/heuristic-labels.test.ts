/**
 * The labelled evaluation sets (eval/heuristic/labelled-turns*.jsonl): well-formed, disjoint from one
 * another (no shared message, no shared text), and every turn is what `parseTranscript` reads at the
 * stated place in the shared data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDataDir } from '../../bench/harness';
import { evaluate, loadLabelledSets } from '../../eval/heuristic/run';
import { parseTranscript } from '../../lib/transcript/index';

const CATEGORIES = ['correction', 'preference', 'friction'];
const rows = loadLabelledSets() as unknown as {
  n: number;
  source: string;
  messageId: string;
  split: string;
  label: string;
  labels: string[];
  text: string;
}[];

describe('labelled evaluation sets', () => {
  it('are well-formed: unique rows, a primary label consistent with the label list', () => {
    expect(rows.length).toBe(900);
    expect(new Set(rows.map((r) => r.n)).size).toBe(rows.length);
    const bySplit: Record<string, number> = {};
    for (const r of rows) bySplit[r.split] = (bySplit[r.split] ?? 0) + 1;
    expect(bySplit).toEqual({
      tune: 274,
      test: 186,
      fresh: 240,
      final: 200,
    });
    for (const r of rows) {
      for (const l of r.labels) expect(CATEGORIES, `#${r.n}`).toContain(l);
      if (r.labels.length === 0) expect(r.label, `#${r.n}`).toBe('none');
      else expect(r.labels, `#${r.n}`).toContain(r.label);
      expect(r.text.length, `#${r.n}`).toBeLessThanOrEqual(600);
    }
  });

  it('the later sets share no message and no text with any earlier set', () => {
    const seenKeys = new Set<string>();
    const seenTexts = new Set<string>();
    for (const split of ['tune', 'test', 'fresh', 'final']) {
      const subset = rows.filter((r) => r.split === split);
      if (split === 'fresh' || split === 'final') {
        for (const r of subset) {
          expect(seenKeys.has(`${r.source}#${r.messageId}`), `#${r.n}`).toBe(false);
          expect(seenTexts.has(r.text), `#${r.n}`).toBe(false);
        }
      }
      for (const r of subset) {
        seenKeys.add(`${r.source}#${r.messageId}`);
        seenTexts.add(r.text);
      }
    }
  });

  it('every turn is the stated message of the shared data', (ctx) => {
    const dir = sharedDataDir();
    if (!dir || !existsSync(join(dir, 'claude-code-console'))) {
      ctx.skip();
      return;
    }
    const cache = new Map<string, Map<string, string>>();
    for (const r of rows) {
      let byId = cache.get(r.source);
      if (!byId) {
        const text = readFileSync(join(dir, r.source), 'utf8');
        const format = r.source.startsWith('claude-code-console/') ? 'claude-code-console' : undefined;
        const { messages } = parseTranscript(text, { lenient: true, ...(format ? { format } : {}) });
        byId = new Map(messages.map((m) => [m.id, m.content.trim().slice(0, 600)]));
        cache.set(r.source, byId);
      }
      expect(byId.get(r.messageId), `#${r.n} ${r.source} ${r.messageId}`).toBe(r.text);
    }
  });

  it('the evaluation reports every split, the seed and the detector, with the final set as headline', () => {
    const report = evaluate();
    expect(Object.keys(report.results)).toEqual(['final', 'fresh', 'test', 'tune', 'all']);
    const final = report.results.final!.rearview!.correction!;
    expect(final.tp + final.fn).toBe(report.counts.final!.correction);
    expect(report.targets.correctionF1AtLeast0_8).toBe(final.f1 >= 0.8);
  });
});
