// The session files `rearview learn` hands to rearview/learn: one at a time, each read whole when
// learn asks for it. The learn bench (bench/learn.bench.ts) times this same generator.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** A session file to read: where it is and its date. */
export interface SessionFileRef {
  path: string;
  mtime: Date;
}

/**
 * The files as learn's sources, in the order given: named relative to `base` when one is given, dated
 * by `mtime`, their bytes read when learn asks for the next source (so one file is in memory at a
 * time) and decoded by learn.
 *
 * Whole files, read synchronously: a read stream's chunks cost about a fifth more CPU than one read
 * (measured on a 1 GB folder), and the promise API's 512 KiB reads, each a round trip through the
 * thread pool, cost more CPU than one blocking read and leave the main thread idle meanwhile; the CLI
 * has nothing else to do while it waits. A file that cannot be read throws here, as the promise API
 * rejected before: learn reports it and keeps what it read so far.
 *
 * @param files the session files, in reading order
 * @param base the folder names are made relative to, or undefined for the paths as given
 * @example
 * ```ts
 * const result = await learn(sessionSources([{ path: 'a.jsonl', mtime: new Date() }]));
 * ```
 */
export async function* sessionSources(
  files: readonly SessionFileRef[],
  base?: string,
): AsyncGenerator<{ name: string; bytes: Uint8Array; modified: Date }> {
  for (const f of files) {
    yield { name: base ? relative(base, f.path) : f.path, bytes: readFileSync(f.path), modified: f.mtime };
  }
}
