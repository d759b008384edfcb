/**
 * `learn`'s quality rules: which instructions are kept as rules and why the others are left out, and
 * which failure fixes generalise (by their words or their structured parts, read back alike).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FixPart } from '../../lib/failures/index';
import { judgeRule } from '../../lib/learn/index';

describe('learn: quality rules', () => {
  it('keeps self-contained instructions and names why others are left out', () => {
    expect(judgeRule('Use pnpm instead of npm.')).toBeUndefined();
    expect(judgeRule("Apply the user's correction.")).toBe('template');
    expect(judgeRule("Don't do that again.")).toBe('not self-contained');
    expect(judgeRule('Do the following without changing the layout.')).toBe('not self-contained');
    // A SpecStory user's request: "this approach" is the one on the session's screen.
    expect(
      judgeRule('Ask me clarifying questions about this approach in order to create an implementation plan.'),
    ).toBe('not self-contained');
    expect(judgeRule('Always keep that plan in mind.')).toBe('not self-contained');
    // "These findings", "those services": what they point at is on the session's screen.
    expect(judgeRule('Write ROADMAP.md with these findings before touching any code.')).toBe(
      'not self-contained',
    );
    expect(judgeRule('Start all these services yourself rather than me doing it manually.')).toBe(
      'not self-contained',
    );
    expect(judgeRule('Never call those legacy endpoints from the client.')).toBe('not self-contained');
    expect(judgeRule('Prefer small commits these days.')).toBeUndefined();
    expect(judgeRule('Use We are also learning together, not rush to solutions.')).toBe('garbled');
    expect(judgeRule('Show only the diff for app/connection-test/page.tsx.')).toBe('task-bound');
    // A Claude Code user's first turn: one app to build, not a rule.
    expect(
      judgeRule(
        'Build a small Rails app that reproduces a specific donation page, up to (but not including) payment.',
      ),
    ).toBe('task-bound');
    expect(judgeRule('Create a new database and storage bucket for local testing.')).toBe('task-bound');
    expect(judgeRule('Create a branch for each feature.')).toBeUndefined();
    expect(judgeRule('Build a real backend structure, not a demo or pseudo-code skeleton.')).toBeUndefined();
    expect(judgeRule('Never commit [api-key-1] to git.')).toBe('secret');
    expect(judgeRule('Use `foo( bar.')).toBe('garbled');
    // A free choice granted is nothing to follow; a rule that only says "whatever" elsewhere stays.
    expect(judgeRule('Use whatever test runner you normally use.')).toBe('vague');
    expect(judgeRule('Do not add payments; pick any library you like for the rest.')).toBe('vague');
    expect(judgeRule('Feel free to rename the helpers.')).toBe('vague');
    expect(judgeRule('Whatever you change, never push to main.')).toBeUndefined();
    expect(judgeRule('Never use any library you like without asking first.')).toBeUndefined();
    // A manner or a verb with nothing to check is vague; with an object it is a rule.
    expect(judgeRule('Be very detail focused.')).toBe('vague');
    expect(judgeRule('Always be very thorough!')).toBe('vague');
    expect(judgeRule('Do NOT skip anything.')).toBe('vague');
    expect(judgeRule("Don't change anything else.")).toBe('vague');
    expect(judgeRule('Be careful with the production database.')).toBeUndefined();
    expect(judgeRule('Do not skip the migration tests.')).toBeUndefined();
    expect(judgeRule('Check everything the linter reports before committing.')).toBeUndefined();
  });
});

describe('learn: failure quality rules', () => {
  it('keeps a fix that generalises and names why others are left out', async () => {
    const { judgeFailure } = await import('../../lib/learn/index');
    expect(
      judgeFailure('(eval):N: command not found: pytest', 'first run `source .venv/bin/activate`'),
    ).toBeUndefined();
    expect(judgeFailure('ruff......................Failed', 'drop `--fix`')).toBe(
      'failure: unreadable error',
    );
    expect(judgeFailure('Error', 'drop `--fix`')).toBe('failure: unreadable error');
    expect(judgeFailure('tests/a.py::test_b FAILED', 'add `-q`')).toBe('failure: a test report');
    // The runner could not read the call (Antigravity, mini-swe-agent, Cursor): no rule in what changed.
    for (const cls of [
      'Error invalid tool call: There was a problem parsing the tool call.',
      'Please always provide EXACTLY ONE action in triple backticks, found N actions.',
      'Model provided invalid arguments to find/replace tool.',
    ])
      expect(judgeFailure(cls, 'drop `ArtifactMetadata`')).toBe('failure: a malformed call');
    expect(judgeFailure('No such option: -p', 'change `5` to `10`')).toBe('failure: a one-off argument');
    expect(judgeFailure('No such option: -p', 'add `--help`')).toBe('failure: a one-off argument');
    expect(judgeFailure('No such option: -p', 'first run `cd /Users/me/app`')).toBe(
      'failure: a one-off argument',
    );
    // errorClass's names for outputs with no error line, and npm's script banner, are no message.
    expect(judgeFailure('no output', 'drop `-i`')).toBe('failure: unreadable error');
    expect(judgeFailure('exit code N', 'drop `-i`')).toBe('failure: unreadable error');
    // A runner's exit-code notice: mini-swe-agent's "Command exited with code 1", Antigravity's
    // "The command failed with exit code: 1", as errorClass names them.
    expect(judgeFailure('Command <name> with code N', 'drop `-R`')).toBe('failure: unreadable error');
    expect(judgeFailure('The command <name> with exit code: N', 'drop `-R`')).toBe(
      'failure: unreadable error',
    );
    expect(judgeFailure('> app@N lint', 'drop `-i`')).toBe('failure: unreadable error');
    // An edit retried with other content: a value changed, whatever keys came and went.
    expect(judgeFailure('String to replace not found in file.', 'drop `Meta`, change `Content`')).toBe(
      'failure: a one-off argument',
    );
    expect(
      judgeFailure('npm error code ENOTFOUND', 'pass `with_escalated_permissions`/`justification`'),
    ).toBe('failure: a permission prompt');
    expect(judgeFailure('No such option: -p', undefined as unknown as string)).toBe(
      'failure: a one-off argument',
    );
    // A call that worked by running another argument is no lesson about the failure.
    expect(judgeFailure('Command timed out after 2m', 'add the argument `pipx`')).toBe(
      'failure: a one-off argument',
    );
  });

  it('judges a structured fix by its parts, as it judges the same fix by its words', async () => {
    const { judgeFailure } = await import('../../lib/learn/index');
    const { fixText } = await import('../../lib/failures/index');
    const cls = 'No such option: -p';
    const cases: [FixPart[], string | undefined][] = [
      [[{ kind: 'setup', values: ['source .venv/bin/activate'] }], undefined],
      [[{ kind: 'add-flag', values: ['--set-upstream'] }], undefined],
      [[{ kind: 'other-tool', values: ['Grep'] }], undefined],
      [[{ kind: 'pass', values: ['offset', 'limit'] }], undefined],
      [[{ kind: 'change-argument', values: ['5', '10'] }], 'failure: a one-off argument'],
      [[{ kind: 'add-argument', values: ['pipx'] }], 'failure: a one-off argument'],
      [[{ kind: 'drop-argument', values: ['pipx'] }], 'failure: a one-off argument'],
      [[{ kind: 'reorder', values: [] }], 'failure: a one-off argument'],
      [[{ kind: 'other-input', values: [] }], 'failure: a one-off argument'],
      [[{ kind: 'setup', values: ['cd app'] }], 'failure: a one-off argument'],
      [[{ kind: 'add-flag', values: ['--help'] }], 'failure: a one-off argument'],
      [[{ kind: 'pass', values: ['/Users/me/app'] }], 'failure: a one-off argument'],
      [
        [
          { kind: 'drop', values: ['Meta'] },
          { kind: 'change', values: ['Content'] },
        ],
        'failure: a one-off argument',
      ],
      [[{ kind: 'pass', values: ['with_escalated_permissions'] }], 'failure: a permission prompt'],
      [[{ kind: 'add-flag', values: ['--no-gpg-sign'] }], 'failure: a check turned off'],
      [[{ kind: 'add-flag', values: ['--quiet', '--no-verify'] }], 'failure: a check turned off'],
      [[{ kind: 'add-flag', values: ['--insecure'] }], 'failure: a check turned off'],
      [[{ kind: 'add-flag', values: ['--break-system-packages'] }], 'failure: a check turned off'],
      [[{ kind: 'setup', values: ['export NODE_TLS_REJECT_UNAUTHORIZED=0'] }], 'failure: a check turned off'],
      [[{ kind: 'setup', values: ['git config commit.gpgsign false'] }], 'failure: a check turned off'],
      [[], 'failure: a one-off argument'],
    ];
    for (const [parts, why] of cases) {
      expect(judgeFailure(cls, { parts }), JSON.stringify(parts)).toBe(why);
      // The words alone give the same verdict (for an empty fix: no words, nothing to keep).
      if (parts.length) expect(judgeFailure(cls, fixText(parts)), fixText(parts)).toBe(why);
    }
    // The error is judged first, whatever the fix.
    expect(judgeFailure('Error', { parts: [{ kind: 'add-flag', values: ['-q'] }] })).toBe(
      'failure: unreadable error',
    );
    expect(judgeFailure(cls, { parts: 'x' } as unknown as { parts: FixPart[] })).toBe(
      'failure: a one-off argument',
    );
  });

  it('reads back any fix fixText writes to the verdict its parts get (property)', async () => {
    // partsOfText (quality.ts) mirrors partText (lib/failures/change.ts): this holds the two together,
    // for every kind, several values and several parts, whatever a later change to either.
    const { judgeFailure } = await import('../../lib/learn/index');
    const { fixText } = await import('../../lib/failures/index');
    const value = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_./-][A-Za-z0-9_. /=-]{0,14}$/),
      fc.constantFrom(
        '--help',
        'cd app',
        'with_escalated_permissions',
        '/Users/me/app',
        'source .venv/bin/activate',
      ),
    );
    const part: fc.Arbitrary<FixPart> = fc.oneof(
      fc.record({
        kind: fc.constantFrom('pass', 'drop', 'change', 'add-flag', 'drop-flag'),
        values: fc.array(value, { minLength: 1, maxLength: 3 }),
      }),
      fc.record({
        kind: fc.constantFrom('setup', 'add-argument', 'drop-argument', 'other-tool'),
        values: fc.tuple(value),
      }),
      fc.record({ kind: fc.constantFrom('program', 'change-argument'), values: fc.tuple(value, value) }),
      fc.record({ kind: fc.constantFrom('reorder', 'other-input'), values: fc.constant([]) }),
    ) as fc.Arbitrary<FixPart>;
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
        const cls = 'No such option: -p';
        expect(judgeFailure(cls, fixText(parts)), fixText(parts)).toBe(judgeFailure(cls, { parts }));
      }),
      { numRuns: 300 },
    );
  });

  it('undoes markdown escapes and drops requests of one conversation', () => {
    expect(judgeRule('Prefer to talk about a different encounter.')).toBe('task-bound');
    expect(judgeRule('Do NOT use a global transaction; use the monitor_orgs table.".')).toBe('garbled');
    expect(judgeRule('Give that to me again, but shorter.')).toBe('not self-contained');
  });
});
