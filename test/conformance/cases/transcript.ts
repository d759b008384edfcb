import { isRearviewError } from 'rearview/core';
import { detectFormat, parseTrajectory, parseTranscript, safeParseTranscript } from 'rearview/transcript';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

const claudeJsonl = [
  '{"type":"progress","uuid":"p1","sessionId":"s1","isSidechain":false}',
  '{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"run the tests"}}',
  '{"type":"assistant","uuid":"a1","sessionId":"s1","message":{"role":"assistant","content":[{"type":"text","text":"Running them."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"npm test"}}]}}',
  '{"type":"user","uuid":"u2","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"1 failed","is_error":true}]}}',
  '{"type":"assistant","uuid":"x1","sessionId":"s1","isSidechain":true,"message":{"role":"assistant","content":"side"}}',
].join('\n');

/** Transcript and trajectory import: outputs are plain JSON, identical in every runtime. */
export const transcriptCases: ConformanceCase[] = [
  {
    name: 'transcript/every format, detected',
    run() {
      const inputs: unknown[] = [
        [
          { role: 'user', content: 'ls' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'bash', input: { c: 'ls' } }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't', content: 'denied', is_error: true }],
          },
        ],
        JSON.stringify([
          { role: 'system', content: 'be brief' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c', content: 'ok' },
        ]),
        {
          conversations: [
            { from: 'human', value: 'hi' },
            { from: 'gpt', value: 'hello' },
          ],
        },
        claudeJsonl,
        '> fix it\n  please\n\n⏺ Read(file_path: "a.md")…\n  ⎿  # A\n     body\n\n⏺ Done — caf\u00e9 \u{1F600}',
        'User: hi\nthere\nAssistant: hello',
        '{"role":"user","content":"a"}\n{"from":"gpt","value":"b"}',
      ];
      const out = inputs.map((input) => {
        const t = parseTranscript(input);
        return { detected: detectFormat(input) ?? null, ...t };
      });
      checkEqual(
        out.map((t) => t.format),
        ['anthropic', 'openai', 'sharegpt', 'claude-code-jsonl', 'claude-code-console', 'plain', 'jsonl'],
        'formats',
      );
      check(
        out[0]!.messages[2]!.isError === true && out[0]!.messages[2]!.toolName === 'bash',
        'tool_result paired',
      );
      checkEqual(out[3]!.ignoredKinds, { progress: 1, sidechain: 1 }, 'claude code ignored kinds');
      return out;
    },
  },
  {
    name: 'transcript/console variants (Linux and Windows `●`, later `❯`, wrapped and quoted lines)',
    run() {
      const linux = [
        '╭─── Claude Code v2.0.42 ───╮',
        '│   /home/ana/proj   │ Tips │',
        '╰───────────────────────────╯',
        '',
        '❯ run the tests and fix what',
        'fails, please',
        '',
        '● Bash(curl -s localhost:3001/status | python3 -m',
        '      json.tool)',
        '  ⎿  Error: Exit code 1',
        '',
        '✻ Worked for 46s',
        '',
        '> i wouldnt rely on the old code.',
        '> the ticket says it all.',
        '',
        '⏺ Done — caf\u00e9 \u{1F600}                  Cost: $0.0745 (13.2s)',
      ].join('\n');
      const t = parseTranscript(linux);
      checkEqual(t.format, 'claude-code-console', 'detected');
      checkEqual(
        t.messages.map((m) => [m.role, m.content, m.toolName ?? null, m.isError ?? false]),
        [
          ['user', 'run the tests and fix what\nfails, please', null, false],
          ['assistant', 'curl -s localhost:3001/status | python3 -m\njson.tool', 'Bash', false],
          ['tool', 'Error: Exit code 1', 'Bash', true],
          ['user', 'i wouldnt rely on the old code.\nthe ticket says it all.', null, false],
          ['assistant', 'Done — caf\u00e9 \u{1F600}', null, false],
        ],
        'messages',
      );
      checkEqual(t.meta?.cwd, '/home/ana/proj', 'folder from the welcome box');
      return t;
    },
  },
  {
    name: 'transcript/console prose wrapped at the terminal width (joined, CJK without a space)',
    run() {
      // Wrapped at 49 columns: each cut line is the widest before its next word (CJK: 2 columns each).
      const copy = [
        '> the page still fails with a 404 whenever I open',
        '  it from the clients list, and the browser',
        '  console shows the same error as before',
        '',
        '⏺ The request goes to /api/v1/users/new, which',
        '  does not exist on the backend. Something in the',
        '  client pages builds that path whenever the form',
        '  loads.',
        '',
        '⏺ Two places build it:',
        '  - src/pages/ClientFormPage.tsx',
        '  - src/api/users.ts',
        '',
        '⏺ 好的，我现在继续推送代码到仓库，然后检查构建是',
        '  否通过 \u{1F680}',
      ].join('\n');
      const t = parseTranscript(copy);
      checkEqual(
        t.messages.map((m) => m.content),
        [
          'the page still fails with a 404 whenever I open it from the clients list, and the browser console shows the same error as before',
          'The request goes to /api/v1/users/new, which does not exist on the backend. Something in the client pages builds that path whenever the form loads.',
          'Two places build it:\n- src/pages/ClientFormPage.tsx\n- src/api/users.ts',
          '好的，我现在继续推送代码到仓库，然后检查构建是否通过 \u{1F680}',
        ],
        'joined',
      );
      const kept = parseTranscript(copy, { keepLineBreaks: true });
      checkEqual(kept.messages[1]!.content.split('\n').length, 4, 'kept');
      // The Gemini CLI console, wrapped the same way.
      const gemini = parseTranscript(copy.replaceAll('⏺ ', '✦ ').replaceAll('\n  - ', '\n  * '), {
        format: 'gemini-cli-console',
      });
      checkEqual(gemini.messages[1]!.content, t.messages[1]!.content, 'gemini joined');
      return [t, kept, gemini];
    },
  },
  {
    name: 'transcript/lenient mode and errors',
    run() {
      const lenient = parseTranscript(
        '{"role":"user","content":"a"}\nnot json\n{"content":"b"}\n{"role":"assistant","content":"c"}',
        {
          lenient: true,
        },
      );
      checkEqual(
        lenient.skipped.map((s) => s.line),
        [2, 3],
        'skipped lines',
      );
      const errors = [
        '',
        'plain prose only',
        '\u0000\u0001\u0002',
        '[{"content":"x"}]',
        '{"role":"user"}\n{"role":1}',
      ].map((input) => {
        const r = safeParseTranscript(input);
        check(!r.ok && isRearviewError(r.error), 'safe parse returns a rearview error');
        // Engine-specific JSON.parse wording never appears in these messages.
        return r.ok ? null : { code: r.error.code, message: r.error.message };
      });
      checkEqual(errors[0], { code: 'transcript_empty', message: '[auto] Input is empty (line 1)' }, 'empty');
      return {
        messages: lenient.messages.map((m) => m.content),
        skipped: lenient.skipped.map((s) => s.line),
        errors,
      };
    },
  },
  {
    name: 'transcript/trajectories of each format',
    run() {
      const swe = parseTrajectory({
        environment: 'swe_main',
        trajectory: [
          { action: 'ls\n', observation: 'a.py', thought: 'Look around', response: '', state: '{}' },
          { action: 'submit\n', observation: 'diff', thought: 'Done', response: '', state: '{}' },
        ],
        info: { exit_status: 'submitted', submission: 'diff' },
      });
      const mini = parseTrajectory(
        JSON.stringify({
          trajectory_format: 'mini-swe-agent-1',
          instance_id: 'demo__demo-1',
          info: { exit_status: 'Submitted', submission: 'diff' },
          messages: [
            { role: 'system', content: 'sys' },
            { role: 'user', content: 'task' },
            { role: 'assistant', content: 'THOUGHT: run\n\n```bash\npytest -q\n```' },
            { role: 'user', content: '<returncode>1</returncode>\n<output>\n1 failed\n</output>' },
            {
              role: 'assistant',
              content: 'THOUGHT: submit\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```',
            },
            { role: 'user', content: 'diff' },
          ],
        }),
        { resolved: false },
      );
      const claude = parseTrajectory(claudeJsonl);
      checkEqual(
        [swe.format, mini.format, claude.format],
        ['swe-agent', 'mini-swe-agent', 'claude-code-jsonl'],
        'trajectory formats',
      );
      checkEqual(mini.steps[0]!.error, '1 failed\n', 'non-zero return code is an error');
      checkEqual(claude.steps[0]!.error, '1 failed', 'is_error tool result is an error');
      check(mini.outcome?.failed === true && swe.outcome?.failed === false, 'outcomes');
      return [swe, mini, claude];
    },
  },
];
