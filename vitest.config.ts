import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumLaunchOptions } from './test/chromium.ts';

// Public entries resolve to the sources, so tests exercise exactly what `import 'rearview/…'` gives.
const alias = [
  { find: /^rearview$/, replacement: fileURLToPath(new URL('./lib/index.ts', import.meta.url)) },
  {
    find: /^rearview\/(.+)$/,
    replacement: `${fileURLToPath(new URL('./lib/', import.meta.url))}$1/index.ts`,
  },
];

// Property tests: a fixed fast-check seed for every run (test/setup/fast-check.ts), so a result never
// flips between runs. `npm run fuzz` (scripts/fuzz.mjs) sets REARVIEW_FUZZ=1 to swap in fresh seeds
// and more runs for the unit project.
const setupFiles = ['test/setup/fast-check.ts'];
const fuzzAlias =
  process.env.REARVIEW_FUZZ === '1'
    ? [
        {
          find: /^fast-check$/,
          replacement: fileURLToPath(new URL('./test/setup/fast-check-fuzz.ts', import.meta.url)),
        },
      ]
    : [];

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest runs one worker fewer than the cores by default: a single worker on the 2-core CI machine,
    // while many files spend part of their time waiting on child processes, a browser or the disk. A
    // worker per core (at least two) ran the unit project there in 314 s against about 530 s; the
    // growth checks time the process's own CPU, so a neighbour's load does not move their ratios.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        resolve: { alias: [...fuzzAlias, ...alias] },
        test: {
          name: 'unit',
          environment: 'node',
          setupFiles,
          include: ['test/unit/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          setupFiles,
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: chromiumLaunchOptions }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'runtime',
          environment: 'node',
          include: ['test/runtime/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // The matrix spawns whole runtimes; running its files one at a time keeps the 2-core box calm.
          fileParallelism: false,
        },
      },
    ],
  },
});
