/**
 * Linear time of the error readers (errorClass, searchFoundNothing, errorLine, headingLine,
 * declinedCall, commandHead, stepsFromMessages) and of redaction, proven by growth ratios on
 * adversarial inputs (test/unit/linear-time.ts).
 */
import { describe, expect, it } from 'vitest';
import { headingLine } from '../../lib/categorise/index';
import { declinedCall, errorLine } from '../../lib/core/index';
import { commandHead, errorClass, searchFoundNothing, stepsFromMessages } from '../../lib/failures/index';
import { createRedactor, redact } from '../../lib/redact/index';
import { REDACT_ADVERSARIAL } from '../../tools/shared/redact-adversarial';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';
import { type Case, DOTTED, linear, prepared } from './linear-time-helpers';

describe('error classes', () => {
  const ERRORS: readonly Case[] = [
    ...DOTTED.map(([name, make]): Case => [`error: ${name}`, (n) => `error: ${make(n - 7)}`]),
    ['quotes', (n) => fill(n, '"a', 'error ')],
    ['a list of quoted values', (n) => fill(n, '"a", ', 'error [')],
    ['branch repeated', (n) => fill(n, 'branch ', 'error ')],
    ['hex and digits', (n) => fill(n, 'abc1', 'error ')],
    ['tags', (n) => fill(n, '<a', 'error ')],
    ['lines', (n) => fill(n, 'x\n')],
    ['escaped newlines', (n) => fill(n, 'x\\n')],
    ['traceback lines', (n) => fill(n, 'a.a.a\n', 'Traceback (most recent call last)\n')],
    ['a URL scheme without slashes', (n) => fill(n, 'a+b.c-', 'error ')],
    ['===', (n) => fill(n, '=-', 'error ')],
    // Windows paths: folders with spaces and no name after them, drives one after another.
    ['a Windows folder of many words', (n) => fill(n, 'a ', 'error C:\\')],
    ['Windows drives', (n) => fill(n, 'C:\\a b\\', 'error ')],
    ['Windows paths with escaped newlines', (n) => fill(n, 'C:\\x\\n', 'error ')],
    // Route groups and dynamic segments after a slash, closed and unclosed.
    ['route groups and segments', (n) => fill(n, '/(a)/[b]', 'error ')],
    ['unclosed groups and segments', (n) => fill(n, '/(a/[a', 'error ')],
  ];
  linear('errorClass', errorClass, ERRORS);
  // The command is read once for its last stage: quotes, escapes and separators one after another.
  linear(
    'searchFoundNothing',
    (action) => searchFoundNothing({ tool: 'bash', action, error: 'Command exited with code 1' }),
    [
      ['pipes', (n) => fill(n, 'a | ', '', 'grep x')],
      ['quoted pipes', (n) => fill(n, '"|\\"', 'echo ', '" | rg x')],
      ['separators', (n) => fill(n, '&&;||', 'ls ', ' grep x')],
    ],
  );
  // The line reading on its own: Codex's sandbox report (runs of backslashes, an unclosed stream or
  // message), warnings, colour codes and words that end in "Error".
  const CODEX = 'exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ';
  const MCP = "MCP tool 'x' reported tool error for function call: {}";
  linear('errorLine', errorLine, [
    ...ERRORS,
    // pytest's `E` lines are read whole for an exception's name: one long line that names none.
    ['an E line without an exception', (n) => fill(n, 'x.y ', 'E    ')],
    ['an E line of dotted words without a colon', (n) => fill(n, 'a.', 'E    ')],
    [
      'a stream of backslashes',
      (n) => fill(n, '\\', `${CODEX}stderr: StreamOutput { text: `, ', truncated_after_lines'),
    ],
    [
      'backslashes before n',
      (n) => fill(n, '\\\\n', `${CODEX}stderr: StreamOutput { text: "`, '", truncated_after_lines'),
    ],
    [
      'escaped quotes in an unclosed message',
      (n) => fill(n, '\\"', 'exec_command failed: SandboxDenied { message: "'),
    ],
    ['stream keys without an end', (n) => fill(n, 'stderr: StreamOutput { text: ', CODEX)],
    ['warnings', (n) => fill(n, '1:2  warning  missing x\n')],
    // Cline's result header: one long line of `] result` with no colon, behind an opening bracket.
    ['a header without its close', (n) => fill(n, '] Result', "[execute_command for '")],
    ['colour codes', (n) => fill(n, '\u001b[3', 'error ')],
    ['a word ending in Error', (n) => fill(n, 'aError', 'x\n')],
    ['numbers before errors', (n) => fill(n, '1 1 errorsx ')],
    // Gemini CLI's MCP report: text fields without their closing quote, a response of many parts.
    ['MCP texts without a closing quote', (n) => fill(n, '\\"text\\":\\"', `${MCP} with response: "text":"`)],
    ['MCP text fields', (n) => fill(n, '"text":"', `${MCP} with response: `)],
    ['MCP parts', (n) => `${MCP} with response: [${fill(n - 200, '{"text":"a"},')}{}]`],
  ]);
  // The snapshot's heading test: runs of marks and spaces.
  linear('headingLine', headingLine, [
    ['hashes', (n) => fill(n, '#')],
    ['hashes then spaces', (n) => fill(n, ' ', '######')],
  ]);
  // Cline's result header before a denial: brackets without the header's end, spaces before it.
  linear('declinedCall', declinedCall, [
    ['brackets on one line', (n) => fill(n, '] Result', '[')],
    ['spaces before a bracket', (n) => fill(n, ' ', '', '[x] Result: no')],
    ['headers without a denial', (n) => fill(n, '[a] Result: ')],
  ]);
  linear('commandHead', commandHead, [
    ['spaces between two words', (n) => fill(n, ' ', 'a', 'b')],
    ['spaces then a separator', (n) => fill(n, ' ', 'a', '&&b')],
    ['separators', (n) => fill(n, ' & |;')],
    ['assignments', (n) => fill(n, 'a', '', '=')],
    ['slashes', (n) => fill(n, 'a/')],
  ]);
  linear(
    'stepsFromMessages (calls without ids)',
    prepared(
      // Every call first, then every result: the open calls of one tool pile up.
      (text) =>
        Array.from({ length: text.length / 10 }, (_, i) =>
          i >= text.length / 20
            ? { role: 'tool', toolName: 'Bash', content: 'x', isError: true }
            : { role: 'assistant', toolName: 'Bash', content: 'ls' },
        ),
      stepsFromMessages,
    ),
    [['one tool, many calls', (n) => fill(n, 'x')]],
  );
});

describe('redaction', () => {
  linear('redact', redact, [
    ['a@ repeated', (n) => fill(n, 'a@')],
    ['sk-ant- repeated', (n) => fill(n, 'sk-ant-')],
    ['a base64 run', (n) => fill(n, 'A', 'eyJ')],
    ['JWT-like segments', (n) => fill(n, 'eyJaaaaaaaaaa.')],
    ['BEGIN without END', (n) => fill(n, '-----BEGIN PRIVATE KEY-----\n')],
    ['backslashes', (n) => fill(n, '\\', '', 'njane@x.io')],
    ['settings repeated', (n) => fill(n, 'a.token=a1')],
    ['URL escapes', (n) => fill(n, '%3D%22%40')],
    ['Bearer repeated', (n) => fill(n, 'Bearer ')],
    ['one long quoted password', (n) => fill(n, 'p@ss ', '"password": "')],
    ['near-miss keys', (n) => fill(n, 'AKIA ghp_ xoxb- AIza ')],
    ['quotes', (n) => fill(n, '"\'`')],
  ]);
  // The redaction scanners (invisible characters, %XX, escapes, glued and wedged keys, vendors' names,
  // gitleaks' formats) on their adversarial inputs, from 10 KB to 160 KB, with a redactor's whole map;
  // six rounds keep noise from adding a second step to an engine step. `ghp_` + invisible characters takes
  // its step between 80 and 160 KB, the last doubling (5.52 and 5.88 there, then 2.5 and 1.9 to 640 KB):
  // it runs to 640 KB, past the step, so that noise on an earlier doubling cannot fail it.
  // `%3D%40%2F` repeated takes its step between 40 and 80 KB (8.56, 9.48, 8.84 in three runs, then 1.6-2.7
  // to 640 KB); a CI run failed it when a noisy first doubling (3.52) came on top of the step.
  const PAST_STEP: Readonly<Record<string, number>> = {
    'invisible run inside a key': 6,
    'percent-encoded bytes': 6,
  };
  describe('createRedactor().redact on adversarial inputs (10 KB to 160 KB)', () => {
    for (const [name, unit] of REDACT_ADVERSARIAL)
      it(name, () => {
        const g = measureGrowth(
          (t: string) => createRedactor().redact(t),
          (n) => fill(n, unit),
          { ...doublings(10_000, PAST_STEP[name] ?? 4), rounds: 6 },
        );
        expect(g.excess, `${name}: ${describeGrowth(g)}`).toBeLessThanOrEqual(1);
      }, 120_000); // to 640 KB at six rounds: tens of seconds of CPU on a busy machine
  });
});
