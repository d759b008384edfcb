// Runs the conformance cases under vitest: in Node (project "unit") and in real Chromium (project "browser").
import { describe, expect, it } from 'vitest';
import { cases, runConformance } from './suite';

describe('conformance', () => {
  for (const c of cases) {
    it(c.name, async () => {
      await c.run();
    });
  }

  it('produces a report with every case passing', async () => {
    const report = await runConformance('vitest');
    expect(report.failed, JSON.stringify(report.results.filter((r) => !r.ok))).toBe(0);
    expect(report.passed).toBe(cases.length);
    expect(report.digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
