#!/usr/bin/env node
// The npm registry this project installs from carries only some platforms' builds of packages that
// ship native binaries as optional dependencies (biome, deno, workerd). `npm install` then leaves the
// missing ones out of package-lock.json, and `npm ci` refuses the lock as "out of sync". This script
// records each missing optional platform package with its os/cpu/libc (read from its name), so `npm ci`
// accepts the lock and skips them on this platform, as it would with a complete lock.
// Run it after any `npm install` that rewrites the lock: node scripts/fix-lock.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  const n = name.toLowerCase();
  const os = /darwin/.test(n)
    ? 'darwin'
    : /win32|windows/.test(n)
      ? 'win32'
      : /android/.test(n)
        ? 'android'
        : /freebsd/.test(n)
          ? 'freebsd'
          : /linux/.test(n)
            ? 'linux'
            : undefined;
  const cpu = /arm64|aarch64/.test(n)
    ? 'arm64'
    : /x64|-64$|amd64/.test(n)
      ? 'x64'
      : /ia32/.test(n)
        ? 'ia32'
        : undefined;
  const libc = /musl/.test(n) ? 'musl' : /gnu|glibc/.test(n) && os === 'linux' ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [key, meta] of Object.entries(packages)) {
  if (!meta.optionalDependencies || key === '') continue;
  for (const [dep, range] of Object.entries(meta.optionalDependencies)) {
    if (packages[`node_modules/${dep}`] || packages[`${key}/node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os) continue; // not a platform package: leave it for npm to report
    packages[`node_modules/${dep}`] = {
      version: range.replace(/^[\^~=]/, ''),
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lock: recorded ${added} missing optional platform packages`);
