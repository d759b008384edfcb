/**
 * The corpus `calibrate-tokens.ts` fits on: the messages of each shared data set, read per format
 * (console markdown, Claude Code JSONL, mini-swe-agent, SWE-agent, ShareGPT), and the fixed-size
 * chunks the fit measures besides whole messages.
 */
import { join } from 'node:path';
import { readText, sharedDataDir, walkFiles } from './harness';

const FIXED_CHUNK = 4096;

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    return value
      .map((item) => {
        if (typeof item === 'string') return item;
        if (item && typeof item === 'object' && typeof (item as { text?: unknown }).text === 'string') {
          return (item as { text: string }).text;
        }
        return JSON.stringify(item);
      })
      .join('\n');
  }
  return JSON.stringify(value);
}

function parseJson(path: string): unknown {
  try {
    return JSON.parse(readText(path));
  } catch {
    return undefined;
  }
}

/** Claude Code console markdown: a message starts at a `> ` prompt or a `⏺` agent line. */
function consoleMessages(dir: string): string[] {
  const out: string[] = [];
  for (const file of walkFiles(dir, (n) => n.endsWith('.md'))) {
    let current: string[] = [];
    for (const line of readText(file).split('\n')) {
      if ((line.startsWith('> ') || line.startsWith('⏺')) && current.length) {
        out.push(current.join('\n'));
        current = [];
      }
      current.push(line);
    }
    if (current.length) out.push(current.join('\n'));
  }
  return out;
}

type Block = { type?: string; text?: string; thinking?: string; input?: unknown; content?: unknown };

function claudeJsonlMessages(dir: string): string[] {
  const out: string[] = [];
  for (const file of walkFiles(dir, (n) => n.endsWith('.jsonl'))) {
    for (const line of readText(file).split('\n')) {
      if (!line.trim()) continue;
      let event: { message?: { content?: unknown } };
      try {
        event = JSON.parse(line);
      } catch {
        continue;
      }
      const content = event.message?.content;
      if (typeof content === 'string') out.push(content);
      else if (Array.isArray(content)) {
        for (const block of content as Block[]) {
          if (block.type === 'text') out.push(block.text ?? '');
          else if (block.type === 'thinking') out.push(block.thinking ?? '');
          else if (block.type === 'tool_use') out.push(JSON.stringify(block.input ?? {}));
          else if (block.type === 'tool_result') out.push(asText(block.content));
        }
      }
    }
  }
  return out;
}

function miniSweMessages(dir: string): string[] {
  const out: string[] = [];
  for (const file of walkFiles(dir, (n) => n.endsWith('.traj.json'))) {
    const traj = parseJson(file) as { messages?: { content?: unknown }[] } | undefined;
    for (const m of traj?.messages ?? []) out.push(asText(m.content));
  }
  return out;
}

function sweAgentMessages(dir: string): string[] {
  const out: string[] = [];
  for (const file of walkFiles(dir, (n) => n.endsWith('.traj'))) {
    const traj = parseJson(file) as
      | { trajectory?: Record<string, unknown>[]; history?: { content?: unknown }[] }
      | undefined;
    for (const step of traj?.trajectory ?? []) {
      for (const key of ['thought', 'action', 'observation']) out.push(asText(step[key]));
    }
    for (const m of traj?.history ?? []) out.push(asText(m.content));
  }
  return out;
}

function shareGptMessages(dir: string): string[] {
  const out: string[] = [];
  for (const file of walkFiles(join(dir, 'conversations'), (n) => n.endsWith('.json'))) {
    const conv = parseJson(file) as { conversations?: { value?: unknown }[] } | undefined;
    for (const m of conv?.conversations ?? []) out.push(asText(m.value));
  }
  return out;
}

export const DATASETS: { name: string; read: (dir: string) => string[] }[] = [
  { name: 'claude-code-console', read: consoleMessages },
  { name: 'claude-code-jsonl', read: claudeJsonlMessages },
  { name: 'mini-swe-agent', read: miniSweMessages },
  { name: 'swe-agent', read: sweAgentMessages },
  { name: 'sharegpt', read: shareGptMessages },
];

/** Every data set's messages (non-empty), keyed by name; undefined when the shared data is absent. */
export function loadDatasets(): Map<string, string[]> | undefined {
  const root = sharedDataDir();
  if (!root) return undefined;
  const out = new Map<string, string[]>();
  for (const { name, read } of DATASETS) {
    const messages = read(join(root, name)).filter((m) => m.length > 0);
    if (messages.length) out.set(name, messages);
  }
  return out;
}

/** Fixed-size chunks of the messages joined by blank lines, never splitting a surrogate pair. */
export function fixedChunks(messages: string[]): string[] {
  const all = messages.join('\n\n');
  const out: string[] = [];
  for (let i = 0; i < all.length; ) {
    let end = Math.min(all.length, i + FIXED_CHUNK);
    const last = all.charCodeAt(end - 1);
    if (end < all.length && last >= 0xd800 && last <= 0xdbff) end++;
    out.push(all.slice(i, end));
    i = end;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Samples and error statistics.
