/**
 * aider's own output in lines without `> `: aider writes `> ` on the first line of an output only, so
 * a multi-line output goes on in bare lines — before a session's first prompt (the launch command's
 * `--message` task, a `--verbose` config listing; no model has replied yet), and in its report of
 * edits that failed to apply (the failed SEARCH/REPLACE blocks, which the model answers next). Those
 * lines are aider's, not the assistant's. Invented histories in the shape of the shared ones (prompt
 * and output lines end with two spaces).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesFromMessages } from '../../lib/snapshot/index';
import { parseTranscript } from '../../lib/transcript/index';
import { sharedDataDir } from '../../tools/shared/data';

const launch = [
  '# aider chat started at 2026-02-23 00:43:39',
  '',
  '> aider --architect --message ',
  '        1. Read TODO.md and find the first task marked with [ ].',
  '        2. Implement it, then run the build.  ',
  '> Aider v0.86.2  ',
  '',
  '#### Read TODO.md and implement the first open task.  ',
  '',
  'I will start with the inventory screen.',
  '',
];

describe('aider: output before the first prompt', () => {
  it('reads a multi-line launch command as aider output, and the reply after the prompt as the reply', () => {
    const t = parseTranscript(launch.join('\n'));
    expect(t.format).toBe('aider');
    const roles = t.messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'tool', 'user', 'assistant']);
    const output = t.messages[1]!;
    expect(output.content).toContain('aider --architect --message');
    expect(output.content).toContain('2. Implement it, then run the build.');
    expect(output.content).toContain('Aider v0.86.2');
    expect(t.messages[3]!.content).toBe('I will start with the inventory screen.');
  });

  it('gives the snapshot no agent note from the launch command', () => {
    const { entries } = entriesFromMessages(parseTranscript(launch.join('\n')).messages);
    const agent = entries.filter((e) => e.role === 'assistant').map((e) => e.value);
    expect(agent).toEqual(['I will start with the inventory screen.']);
  });

  it('keeps bare lines of a session without a prompt out of the assistant seat', () => {
    const t = parseTranscript(launch.slice(0, 6).join('\n'));
    expect(t.messages.map((m) => m.role)).toEqual(['system', 'tool']);
  });

  it("reads aider's report of a failed edit as its output, and the model's answer after it as the reply", () => {
    const history = [
      '# aider chat started at 2026-02-23 09:00:00',
      '',
      '#### mark task 8.1 done in TODO.md  ',
      '',
      'TODO.md',
      '```markdown',
      '<<<<<<< SEARCH',
      '- [ ] 8.1 Create EncounterManager.cs',
      '=======',
      '- [x] 8.1 Create EncounterManager.cs',
      '>>>>>>> REPLACE',
      '```',
      '',
      '> Tokens: 15k sent, 592 received.  ',
      '> The LLM did not conform to the edit format.  ',
      '> https://aider.chat/docs/troubleshooting/edit-errors.html  ',
      '> # 1 SEARCH/REPLACE block failed to match!',
      '',
      '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in TODO.md',
      '<<<<<<< SEARCH',
      '- [ ] 8.1 Create EncounterManager.cs',
      '=======',
      '- [x] 8.1 Create EncounterManager.cs',
      '>>>>>>> REPLACE',
      '',
      'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc  ',
      '',
      '# The other 2 SEARCH/REPLACE blocks were applied successfully.',
      "Don't re-send them.",
      'Just reply with fixed versions of the block above that failed to match.  ',
      '',
      'TODO.md has no section 8 yet, so I will add it with the task marked done.',
      '',
    ].join('\n');
    const t = parseTranscript(history);
    expect(t.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    const report = t.messages[3]!;
    expect(report.isError).toBe(true);
    expect(report.content).toContain('## SearchReplaceNoExactMatch: This SEARCH block failed');
    expect(report.content).toContain(
      'Just reply with fixed versions of the block above that failed to match.',
    );
    expect(t.messages[4]!.content).toBe(
      'TODO.md has no section 8 yet, so I will add it with the task marked done.',
    );
    const { entries } = entriesFromMessages(t.messages);
    expect(entries.some((e) => e.role === 'assistant' && e.value.includes('SearchReplaceNoExactMatch'))).toBe(
      false,
    );
  });

  const data = sharedDataDir();
  const dir = data ? join(data, 'aider') : '';
  it.skipIf(!dir || !existsSync(dir))(
    'no assistant message precedes a session’s first prompt in the shared histories',
    () => {
      let bare = 0;
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
        const text = readFileSync(join(dir, name), 'utf8');
        let prompted = true;
        let output = '';
        for (const m of parseTranscript(text).messages) {
          if (m.role === 'system') prompted = false;
          else if (m.role === 'user') prompted = true;
          else if (!prompted && m.role === 'assistant')
            expect.fail(`${name} line ${m.source.line}: a reply before any prompt`);
          else if (!prompted && m.role === 'tool') output += `${m.content}\n`;
        }
        // Counted from the raw lines: each line without `> ` between a session's header and its first
        // prompt is in aider's output now.
        let before = false;
        for (const line of text.split('\n').map((l) => l.replace(/\r$/, ''))) {
          if (line.startsWith('# aider chat started at ')) before = true;
          else if (line.startsWith('####')) before = false;
          else if (before && line.trim() !== '' && line !== '>' && !line.startsWith('> ')) {
            bare++;
            expect(output, `${name}: ${line}`).toContain(line.trim());
          }
        }
      }
      // Measured: before this rule 77 assistant messages of 2 histories stood there (a launch command's
      // `--message` task repeated at each launch, a `--verbose` option listing): their 977 lines.
      expect(bare).toBe(977);
    },
  );

  it.skipIf(!dir || !existsSync(dir))(
    'no reply holds the start of a failed-edit report in the shared histories',
    () => {
      let reports = 0;
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
        for (const m of parseTranscript(readFileSync(join(dir, name), 'utf8')).messages) {
          const at = /^## SearchReplaceNoExactMatch: /m.test(m.content);
          if (m.role === 'tool' && at) reports++;
          // One reply whose code fence never closes keeps what follows it, aider's output too (a
          // known limit of the fence rule): the only reply allowed to hold one.
          if (m.role === 'assistant' && at)
            expect(`${name} ${m.id}`).toBe('BartoshMaxim+TradePirates.md m38203');
        }
      }
      // Measured: 69 output messages hold a report (75 report lines in 7 histories, some in one message).
      expect(reports).toBe(69);
    },
  );
});
