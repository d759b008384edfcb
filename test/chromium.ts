/**
 * One place for how tests launch Chromium: Debian's build, never a downloaded one, with the flags
 * this sandbox needs (no background networking: the machine has no network beyond the registries).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export const chromiumLaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
  headless: true,
};
