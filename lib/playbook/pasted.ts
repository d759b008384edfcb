/**
 * Lines a person pasted back from the agent: a person's turn that quotes the agent's own earlier words
 * ("See below for a dump of what we've done thus far:" and the agent's summary) holds sentences that
 * are not the person's, and a key point written from one would put the agent's words in the person's
 * mouth ("Keep the client Supabase for writes optional.", from a pasted list of the agent's
 * recommendations). The key-point writer reads a turn without them.
 */

/** A line this short ("Done.", "Yes") may repeat by chance: only longer ones count as pasted. */
const MIN_LINE = 40;

/**
 * The lines one conversation has said so far, by who said them first: a line the person typed before
 * the agent repeated it stays the person's when they type it again (a re-sent prompt aider echoes).
 * Lines are compared trimmed, at least 40 characters.
 */
export interface SaidLines {
  agent: Set<string>;
  person: Set<string>;
}

/**
 * A new, empty record of who said which line.
 *
 * @example
 * ```ts
 * const said = saidLines();
 * ```
 */
export const saidLines = (): SaidLines => ({ agent: new Set(), person: new Set() });

/**
 * Records the long lines of an agent's message (those the person did not say first).
 *
 * @example
 * ```ts
 * noteAgentLines(said, 'Recommended next steps:\n2. Keep the client Supabase for writes optional.');
 * ```
 */
export function noteAgentLines(said: SaidLines, text: string): void {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.length >= MIN_LINE && !said.person.has(line)) said.agent.add(line);
  }
}

/**
 * A person's turn without the lines the agent said first (each compared trimmed; lines under 40
 * characters always stay), and records the rest as the person's. The turn itself when nothing was pasted.
 *
 * @example
 * ```ts
 * ownWords(said, 'Take a look at this summary:\n2. Keep the client Supabase for writes optional.');
 * // 'Take a look at this summary:' when the agent wrote the second line earlier
 * ```
 */
export function ownWords(said: SaidLines, text: string): string {
  const lines = text.split('\n');
  let pasted = false;
  const kept = lines.filter((raw) => {
    const line = raw.trim();
    if (line.length < MIN_LINE) return true;
    if (said.agent.has(line)) {
      pasted = true;
      return false;
    }
    said.person.add(line);
    return true;
  });
  return pasted ? kept.join('\n') : text;
}
