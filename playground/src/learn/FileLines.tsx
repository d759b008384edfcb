/**
 * What the sessions say about the pasted AGENTS.md / CLAUDE.md: lines they contradict, and lines they
 * repeat (said again in sessions: dated after the line was written, the agent did not follow it).
 */
import type { LearnResult } from 'rearview/learn';
import { For } from 'solid-js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export default function FileLines(props: { result: LearnResult }) {
  return (
    <>
      <For each={props.result.contradictions}>
        {(c) => (
          <p class="warn" data-testid="learn-contradiction">
            Line {c.line} ("{c.text}") is contradicted by {plural(c.sessions, 'session')}
            {c.lastDate ? `, last on ${c.lastDate.slice(0, 10)}` : ''}: {c.rule}
          </p>
        )}
      </For>
      <For each={props.result.alreadyThere}>
        {(a) => (
          <p class="hint" data-testid="learn-already">
            Line {a.line.line} ("{a.line.text}") already says it, yet it was said again in{' '}
            {plural(a.sessions, 'session')}
            {a.lastDate ? `, last on ${a.lastDate.slice(0, 10)}` : ''}: {a.rule}
          </p>
        )}
      </For>
    </>
  );
}
