import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../test/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 4317);

// End-to-end tests drive the BUILT playground (dist/playground) in Debian's Chromium.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results/e2e',
  timeout: 60_000,
  retries: 0,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: process.env.E2E_JSON ?? '../.cache/e2e-results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
    trace: 'off',
  },
  webServer: {
    command: `node ../scripts/serve-playground.mjs ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
