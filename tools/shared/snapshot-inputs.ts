/**
 * Snapshot inputs built from the real trajectories of ../shared/data/mini-swe-agent: each step's
 * thought lines and first error line become memory entries (sourceIteration = step index), the issue
 * statement gives the objective and three tasks, and the snapshot of the first half of the run is the
 * previous snapshot. Shared by eval/snapshot.ts, eval/record-snapshot-fixtures.ts and the test that
 * the recorded replies still answer today's requests.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isErrorLine } from '../../lib/compress/index.js';
import { deterministicSnapshot, type MemoryEntry, type SnapshotInput } from '../../lib/snapshot/index.js';
import { parseTrajectory } from '../../lib/transcript/index.js';

export const DATA = resolve(import.meta.dirname, '../../../shared/data/mini-swe-agent');
export const FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/snapshot/reflections.jsonl');
export const MODEL = 'claude-haiku-4-5';

export interface EvalInput {
  name: string;
  input: SnapshotInput;
}

function issueStatement(raw: unknown): string {
  const messages = (raw as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const first = messages.find((m, i) => i > 0 && m.role === 'user');
  const text = typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content ?? '');
  const m = /<pr_description>\s*([\s\S]*?)<\/pr_description>/.exec(text);
  const body = (m ? m[1]! : text).replace(/\s+/g, ' ').trim();
  // The first sentence or two: what the objective would say.
  return body.slice(0, 240).replace(/\s\S*$/, '');
}

export function buildInputs(limit = 8): EvalInput[] {
  if (!existsSync(DATA)) return [];
  const files = readdirSync(DATA)
    .filter((f) => f.endsWith('.traj.json'))
    .sort()
    .slice(0, limit);
  return files.map((file) => {
    const raw = JSON.parse(readFileSync(join(DATA, file), 'utf8')) as unknown;
    const traj = parseTrajectory(raw);
    const entries: MemoryEntry[] = [];
    for (const s of traj.steps) {
      const thoughts = (s.thought ?? '')
        .split(/\n+|(?<=[.!?])\s+(?=[A-Z])/)
        .map((l) => l.trim())
        .filter((l) => l.length >= 12 && !l.startsWith('```'));
      thoughts.slice(0, 3).forEach((value, j) => {
        entries.push({
          scope: 'thought',
          key: `s${s.index}.t${j}`,
          value: value.slice(0, 300),
          sourceIteration: s.index,
        });
      });
      const err = (s.error ?? '').split('\n').find((l) => isErrorLine(l));
      if (err)
        entries.push({
          scope: 'observation',
          key: `s${s.index}.err`,
          value: err.trim().slice(0, 300),
          sourceIteration: s.index,
        });
    }
    const objective = issueStatement(raw);
    const half = Math.floor(traj.steps.length / 2);
    const tasks = [
      { id: 'T1', title: 'Reproduce the reported bug', status: 'done' },
      { id: 'T2', title: `Fix ${traj.id}`, status: 'in_progress' },
      { id: 'T3', title: 'Run the relevant test suites', status: 'todo' },
    ];
    const previous = deterministicSnapshot({
      objective,
      entries: entries.filter((e) => e.sourceIteration < half),
      tasks,
    });
    return {
      name: traj.id,
      input: { objective, entries, tasks, previous, iteration: traj.steps.length },
    };
  });
}
