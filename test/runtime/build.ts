import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './runtimes';

/**
 * Builds dist/ (unless `npm test` already did, signalled by REARVIEW_DIST_FRESH=1) and the
 * conformance bundles from it. Returns the bundle folder.
 */
export async function ensureBuilt(): Promise<string> {
  if (process.env.REARVIEW_DIST_FRESH !== '1' || !existsSync(join(root, 'dist/lib/index.js'))) {
    const { buildLib } = await import(join(root, 'scripts/build-lib.mjs'));
    await buildLib({ quiet: true });
  }
  const { buildConformance, conformanceDir } = await import(join(root, 'scripts/build-conformance.mjs'));
  await buildConformance();
  return conformanceDir as string;
}
