/**
 * `npm run bench` (bench/run.ts) imports every `bench/*.bench.ts` and runs its default export: a file
 * of that name without one stopped the whole run half-way (two standalone scripts did, for days). The
 * files are read as text, not imported: importing a suite runs nothing, but a script would run here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = resolve(import.meta.dirname, '../../bench');
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts'));

describe('bench suites', () => {
  it('finds the suites', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s exports a suite and prints only when run on its own', (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    expect(text).toMatch(/^export default \w+;$/m);
    // A top-level console.log would print into `npm run bench`'s JSON document.
    const topLevel = text.split('\n').filter((line) => /^console\.log\(/.test(line));
    expect(topLevel).toEqual([]);
  });
});
