/**
 * The scopes `entriesFromMessages` gives from what followed an entry. Scope `superseded`
 * (lib/snapshot/acted.ts): what came before the person's latest turn, and the agent's words after it,
 * with a file edit that worked anywhere after them, is no blocker or next action any more — the work
 * went past it (eval/snapshot/sets/pending/superseded.jsonl: 1 of 40 such blockers still open at the
 * end, read blind; superseded-after.jsonl: none of 14 of the agent's last stretch). A problem with no
 * edit after it, or only a failed or declined one, stays listed; an edit call with no result at all
 * counts (the exports that give none show only applied edits; rendered-edits.jsonl: 3 of 40 open). Scope `delivered`: the person's latest turn,
 * answered by the agent in words of 1,500 characters or more in all, is carried out — no next action and
 * no open question (delivered.jsonl); a shorter answer leaves it `replied`: answered, still a step to
 * take. Scope `done`: the agent's words its own tool call follows right away were carried out by the call
 * (call-after.jsonl: 1 of 24 removed next actions still to do); still a blocker or a guess.
 */
import fc from 'fast-check';
import {
  deterministicSnapshotWithTrace,
  entriesFromMessages,
  entriesFromSteps,
  reflectedSnapshotPrompt,
  snapshotInputFrom,
} from 'rearview/snapshot';
import { type Message, RENDERED_EDIT_TOOL, type Step } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';

const msg = (id: string, role: Message['role'], content: string, extra: Partial<Message> = {}): Message => ({
  id,
  role,
  content,
  source: {},
  ...extra,
});
/** An edit call and its result (an error when `worked` is false). */
const edit = (id: string, worked: boolean, file = 'nginx.conf'): Message[] => [
  msg(`${id}c`, 'assistant', JSON.stringify({ file_path: file }), { toolName: 'Edit', toolUseId: id }),
  msg(
    `${id}r`,
    'tool',
    worked ? `The file ${file} has been updated.` : 'Error: String to replace not found',
    {
      toolName: 'Edit',
      toolUseId: id,
      ...(worked ? {} : { isError: true }),
    },
  ),
];
const read = (id: string): Message[] => [
  msg(`${id}c`, 'assistant', JSON.stringify({ file_path: 'nginx.conf' }), {
    toolName: 'Read',
    toolUseId: id,
  }),
  msg(`${id}r`, 'tool', 'client_max_body_size 1m;', { toolName: 'Read', toolUseId: id }),
];
const PROBLEM = 'Uploads over 1 MB fail with a 413 error from nginx.';

/** The person's report, the agent's diagnosis, then `between`, then the person's latest turn. */
function session(between: Message[]): Message[] {
  return [
    msg('u1', 'user', 'The upload page crashes on big files.'),
    msg('a1', 'assistant', PROBLEM),
    msg('a2', 'assistant', 'Let me look at the server config first.'),
    ...between,
    msg('a3', 'assistant', 'I looked at the upload handler as well.'),
    msg('u2', 'user', 'Thanks. Now add a progress bar to the upload form.'),
    msg('a4', 'assistant', 'The progress bar is in place on the upload form.'),
  ];
}
const snapshotOf = (messages: Message[]) => {
  const { objective, entries } = entriesFromMessages(messages);
  return { entries, ...deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries)) };
};
const scopeOf = (messages: Message[], value: string) =>
  entriesFromMessages(messages).entries.find((e) => e.value === value)?.scope;

describe('scope `superseded` in an agent run: what a step said before the last step that changed a file', () => {
  const step = (index: number, extra: Partial<Step>): Step => ({ index, source: { index }, ...extra });
  const run = (write: Partial<Step>): Step[] => [
    step(0, {
      thought: 'The reproduction fails with a KeyError in parse().',
      tool: 'bash',
      action: 'python repro.py',
      error: 'KeyError: x',
    }),
    step(1, { thought: 'I will patch parse() to default the key.', ...write }),
    step(2, {
      thought: 'The script passes now. I will submit.',
      tool: 'bash',
      action: 'python repro.py',
      observation: 'ok',
    }),
  ];
  const scopes = (steps: Step[]) => entriesFromSteps(steps).map((e) => [e.key, e.scope]);

  it('takes every kind of write that worked: sed -i, an edit tool, SWE-agent edit with no file named', () => {
    for (const write of [
      { tool: 'bash', action: "sed -i 's/d[k]/d.get(k)/' parse.py" },
      { tool: 'Edit', action: '{"file_path":"parse.py","old_string":"d[k]"}' },
      { tool: 'edit', action: 'edit 12:12\n    return d.get(k)\nend_of_edit' },
      { tool: 'bash', action: 'cat > parse.py <<EOF\ndef parse(d, k): return d.get(k)\nEOF' },
    ])
      expect(scopes(run(write))).toEqual([
        ['s0.t0', 'superseded'],
        // The same command worked at step 2: made good (`fixed`) comes first.
        ['s0.err', 'fixed'],
        ['s1.t0', 'thought'],
        ['s2.t0', 'thought'],
        ['s2.t1', 'thought'],
      ]);
  });

  it('leaves what follows the last write, and every step of a run whose writes failed or that wrote nothing', () => {
    // A failed step no later step made good, before the last write: superseded too.
    const unfixed = run({ tool: 'Edit', action: '{"file_path":"parse.py"}' }).map((s) =>
      s.index === 2 ? { ...s, action: 'pytest -q' } : s,
    );
    expect(entriesFromSteps(unfixed).find((e) => e.key === 's0.err')?.scope).toBe('superseded');
    const failed = run({ tool: 'bash', action: "sed -i 's/a/b/' parse.py", error: 'sed: no such file' });
    const none = run({ tool: 'bash', action: 'grep -n parse parse.py', observation: '12: def parse' });
    for (const steps of [failed, none])
      expect(entriesFromSteps(steps).filter((e) => e.scope === 'superseded')).toEqual([]);
    const t = deterministicSnapshotWithTrace(
      snapshotInputFrom(
        'Fix parse()',
        entriesFromSteps(run({ tool: 'edit', action: 'edit 1:1\nx\nend_of_edit' })),
      ),
    );
    expect(t.snapshot.blockers).toEqual([]);
  });
});

describe('scope `superseded`: a problem said before the latest turn, with an edit that worked after it', () => {
  it('is no blocker, dropped as resolved', () => {
    const t = snapshotOf(session([...read('r1'), ...edit('e1', true)]));
    expect(t.entries.find((e) => e.value === PROBLEM)?.scope).toBe('superseded');
    expect(t.snapshot.blockers).not.toContain(PROBLEM);
    expect(t.dropped).toContainEqual(expect.objectContaining({ text: PROBLEM, reason: 'resolved' }));
  });

  it('stays a blocker with no edit after it, or only one that failed, or one before it', () => {
    for (const between of [read('r1'), [...read('r1'), ...edit('e1', false)]]) {
      const t = snapshotOf(session(between));
      expect(t.entries.find((e) => e.value === PROBLEM)?.scope).toBe('answered');
      expect(t.snapshot.blockers).toContain(PROBLEM);
    }
    const before = [
      msg('u0', 'user', 'Set up the upload page.'),
      ...edit('e0', true),
      ...session(read('r1')),
    ];
    expect(scopeOf(before, PROBLEM)).toBe('answered');
  });

  it("counts aider's own report of an edit it applied", () => {
    const applied = msg('t1', 'tool', 'Applied edit to nginx.conf', { toolName: 'aider' });
    expect(scopeOf(session([...read('r1'), applied]), PROBLEM)).toBe('superseded');
  });

  it('counts an edit call with no result at all (an export that renders only applied edits), not a declined one', () => {
    const rendered = msg(
      'e1c',
      'assistant',
      '```diff\n- client_max_body_size 1m;\n+ client_max_body_size 50m;\n```',
      {
        toolName: RENDERED_EDIT_TOOL,
        toolUseId: 'e1',
      },
    );
    expect(scopeOf(session([...read('r1'), rendered]), PROBLEM)).toBe('superseded');
    // The same call with no id: which output is its own is unknown, so it counts only with one.
    const { toolUseId: _, ...noId } = rendered;
    expect(scopeOf(session([...read('r1'), noId]), PROBLEM)).toBe('answered');
    // Declined (Cline: "The user denied this operation."): a result flagged as an error.
    const declined = msg(
      'e1r',
      'tool',
      "[write_to_file for 'nginx.conf'] Result:\nThe user denied this operation.",
      {
        toolName: 'write_to_file',
        toolUseId: 'e1',
        isError: true,
      },
    );
    const call = msg('e1c', 'assistant', '{"path":"nginx.conf"}', {
      toolName: 'write_to_file',
      toolUseId: 'e1',
    });
    const t = snapshotOf(session([...read('r1'), call, declined]));
    expect(t.entries.find((e) => e.value === PROBLEM)?.scope).toBe('answered');
    // A declined call is no failure to list either.
    expect(t.snapshot.blockers).toContain(PROBLEM);
    expect(t.snapshot.blockers.filter((b) => b.includes('denied'))).toEqual([]);
    expect(t.entries.some((e) => e.value.includes('denied'))).toBe(false);
  });

  it('supersedes a failed call before the latest turn, and leaves one after it', () => {
    // A failed Bash call the edit does not make good (another tool, another target).
    const failed = (id: string): Message[] => [
      msg(`${id}c`, 'assistant', '{"command":"npm test"}', { toolName: 'Bash', toolUseId: id }),
      msg(`${id}r`, 'tool', 'Error: 3 tests failed in upload.test.ts', {
        toolName: 'Bash',
        toolUseId: id,
        isError: true,
      }),
    ];
    const early = entriesFromMessages(session([...failed('b1'), ...read('r1'), ...edit('e1', true)])).entries;
    expect(early.find((e) => e.key === 'b1r.err')?.scope).toBe('superseded');
    const late = entriesFromMessages([...session([]), ...edit('e1', true), ...failed('b1')]).entries;
    expect(late.find((e) => e.key === 'b1r.err')?.scope).toBe('observation');
  });

  it("after the latest turn: the agent's words with an edit that worked after them, not the last ones", () => {
    const plan = 'Next I will wire the progress events to the upload form.';
    const last = 'Next I will add a cancel button to the upload form.';
    const messages = [
      ...session(read('r1')),
      msg('a5', 'assistant', plan),
      ...read('r2'),
      msg('a6', 'assistant', 'The events are wired.'),
      ...edit('e1', true),
      msg('a7', 'assistant', last),
    ];
    const scopes = Object.fromEntries(entriesFromMessages(messages).entries.map((e) => [e.value, e.scope]));
    expect(scopes[PROBLEM]).toBe('superseded');
    expect(scopes[plan]).toBe('superseded');
    // The latest turn the agent answered with an edit: acted on (`fixed`), as before this scope.
    expect(scopes['Now add a progress bar to the upload form.']).toBe('fixed');
    expect(scopes[last]).toBe('assistant');
    const t = snapshotOf(messages);
    expect(t.snapshot.nextActions).toEqual([last]);
    expect(t.dropped).toContainEqual(expect.objectContaining({ text: plan, reason: 'done' }));
  });

  it('tells the reflection what the scope means when an entry has it', () => {
    const prompt = (m: Message[]) => {
      const { objective, entries } = entriesFromMessages(m);
      return reflectedSnapshotPrompt(snapshotInputFrom(objective, entries));
    };
    expect(prompt(session([...read('r1'), ...edit('e1', true)]))).toContain('An entry of scope "superseded"');
    expect(prompt(session(read('r1')))).not.toContain('An entry of scope "superseded"');
  });

  it("gives `superseded` exactly to what comes before the latest turn, and the agent's words after it, with an edit that worked after them (property)", () => {
    const kind = fc.constantFrom('user', 'say', 'edit-ok', 'edit-fail', 'read', 'applied');
    fc.assert(
      fc.property(fc.array(kind, { maxLength: 12 }), (kinds) => {
        const messages: Message[] = [];
        const kindAt: string[] = [];
        kinds.forEach((k, n) => {
          const add =
            k === 'user'
              ? [msg(`u${n}`, 'user', `Please check upload number ${n} again.`)]
              : k === 'say'
                ? [msg(`a${n}`, 'assistant', `Upload number ${n} fails with a 413 error.`)]
                : k === 'edit-ok'
                  ? edit(`e${n}`, true, `conf${n}.txt`)
                  : k === 'edit-fail'
                    ? edit(`e${n}`, false, `conf${n}.txt`)
                    : k === 'read'
                      ? read(`r${n}`)
                      : [msg(`t${n}`, 'tool', `Applied edit to conf${n}.txt`, { toolName: 'aider' })];
          for (const m of add) {
            messages.push(m);
            kindAt.push(k);
          }
        });
        const worked = (i: number) =>
          (kindAt[i] === 'edit-ok' && messages[i]!.role === 'assistant') || kindAt[i] === 'applied';
        const latest = kindAt.lastIndexOf('user');
        for (const e of entriesFromMessages(messages).entries) {
          const i = e.sourceIteration;
          if (e.scope === 'fixed' || e.scope === 'evidence') continue;
          const editLater = messages.some((_, j) => j > i && worked(j));
          const agentAfter = i > latest && kindAt[i] === 'say';
          expect(e.scope === 'superseded', `${kinds.join(',')} @${i}`).toBe(
            (i < latest || agentAfter) && editLater,
          );
          if (i < latest && !editLater)
            expect(e.scope, `${kinds.join(',')} @${i}`).toBe(
              kindAt[i] === 'edit-fail' ? 'observation' : 'answered',
            );
        }
      }),
    );
  });
});

const REQUEST = 'Write a function that parses the CSV export and sums the totals column.';
/** An answer of exactly `n` characters. */
const answerOf = (n: number) => `Here is the parser. ${'x'.repeat(Math.max(0, n - 20))}`.slice(0, n);

const scopeOfRequest = (answer: Message[]) =>
  entriesFromMessages([
    msg('u1', 'user', 'Hello there, I have a CSV question.'),
    msg('a0', 'assistant', 'Sure, ask away.'),
    msg('u2', 'user', REQUEST),
    ...answer,
  ]).entries.find((e) => e.value === REQUEST)?.scope;

describe('scope `delivered`: the latest turn answered at length', () => {
  it('is no next action once the answer reaches 1,500 characters, and still one below', () => {
    expect(scopeOfRequest([msg('a1', 'assistant', answerOf(1500))])).toBe('delivered');
    expect(scopeOfRequest([msg('a1', 'assistant', answerOf(1499))])).toBe('replied');
    // The agent's messages after the turn count together.
    expect(
      scopeOfRequest([msg('a1', 'assistant', answerOf(800)), msg('a2', 'assistant', answerOf(700))]),
    ).toBe('delivered');
    const { objective, entries } = entriesFromMessages([
      msg('u1', 'user', REQUEST),
      msg('a1', 'assistant', answerOf(2000)),
    ]);
    const t = deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries));
    expect(t.snapshot.nextActions).not.toContain(REQUEST);
    expect(t.dropped).toContainEqual(expect.objectContaining({ text: REQUEST, reason: 'done' }));
  });

  it("counts neither tool calls nor an error of the agent's own model call", () => {
    const call = msg('c1', 'assistant', JSON.stringify({ command: 'x'.repeat(3000) }), { toolName: 'Bash' });
    expect(scopeOfRequest([call, msg('a1', 'assistant', 'Done.')])).toBe('replied');
    const error = msg('a1', 'assistant', `API Error: 500 ${'x'.repeat(3000)}`);
    expect(scopeOfRequest([error, msg('a2', 'assistant', 'Retrying now.')])).toBe('replied');
  });

  it('tells the reflection what the scope means when an entry has it', () => {
    const prompt = (n: number) => {
      const { objective, entries } = entriesFromMessages([
        msg('u1', 'user', REQUEST),
        msg('a1', 'assistant', answerOf(n)),
      ]);
      return reflectedSnapshotPrompt(snapshotInputFrom(objective, entries));
    };
    expect(prompt(1500)).toContain('An entry of scope "delivered"');
    expect(prompt(100)).not.toContain('An entry of scope "delivered"');
  });

  it('gives `delivered` exactly to the latest turn whose answer in words holds 1,500 characters (property)', () => {
    const part = fc.record({
      role: fc.constantFrom('user', 'assistant', 'call'),
      size: fc.integer({ min: 12, max: 1200 }),
    });
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
        const messages = parts.map((p, i) =>
          p.role === 'call'
            ? msg(`c${i}`, 'assistant', 'x'.repeat(p.size), { toolName: 'Bash' })
            : msg(`m${i}`, p.role as 'user' | 'assistant', `${p.role} ${i} ${'y'.repeat(p.size)}`),
        );
        const latest = parts.map((p) => p.role).lastIndexOf('user');
        const said = messages
          .slice(latest + 1)
          .filter((m) => m.role === 'assistant' && !m.toolName)
          .reduce((a, m) => a + m.content.length, 0);
        for (const e of entriesFromMessages(messages).entries) {
          if (e.sourceIteration !== latest) continue;
          expect(e.scope === 'delivered', `${JSON.stringify(parts)}`).toBe(latest >= 0 && said >= 1500);
        }
      }),
    );
  });
});

describe('the agent’s words its own tool call follows right away', () => {
  const session = (after: Message[]): Message[] => [
    msg('u1', 'user', 'The server crashes on start, fix it.'),
    msg('a1', 'assistant', 'Let me check the server logs. The port might already be taken.'),
    ...after,
  ];
  const lists = (messages: Message[]) => {
    const { objective, entries } = entriesFromMessages(messages);
    return { entries, kept: deterministicSnapshotWithTrace(snapshotInputFrom(objective, entries)).snapshot };
  };

  it('are carried out by the call: `done`, no next action; a guess stays', () => {
    const { entries, kept } = lists(
      session([
        msg('c1', 'assistant', '{"command":"tail server.log"}', { toolName: 'Bash', toolUseId: 't1' }),
      ]),
    );
    expect(entries.filter((e) => e.key.startsWith('a1.')).map((e) => e.scope)).toEqual(['done', 'done']);
    expect(kept.nextActions).not.toContain('Let me check the server logs.');
    expect(kept.openHypotheses).toContain('The port might already be taken.');
  });

  it('stay a next action when no call follows them (the session’s last words, or the person’s turn)', () => {
    expect(lists(session([])).kept.nextActions).toContain('Let me check the server logs.');
    const { entries } = lists(
      session([msg('r1', 'tool', 'ok', { toolName: 'Bash' }), msg('u2', 'user', 'Go on.')]),
    );
    // Followed by a tool's output and the person's turn, not by a call of its own: said before that
    // turn (`answered`), not carried out by a call (`done`).
    expect(entries.find((e) => e.key === 'a1.0')?.scope).toBe('answered');
  });
});
