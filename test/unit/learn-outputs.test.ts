/**
 * `learn`'s outputs: the markdown section and JSON with evidence and dates, and unified diffs (applied
 * back to the file, and compared with `diff -u`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { learn, toJson, toMarkdown, toUnifiedDiff } from '../../lib/learn/index';
import { three } from './learn-helpers';

/** Applies a unified diff of one file: the test's own applier, so the diff is checked for what it does. */
function applyPatch(text: string, diff: string): string {
  const lines = text === '' ? [] : text.split('\n');
  const hasFinal = text.endsWith('\n');
  if (hasFinal) lines.pop();
  const patch = diff.split('\n');
  const out: string[] = [];
  let at = 0;
  let finalNewline = hasFinal;
  for (let i = 2; i < patch.length; i++) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(patch[i]!);
    if (!h) continue;
    const start = Number(h[2] ?? 1) === 0 ? Number(h[1]) : Number(h[1]) - 1;
    while (at < start) out.push(lines[at++]!);
    for (i++; i < patch.length && !patch[i]!.startsWith('@@'); i++) {
      const l = patch[i]!;
      const next = patch[i + 1];
      if (l.startsWith(' ')) {
        expect(lines[at]).toBe(l.slice(1));
        out.push(lines[at++]!);
      } else if (l.startsWith('-')) {
        expect(lines[at]).toBe(l.slice(1));
        at++;
      } else if (l.startsWith('+')) {
        out.push(l.slice(1));
        finalNewline = next !== '\\ No newline at end of file';
      }
    }
    i--;
  }
  while (at < lines.length) out.push(lines[at++]!);
  return out.join('\n') + (finalNewline && out.length ? '\n' : '');
}

describe('learn: outputs', () => {
  it('writes a markdown section and JSON with the evidence and dates', async () => {
    const r = await learn(three());
    expect(toMarkdown(r)).toBe(
      '## Learned from sessions\n\n### Corrections\n\n- Use pnpm instead of npm. _(3 sessions, 2025-01-01 – 2025-03-01)_\n',
    );
    const json = JSON.parse(toJson(r));
    expect(json.rules[0].evidence[0]).toMatchObject({
      session: 'a.jsonl',
      message: 'u2',
      line: 3,
      date: '2025-01-01T10:01:00.000Z',
    });
    expect(toMarkdown({ rules: [] })).toBe('');
    expect(toUnifiedDiff({ rules: [] }, 'x\n', 'AGENTS.md')).toBe('');
  });

  it('writes unified diffs that apply back to the file with the rules added', async () => {
    const r = await learn(three());
    const section = toMarkdown(r);
    const files = [
      '',
      '# Agents\n',
      '# Agents\n\n- Keep it short.',
      `# Agents\n\n${'- line\n'.repeat(10)}`,
      '# Agents\n\n## Learned from sessions\n\n### Corrections\n\n- Old rule. _(2 sessions)_\n\n## Other\n\n- Keep.\n',
    ];
    for (const before of files) {
      const diff = toUnifiedDiff(r, before, 'AGENTS.md');
      expect(diff.startsWith('--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ ')).toBe(true);
      const after = applyPatch(before, diff);
      if (before.includes('## Learned from sessions')) {
        // Under the section's own sub-heading, not a second one.
        const line = '- Use pnpm instead of npm. _(3 sessions, 2025-01-01 – 2025-03-01)_\n';
        expect(after).toContain(`- Old rule. _(2 sessions)_\n${line}`);
        expect(after.split('### Corrections')).toHaveLength(2);
        expect(after.replace(line, '')).toBe(before);
      } else {
        expect(after.endsWith(section)).toBe(true);
        expect(after.startsWith(before.replace(/\n?$/, ''))).toBe(true);
      }
    }
  });

  it('adds a kind the learned section has no sub-heading for under a new one, at the section end', async () => {
    const r = await learn([
      ...three(),
      ...three('No, always run the linter before committing.').map((s) => ({ ...s, name: `lint-${s.name}` })),
    ]);
    const before = '## Learned from sessions\n\n### Preferences\n\n- Old. _(2 sessions)_\n\n## Other\n';
    const after = applyPatch(before, toUnifiedDiff(r, before, 'AGENTS.md'));
    expect(after).toBe(
      '## Learned from sessions\n\n### Preferences\n\n- Old. _(2 sessions)_\n\n### Corrections\n\n' +
        `${r.rules.map((x) => `- ${x.text} _(3 sessions, 2025-01-01 – 2025-03-01)_\n`).join('')}\n## Other\n`,
    );
  });

  it('agrees with diff -u on the hunks', async (ctx) => {
    let hasDiff = true;
    try {
      execFileSync('diff', ['--version']);
    } catch {
      hasDiff = false;
    }
    if (!hasDiff) ctx.skip();
    const r = await learn(three());
    const dir = mkdtempSync(join(tmpdir(), 'learn-diff-'));
    for (const before of ['# Agents\n', '# Agents\n\n- Keep it short.', `# A\n\n${'- line\n'.repeat(10)}`]) {
      const ours = toUnifiedDiff(r, before, 'AGENTS.md');
      const after = applyPatch(before, ours);
      writeFileSync(join(dir, 'a'), before);
      writeFileSync(join(dir, 'b'), after);
      let theirs = '';
      try {
        execFileSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
      } catch (err) {
        theirs = (err as { stdout: string }).stdout;
      }
      const hunks = (d: string) => d.slice(d.indexOf('@@'));
      expect(hunks(ours)).toBe(hunks(theirs));
    }
  });
});
