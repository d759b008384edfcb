/**
 * Failure lessons of rearview/heuristic: error classes (what differs between occurrences normalised
 * away), one class per tool and error class across runs, each paired with the later call that worked
 * and what changed — or, without one, what failed and how often — and the calls of a transcript read
 * as a run. Regression: a real Claude Code session gave one "Inspect the raw output … before retrying
 * `Bash`" key point per failed call; it now gives one lesson per class, carrying the fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import {
  callTarget,
  commandHead,
  commandOf,
  errorClass,
  type FixPart,
  failureLesson,
  failureRule,
  fixText,
  groupFailures,
  judgeFailure,
  reflectFromTrajectories,
  searchFoundNothing,
  stepsFromMessages,
} from 'rearview/failures';
import { memoryStore } from 'rearview/kv';
import { createRearview, lessons } from 'rearview/session';
import { entriesFromMessages } from 'rearview/snapshot';
import { parseTranscript } from 'rearview/transcript';
import { describe, expect, it } from 'vitest';
import { describeGrowth, doublings, fill, measureGrowth } from './linear-time';

const TOO_BIG = (n: number) =>
  `File content (${n} tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters.`;

describe('errorClass', () => {
  it.each([
    // A quoted value closes on its own kind of quote (before, `"` … `&quot;` ran from quote to quote).
    [
      'Exit code 1\n  340:79  error  `"` can be escaped with `&quot;`, `&ldquo;`  react/no-unescaped-entities',
      'N:N error "…" can be escaped with "…" react/no-unescaped-entities',
    ],
    // A list of quoted values is one value, however long (Codex's apply_patch names every line).
    [
      'error: Failed to find expected lines ["  a", "b", "c", "d", "e", "f", "g"] in src/app.ts',
      'error: Failed to find expected lines ["…"] in <path>',
    ],
    [
      "rsync: unrecognized option `--no-dereference'\nusage: rsync [--ignore-errors]",
      'rsync: unrecognized option "…"',
    ],
    [
      'Exit code 128\nfatal: The current branch spotter-gqc has no upstream branch.\nTo push…',
      'fatal: The current branch <name> has no upstream branch.',
    ],
    [
      TOO_BIG(28375),
      'File content (N tokens) exceeds maximum allowed tokens (N). Please use offset and limit parameters.',
    ],
    ['<tool_use_error>File does not exist.</tool_use_error>', 'File does not exist.'],
    ['Error: String to replace not found in file.\nString: foo', 'String to replace not found in file.'],
    [
      'Traceback (most recent call last):\n  File "/a/b.py", line 3, in <module>\nValueError: bad value 42',
      'ValueError: bad value N',
    ],
    ['Exit code 1', 'exit code N'],
    ['cat: /tmp/x/y.txt: No such file or directory', 'cat: <path>: No such file or directory'],
    // A route group or a dynamic segment is a folder of the path: one class for every page.
    [
      'SyntaxError: /u/a/app/(tabs)/index.tsx: Unexpected token (12:3)',
      'SyntaxError: <path>: Unexpected token (N:N)',
    ],
    ['ENOENT: no such file /h/src/app/blog/[slug]/page.tsx', 'ENOENT: no such file <path>'],
    ['ENOENT: no such file /h/app/api/[...auth]/route.ts', 'ENOENT: no such file <path>'],
    ['Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.', 'Pre-commit validation failed:'],
    // A verb or a noun after "command", "module", "branch" is no name.
    ['Error: command timed out after 120000 milliseconds', 'command timed out after N milliseconds'],
    ["ModuleNotFoundError: No module named 'foo'", 'ModuleNotFoundError: No module named "…"'],
    ['No module named foo.bar', 'No module named <name>'],
    [
      'failed to get branch reference: 409 Git Repository is empty.',
      'failed to get branch reference: N Git Repository is empty.',
    ],
    ['Host key verification failed.', 'Host key verification failed.'],
    [
      'The api_key client option must be set either by passing api_key to the client',
      'The api_key client option must be set either by passing api_key to the client',
    ],
    [
      'error: Could not determine which package manager is used.',
      'error: Could not determine which package manager is used.',
    ],
    // PowerShell names the command first: the same failure of `git` and of `npm` is one class.
    [
      "git : The term 'git' is not recognized as the name of a cmdlet, function, script file, or operable program.",
      'The term "…" is not recognized as the name of a cmdlet, function, script file, or operable program.',
    ],
    // A Windows path, spaces in its folders and all, is a path.
    [
      'npm error gyp ERR! cwd C:\\Users\\Mi Notebook\\Documents\\app\\node_modules\\png-img',
      'npm error gyp ERR! cwd <path>',
    ],
    // PowerShell wraps its message: the next sentence's first word is cut off with it.
    [
      'npm : File C:\\Program Files\\nodejs\\npm.ps1 cannot be loaded because running scripts is disabled on this system. For \r\nmore information, see about_Execution_Policies.',
      'File <path> cannot be loaded because running scripts is disabled on this system.',
    ],
    [
      'File does not exist. Note: your current working directory is C:\\Windows\\system32.',
      'File does not exist. Note: your current working directory is <path>',
    ],
    // pytest's explanation under the source it quotes, without its `E` marker.
    [
      "    try:\n        x = f()\n    except Exception:\n        pass\nE       TypeError: unsupported operand type(s) for -: 'Time' and 'float'",
      'TypeError: unsupported operand type(s) for -: "…" and "…"',
    ],
    // Terraform frames its diagnostics: the frame is no part of the message.
    [
      '\u2577\n\u2502 Error: No value for required variable\n\u2502\n\u2502   on variables.tf line 1:\n\u2575',
      'Error: No value for required variable',
    ],
  ])('%j → %j', (error, cls) => {
    expect(errorClass(error)).toBe(cls);
  });

  it('is the same for occurrences that differ only in numbers, paths, ids and quoted values', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.stringMatching(/^[a-z]{1,8}(\/[a-z]{1,8}){1,3}$/),
        fc.uuid(),
        fc.stringMatching(/^[a-z ]{0,12}$/),
        (n, path, id, quoted) => {
          const a = errorClass(`Error ${n}: cannot open /${path}.py for run ${id} ("${quoted}")`);
          const b = errorClass(
            `Error 7: cannot open /srv/app/main.py for run 00000000-0000-4000-8000-000000000000 ("x")`,
          );
          expect(a).toBe(b);
          expect(a.length).toBeLessThanOrEqual(121);
        },
      ),
      { numRuns: 200 },
    );
    expect(errorClass(undefined as never)).toBe('unknown error');
  });
});

describe('commandHead and callTarget', () => {
  it('names what a call acts on', () => {
    expect(commandHead('cd app && FOO=1 sudo git push --force 2>&1')).toBe('git push');
    expect(commandHead('source venv/bin/activate && pytest -x tests/')).toBe('pytest tests/');
    // Windows: `npm.cmd` is `npm`, wherever it is run from.
    expect(commandHead('npm.cmd install')).toBe('npm install');
    expect(commandHead('C:\\tools\\nodejs\\npm.CMD run build')).toBe('npm run');
    // A wrapper's own options are not the command; Windows' `timeout /t 3` is a command (a wait),
    // whose "Input redirection is not supported" was filed under a program `t`.
    expect(commandHead('timeout -s KILL 30 npm test')).toBe('npm test');
    expect(commandHead('sudo -u app -E git pull')).toBe('git pull');
    expect(commandHead('timeout /t 3 /nobreak >nul && node -e 1')).toBe('timeout');
    expect(commandHead('sudo /usr/bin/apt install x')).toBe('apt install');
    // A quoted program is the program; Windows' `cmd /c "set …&& …"` runs what follows the setup.
    expect(commandHead('"$HOME/bin/yt-dlp" -o x.mp4')).toBe('yt-dlp x.mp4');
    expect(commandHead('"npm run dev"')).toBe('npm run');
    expect(commandHead('cmd /c "set NODE_ENV=dev && npm create next-app@latest ."')).toBe('npm create');
    // A quoted first argument is code, not a subcommand.
    expect(commandHead('python -c "import x"')).toBe('python');
    expect(callTarget('{"file_path":"/a/b.ts","offset":10}')).toBe('/a/b.ts');
    expect(callTarget('{"command":"mix test test/a_test.exs","timeout":3}')).toBe('mix test');
    expect(callTarget('{"pattern":"*.ts"}')).toBeUndefined();
  });

  it("reads Codex CLI's commands: an argv through a shell, or `cmd`", () => {
    expect(commandOf({ command: ['bash', '-lc', 'npm test'], timeout_ms: 1 })).toBe('npm test');
    expect(commandOf({ command: ['/bin/zsh', '-c', 'git push'] })).toBe('git push');
    expect(commandOf({ command: ['rg', '-n', 'foo'] })).toBe('rg -n foo');
    expect(commandOf({ cmd: 'pnpm install' })).toBe('pnpm install');
    expect(commandOf({ command: [1, 2] })).toBeUndefined();
    expect(commandOf({ file_path: 'a.ts' })).toBeUndefined();
    expect(callTarget('{"command":["bash","-lc","git push origin main"],"timeout_ms":5000}')).toBe(
      'git push',
    );
  });

  it("names the error of a Codex CLI output, not its runner's header", () => {
    const out =
      'Chunk ID: bbc7dc\nWall time: 0.0518 seconds\nProcess exited with code 1\nOriginal token count: 9\nOutput:\nnpm error code ENOTFOUND';
    expect(errorClass(out)).toBe('npm error code ENOTFOUND');
    expect(
      errorClass('Chunk ID: 5c9bc4\nWall time: 0.05 seconds\nProcess exited with code 2\nOutput:\n'),
    ).toBe('exit code N');
  });

  it('credits flags only when the call that worked still runs what failed', () => {
    const fixOf = (failed: string, worked: string) =>
      groupFailures([
        {
          id: 'r',
          steps: [
            { tool: 'Bash', action: failed, error: 'NameError: name "x" is not defined' },
            { tool: 'Bash', action: worked },
          ],
        },
      ])[0]?.fix?.change;
    expect(fixOf('make', 'make -C src')).toBe('add `-C`');
    expect(fixOf('git push', 'git push --set-upstream origin main')).toBe('add `--set-upstream`');
    // Another script ran: its flags are not the fix.
    expect(fixOf('python -c "import x"', 'python -m app')).toBe('change `-c` to `-m`');
    expect(fixOf('brew install postgres', 'brew install postgresql@16')).toBe(
      'change `postgres` to `postgresql@16`',
    );
    expect(fixOf('npm install', 'npm install left-pad')).toBe('add the argument `left-pad`');
  });

  it('gives each fix as parts, and its words are the words of those parts', () => {
    const fix = (failed: string, worked: string, tool = 'Bash') =>
      groupFailures([
        {
          id: 'r',
          steps: [
            { tool, action: failed, error: 'NameError: name "x" is not defined' },
            { tool, action: worked },
          ],
        },
      ])[0]!.fix!;
    const cases: [string, string, unknown][] = [
      ['make', 'make -C src', [{ kind: 'add-flag', values: ['-C'] }]],
      [
        'pytest',
        'source .venv/bin/activate && pytest',
        [{ kind: 'setup', values: ['source .venv/bin/activate'] }],
      ],
      [
        'brew install postgres',
        'brew install postgresql@16',
        [{ kind: 'change-argument', values: ['postgres', 'postgresql@16'] }],
      ],
      ['npm install', 'npm install left-pad', [{ kind: 'add-argument', values: ['left-pad'] }]],
      ['npm install left-pad', 'npm install', [{ kind: 'drop-argument', values: ['left-pad'] }]],
      // Arguments are compared within the command that failed: one chained after it is no change
      // ("add the argument `&&`" before), and a step the failed call ran first can be what changed.
      ['which pre-commit', 'which pre-commit && pre-commit --version', []],
      ['cat log.txt', 'cat log.txt | tail', []],
      ['cd test-env && uv pip list', 'uv pip list', [{ kind: 'drop-setup', values: ['cd test-env'] }]],
      // A step dropped while the command changed too: the command's change is the fix (`-chdir`).
      [
        'cd infra && terraform plan',
        'terraform -chdir=infra plan',
        [{ kind: 'add-flag', values: ['-chdir'] }],
      ],
      ['make', 'make', []],
      [
        '{"path":"a","limit":"x"}',
        '{"path":"a","offset":1,"limit":10}',
        [
          { kind: 'pass', values: ['offset'] },
          { kind: 'change', values: ['limit'] },
        ],
      ],
    ];
    for (const [failed, worked, parts] of cases) {
      const f = fix(failed, worked, failed.startsWith('{') ? 'Read' : 'Bash');
      expect(f.parts, `${failed} → ${worked}`).toEqual(parts);
      expect(f.change).toBe(fixText(f.parts));
      expect(f.kind).toBe(f.parts.length ? 'changed' : 'retry');
    }
    const [other] = groupFailures([
      {
        id: 'r',
        steps: [
          { tool: 'Read', action: '{"file_path":"a.txt"}', error: 'File too large: 300 KB' },
          { tool: 'Grep', action: '{"file_path":"a.txt","pattern":"x"}' },
        ],
      },
    ]);
    expect(other!.fix).toMatchObject({ kind: 'other-tool', change: 'use `Grep` instead' });
    expect(other!.fix!.parts).toEqual([{ kind: 'other-tool', values: ['Grep'] }]);
  });

  it('learns from a Codex CLI retry: the command line compared, its time limit ignored', () => {
    const [c] = groupFailures([
      {
        id: 'r',
        steps: [
          {
            tool: 'shell',
            action: '{"command":["bash","-lc","git push"],"timeout_ms":1000}',
            error: 'fatal: The current branch main has no upstream branch.',
          },
          {
            tool: 'shell',
            action: '{"command":["bash","-lc","git push --set-upstream origin main"],"timeout_ms":9000}',
          },
        ],
      },
    ]);
    expect(c?.subject).toBe('git push');
    expect(c?.fix?.change).toBe('add `--set-upstream`');
    const [retry] = groupFailures([
      {
        id: 'r',
        steps: [
          {
            tool: 'shell',
            action: '{"command":["bash","-lc","pnpm test"],"timeout_ms":1000}',
            error: 'command timed out after 1000 milliseconds',
          },
          { tool: 'shell', action: '{"command":["bash","-lc","pnpm test"],"timeout_ms":60000}' },
        ],
      },
    ]);
    expect(retry?.fix?.kind).toBe('retry');
  });
});

describe('groupFailures and failureLesson', () => {
  // The fix is a changed command whose first line holds a long run of spaces and no `&&` or `;`: its
  // setup parts were split with a regex that tried `\s*` from every space (8.4 s on 80 KB).
  it('compares commands with a long run of spaces in linear time', () => {
    const runOf = (cmd: string) => ({
      id: 'r',
      steps: [
        { tool: 'Bash', action: cmd, error: 'error: no' },
        { tool: 'Bash', action: `cd app && ${cmd}` },
      ],
    });
    expect(groupFailures([runOf(fill(300, ' ', 'make', 'b'))])[0]!.fix?.change).toBe('first run `cd app`');
    const built = new Map<string, ReturnType<typeof runOf>>();
    const g = measureGrowth(
      (cmd: string) => groupFailures([built.get(cmd) ?? built.set(cmd, runOf(cmd)).get(cmd)!]),
      (n) => fill(n, ' ', 'make', 'b'),
      doublings(20_000, 3),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });

  it('writes no rule for a fix that names no change, and says only that a changed call worked', () => {
    const c = {
      tool: 'Bash',
      errorClass: 'x failed',
      subject: '',
      occurrences: [{ run: 'r', step: 1, ref: 'a' }],
      runs: 1,
      fix: { step: 2, run: 'r', ref: 'b', kind: 'changed' as const, change: '', parts: [] },
    };
    expect(failureRule(c)).toBeUndefined();
    expect(failureLesson(c)).toBe('`Bash` fails with "x failed": a changed call worked (step 2).');
    // A retry and an unseen input name no change either; a change makes the rule.
    expect(failureRule({ ...c, fix: { ...c.fix, kind: 'retry' as const } })).toBeUndefined();
    expect(
      failureRule({ ...c, fix: { ...c.fix, kind: 'unseen' as const, change: 'add `-x`' } }),
    ).toBeUndefined();
    expect(failureRule({ ...c, fix: { ...c.fix, change: 'add `-x`' } })).toBe(
      'When `Bash` fails with "x failed": add `-x`.',
    );
  });

  it('states the fix that worked: arguments passed, with its step', () => {
    const [c, ...rest] = groupFailures([
      {
        id: 'r',
        steps: [
          { tool: 'Read', action: '{"file_path":"big.ts"}', error: TOO_BIG(30000) },
          { tool: 'Grep', action: '{"pattern":"x"}' },
          { tool: 'Read', action: '{"file_path":"big.ts","offset":1,"limit":500}' },
        ],
      },
    ]);
    expect(rest).toEqual([]);
    expect(c!.fix).toMatchObject({
      step: 3,
      kind: 'changed',
      change: 'pass `offset`/`limit`',
      ref: 'trajectory:r:event:2',
    });
    expect(failureLesson(c!)).toBe(
      'When `Read` fails with "File content (N tokens) exceeds maximum allowed tokens (N). Please use offset and limit parameters.": pass `offset`/`limit`.',
    );
  });

  it('pairs a shell failure with the next success of the same command, flags added', () => {
    const [c] = groupFailures([
      {
        id: 's',
        steps: [
          {
            tool: 'Bash',
            action: '{"command":"git push 2>&1"}',
            error: 'Exit code 128\nfatal: The current branch feat-x has no upstream branch.',
          },
          { tool: 'Bash', action: '{"command":"ls"}' },
          { tool: 'Bash', action: '{"command":"git push --set-upstream origin feat-x 2>&1"}' },
        ],
      },
    ]);
    expect(failureLesson(c!)).toBe(
      'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.',
    );
  });

  it("finds Windows' `npm.cmd` as the fix for PowerShell's refusal of `npm.ps1`", () => {
    const refused =
      'npm : File C:\\Program Files\\nodejs\\npm.ps1 cannot be loaded because running scripts is disabled on this system.';
    const [c] = groupFailures([
      {
        id: 's',
        steps: [
          { tool: 'run_command', action: '{"CommandLine":"npm install"}', error: refused },
          { tool: 'run_command', action: '{"CommandLine":"npm.cmd install"}' },
        ],
      },
    ]);
    expect(failureLesson(c!)).toBe(
      'When `run_command` (npm install) fails with "File <path> cannot be loaded because running scripts is disabled on this system.": run `npm.cmd` instead of `npm`.',
    );
    // Antigravity quotes its command lines; the fix there was Windows' shell.
    const [d] = groupFailures([
      {
        id: 't',
        steps: [
          {
            tool: 'run_command',
            action: '{"CommandLine":"\\"npx -y create-vite --help\\""}',
            error: refused,
          },
          { tool: 'run_command', action: '{"CommandLine":"\\"cmd /c npx -y create-vite --help\\""}' },
        ],
      },
    ]);
    expect(failureLesson(d!)).toBe(
      'When `run_command` (npx create-vite) fails with "File <path> cannot be loaded because running scripts is disabled on this system.": run it through `cmd /c`.',
    );
    // Each fix as parts a program reads: another name of the program, and a shell wrapped around.
    expect(c!.fix).toMatchObject({
      parts: [{ kind: 'program', values: ['npm.cmd', 'npm'] }],
    });
    expect(d!.fix).toMatchObject({ parts: [{ kind: 'wrapper', values: ['cmd /c'] }] });
    // Both are rules, not one-off arguments: each is a key point.
    for (const x of [c!, d!]) {
      expect(x.fix).toMatchObject({ kind: 'changed' });
      const fix = x.fix as { change: string; parts: Parameters<typeof fixText>[0] };
      // The words a person reads are the parts' words (`fixText`), which `judgeFailure` reads back.
      expect(fixText(fix.parts)).toBe(fix.change);
      expect(judgeFailure(x.errorClass, { parts: fix.parts })).toBeUndefined();
      expect(judgeFailure(x.errorClass, fix.change)).toBeUndefined();
    }
  });

  it('compares the flags of the command that failed, not of the commands chained after it', () => {
    const [c] = groupFailures([
      {
        id: 'r',
        steps: [
          {
            tool: 'Bash',
            action: 'rsync -a --no-dereference ~/.claude/ app/.claude/ && rm -rf ~/.claude',
            error: "Exit code 1\nrsync: unrecognized option `--no-dereference'",
          },
          { tool: 'Bash', action: 'rsync -a ~/.claude/ app/.claude/ && rm -rf ~/.claude && ls -la app' },
        ],
      },
    ]);
    // Read over the whole line, `ls -la` gave "add `-la`" beside the flag that was dropped.
    expect(c!.fix?.parts).toEqual([{ kind: 'drop-flag', values: ['--no-dereference'] }]);
  });

  it('credits no flag another failed call of the same failure had (added) or lacked (dropped)', () => {
    const error = 'Error: No value for required variable';
    const run = (steps: { action: string; error?: string }[]) =>
      groupFailures([{ id: 'r', steps: steps.map((s) => ({ tool: 'Bash', ...s })) }])[0]!.fix;
    // `-out` was on a failing call too: `-chdir` is what worked.
    expect(
      run([
        { action: 'terraform plan', error },
        { action: 'terraform plan -out p.tfplan -var-file dev.tfvars', error },
        { action: 'terraform -chdir=infra plan -out p.tfplan' },
      ])?.parts,
    ).toEqual([{ kind: 'add-flag', values: ['-chdir'] }]);
    // Dropping `-var-file` did not help the call that had none: only `-chdir` is credited.
    expect(
      run([
        { action: 'terraform plan -var-file=dev.tfvars', error },
        { action: 'terraform plan -out p.tfplan', error },
        { action: 'terraform -chdir=infra plan' },
      ])?.change,
    ).toBe('add `-chdir`');
    // Every flag of the working call was tried by a failed one: no change is credited.
    const none = run([
      { action: 'terraform plan', error },
      { action: 'terraform plan -refresh=false', error },
      { action: 'terraform plan -refresh=false' },
    ]);
    expect(none?.kind).toBe('retry');
    expect(none?.change).toBe('');
  });

  it('groups one class across runs, counts every occurrence, and never invents a fix', () => {
    const run = (id: string, branch: string) => ({
      id,
      steps: [
        {
          tool: 'Bash',
          action: 'git push',
          error: `fatal: The current branch ${branch} has no upstream branch.`,
        },
      ],
    });
    const classes = groupFailures([run('a', 'one'), run('b', 'two-2')]);
    expect(classes).toHaveLength(1);
    expect(classes[0]).toMatchObject({
      runs: 2,
      occurrences: [
        { run: 'a', step: 1 },
        { run: 'b', step: 1 },
      ],
    });
    expect(classes[0]!.fix).toBeUndefined();
    expect(failureLesson(classes[0]!)).toBe(
      '`Bash` `git push` failed with "fatal: The current branch <name> has no upstream branch." twice in 2 runs; no later call succeeded.',
    );
  });

  it('another tool on the same target, a retry, and calls the user declined', () => {
    const classes = groupFailures([
      {
        id: 'x',
        steps: [
          {
            tool: 'Edit',
            action: '{"file_path":"a.ts","old_string":"x"}',
            error: 'String to replace not found in file.',
          },
          { tool: 'Write', action: '{"file_path":"a.ts","content":"y"}' },
          { tool: 'Bash', action: '{"command":"npm test"}', error: 'Exit code 1\n3 failed, 2 passed' },
          { tool: 'Bash', action: '{"command":"npm test"}' },
          {
            tool: 'Glob',
            action: '{"pattern":"*"}',
            error: "The user doesn't want to proceed with this tool use.",
          },
        ],
      },
    ]);
    expect(classes.map((c) => [c.tool, c.fix?.kind, c.fix?.change])).toEqual([
      ['Edit', 'other-tool', 'use `Write` instead'],
      ['Bash', 'retry', ''],
    ]);
    expect(failureLesson(classes[1]!)).toContain(
      'the same command later succeeded with no change rearview can name (step 4)',
    );
  });

  it('says nothing changed or not when the failed call’s input is not recorded, and a later real fix wins', () => {
    const notice = 'The string to replace was not found in the file.';
    const [unseen] = groupFailures([
      {
        id: 'x',
        steps: [
          { tool: 'search_replace', action: '', error: notice },
          { tool: 'search_replace', action: '{"file_path":"a.ts","old_string":"y"}' },
        ],
      },
    ]);
    expect(unseen?.fix).toMatchObject({ kind: 'unseen', step: 2, change: '', parts: [] });
    expect(failureLesson(unseen!)).not.toContain('unchanged');
    expect(failureLesson(unseen!)).toContain("does not show the failed call's input");
    // A later occurrence whose input is known and whose fix is real gives the class its fix.
    const [known] = groupFailures([
      {
        id: 'y',
        steps: [
          { tool: 'search_replace', action: '', error: notice },
          { tool: 'search_replace', action: '{"file_path":"a.ts","old_string":"y"}' },
          { tool: 'search_replace', action: '{"file_path":"b.ts","old_string":"z"}', error: notice },
          { tool: 'search_replace', action: '{"file_path":"b.ts","old_string":"z","replace_all":true}' },
        ],
      },
    ]);
    expect(known?.fix).toMatchObject({ kind: 'changed', step: 4 });
    // A tool that takes no input failed, then worked: the same call, retried.
    const [bare] = groupFailures([
      {
        id: 'z',
        steps: [
          { tool: 'TodoRead', action: '', error: 'Error: busy' },
          { tool: 'TodoRead', action: '' },
        ],
      },
    ]);
    expect(bare?.fix?.kind).toBe('retry');
  });

  it('never credits a call the person declined in the console (`No (tell Claude what to do differently)`) as the fix', () => {
    const hook = 'trim trailing whitespace.................................................Failed';
    const { messages } = parseTranscript(
      [
        '> commit it',
        '',
        '⏺ Bash(git commit -m "docs")',
        `  ⎿  Error: ${hook}`,
        '',
        '⏺ Bash(SKIP=trailing-whitespace git commit -m "docs")',
        '  ⎿  No (tell Claude what to do differently)',
        '',
        '> fix the files and commit',
        '',
        '⏺ Bash(git commit -m "docs")',
        '  ⎿  [main 1a2b3c4] docs',
      ].join('\n'),
      { format: 'claude-code-console' },
    );
    const run = stepsFromMessages(messages);
    expect(run.steps.map((s) => s.error?.slice(0, 2))).toEqual(['Er', 'No', undefined]);
    const [c, ...rest] = groupFailures([run]);
    // The declined call is neither a failure nor the call that worked.
    expect(rest).toEqual([]);
    expect(c!.occurrences).toHaveLength(1);
    // Before, the declined call was read as a success: "add the argument `SKIP=…`" was the lesson.
    expect(c!.fix).toMatchObject({ step: 3, kind: 'retry' });
  });

  it("reads Codex CLI's sandbox report for the command's own error, and its declined calls as declined", () => {
    // A rollout written for this test in the shape Codex CLI logs: a git write its sandbox stopped
    // (a Rust debug print around git's message), twice, then a call the person declined.
    const call = (i: number, cmd: string) => ({
      timestamp: `2026-01-01T00:00:0${i}Z`,
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd }),
        call_id: `c${i}`,
      },
    });
    const output = (i: number, text: string) => ({
      timestamp: `2026-01-01T00:00:0${i}Z`,
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: `c${i}`, output: text },
    });
    const denied = (path: string) =>
      `exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: \\"\\", truncated_after_lines: None }, stderr: StreamOutput { text: \\"fatal: Unable to create '${path}/.git/index.lock': Operation not permitted\\\\n\\", truncated_after_lines: None }, duration: 0ns, timed_out: false }, network_policy_decision: None }))" }`;
    const rollout = [
      {
        timestamp: '2026-01-01T00:00:00Z',
        type: 'session_meta',
        payload: { id: 's', cwd: '/w', originator: 'codex_cli_rs' },
      },
      call(1, 'git add -A'),
      output(1, denied('/w/app')),
      call(2, 'git add README.md'),
      output(2, denied('/w/app')),
      call(3, 'git commit -m x'),
      output(3, 'exec_command failed: CreateProcess { message: "Rejected(\\"rejected by user\\")" }'),
    ]
      .map((o) => JSON.stringify(o))
      .join('\n');
    const { messages } = parseTranscript(rollout);
    const run = stepsFromMessages(messages);
    expect(run.steps.map((s) => s.error !== undefined)).toEqual([true, true, true]);
    const classes = groupFailures([run]);
    // One class, from git's message; the declined commit is no failure and no fix.
    expect(classes.map((c) => [c.errorClass, c.occurrences.length, c.fix])).toEqual([
      ['fatal: Unable to create "…": Operation not permitted', 2, undefined],
    ]);
  });

  it("reads Antigravity's `CommandLine` as the command, and its notes and wait times as no change", () => {
    const call = (command: string, note: string, wait: string) =>
      JSON.stringify({
        CommandLine: command,
        Cwd: '/w/app',
        WaitMsBeforeAsync: wait,
        toolAction: note,
        toolSummary: note,
      });
    const [c, ...rest] = groupFailures([
      {
        id: 'ag',
        steps: [
          {
            tool: 'run_command',
            action: call('git push', 'Pushing the branch', '5000'),
            error:
              'The command failed with exit code: 128\nOutput:\nfatal: The current branch feat has no upstream branch.',
          },
          {
            tool: 'run_command',
            action: call('git push --set-upstream origin feat', 'Pushing again', '10000'),
          },
        ],
      },
    ]);
    expect(rest).toEqual([]);
    expect(c!.errorClass).toBe('fatal: The current branch <name> has no upstream branch.');
    // Before, the fix was "change `CommandLine`/`WaitMsBeforeAsync`/`toolAction`/`toolSummary`".
    expect(c!.fix).toMatchObject({ kind: 'changed', change: 'add `--set-upstream`' });
    expect(failureLesson(c!)).toContain('When `run_command` (git push) fails with');
  });

  it("reads Cline's to-do list and approval flag, passed with every call, as no change", () => {
    const call = (command: string, progress: string, approval: boolean) =>
      JSON.stringify({ command, requires_approval: approval, task_progress: progress });
    const [c, ...rest] = groupFailures([
      {
        id: 'cline',
        steps: [
          {
            tool: 'execute_command',
            action: call('npm install', '- [ ] Install the dependencies', false),
            error: 'npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree',
          },
          {
            tool: 'execute_command',
            action: call(
              'npm install --legacy-peer-deps',
              '- [x] Read the error\n- [ ] Install the dependencies',
              true,
            ),
          },
        ],
      },
    ]);
    expect(rest).toEqual([]);
    // Before, the fix was "change `task_progress`, add `--legacy-peer-deps`".
    expect(c!.fix).toMatchObject({ kind: 'changed', change: 'add `--legacy-peer-deps`' });
  });

  it('credits no fix but the same command when the failed one has no program it can read', () => {
    // Only a setup step failed: `npm test` does not do its job (it once named "run `npm test`
    // instead of ``"); nor does `find` that of a command the console cut after its variables.
    const [c, d] = groupFailures([
      {
        id: 'r',
        steps: [
          { tool: 'Bash', action: 'cd app', error: 'bash: cd: app: No such file or directory' },
          { tool: 'Bash', action: 'npm test' },
          { tool: 'Bash', action: 'DEV=1 URL=http://h:11434 MODEL=g …', error: 'Error: boom' },
          { tool: 'Bash', action: 'find . -name "*.log"' },
          { tool: 'Bash', action: 'DEV=1 URL=http://h:11434 MODEL=g …' },
        ],
      },
    ]);
    expect(c?.fix).toBeUndefined();
    expect(d?.fix).toMatchObject({ kind: 'retry', step: 5 });
  });

  it("credits another tool only of the same kind: a read does not do an edit's job", () => {
    const [c] = groupFailures([
      {
        id: 'r',
        steps: [
          {
            tool: 'Write',
            action: '{"file_path":"a.ps1","content":"x"}',
            error: 'File has not been read yet. Read it first before writing to it.',
          },
          { tool: 'Read', action: '{"file_path":"a.ps1"}' },
          { tool: 'Edit', action: '{"file_path":"a.ps1","old_string":"x","new_string":"y"}' },
        ],
      },
    ]);
    // Refused until the file is read: the read between is the fix, not the other edit tool.
    expect(c?.fix).toMatchObject({
      kind: 'other-tool',
      change: 'first read the file with `Read`',
      parts: [{ kind: 'read-first', values: ['Read'] }],
      step: 3,
    });
    const lesson = failureLesson(c!);
    expect(lesson).toBe(
      'When `Write` fails with "File has not been read yet. Read it first before writing to it.": first read the file with `Read`.',
    );
    expect(judgeFailure(c!.errorClass, c!.fix!)).toBeUndefined();
    expect(judgeFailure(c!.errorClass, c!.fix!.change)).toBeUndefined();
    // Writing the file a read did not find is another job: made good, no fix to learn.
    const [missing] = groupFailures([
      {
        id: 'r',
        steps: [
          { tool: 'Read', action: '{"file_path":"MEMORY.md"}', error: 'File does not exist.' },
          { tool: 'Write', action: '{"file_path":"MEMORY.md","content":"x"}' },
        ],
      },
    ]);
    expect(missing?.fix).toMatchObject({ kind: 'other-job', change: '', step: 2 });
  });

  it('reads the file first only for an edit refused until it is read', () => {
    const edit = (old: string, error?: string) => ({
      tool: 'Edit',
      action: `{"file_path":"a.ts","old_string":"${old}","new_string":"y"}`,
      ...(error ? { error } : {}),
    });
    const read = { tool: 'Read', action: '{"file_path":"a.ts"}' };
    const [again, missed] = groupFailures([
      {
        id: 'r',
        steps: [
          edit(
            'x',
            'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.',
          ),
          read,
          edit('x'),
          edit('z', 'String to replace not found in file.'),
          read,
          edit('w'),
        ],
      },
    ]);
    // The same edit again after the read: the read made it work (a retry becomes a change).
    expect(again?.fix).toMatchObject({ kind: 'changed', change: 'first read the file with `Read`', step: 3 });
    // A missed text corrected after a read: readers credit the corrected text, so the read is not named.
    expect(missed?.fix).toMatchObject({ kind: 'changed', change: 'change `old_string`', step: 6 });
  });

  it('never throws on junk', () => {
    expect(groupFailures('x' as never)).toEqual([]);
    expect(
      groupFailures([null, { id: 1, steps: [null, { error: 5 }, { error: '' }] }] as never),
    ).toHaveLength(1);
  });
});

describe('reflectFromTrajectories', () => {
  it('one insight per class: the lesson as recommendation, every occurrence then the fix in traceRefs', () => {
    const steps = [
      { tool: 'Bash', action: 'make', error: 'make: *** No rule to make target "all". Stop.' },
      { tool: 'Bash', action: 'make', error: 'make: *** No rule to make target "all". Stop.' },
      { tool: 'Bash', action: 'make -C src' },
    ];
    const [insight, ...rest] = reflectFromTrajectories([{ id: 't', steps, outcome: { failed: true } }]);
    expect(rest).toEqual([]);
    expect(insight).toEqual({
      fact: 'Tool `Bash` failed 2 times with "make: No rule to make target "…". Stop." (a changed call worked at step 3)',
      recommendation: 'When `Bash` (make) fails with `make: No rule to make target "…". Stop.`: add `-C`.',
      category: 'anti_pattern',
      confidence: 'high',
      tags: ['tool_failure', 'tool:Bash', 'fix_found', 'recurring'],
      traceRefs: ['trajectory:t:event:0', 'trajectory:t:event:1', 'trajectory:t:event:2'],
    });
    // Solved runs only when asked (the seed's rule), where fixes are found.
    expect(reflectFromTrajectories([{ id: 't', steps, outcome: { failed: false } }])).toEqual([]);
    expect(
      reflectFromTrajectories([{ id: 't', steps, outcome: { failed: false } }], { allOutcomes: true }),
    ).toHaveLength(1);
  });
});

describe('stepsFromMessages', () => {
  it('pairs calls and results by id, the result referenced, errors from isError', () => {
    const run = stepsFromMessages([
      { role: 'user', content: 'go', id: 'u' },
      { role: 'assistant', content: '{"command":"ls"}', toolName: 'Bash', toolUseId: 't1', id: 'c1' },
      { role: 'assistant', content: '{"file_path":"a"}', toolName: 'Read', toolUseId: 't2', id: 'c2' },
      { role: 'tool', content: 'nope', toolName: 'Read', toolUseId: 't2', isError: true, id: 'r2' },
      { role: 'tool', content: 'a b', toolName: 'Bash', toolUseId: 't1', id: 'r1' },
      { role: 'assistant', content: '{"command":"x"}', toolName: 'Bash', toolUseId: 't3', id: 'c3' },
    ]);
    expect(run.steps).toEqual([
      { index: 0, tool: 'Bash', action: '{"command":"ls"}', ref: 'message:r1' },
      { index: 1, tool: 'Read', action: '{"file_path":"a"}', ref: 'message:r2', error: 'nope' },
    ]);
  });
});

describe('searchFoundNothing', () => {
  // Codex CLI runs `rg` through bash and reports exit status 1 with an empty output; Cline writes
  // "Command failed with exit code 1."; mini-swe-agent "Command exited with code 1". Each was a
  // lesson ("`shell` failed 7 times with "no output"": change `'Dockerfile*'` to `'eslint.config.*'`).
  const codex = (cmd: string) => JSON.stringify({ command: ['bash', '-lc', cmd], workdir: '/w' });

  it('reads a search that matched nothing as an answer, in every runner', () => {
    for (const step of [
      { tool: 'shell', action: codex("rg --files -g 'Dockerfile*'"), error: '' },
      {
        tool: 'bash',
        action: 'ls -R sklearn/linear_model | grep Ridge',
        error: 'Command exited with code 1',
      },
      {
        tool: 'execute_command',
        action: '{"command":"netstat -ano | findstr \\"5432\\""}',
        error: 'Command failed with exit code 1.',
      },
      { tool: 'Bash', action: '{"command":"cd app && git grep -n TODO"}', error: 'Exit code 1' },
      { tool: 'bash', action: 'npx tsc 2>&1 | grep -E "a|b"', error: '\n' },
    ])
      expect(searchFoundNothing(step), step.action).toBe(true);
  });

  it('keeps a search that failed, a search not last in its command, and every other command', () => {
    for (const step of [
      // An error message, another exit status, a search whose status the next command sets.
      { tool: 'bash', action: 'grep -r x nope/', error: 'grep: nope/: No such file or directory' },
      { tool: 'bash', action: 'grep -r x .', error: 'Command exited with code 2' },
      { tool: 'bash', action: 'grep -q x a.txt && echo found', error: '' },
      // A `|` inside quotes is no pipe: the command is `echo`.
      { tool: 'bash', action: 'echo "a | grep b"', error: '' },
      { tool: 'bash', action: 'npm test', error: '' },
      { tool: 'shell', action: codex('find specs -regex x'), error: '' },
      // Not a shell call: a tool with a JSON input of its own.
      { tool: 'Grep', action: '{"pattern":"x"}', error: '' },
      { tool: 'bash', action: 'grep x a', error: undefined },
    ])
      expect(searchFoundNothing(step), step.action).toBe(false);
  });

  it('is no failure to learn from: no class, no lesson', () => {
    const steps = [
      { tool: 'bash', action: 'grep -rn merge_attrs xarray/core', error: 'Command exited with code 1' },
      { tool: 'bash', action: 'grep -rn merge_attrs xarray/core', error: 'Command exited with code 1' },
      { tool: 'bash', action: 'cat setup.cfg', error: 'cat: setup.cfg: No such file or directory' },
      { tool: 'bash', action: 'cat setup.py' },
    ];
    const classes = groupFailures([{ id: 'r', steps }]);
    expect(classes.map((c) => c.errorClass)).toEqual(['cat: setup.cfg: No such file or directory']);
    const { messages } = parseTranscript(
      JSON.stringify([
        { role: 'user', content: 'Where is the Dockerfile?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rg --files -g "Dockerfile*"' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'Exit code 1' }],
        },
        { role: 'assistant', content: 'There is no Dockerfile in this repository.' },
      ]),
    );
    expect(lessons({ messages }).insights.filter((i) => i.category === 'anti_pattern')).toEqual([]);
    // Nor is it a problem the snapshot carries on.
    expect(entriesFromMessages(messages).entries.filter((e) => e.role === 'tool')).toEqual([]);
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.anything(), (step) => {
        expect(typeof searchFoundNothing(step as never)).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(fc.record({ tool: fc.string(), action: fc.string(), error: fc.string() }), (step) => {
        expect(typeof searchFoundNothing(step)).toBe('boolean');
      }),
    );
  });
});

const data = resolve(import.meta.dirname, '../../../shared/data/claude-code-jsonl');

describe('one-off fixes', () => {
  const run = (steps: { tool: string; action: string; error?: string }[]) =>
    reflectFromTrajectories([{ id: 't', steps }], { allOutcomes: true });

  it('tags a fix its judge refuses one_off, with medium confidence, and proposes no key point for it', () => {
    // Another value for the task's own argument worked: what worked once, not a rule.
    const [value] = run([
      { tool: 'Bash', action: 'npm run test:e2e', error: 'npm error Missing script: "test:e2e"' },
      { tool: 'Bash', action: 'npm run test:e2e:ci' },
    ]);
    expect(value!.tags).toEqual(['tool_failure', 'tool:Bash', 'fix_found', 'one_off']);
    expect(value!.confidence).toBe('medium');
    // An unreadable error ("Error") teaches nothing, whatever changed.
    const [bare] = run([
      { tool: 'Bash', action: 'make -j4', error: 'Error' },
      { tool: 'Bash', action: 'make -j4 --keep-going' },
    ]);
    expect(bare!.tags).toContain('one_off');
    // A setup step is a rule: no tag, high confidence, and a key point.
    const [setup] = run([
      { tool: 'Bash', action: 'pytest -q', error: '(eval):1: command not found: pytest' },
      { tool: 'Bash', action: 'source .venv/bin/activate && pytest -q' },
    ]);
    expect(setup!.tags).toEqual(['tool_failure', 'tool:Bash', 'fix_found']);
    expect(setup!.confidence).toBe('high');
    const { proposed } = lessons({
      messages: [],
      trajectories: [
        {
          id: 't',
          steps: [
            {
              tool: 'Bash',
              action: 'ls src/componets',
              error: 'ls: src/componets: No such file or directory',
            },
            { tool: 'Bash', action: 'ls src/components' },
            { tool: 'Bash', action: 'pytest -q', error: '(eval):1: command not found: pytest' },
            { tool: 'Bash', action: 'source .venv/bin/activate && pytest -q' },
          ],
        },
      ],
    });
    expect(proposed.map((p) => p.text)).toEqual([
      'When `Bash` (pytest) fails with "(eval):N: command not found: pytest": first run `source .venv/bin/activate`.',
    ]);
  });

  it('judges as learn does: the judge is the one rearview/learn exports', async () => {
    const learn = await import('rearview/learn');
    expect(learn.judgeFailure).toBe(judgeFailure);
    expect(
      judgeFailure('npm error code ENOTFOUND', 'pass `with_escalated_permissions`/`justification`'),
    ).toBe('failure: a permission prompt');
  });

  it('takes no rule from writing a file that a read found missing', () => {
    const missing = 'File does not exist. Note: your current working directory is <path>';
    expect(judgeFailure(missing, { parts: [{ kind: 'other-tool', values: ['Write'] }] })).toBe(
      'failure: a missing file written',
    );
    expect(
      judgeFailure('ENOENT: no such file or directory, open <path>', 'use `write_to_file` instead'),
    ).toBe('failure: a missing file written');
    // Searching for the file, or reading a folder with the tool that lists it, is a lesson.
    expect(judgeFailure(missing, { parts: [{ kind: 'other-tool', values: ['Glob'] }] })).toBeUndefined();
    expect(
      judgeFailure('EISDIR: illegal operation on a directory, read', {
        parts: [{ kind: 'other-tool', values: ['List'] }],
      }),
    ).toBeUndefined();
    // A missing program is not a missing file: setting up what provides it is the lesson.
    expect(
      judgeFailure('(eval):N: command not found: pytest', 'first run `source .venv/bin/activate`'),
    ).toBeUndefined();
    // A `cd` dropped is where that task ran, as a `cd` added is: read from its parts or its words.
    const dropped: FixPart[] = [{ kind: 'drop-setup', values: ['cd test-env'] }];
    expect(fixText(dropped)).toBe('drop the step `cd test-env`');
    const missingDir = '(eval):cd:N: no such file or directory: test-env';
    expect(judgeFailure(missingDir, { parts: dropped })).toBe('failure: a one-off argument');
    expect(judgeFailure(missingDir, fixText(dropped))).toBe('failure: a one-off argument');
    expect(judgeFailure(missingDir, 'drop the step `source env.sh`')).toBeUndefined();
  });

  it('proposes no key point for a failure with no fix, however often it recurred', () => {
    const steps = [1, 2, 3].map(() => ({
      tool: 'Bash',
      action: 'make',
      error: 'make: *** No rule to make target "all". Stop.',
    }));
    const [insight] = run(steps);
    expect(insight!.tags).toEqual(['tool_failure', 'tool:Bash', 'no_fix', 'recurring']);
    expect(lessons({ messages: [], trajectories: [{ id: 't', steps }] }).proposed).toEqual([]);
  });
});

describe.skipIf(!existsSync(data))('real Claude Code sessions', () => {
  const session = (f: string) =>
    parseTranscript(readFileSync(join(data, f), 'utf8'), { lenient: true }).messages;

  it('one lesson per class, not one per failed call, each carrying its fix and every occurrence', () => {
    const messages = session('4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
    const failed = messages.filter((m) => m.role === 'tool' && m.isError).map((m) => `message:${m.id}`);
    const insights = reflectFromTrajectories([stepsFromMessages(messages)], { allOutcomes: true });
    expect(failed).toHaveLength(5);
    expect(insights.length).toBeLessThan(failed.length);
    expect(
      insights
        .flatMap((i) => i.traceRefs)
        .filter((r) => failed.includes(r))
        .sort(),
    ).toEqual([...failed].sort());
    expect(new Set(insights.map((i) => i.recommendation)).size).toBe(insights.length);
    for (const i of insights) expect(i.recommendation).not.toMatch(/inspect (the )?raw/i);
    const push = insights.find((i) => i.recommendation.includes('(git push)'));
    expect(push?.recommendation).toMatch(/no upstream branch.*: add `--set-upstream`\.$/);
    expect(push?.fact).toMatch(/\(a changed call worked at step \d+\)$/);
  });

  it('groups a class across two sessions', () => {
    const runs = [
      '258c7280-ae70-4798-800f-63464d01a85d.jsonl',
      '4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
    ].map((f) => stepsFromMessages(session(f), f));
    const push = groupFailures(runs).filter((c) => c.errorClass.includes('no upstream branch'));
    expect(push).toHaveLength(1);
    expect(push[0]).toMatchObject({ runs: 2, subject: 'git push' });
    expect(push[0]!.occurrences).toHaveLength(2);
  });
});

describe('a failure lesson learned again', () => {
  const session = (branch: string) => [
    { role: 'user', content: 'push it' },
    { role: 'assistant', content: '{"command":"git push"}', toolName: 'Bash', toolUseId: `${branch}-1` },
    {
      role: 'tool',
      content: `Exit code 128\nfatal: The current branch ${branch} has no upstream branch.`,
      toolName: 'Bash',
      toolUseId: `${branch}-1`,
      isError: true,
    },
    {
      role: 'assistant',
      content: `{"command":"git push --set-upstream origin ${branch}"}`,
      toolName: 'Bash',
      toolUseId: `${branch}-2`,
    },
    { role: 'tool', content: `pushed ${branch}`, toolName: 'Bash', toolUseId: `${branch}-2` },
  ];

  it('raises the helpful count of the key point that says it instead of adding a copy', async () => {
    const rv = createRearview({ store: memoryStore(), storeOptions: { broadcast: false } });
    const first = await rv.endSession({ messages: session('feat-a') });
    expect(first.added.map((a) => a.text)).toEqual([
      'When `Bash` (git push) fails with "fatal: The current branch <name> has no upstream branch.": add `--set-upstream`.',
    ]);
    const second = await rv.endSession({ messages: session('feat-b') });
    expect(second.added).toEqual([]);
    expect(second.duplicates.map((d) => d.of)).toEqual([first.added[0]!.name]);
    expect(second.tags).toEqual({ applied: 1, skipped: 0, by: 'heuristic' });
    const pb = await rv.playbook();
    expect(pb.sections['MISTAKES TO AVOID']).toHaveLength(1);
    expect(pb.sections['MISTAKES TO AVOID'][0]).toMatchObject({ helpful: 1, harmful: 0 });
  });
});
