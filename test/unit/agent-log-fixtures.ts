/** Builders for the small synthetic Codex and Antigravity fixtures the transcript-agents tests write. */

export const jsonl = (items: unknown[]) => items.map((i) => JSON.stringify(i)).join('\n');
export const at = (n: number) => `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`;
export const wrap = (n: number, type: string, payload: Record<string, unknown>) => ({
  timestamp: at(n),
  type,
  payload,
});
export const userText = (text: string) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});

export const step = (i: number, source: string, type: string, extra: Record<string, unknown> = {}) => ({
  step_index: i,
  source,
  type,
  status: 'DONE',
  created_at: at(i % 60),
  ...extra,
});
