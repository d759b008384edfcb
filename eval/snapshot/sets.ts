/**
 * Where the labelled snapshot sets live: one folder per set, `sets/<n>/`, named by its number (1 and 2
 * are the first two draws, 3 and on the report-kind sets and set 30 the aider replies of untouched
 * authors). Each folder holds `entries.jsonl` (the entries), `labels.tsv` (the first blind reader's
 * labels), `labels-second.tsv` where a second blind reader labelled the set, and the set's own
 * `LABELLING.md` (how it was drawn, labelled and scored). The rules every set was labelled by, and
 * set 1's record, are in ../LABELLING.md.
 */
import { relative, resolve } from 'node:path';

/** The files a set folder may hold. */
export type SetFile = 'entries.jsonl' | 'labels.tsv' | 'labels-second.tsv';

/** A set's file relative to eval/snapshot/: what `readLabels` takes and what error messages name. */
export const setFile = (set: number, file: SetFile): string => `sets/${set}/${file}`;

/** A set's file as an absolute path. */
export const setPath = (set: number, file: SetFile): string =>
  resolve(import.meta.dirname, setFile(set, file));

/** A set file's path as error messages name it (relative to eval/snapshot/). */
export const shownPath = (path: string): string => relative(import.meta.dirname, path);
