/**
 * `learn`'s `groupBy`: each rule's sessions counted per group (author, project), merged wordings
 * bringing their groups along, group names redacted, nothing changed without the option.
 */
import { describe, expect, it } from 'vitest';
import { type LearnSource, learn } from '../../lib/learn/index';

/** A Claude Code session whose second turn corrects the agent with `correction`. */
function session(day: string, correction: string): string {
  const line = (type: string, uuid: string, content: unknown, minute: string) =>
    JSON.stringify({ type, message: { role: type, content }, uuid, timestamp: `${day}T10:${minute}:00Z` });
  return [
    line('user', 'u1', 'Install the dependencies and run the tests.', '00'),
    line('assistant', 'a1', [{ type: 'text', text: 'Running npm install now.' }], '00'),
    line('user', 'u2', correction, '01'),
  ].join('\n');
}

const sources = (): LearnSource[] => [
  { name: 'alice/app/a.jsonl', text: session('2025-01-01', 'No, use pnpm instead of npm.') },
  { name: 'alice/app/b.jsonl', text: session('2025-01-02', 'No, use pnpm instead of npm!') },
  { name: 'bob/site/c.jsonl', text: session('2025-01-03', 'no, Use pnpm instead of npm') },
  { name: 'LICENSE', text: 'MIT' },
];
const author = (name: string) => name.split('/')[0];

describe('learn: groupBy', () => {
  it('counts each rule’s sessions per group, most first, merged wordings included', async () => {
    const r = await learn(sources(), { groupBy: author });
    expect(r.rules).toHaveLength(1);
    expect(r.rules[0]!.sessions).toBe(3);
    expect(r.rules[0]!.groups).toEqual([
      { group: 'alice', sessions: 2 },
      { group: 'bob', sessions: 1 },
    ]);
  });

  it('changes nothing else, and nothing at all without the option', async () => {
    const plain = await learn(sources());
    const grouped = await learn(sources(), { groupBy: author });
    expect(plain.rules[0]!.groups).toBeUndefined();
    const { groups: _, ...rest } = grouped.rules[0]!;
    expect(rest).toEqual(plain.rules[0]);
    expect(grouped.skipped).toEqual(plain.skipped);
  });

  it('redacts group names and leaves out sources whose groupBy fails or gives none', async () => {
    const key = `sk-ant-api03-${'A1b2C3d4'.repeat(6)}`;
    const r = await learn(sources(), {
      groupBy: (name) => {
        if (name.startsWith('bob/')) throw new Error('no author');
        return name.startsWith('alice/app/a') ? `team ${key}` : '';
      },
    });
    expect(r.rules[0]!.groups).toHaveLength(1);
    expect(r.rules[0]!.groups![0]!.sessions).toBe(1);
    expect(r.rules[0]!.groups![0]!.group).not.toContain(key);
    expect(JSON.stringify(r)).not.toContain(key);
  });
});
