/**
 * Where the shared real data lives (../shared/data beside the repository) and how to list it: one
 * definition for bench, eval and test.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The shared real data folder (`../shared/data` beside the repo), or undefined when absent. */
export function sharedDataDir(): string | undefined {
  const dir = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../../shared/data');
  return existsSync(dir) ? dir : undefined;
}

/** Every file under `dir` (recursively) whose name passes `filter`. */
export function walkFiles(dir: string, filter: (name: string) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...walkFiles(p, filter));
    else if (filter(entry)) out.push(p);
  }
  return out;
}

/** The folders of conversations (the trajectory folders are agent runs with no person in them). */
export const CONVERSATION_FOLDERS: readonly string[] = [
  'aider',
  'claude-code-console',
  'claude-code-jsonl',
  'claude-code-jsonl-more',
  'codex',
  'cline',
  'other-agents',
  'specstory',
  'sharegpt',
];

/** The data's own metadata files (sources, licences, READMEs): no session in them. */
export const METADATA_FILE = /(?:^|\/)(?:SOURCES?\.(?:jsonl|txt)|LICENSE(?:\.md|\.txt)?|README\.md)$/;

/**
 * Files of the data that summarise sessions rather than hold one: mini-swe-agent's
 * `results_summary.json` (which runs were resolved) and the console developer's Gemini summaries of
 * their days (`gemini-summary-day-001-003.md`). A session whose name says "summary" is a session.
 */
export const SUMMARY_FILE = /(?:^|\/)(?:results_summary\.json|gemini-summary-[^/]*\.md)$/;

/** Every session file under `dir`: not the data's metadata ({@link METADATA_FILE}) nor its summaries. */
export function sessionFiles(dir: string): string[] {
  return walkFiles(dir, (name) => !METADATA_FILE.test(name) && !SUMMARY_FILE.test(name));
}
