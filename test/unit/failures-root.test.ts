/**
 * The folder a run worked in, read whole in its error text (lib/failures/error-class.ts `wholeRoot`):
 * a folder whose name holds a space is one path, not a path and a stray word, in the error class a
 * failure lesson prints, from `errorClass` to the lessons of a Claude Code session and `rearview/learn`.
 */
import { describe, expect, it } from 'vitest';
import { tildeSpelling } from '../../lib/core/index';
import { errorClass, groupFailures, stepsFromMessages } from '../../lib/failures/index';
import { memoryStore } from '../../lib/kv/index';
import { createRearview, lessons, lessonsInputOf } from '../../lib/session/index';
import { readSnapshotSource } from '../../lib/snapshot/index';
import { claudeSession } from '../fixtures/claude-session';

const ERROR = 'ls: /Users/ana/My app/build: No such file or directory';

describe('errorClass with the run folder', () => {
  it('masks a folder with a space as one path', () => {
    expect(errorClass(ERROR, '/Users/ana/My app')).toBe('ls: <path>: No such file or directory');
    expect(errorClass(ERROR, '/Users/ana/My app/')).toBe('ls: <path>: No such file or directory');
    expect(errorClass('ta-la-app@1.0.0 /Users/ana/Dev/Ta la', '/Users/ana/Dev/Ta la')).toBe(
      'ta-la-app@N <path>',
    );
    // Without the folder the scan stops at the space: what the folder is for.
    expect(errorClass(ERROR)).toBe('ls: <path> app/build: No such file or directory');
  });

  it('spells a folder from the home folder as a shell does (tildeSpelling, shared with the snapshot)', () => {
    expect(tildeSpelling('/Users/ana/My app')).toBe('~/My app');
    expect(tildeSpelling('/home/ana')).toBe('~');
    expect(tildeSpelling('/srv/app')).toBeUndefined();
    // The superuser's home, where agents in containers often run.
    expect(tildeSpelling('/root/app')).toBe('~/app');
    expect(tildeSpelling('/root')).toBe('~');
    expect(tildeSpelling('/rooted/app')).toBeUndefined();
    expect(tildeSpelling(42 as unknown as string)).toBeUndefined();
    // A conversation's calls take the folder as their run's root.
    expect(stepsFromMessages([], 'c', '/Users/ana/My app').root).toBe('/Users/ana/My app');
    expect('root' in stepsFromMessages([], 'c')).toBe(false);
  });

  it('reads the folder in its ~ spelling under a home folder too', () => {
    const npm = 'npm error path ~/My app/package.json';
    expect(errorClass(npm, '/Users/ana/My app')).toBe('npm error path <path>');
    expect(errorClass(npm, '/home/ana/My app/')).toBe('npm error path <path>');
    expect(errorClass('ls: ~/Dev/Ta la/build: No such file', '/Users/ana/Dev/Ta la')).toBe(
      'ls: <path>: No such file',
    );
    // Without the folder, or with one outside a home folder, the scan stops at the space as before.
    expect(errorClass(npm)).toBe('npm error path ~/My <path>');
    expect(errorClass(npm, '/srv/My app')).toBe(errorClass(npm));
    // The home folder itself has no folder under it to spell.
    expect(errorClass('cd ~/x y', '/Users/ana')).toBe(errorClass('cd ~/x y'));
  });

  it('leaves the class as it was for a plain folder, a relative one, or a folder the error does not spell', () => {
    const plain = 'Error: ENOENT: no such file /Users/ana/app/src/a.ts';
    expect(errorClass(plain, '/Users/ana/app')).toBe(errorClass(plain));
    expect(errorClass(ERROR, 'My app')).toBe(errorClass(ERROR));
    expect(errorClass(ERROR, '/Users/bo/Other dir')).toBe(errorClass(ERROR));
    expect(errorClass(ERROR, 42 as unknown as string)).toBe(errorClass(ERROR));
  });

  it('groups the same failure of runs in two folders with spaces as one class', () => {
    const run = (id: string, root: string) => ({
      id,
      root,
      steps: [{ tool: 'Bash', action: 'npm test', error: `npm error path ${root}/package.json` }],
    });
    const classes = groupFailures([run('a', '/Users/ana/My app'), run('b', '/home/bo/other place')]);
    expect(classes.map((c) => c.errorClass)).toEqual(['npm error path <path>']);
    expect(classes[0]!.runs).toBe(2);
  });
});

describe('the lessons of a session in a folder with a space', () => {
  const cwd = '/Users/ana/My app';
  const text = claudeSession(cwd, [
    'List the build',
    [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls build' } }],
    [
      {
        type: 'tool_result',
        tool_use_id: 't1',
        is_error: true,
        content: `ls: ${cwd}/build: No such file or directory`,
      },
    ],
    [{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'ls dist' } }],
    [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }],
  ]);

  it('lessonsInputOf takes the folder from the transcript, and the lesson names no stray word', () => {
    const input = lessonsInputOf(readSnapshotSource(text));
    expect(input.root).toBe(cwd);
    const facts = lessons(input).insights.map((i) => i.fact);
    const failure = facts.find((f) => f.includes('No such file'));
    expect(failure).toBeDefined();
    expect(failure).toContain('"ls: <path>: No such file or directory"');
    expect(failure).not.toContain('<path> app');
    // Without the folder the same session's lesson keeps the piece after the space.
    const bare = lessons({ messages: input.messages ?? [] }).insights.map((i) => i.fact);
    expect(bare.find((f) => f.includes('No such file'))).toContain('<path> app/build');
  });

  it('createRearview takes the folder too, and gives the lessons lessons() gives', async () => {
    const input = lessonsInputOf(readSnapshotSource(text));
    const rv = createRearview({ store: memoryStore(), root: cwd, redact: false });
    rv.observe(input.messages ?? []);
    expect(rv.insights()).toEqual(lessons(input).insights);
    expect(rv.proposed()).toEqual(lessons(input).proposed);
    const summary = await rv.endSession();
    expect(summary.insights.find((i) => i.fact.includes('No such file'))?.fact).not.toContain('<path> app');
    // Without it, as lessons() without the folder.
    const bare = createRearview({ store: memoryStore(), redact: false });
    bare.observe(input.messages ?? []);
    expect(bare.insights()).toEqual(lessons({ messages: input.messages ?? [] }).insights);
  });
});
