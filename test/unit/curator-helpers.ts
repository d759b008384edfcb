/** The realistic playbook fixture and lookups shared by the Curator tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type KeyPoint, type Playbook, SECTION_NAMES } from 'rearview/playbook';

/** A fresh copy of test/fixtures/playbook/realistic.json. */
export const fixture = (): Playbook =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../fixtures/playbook/realistic.json'), 'utf8'),
  ) as Playbook;
/** The key point of that name, in any section. */
export const find = (pb: Playbook, name: string): KeyPoint | undefined => {
  for (const s of SECTION_NAMES) for (const kp of pb.sections[s]) if (kp.name === name) return kp;
  return undefined;
};
/** Every key point's name, in playbook order. */
export const names = (pb: Playbook) => SECTION_NAMES.flatMap((s) => pb.sections[s].map((k) => k.name));
