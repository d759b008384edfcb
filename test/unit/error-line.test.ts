/**
 * `errorLine` (rearview/core): the line of a failed call's output that says what went wrong, which
 * both the failure lessons (`errorClass`) and the snapshot's observations show. The outputs below are
 * written in the shapes the runners print (ESLint, Codex CLI's sandbox report, Antigravity's preface,
 * PowerShell, aider, pytest); none is copied from the shared data.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declinedCall, errorLine } from '../../lib/core/index';
import { errorClass } from '../../lib/failures/index';
import { entriesFromMessages } from '../../lib/snapshot/index';
import { DECLINED_NOTICES } from '../heuristic/notices';

const observation = (content: string) =>
  entriesFromMessages([{ id: 'r', role: 'tool', content, source: {}, isError: true }]).entries[0]?.value;

describe('errorLine', () => {
  it('reads an error past the warnings printed before it', () => {
    const eslint = [
      '> app@1.0.0 lint',
      '',
      '/src/a.tsx',
      '  12:5  warning  React Hook useEffect has a missing dependency: "x"  react-hooks/exhaustive-deps',
      '  20:1  error    Parsing error: Unexpected token  ',
      '',
      '✖ 2 problems (1 error, 1 warning)',
    ].join('\n');
    expect(errorLine(eslint).line).toBe('20:1  error    Parsing error: Unexpected token');
    // Only warnings: the summary among the last lines, then a warning with an error word.
    const warnings = eslint.replace('20:1  error    Parsing error: Unexpected token', '');
    expect(errorLine(warnings).line).toBe('✖ 2 problems (1 error, 1 warning)');
    expect(errorLine('npm warn deprecated x@1: missing\nwarning: unused variable `y`').line).toBe(
      'npm warn deprecated x@1: missing',
    );
  });

  it("reads the command's own output inside Codex CLI's sandbox report", () => {
    const denied =
      'exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: \\"\\", truncated_after_lines: None }, stderr: StreamOutput { text: \\"fatal: Unable to create \'/w/repo/.git/index.lock\': Operation not permitted\\\\n\\", truncated_after_lines: None }, aggregated_output: StreamOutput { text: \\"x\\", truncated_after_lines: None }, duration: 0ns, timed_out: false }, network_policy_decision: None }))" }';
    expect(errorLine(denied).line).toBe(
      "fatal: Unable to create '/w/repo/.git/index.lock': Operation not permitted",
    );
    expect(errorClass(denied)).toBe('fatal: Unable to create "…": Operation not permitted');
    const sandbox =
      'exec_command failed: SandboxDenied { message: "fatal: cannot lock ref \'refs/heads/x\'\\n", output: ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: "", truncated_after_lines: None }, stderr: StreamOutput { text: "", truncated_after_lines: None } } }';
    expect(errorLine(sandbox).line).toBe("fatal: cannot lock ref 'refs/heads/x'");
  });

  it("reads the tool's response inside Gemini CLI's MCP error report, not the call it echoes", () => {
    const call = JSON.stringify({
      name: 'push_files',
      args: { files: [{ path: 'a.ts', content: 'throw new Error("x")' }] },
    });
    const response = JSON.stringify([
      {
        functionResponse: {
          name: 'push_files',
          response: {
            content: [{ type: 'text', text: 'failed to get branch reference: 409 Git Repository is empty.' }],
            isError: true,
          },
        },
      },
    ]);
    const report = `MCP tool 'push_files' reported tool error for function call: ${call} with response: ${response}`;
    expect(errorLine(report).line).toBe('failed to get branch reference: 409 Git Repository is empty.');
    // A response cut short is still read for its texts.
    expect(errorLine(report.slice(0, -10)).line).toBe(
      'failed to get branch reference: 409 Git Repository is empty.',
    );
    // No response: the report itself.
    expect(errorLine(`MCP tool 'x' reported tool error for function call: {}`).line).toContain(
      'reported tool error',
    );
  });

  it("skips runners' exit notices, envelopes and prefaces", () => {
    // Antigravity: a preface, the notice, then what the command printed.
    const preface =
      'Created At: 2026-01-02T03:04:05Z\nCompleted At: 2026-01-02T03:04:09Z\n\n\t\tThe command failed with exit code: 1\n\t\tOutput:\n\t\t\nOn branch main\nnothing to commit';
    expect(errorLine(preface)).toEqual({ line: 'On branch main', exited: true });
    // Codex's header, and aider's token report before its own error.
    expect(
      errorLine('Chunk ID: ab12\nWall time: 0.1 seconds\nProcess exited with code 2\nOutput:\nboom').line,
    ).toBe('boom');
    expect(
      errorLine(
        'Tokens: 1.2k sent, 300 received.\nThe LLM did not conform to the edit format.\n# 1 SEARCH/REPLACE block failed to match!',
      ).line,
    ).toBe('# 1 SEARCH/REPLACE block failed to match!');
    expect(errorLine("Repo-map can't include /w/lib\nlitellm.RateLimitError: quota exceeded").line).toBe(
      'litellm.RateLimitError: quota exceeded',
    );
    expect(errorLine('Command exited with code 1')).toEqual({ line: undefined, exited: true });
    expect(errorClass('Command exited with code 1')).toBe('exit code N');
  });

  it('reads PowerShell, tags, colour codes and tracebacks', () => {
    expect(
      errorLine(
        "git : The term 'git' is not recognized as the name of a cmdlet, function,\n    + CategoryInfo : ObjectNotFound: (git:String) [], CommandNotFoundException",
      ).line,
    ).toBe("git : The term 'git' is not recognized as the name of a cmdlet, function,");
    expect(errorLine('<tool_use_error>File has been modified since read</tool_use_error>').line).toBe(
      'File has been modified since read',
    );
    expect(errorLine('\u001b[2m[Server] \u001b[22m\u001b[31mError: listen EPERM\u001b[39m').line).toBe(
      '[Server] Error: listen EPERM',
    );
    // pytest's section heading is no failure: the line under it says what failed.
    expect(
      errorLine(
        '==================== FAILURES ====================\n____ test_x ____\nE   AssertionError: assert 1 == 2',
      ).line,
    ).toBe('E   AssertionError: assert 1 == 2');
    // pytest quotes the failing source before its explanation: the quoted `except`, `raise` and the
    // banner's "1 error" are not what failed; an `E` line that names no exception is not preferred.
    expect(
      errorLine(
        [
          'collected 0 items / 1 error',
          '    def parse(self, raw):',
          '        try:',
          '            value = float(raw)',
          '        except Exception:',
          '            pass',
          '>       raise ValueError("bad input")',
          'E       ValueError: bad input',
          'src/parse.py:12: ValueError',
        ].join('\n'),
      ).line,
    ).toBe('E       ValueError: bad input');
    // A word joined by a hyphen is part of a name: aider's `--verbose` config listing is no failure.
    expect(
      errorLine(
        'Defaults:\n  --user-input-color:#00cc00\n  --tool-error-color:#FF2222\nUnable to parse --lint-cmd ""',
      ).line,
    ).toBe('Unable to parse --lint-cmd ""');
    expect(errorLine('error: subprocess-exited-with-error').line).toBe('error: subprocess-exited-with-error');
    expect(errorLine("E   Failed: DID NOT RAISE <class 'KeyError'>").line).toBe(
      "E   Failed: DID NOT RAISE <class 'KeyError'>",
    );
    expect(errorLine('error: the diff differs\nE   --left:12/40--   --right:3/9--').line).toBe(
      'error: the diff differs',
    );
    expect(
      errorLine(
        'Traceback (most recent call last):\n  File "a.py", line 1\n    x()\nNameError: name \'x\' is not defined',
      ).line,
    ).toBe("NameError: name 'x' is not defined");
    expect(errorLine("rsync: unrecognized option `--x'\nusage: rsync [--ignore-errors]").line).toBe(
      "rsync: unrecognized option `--x'",
    );
  });

  it("reads `\\n` as a line break in text quoted twice, but not in a Windows path's folders", () => {
    // Antigravity, on Windows: `\nodejs\npm.ps1` is no "odejs" line and no "pm.ps1" line.
    expect(
      errorLine(
        'The command failed with exit code: 1\nOutput:\nnpm : File C:\\Program Files\\nodejs\\npm.ps1 cannot be loaded because running scripts is disabled on this system.',
      ).line,
    ).toBe(
      'npm : File C:\\Program Files\\nodejs\\npm.ps1 cannot be loaded because running scripts is disabled on this system.',
    );
    // A pre-commit hook's report, quoted twice, on the line with the exit notice.
    expect(
      errorLine('Exit code 1\nPre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.').line,
    ).toBe('Pre-commit validation failed:');
  });

  it('gives the snapshot the same line, and the notice alone when nothing else was printed', () => {
    const out = 'Exit code 1\n  3:1  warning  unused\n  4:1  error  Missing semicolon';
    expect(observation(out)).toBe(errorLine(out).line);
    expect(observation('Command exited with code 1\n')).toBe('Command exited with code 1');
  });

  it('tells a call the person declined from a failure', () => {
    for (const declined of [
      ...DECLINED_NOTICES,
      "User rejected Claude's plan:\n╭───╮",
      // Codex's rejections, and Cline's with its note on the file.
      'exec command rejected by user',
      'exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }',
      "[replace_in_file for 'c:\\app\\.env'] Result:\nThe user denied this operation. The file was not updated.",
    ])
      expect(declinedCall(declined), declined).toBe(true);
    for (const failed of [
      "[execute_command for 'npm test'] Result:\nCommand failed with exit code 1.",
      'Exit code 1',
      'error: rejected by the server',
      'exec_command failed: SandboxDenied { message: "x" }',
      'Cancelled the deploy: the tests failed.',
      'The job was interrupted by a timeout.',
      'User rejected the cookie banner, so the test saw no session.',
    ])
      expect(declinedCall(failed), failed).toBe(false);
    expect(declinedCall(42 as unknown as string)).toBe(false);
  });

  it("reads vitest's verdict, not what a test logged under its `stdout |` header", () => {
    const run = [
      'The command failed with exit code: 1',
      'stdout | tests/sat.test.ts > SAT client > should fall back to the cache if a download fails',
      'Cache missing or expired for list_69_b. Fetching fresh list...',
      '',
      'stderr | tests/ai.test.ts > extractor > should throw if the API throws',
      'Gemini extraction failed: Error: Quota exceeded',
      '',
      ' \u2713 tests/scorer.test.ts (16 tests) 12ms',
      '\u23af\u23af\u23af\u23af\u23af\u23af\u23af Failed Tests 1 \u23af\u23af\u23af\u23af\u23af\u23af\u23af',
      ' FAIL  tests/labels.test.ts > labels > formats unknown codes',
      "AssertionError: expected 'Some New Error Code' to be 'Some new error code'",
    ].join('\n');
    expect(errorLine(run)).toEqual({ line: 'Failed Tests 1', exited: true });
  });

  it('never throws, and gives one line or none (property)', () => {
    const pieces = fc.constantFrom(
      'Exit code 1',
      'Output:',
      'error',
      'warning',
      '\\n',
      '\n',
      '\\"',
      '"',
      '\\',
      'stderr: StreamOutput { text: ',
      ', truncated_after_lines',
      'exec_command failed: SandboxDenied { message: "',
      '\u001b[31m',
      '<tag>',
      '===',
      'Traceback (most recent call last)',
      'TypeError',
      ' ',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.array(pieces, { maxLength: 30 }).map((p) => p.join('')),
        ),
        (s) => {
          const r = errorLine(s);
          expect(typeof r.exited).toBe('boolean');
          if (r.line !== undefined) {
            expect(r.line).not.toContain('\n');
            expect(r.line).toBe(r.line.trim());
            expect(r.line.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 3000 },
    );
    for (const bad of [undefined, null, 42, {}] as unknown as string[])
      expect(errorLine(bad)).toEqual({ line: undefined, exited: false });
  });
});
