/** A console session copied as text, shared by the harness-lines tests. */

/** Each prompt as a `> ` line, answered by one agent line. */
export const consoleSession = (...prompts: string[]) =>
  prompts.map((p, i) => `> ${p}\n\n\u23fa Answer ${i}.\n`).join('\n');
