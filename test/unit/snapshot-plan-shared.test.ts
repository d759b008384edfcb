/**
 * The agent's own plan in the shared sessions: every plan the agents kept is read, and the blind
 * rounds' rows (eval/snapshot/sets/pending/plan-open.jsonl) point at what the snapshot lists.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  deterministicSnapshot,
  entriesFromMessages,
  isPlanMessage,
  listedText,
  planSteps,
  readSnapshotSource,
  snapshotInputFrom,
} from '../../lib/snapshot/index';
import { type Message, parseTranscript } from '../../lib/transcript/index';
import { keptBreakAliases } from '../../tools/shared/console-breaks';
import { sharedDataDir } from '../../tools/shared/data';

const dir = sharedDataDir() ?? '';
const present = dir !== '' && existsSync(join(dir, 'codex')) && existsSync(join(dir, 'claude-code-console'));
if (!present) console.warn(`snapshot-plan: ${dir} is absent, skipping the real-data walk`);

describe.skipIf(!present)('the shared sessions', () => {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((n) => {
      const p = join(d, n);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });

  it('every plan the agents kept is read; the sessions that end with open steps list them', () => {
    let planned = 0;
    let read = 0;
    const listed: string[] = [];
    for (const f of walk(dir)) {
      if (!/\.(?:md|json|jsonl)$/.test(f) || /SOURCES|README|results_summary/.test(f)) continue;
      const text = readFileSync(f, 'utf8');
      // Independent: the files that name a plan tool at all.
      if (!/TodoWrite|update_plan|todo_write|write_todos|manage_todo_list|Update Todos/.test(text)) continue;
      let source: ReturnType<typeof readSnapshotSource>;
      try {
        source = readSnapshotSource(text);
      } catch {
        continue;
      }
      const messages = source.transcript?.messages ?? [];
      if (!messages.some(isPlanMessage)) continue;
      planned++;
      if (messages.some((m) => planSteps(m))) read++;
      const open = source.input.entries.filter((e) => e.scope === 'todo').map((e) => String(e.value));
      const snapshot = deterministicSnapshot(source.input);
      for (const step of open) expect(snapshot.nextActions, f).toContain(step);
      listed.push(...open);
      if (open.length)
        console.log(`snapshot-plan: ${f.slice(dir.length + 1, dir.length + 70)} ${open.length} open steps`);
    }
    // Measured: 28 files with a plan tool's messages; 23 whose lists are read (the others render
    // Cursor's `todo_write` as a summary line). One session ends with its
    // latest plan open, no word of the person's and no edit after it: a Claude Code export the person
    // interrupted right after the plan (3 steps). A Codex rollout ends with 4 steps open too, but it
    // carried them out after the plan without marking them done: an edit worked after it. The others
    // end with every step done, or with a turn of the person's after the plan.
    console.log(`snapshot-plan: ${planned} files with plan messages, ${read} read`);
    // Cline passes its list with every call (`task_progress`): each of the 212 calls of the shared API
    // history that carry one is read as a plan.
    const cline = parseTranscript(
      readFileSync(join(dir, 'cline/mike4567+MRA04242026/api_conversation_history.json'), 'utf8'),
    ).messages.filter((m) => m.toolName !== undefined && m.content.includes('"task_progress"'));
    expect(cline.length).toBe(212);
    expect(cline.every((m) => planSteps(m) !== undefined)).toBe(true);
    expect(planned).toBe(28);
    expect(read).toBe(23);
    expect(listed.length).toBe(3);
  });
});

describe.skipIf(!present)("the blind rounds' rows (eval/snapshot/sets/pending/plan-open.jsonl)", () => {
  const rows = readFileSync(
    resolve(import.meta.dirname, '../../eval/snapshot/sets/pending/plan-open.jsonl'),
    'utf8',
  )
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');

  it('are labelled in the rules’ words, by two readers each, with distinct ids', () => {
    expect(rows.length).toBe(114);
    expect(new Set(rows.map((r) => r.id)).size).toBe(114);
    for (const r of rows) {
      expect([
        'plan-open-end',
        'plan-open',
        'prose',
        'cline-plan-open',
        'cline-prose',
        'antigravity-plan-open',
        'antigravity-prose',
      ]).toContain(r.group);
      expect(['pending', 'not-pending', 'not-a-step', 'unclear']).toContain(r.label);
      expect(['pending', 'not-pending', 'not-a-step', 'unclear']).toContain(r.second);
    }
  });

  it('point at what the snapshot lists at their cut: the plan steps as `todo`, the controls from prose', () => {
    const cache = new Map<string, Message[]>();
    // Console rows were labelled before the reader joined what the terminal wrapped: their fragment's
    // hash leads to today's entry that holds it.
    const aliases = new Map<string, Map<string, string> | undefined>();
    for (const r of rows) {
      const file = String(r.file);
      if (!cache.has(file)) {
        const text = readFileSync(join(dir, file), 'utf8');
        cache.set(file, parseTranscript(text).messages);
        aliases.set(file, keptBreakAliases(text));
      }
      const messages = cache.get(file)!;
      const cut = typeof r.cut === 'number' ? r.cut : messages.length;
      const { objective, entries } = entriesFromMessages(messages.slice(0, cut));
      const key = aliases.get(file)?.get(String(r.sha256)) ?? r.sha256;
      const entry = entries.find(
        (e) => e.sourceIteration === r.message && sha(String(e.value).trim()) === key,
      );
      const listed =
        entry !== undefined &&
        deterministicSnapshot(snapshotInputFrom(objective, entries)).nextActions.includes(
          listedText(String(entry.value)),
        );
      const plan = String(r.group).endsWith('plan-open');
      const prose = String(r.group).endsWith('prose');
      if (plan) expect(entry?.scope, `${file} cut ${cut}`).toBe('todo');
      if (prose) expect(entry?.scope, `${file} cut ${cut}`).not.toBe('todo');
      // A control the later call-after rule took out: the agent's words its own call follows (`done`).
      const callAfter = entry?.scope === 'done' && messages[Number(r.message) + 1]?.toolName !== undefined;
      if (r.group !== 'plan-open-end')
        expect(listed || (prose && callAfter), `${file} cut ${cut}`).toBe(true);
    }
    // Round 1 (the first rule, at the session's end): the interrupted session's steps are still listed;
    // the Codex rollout's, carried out after the plan with an edit, are not.
    const end = rows.filter((r) => r.group === 'plan-open-end');
    for (const r of end) {
      const messages = cache.get(String(r.file))!;
      const todo = entriesFromMessages(messages).entries.filter((e) => e.scope === 'todo');
      expect(todo.length, String(r.file)).toBe(String(r.file).startsWith('codex/') ? 0 : 3);
    }
  });
});
