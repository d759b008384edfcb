/**
 * The synthetic Antigravity step log the transcript-agents tests share: a request, a plan with calls,
 * their observations (one failed), an ephemeral message, an invalid call, the person's own command, a
 * checkpoint and a correction.
 */
import { jsonl, step } from './agent-log-fixtures';

export const antigravity = [
  step(40, 'USER_EXPLICIT', 'USER_INPUT', {
    content:
      '<USER_REQUEST>\nAdd a login page.\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is noon.\n</ADDITIONAL_METADATA>',
  }),
  step(41, 'SYSTEM', 'CONVERSATION_HISTORY'),
  step(42, 'MODEL', 'PLANNER_RESPONSE', {
    thinking: 'plan it',
    content: 'I will look first.',
    tool_calls: [
      { name: 'view_file', args: { AbsolutePath: '"/src/app.ts"', StartLine: '1' } },
      { name: 'run_command', args: { CommandLine: '"npm test"' } },
    ],
  }),
  step(43, 'MODEL', 'VIEW_FILE', { content: 'export {}' }),
  step(44, 'MODEL', 'RUN_COMMAND', { content: 'The command failed with exit code: 2\nOutput:\nboom' }),
  step(45, 'SYSTEM', 'EPHEMERAL_MESSAGE', {
    content: 'The following is an <EPHEMERAL_MESSAGE> not actually sent by the user.',
  }),
  step(46, 'MODEL', 'PLANNER_RESPONSE', {
    tool_calls: [{ name: 'write_to_file', args: { TargetFile: '"/src/login.ts"' } }],
  }),
  step(47, 'SYSTEM', 'ERROR_MESSAGE', {
    error: 'invalid tool call',
    content: 'Error invalid tool call: bad args',
  }),
  step(48, 'USER_EXPLICIT', 'RUN_COMMAND', {
    content: 'The USER performed the following action:\nCommand: git status',
  }),
  step(49, 'SYSTEM', 'CHECKPOINT', { content: '{{ CHECKPOINT 1 }}\nEarlier parts were truncated.' }),
  step(50, 'USER_EXPLICIT', 'USER_INPUT', {
    content: '<USER_REQUEST>\nThat is wrong, use the existing form.\n</USER_REQUEST>',
  }),
];
export const antigravityText = jsonl(antigravity);
