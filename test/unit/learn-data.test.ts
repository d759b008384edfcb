/**
 * `learn` over the shared real data, author by author: every file of a format `parseTranscript`
 * reads today goes through without being skipped or throwing, no planted secret reaches the output,
 * and the per-author figures (sessions, rules proposed, rules with evidence from ≥ 2 sessions) are
 * printed. Skipped when ../shared/data is absent.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { learn, toJson, toMarkdown } from '../../lib/learn/index';
import { safeParseTranscript } from '../../lib/transcript/index';
import { CONVERSATION_FOLDERS, METADATA_FILE } from '../../tools/shared/data';

const dir = resolve(import.meta.dirname, '../../../shared/data');
const present = existsSync(dir);
if (!present) console.warn(`learn-data: ${dir} is absent, skipping the real-data run`);

function walk(d: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(d).sort()) {
    const p = join(d, entry);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** `folder/owner` for the many-author folders (`owner+repo` names), the folder for one-author ones. */
function author(path: string): string {
  const parts = relative(dir, path).split('/');
  return parts.length >= 2 && parts[1]!.includes('+') ? `${parts[0]}/${parts[1]!.split('+')[0]}` : parts[0]!;
}

const SECRET =
  /sk-ant-api03-[\w-]{20}|AIza[\w-]{30}|-----BEGIN [A-Z ]*PRIVATE KEY-----|AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{30}/;

describe.skipIf(!present)('learn over the shared data', () => {
  it('reads every file of a format parseTranscript accepts, author by author, and prints the figures', async () => {
    const files = walk(dir).filter(
      (p) => CONVERSATION_FOLDERS.includes(relative(dir, p).split('/')[0]!) && !METADATA_FILE.test(p),
    );
    const byAuthor = new Map<string, string[]>();
    for (const f of files) byAuthor.set(author(f), [...(byAuthor.get(author(f)) ?? []), f]);
    const rows: string[] = [];
    let accepted = 0;
    for (const [who, paths] of byAuthor) {
      const readable = new Set(
        paths.filter((p) => safeParseTranscript(readFileSync(p, 'utf8'), { lenient: true }).ok),
      );
      accepted += readable.size;
      const r = await learn(
        paths.map((p) => ({
          name: relative(dir, p),
          text: readFileSync(p, 'utf8'),
          modified: statSync(p).mtime,
        })),
        { minSessions: 1, oneOffLimit: 0 },
      );
      // A file parseTranscript reads is never skipped; the others are, with a typed code.
      for (const s of r.skipped) {
        expect(readable.has(join(dir, s.name)), `${s.name}: ${s.reason}`).toBe(false);
        expect(s.code).toMatch(/^learn_source_/);
      }
      expect(r.stats.files).toBe(paths.length);
      expect(toJson(r)).not.toMatch(SECRET);
      expect(toMarkdown(r)).not.toMatch(SECRET);
      const multi = r.rules.filter((x) => x.sessions >= 2).length;
      rows.push(
        `${who.padEnd(44)} files ${String(paths.length).padStart(3)} read ${String(readable.size).padStart(3)} sessions ${String(r.stats.sessions).padStart(4)} human turns ${String(r.stats.humanTurns).padStart(5)} rules ${String(r.rules.length).padStart(3)} from ≥2 sessions ${multi}`,
      );
    }
    console.log(
      `learn over ${files.length} shared files (${accepted} in a format parseTranscript reads):\n${rows.join('\n')}`,
    );
    expect(accepted).toBeGreaterThan(100);
  }, 300_000);
});
