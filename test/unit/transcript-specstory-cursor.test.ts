/**
 * SpecStory exports of Cursor and Copilot sessions: edits rendered as ```diff sections and empty
 * fences, runs of `---` separators, Cursor's <user_query> wrapper, and Cursor's button prompts.
 */
import { describe, expect, it } from 'vitest';
import { entriesFromMessages } from '../../lib/snapshot/index';
import { isFileEditTool, parseTranscript, RENDERED_EDIT_TOOL } from '../../lib/transcript/index';

describe('specstory', () => {
  it("reads a Cursor export's ```diff section as an edit call, and a diff in the prose as prose", () => {
    const t = parseTranscript(
      [
        '_**User**_',
        '',
        'Rename the task list',
        '',
        '---',
        '',
        '_****_',
        '',
        '```diff',
        '  # Task List',
        '- ## 1. Old',
        '+ ## 1. New',
        '```',
        '',
        '---',
        '',
        '_****_',
        '',
        'I renamed it. Here is what a diff looks like:',
        '```diff',
        '- a',
        '+ b',
        '```',
      ].join('\n'),
    );
    expect(t.messages.map((m) => [m.role, m.toolName ?? null])).toEqual([
      ['user', null],
      ['assistant', RENDERED_EDIT_TOOL],
      ['assistant', null],
    ]);
    expect(t.messages[1]!.content).toBe('```diff\n  # Task List\n- ## 1. Old\n+ ## 1. New\n```');
    expect(t.messages[1]!.toolUseId).toBe(t.messages[1]!.id);
    expect(isFileEditTool(RENDERED_EDIT_TOOL)).toBe(true);
    // Its diff is the agent's sample, not an edit: it does not open a section.
    expect(t.messages[2]!.content).toContain('+ b');
  });

  it("reads Copilot's empty fences as edit calls between the agent's words, and a fence with code as prose", () => {
    const t = parseTranscript(
      [
        '_**User**_',
        '',
        'Fix the table',
        '',
        '---',
        '',
        '_**Assistant (copilot/claude-sonnet-4)**_',
        '',
        'Let me fix the table definition: ',
        '```',
        '',
        '```',
        'Let me fix these syntax issues: ',
        '```',
        '',
        '```',
        '',
        '```',
        '',
        '```',
        'Done. The command is:',
        '```',
        'npm test',
        '```',
      ].join('\n'),
    );
    expect(t.messages.map((m) => m.toolName ?? m.content)).toEqual([
      'Fix the table',
      'Let me fix the table definition: ',
      RENDERED_EDIT_TOOL,
      'Let me fix these syntax issues: ',
      RENDERED_EDIT_TOOL,
      RENDERED_EDIT_TOOL,
      'Done. The command is:\n```\nnpm test\n```',
    ]);
    // No result: the snapshot counts an edit call with no result as applied (snapshot/acted.ts).
    expect(t.messages.filter((m) => m.role === 'tool')).toEqual([]);
    // The person's turns keep their fences as typed.
    const user = parseTranscript('_**User**_\n\nlook:\n```\n\n```\nthanks\n');
    expect(user.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('keeps no run of `---` separators as words: no message of separators alone, none at either end', () => {
    const SEP = ['', '---', ''];
    const call = (tool: string, summary: string, output: string) => [
      `<tool-use data-tool-name="${tool}"><details><summary>Tool use: **${tool}** • ${summary}</summary>`,
      output,
      '</details></tool-use>',
    ];
    /** A person's turn, then the agent's sections, each between `---` lines (as the exports write them). */
    const exported = (turn: string, ...sections: string[][]) =>
      parseTranscript(
        [
          '_**User**_',
          '',
          turn,
          ...SEP,
          '_**Assistant**_',
          ...sections.flatMap((s) => [...SEP, ...s]),
          ...SEP,
          '---',
        ].join('\n'),
      );
    const build = call('run_terminal_cmd', 'npm run build', 'ok');
    const t = exported(
      'Check the build',
      [],
      ['Let me look at the config first.'],
      call('read_file', 'Read file: a.json', '{}'),
      [],
      build,
    );
    const words = t.messages.filter((m) => !m.toolName).map((m) => m.content);
    expect(words).toEqual(['Check the build', 'Let me look at the config first.']);
    // A turn answered by calls alone, between separators: no words of the agent's, so not `replied`.
    const { entries } = entriesFromMessages(exported('Why does the build fail?', build).messages);
    expect(entries.find((e) => e.value === 'Why does the build fail?')?.scope).toBe('user');
  });
});

describe("Cursor's query wrapper", () => {
  const turn = (body: string) =>
    ['_**User**_', '', body, '', '---', '', '_**Agent (model gpt-5, mode Agent)**_', '', 'Done.', ''].join(
      '\n',
    );

  it("reads what the person typed inside <user_query>, without Cursor's timestamp", () => {
    const text = turn(
      '<timestamp>Monday, Sep 21, 2026, 8:20 AM (UTC+5:30)</timestamp>\n<user_query>\nAdd the ticket domain model; no, keep the status enum closed.\n</user_query>',
    );
    const t = parseTranscript(text, { format: 'specstory' });
    expect(t.messages[0]).toMatchObject({
      role: 'user',
      content: 'Add the ticket domain model; no, keep the status enum closed.',
    });
    expect(entriesFromMessages(t.messages).objective).toBe(
      'Add the ticket domain model; no, keep the status enum closed.',
    );
  });

  it('keeps text after the closing tag, and leaves turns without the wrapper as typed', () => {
    const after = parseTranscript(turn('<user_query>\nFix the build.\n</user_query>\n\n@build.log'), {
      format: 'specstory',
    });
    expect(after.messages[0]!.content).toBe('Fix the build.\n\n@build.log');
    for (const body of [
      'Use <user_query> tags in the prompt template.',
      '<timestamp>Monday</timestamp> and then nothing else',
      '<user_query>never closed',
    ])
      expect(parseTranscript(turn(body), { format: 'specstory' }).messages[0]!.content).toBe(body);
  });
});

describe('Cursor button prompts', () => {
  it('flags the plan-build and fix-in-chat prompts as commands, keeps the person’s own turns', () => {
    const text = [
      '_**User**_',
      '',
      'Implement the plan as specified, it is attached for your reference. Do NOT edit the plan file itself.',
      '',
      '---',
      '',
      '_**Agent (model gpt-5, mode Agent)**_',
      '',
      'Done.',
      '',
      '---',
      '',
      '_**User**_',
      '',
      'For the code present, we get this error:',
      '```',
      'Cannot find name x',
      '```',
      'Fix it, verify, and then give a concise explanation.',
      '',
      '---',
      '',
      '_**User**_',
      '',
      'No, do not edit the plan file, keep it.',
      '',
    ].join('\n');
    const users = parseTranscript(text, { format: 'specstory' }).messages.filter((m) => m.role === 'user');
    expect(users.map((m) => m.synthetic)).toEqual(['command', 'command', undefined]);
  });
});
