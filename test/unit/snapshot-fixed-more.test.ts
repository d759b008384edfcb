/**
 * What else the session shows is over: a patch applied through Codex's shell is an edit
 * (`isFileEditCall`), so the message it answered is acted on; and an error of the agent's own model
 * call ("API Error: …", aider's `litellm.…Error`) no longer stands once the model answered after it.
 * aider applies a reply's edit blocks itself and says so in its output ("Applied edit to a.py"): that
 * reply was acted on too. All give scope `fixed` (never listed).
 */
import fc from 'fast-check';
import { entriesFromMessages } from 'rearview/snapshot';
import {
  isAppliedEditReport,
  isFileEditCall,
  type Message,
  parseTranscript,
  patchedFiles,
} from 'rearview/transcript';
import { describe, expect, it } from 'vitest';
import { describeGrowth, doublings, measureGrowth } from './linear-time';

/** Messages as a transcript gives them: each with its source line. */
const located = (list: Omit<Message, 'source'>[]): Message[] =>
  list.map((m, i) => ({ ...m, source: { line: i + 1 } }) as Message);

describe('isFileEditCall', () => {
  const patch =
    '{"command":["bash","-lc","apply_patch <<\'PATCH\'\\n*** Begin Patch\\n*** Update File: a.js\\n@@\\n-x\\n+y\\n*** End Patch\\nPATCH"]}';
  it('counts an edit tool, and a patch applied through a shell (Codex) as an edit', () => {
    expect(isFileEditCall('Edit', '{"file_path":"a.ts"}')).toBe(true);
    expect(isFileEditCall('shell', patch)).toBe(true);
    expect(isFileEditCall('exec_command', patch)).toBe(true);
    expect(
      isFileEditCall('shell', '{"command":["apply_patch","*** Begin Patch\\n*** Add File: b.js\\n+1"]}'),
    ).toBe(true);
  });
  it('does not count other shell calls, a patch named without its body, or a patch read by a non-shell tool', () => {
    expect(isFileEditCall('shell', '{"command":["bash","-lc","ls"]}')).toBe(false);
    expect(isFileEditCall('Bash', '{"command":"sed -i s/a/b/ x.txt"}')).toBe(false);
    expect(isFileEditCall('shell', '{"command":["bash","-lc","which apply_patch"]}')).toBe(false);
    // The body before the command: a file holding a patch printed, not applied.
    expect(isFileEditCall('shell', '{"command":["cat","*** Begin Patch notes.md"]} apply_patch')).toBe(false);
    expect(isFileEditCall('Read', patch)).toBe(false);
    expect(isFileEditCall('shell', undefined as unknown as string)).toBe(false);
  });
});

describe('patchedFiles', () => {
  it('gives the files a patch updates or adds, in order, once each, up to a limit; not those it deletes', () => {
    const patch =
      '*** Begin Patch\n*** Update File: a.js\n@@\n*** Delete File: old.js\n*** Add File: b.js\n+1\n*** Update File: a.js\n*** Add File: c.js\n*** End Patch';
    expect(patchedFiles(patch)).toEqual(['a.js', 'b.js', 'c.js']);
    expect(patchedFiles(patch, 2)).toEqual(['a.js', 'b.js']);
    // Inside a call's JSON, where a backslash (an escaped line break) ends the name.
    expect(patchedFiles(JSON.stringify({ command: ['apply_patch', patch] }), 1)).toEqual(['a.js']);
    expect(patchedFiles('{"command":"ls"}')).toEqual([]);
    expect(patchedFiles(undefined as unknown as string)).toEqual([]);
  });
});

describe('the snapshot: what the session shows is over', () => {
  it("counts a patch applied through Codex's shell as the edit that answered a person's question", () => {
    const scopes = (content: string) =>
      entriesFromMessages(
        located([
          { id: 'u1', role: 'user', content: 'Can the date box show yyyy/mm/dd (weekday) instead?' },
          { id: 'c1', role: 'assistant', toolName: 'shell', toolUseId: 't1', content },
          {
            id: 'r1',
            role: 'tool',
            toolName: 'shell',
            toolUseId: 't1',
            content: 'Success. Updated the following files:',
          },
          { id: 'a1', role: 'assistant', content: 'Done: the box shows the weekday.' },
        ]),
      ).entries.find((e) => e.key === 'u1.0')?.scope;
    expect(
      scopes(
        '{"command":["bash","-lc","apply_patch <<\'PATCH\'\\n*** Begin Patch\\n*** Update File: app.js"]}',
      ),
    ).toBe('fixed');
    // A read answers nothing by itself; the agent's words after it do (`replied`, not acted on).
    expect(scopes('{"command":["bash","-lc","sed -n 1,20p app.js"]}')).toBe('replied');
  });

  it("gives scope `fixed` to an error of the agent's own model call once the model answered after it", () => {
    const at = (answeredAfter: boolean) =>
      entriesFromMessages(
        located([
          { id: 'u1', role: 'user', content: 'Add the login page.' },
          {
            id: 'r1',
            role: 'tool',
            toolName: 'aider',
            isError: true,
            content: 'litellm.RateLimitError: RateLimitError: OpenrouterException - rate limit exceeded',
          },
          { id: 'a1', role: 'assistant', content: 'API Error: 500 Internal server error.' },
          ...(answeredAfter
            ? [{ id: 'a2', role: 'assistant' as const, content: 'Added the login page.' }]
            : []),
        ]),
      ).entries.map((e) => [e.key, e.scope]);
    expect(at(true)).toEqual([
      ['u1.0', 'replied'],
      ['r1.err', 'fixed'],
      ['a1.0', 'fixed'],
      ['a2.0', 'assistant'],
    ]);
    // The session ends on the errors: they still stand. Another error of a call is not the model's.
    expect(at(false)).toEqual([
      ['u1.0', 'user'],
      ['r1.err', 'observation'],
      ['a1.0', 'assistant'],
    ]);
    const other = entriesFromMessages(
      located([
        {
          id: 'r1',
          role: 'tool',
          toolName: 'aider',
          isError: true,
          content: 'Error: tests failed (litellm.py)',
        },
        { id: 'a1', role: 'assistant', content: 'Looking into it.' },
      ]),
    ).entries;
    expect(other.find((e) => e.key === 'r1.err')?.scope).toBe('observation');
  });

  it('counts aider\'s "Applied edit to" report as the edit that answered the reply and the request before it', () => {
    const history = (output: string) =>
      [
        '# aider chat started at 2025-05-24 16:40:00',
        '',
        '#### the server fails with DuplicateTableError when it reloads',
        '',
        'The error occurs because `create_tables` runs on every reload without `checkfirst=True`.',
        '',
        'backend/app/utils/database.py',
        '```python',
        '<<<<<<< SEARCH',
        '    await conn.run_sync(Base.metadata.create_all)',
        '=======',
        '    await conn.run_sync(Base.metadata.create_all, checkfirst=True)',
        '>>>>>>> REPLACE',
        '```',
        '',
        output,
        '',
      ].join('\n');
    const scopes = (output: string) =>
      entriesFromMessages(parseTranscript(history(output)).messages)
        .entries.filter((e) => e.scope !== 'evidence')
        .map((e) => e.scope);
    // The request, the reply's diagnosis and the file name line before its block.
    expect(
      scopes('> Tokens: 11k sent, 967 received.  \n> Applied edit to backend/app/utils/database.py  '),
    ).toEqual(['fixed', 'fixed', 'fixed']);
    // No edit applied (aider only counted tokens), or an edit block failed: both still stand.
    expect(scopes('> Tokens: 11k sent, 967 received.  ')).toEqual(['replied', 'assistant', 'assistant']);
    expect(
      scopes(
        '> The LLM did not conform to the edit format.  \n> # 1 SEARCH/REPLACE block failed to match!  \n> Applied edit to backend/main.py  ',
      ).slice(0, 3),
    ).toEqual(['replied', 'assistant', 'assistant']);
  });
});

describe('isAppliedEditReport', () => {
  it("reads aider's own report of an applied edit, on a line of its own, and nothing else", () => {
    expect(isAppliedEditReport('aider', 'Tokens: 3k sent, 200 received.\nApplied edit to src/app.py')).toBe(
      true,
    );
    expect(isAppliedEditReport('aider', 'Added src/app.py to the chat')).toBe(false);
    expect(isAppliedEditReport('aider', 'Would have Applied edit to x')).toBe(false);
    expect(isAppliedEditReport('Bash', 'Applied edit to src/app.py')).toBe(false);
    expect(isAppliedEditReport('aider', undefined as unknown as string)).toBe(false);
  });
  it('stays linear on outputs of near misses (no line that starts the report)', () => {
    const output = (n: number) => ' Applied edit to\nApplied edit to \n'.repeat(n);
    expect(isAppliedEditReport('aider', output(10))).toBe(false);
    const g = measureGrowth((t: string) => isAppliedEditReport('aider', t), output, doublings(20_000, 3));
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

describe('scopes on random sessions (property)', () => {
  const kind = fc.constantFrom('user', 'assistant', 'applied', 'failed', 'output');
  /** A message of each kind: a person's turn, a reply, aider's output (an applied edit, a failure, other). */
  const messageOf = (k: string, i: number): Message => {
    const id = `m${i}`;
    const source = { line: i + 1 };
    if (k === 'user')
      return { id, role: 'user', content: `The export page still shows row ${i} twice.`, source };
    if (k === 'assistant')
      return { id, role: 'assistant', content: `The duplicate row ${i} might come from the join.`, source };
    const content =
      k === 'applied'
        ? `Tokens: 1k sent.\nApplied edit to src/a${i}.py`
        : k === 'failed'
          ? 'Applied edit to a.py'
          : 'Tokens: 1k sent.';
    return {
      id,
      role: 'tool',
      toolName: 'aider',
      content,
      source,
      ...(k === 'failed' ? { isError: true } : {}),
    };
  };
  it("gives `answered` exactly to the words before the person's latest turn, unless aider applied their edits (or one after them: `superseded`), and `replied` to that turn once answered", () => {
    fc.assert(
      fc.property(fc.array(kind, { maxLength: 12 }), (kinds) => {
        const messages = kinds.map(messageOf);
        const latest = kinds.lastIndexOf('user');
        // The reply right before an applied edit (only outputs between), and a person's turn whose answer,
        // up to their next turn, holds one.
        const applied = kinds.map((k, i) => {
          for (let j = i + 1; j < kinds.length && kinds[j] !== 'user'; j++) {
            if (k === 'assistant' && kinds[j] === 'assistant') return false;
            if (kinds[j] === 'applied') return true;
          }
          return false;
        });
        for (const e of entriesFromMessages(messages).entries) {
          const i = e.sourceIteration;
          // A failed output's error line is the failures rules' (scope `observation` or `fixed`).
          if (kinds[i] !== 'user' && kinds[i] !== 'assistant') continue;
          // The latest turn the agent answered in words after it: `replied`.
          const replied = kinds.some((k, j) => j > latest && k === 'assistant');
          const want = applied[i]
            ? 'fixed'
            : (i < latest || kinds[i] === 'assistant') && kinds.some((k, j) => j > i && k === 'applied')
              ? 'superseded'
              : i < latest
                ? 'answered'
                : i === latest && replied
                  ? 'replied'
                  : kinds[i];
          expect(e.scope, `${kinds.join(',')} @${i}`).toBe(want);
        }
      }),
    );
  });
});
