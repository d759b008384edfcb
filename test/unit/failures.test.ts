/**
 * Failure lessons of rearview/heuristic: error classes (what differs between occurrences normalised
 * away), and what a call acts on — the program and subcommand of a shell call, the file of a tool's
 * input — with the flags, arguments and setup steps that changed in the later call that worked.
 */
import fc from 'fast-check';
import { callTarget, commandHead, commandOf, errorClass, fixText, groupFailures } from 'rearview/failures';
import { describe, expect, it } from 'vitest';
import { TOO_BIG } from './failures-helpers';

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
