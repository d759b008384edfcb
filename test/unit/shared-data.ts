/**
 * The shared real data set (../shared/data) for the data walks: its files, and which format each one
 * is by its folder (and, in other-agents/, the agent SOURCES.jsonl names). The parsers are never told:
 * they must detect the same by content.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

export const dir = resolve(import.meta.dirname, '../../../shared/data');
export const present = existsSync(dir);
if (!present) console.warn(`shared data: ${dir} is absent, skipping the real-data walks`);

/** Every file under `d`, sorted, dotfiles included. */
export function walk(d: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(d).sort()) {
    const p = join(d, entry);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** Every file of ../shared/data. */
export const files = present ? walk(dir) : [];
/** A path relative to ../shared/data. */
export const rel = (p: string) => relative(dir, p);

/** A folder's SOURCES.jsonl rows by their `file` (provenance; the test routes by it, the parser never does). */
export function sources(folder: string): Map<string, Record<string, unknown>> {
  const path = join(dir, folder, 'SOURCES.jsonl');
  if (!present || !existsSync(path)) return new Map();
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return new Map(rows.map((r) => [String(r.file ?? ''), r]));
}
export const otherAgents = sources('other-agents');
export const claudeMore = sources('claude-code-jsonl-more');
export const codexSources = sources('codex');

/**
 * Which format a file is, by its folder (and, in other-agents/, the agent SOURCES.jsonl names): what
 * each file is checked against. The parser is never told: it must detect the same by content.
 */
export const kind = (p: string): string => {
  const name = basename(p);
  const r = rel(p);
  // SOURCES.jsonl files are provenance metadata (repo, commit, licence per file), not transcripts.
  if (name === 'SOURCES.jsonl') return 'other';
  const folder = r.split('/')[0];
  if ((folder === 'claude-code-jsonl' || folder === 'claude-code-jsonl-more') && name.endsWith('.jsonl'))
    return 'claude-code';
  if (folder === 'codex' && name.endsWith('.jsonl')) return 'codex';
  if (folder === 'other-agents') {
    const agent = otherAgents.get(r.slice('other-agents/'.length))?.agent;
    return agent === 'antigravity' ? 'antigravity' : 'other';
  }
  if (folder === 'aider' && name.endsWith('.md')) return 'aider';
  if (name.endsWith('.traj')) return 'swe-agent';
  if (name.endsWith('.traj.json')) return 'mini-swe-agent';
  if (folder === 'sharegpt' && name.endsWith('.json')) return 'sharegpt';
  if (/^day-\d+\.md$/.test(name)) return 'console';
  return 'other';
};
