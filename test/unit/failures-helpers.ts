/** An error the failure tests share: Claude Code's refusal to read a file past its token limit. */
export const TOO_BIG = (n: number) =>
  `File content (${n} tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters.`;
