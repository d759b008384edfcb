/**
 * A folder of agent sessions of a chosen size for the learn benches: the shared conversations
 * (../shared/data) copied again and again with varied ids, written into a fresh temporary folder
 * (never into the repository), one sub-folder per copy. The CLI and the playground read it as they
 * read a person's folder.
 *
 * Standalone: `npx tsx bench/learn-folder.ts 1000` writes a 1 GB folder and prints where.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { safeParseTranscript } from '../lib/transcript/index';
import { CONVERSATION_FOLDERS, METADATA_FILE } from '../tools/shared/data';
import { sharedDataDir, walkFiles } from './harness';

export { CONVERSATION_FOLDERS };

/** The shared conversation files a reader exists for today, with their text. */
export function conversationFiles(dir: string): { path: string; text: string; bytes: number }[] {
  return CONVERSATION_FOLDERS.flatMap((f) => walkFiles(join(dir, f)))
    .filter((p) => !METADATA_FILE.test(p))
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
    .filter((f) => safeParseTranscript(f.text, { lenient: true }).ok)
    .map((f) => ({ ...f, bytes: Buffer.byteLength(f.text) }));
}

/** Copy `k` of a file: every id-like JSON field made distinct, so no two copies share a message id. */
export function vary(text: string, k: number): string {
  if (k === 0) return text;
  return text.replace(
    /"(uuid|parentUuid|id|sessionId|session_id|tool_use_id|call_id)"(\s*):(\s*)"/g,
    `"$1"$2:$3"c${k}-`,
  );
}

/** What {@link writeLearnFolder} wrote. */
export interface LearnFolder {
  dir: string;
  files: number;
  bytes: number;
  copies: number;
  remove(): void;
}

/**
 * Writes about `megabytes` MB (10^6 bytes) of sessions into a new temporary folder: whole copies of the
 * shared conversations (`copy-0001/aider/…`), the last one cut short at the target.
 */
export function writeLearnFolder(megabytes: number): LearnFolder | undefined {
  const data = sharedDataDir();
  if (!data) return undefined;
  const corpus = conversationFiles(data);
  const target = megabytes * 1e6;
  const dir = mkdtempSync(join(tmpdir(), 'rearview-learn-'));
  let bytes = 0;
  let files = 0;
  let k = 0;
  for (; bytes < target; k++) {
    for (const f of corpus) {
      if (bytes >= target) break;
      const to = join(dir, `copy-${String(k).padStart(4, '0')}`, relative(data, f.path));
      mkdirSync(dirname(to), { recursive: true });
      const text = vary(f.text, k);
      writeFileSync(to, text);
      bytes += Buffer.byteLength(text);
      files++;
    }
  }
  return { dir, files, bytes, copies: k, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const folder = writeLearnFolder(Number(process.argv[2] ?? 100));
  if (!folder) console.error('../shared/data is absent');
  else console.log(JSON.stringify({ dir: folder.dir, files: folder.files, bytes: folder.bytes }));
}
