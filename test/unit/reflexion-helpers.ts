/** What the reflexion memory tests share: a clock that ticks once per reading, and a lesson to store. */
export function clock(start = 1_700_000_000_000) {
  let t = start;
  return () => t++;
}

export const lesson = (prompt: string, n = 0) => ({
  prompt,
  mistake: `mistake ${n}`,
  correction: `correction ${n}`,
});
