/**
 * One Claude Code session for the learn tests that need a person's turn after the agent's reply: the
 * task, the agent's reply, then `turn` (dated `day`, 10:01 UTC).
 */
export function replySession(day: string, turn: string, reply = 'Running npm install now.'): string {
  return [
    { type: 'user', message: { role: 'user', content: 'Install the dependencies.' }, uuid: 'u1' },
    {
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'text', text: reply }] },
      uuid: 'a1',
    },
    { type: 'user', message: { role: 'user', content: turn }, uuid: 'u2', timestamp: `${day}T10:01:00Z` },
  ]
    .map((o) => JSON.stringify(o))
    .join('\n');
}
