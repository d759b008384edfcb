/**
 * Claude Code sessions converted to `{messages, meta}` JSON by session converters: OpenAI-style
 * messages whose tool results are `tool_output` blocks and whose time sits in `_metadata.timestamp`.
 * They read as `openai`; the tool outputs and timestamps must survive.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heuristicReflect } from '../../lib/heuristic/index';
import { detectFormat, parseTranscript } from '../../lib/transcript/index';

const CONVERTED = {
  meta: { session_meta: { session_id: 's' } },
  messages: [
    {
      role: 'user',
      content: [{ type: 'text', text: 'run the tests' }],
      _metadata: { timestamp: '2026-01-01T00:00:00Z' },
    },
    {
      role: 'assistant',
      content: [{ type: 'tool_call', tool_call_id: 't1', name: 'Bash', arguments: '{"command":"npm test"}' }],
      tool_calls: [
        { id: 't1', type: 'function', function: { name: 'Bash', arguments: '{"command":"npm test"}' } },
      ],
      _metadata: { timestamp: '2026-01-01T00:00:01Z' },
    },
    {
      role: 'tool',
      tool_call_id: 't1',
      content: [{ type: 'tool_output', text: [{ type: 'text', text: '2 passed' }] }],
      _metadata: { timestamp: '2026-01-01T00:00:02Z' },
    },
    { role: 'tool', tool_call_id: 't2', content: [{ type: 'tool_output', text: 'plain output' }] },
    { role: 'user', content: [{ type: 'text', text: '<command-name>/model</command-name>' }] },
  ],
};

describe('converted sessions ({messages, meta})', () => {
  it('keep their tool outputs and timestamps', () => {
    expect(detectFormat(CONVERTED)).toBe('openai');
    const t = parseTranscript(CONVERTED);
    expect(t.messages.map((m) => [m.role, m.toolName ?? '', m.content, m.ts ?? ''])).toEqual([
      ['user', '', 'run the tests', '2026-01-01T00:00:00Z'],
      ['assistant', 'Bash', '{"command":"npm test"}', '2026-01-01T00:00:01Z'],
      ['tool', 'Bash', '2 passed', '2026-01-01T00:00:02Z'],
      ['tool', '', 'plain output', ''],
      ['user', '', '<command-name>/model</command-name>', ''],
    ]);
    expect(t.messages[4]!.synthetic).toBe('command');
    // The content's tool_call blocks repeat tool_calls: counted, not doubled.
    expect(t.ignoredKinds.tool_call).toBe(1);
  });
});

const DIR = resolve(import.meta.dirname, '../../../shared/data/other-agents');
const present = existsSync(DIR);
if (!present) console.warn(`transcript-sessions: ${DIR} is absent, skipping the real-data walk`);

describe.skipIf(!present)('real converted sessions in ../shared/data/other-agents', () => {
  it('every tool call has its output; user turns match an independent count', () => {
    const files = readdirSync(DIR)
      .filter((d) => statSync(join(DIR, d)).isDirectory())
      .flatMap((d) => readdirSync(join(DIR, d)).map((f) => join(DIR, d, f)))
      .filter((f) => /sessions__.*\.json$/.test(f));
    expect(files.length).toBe(6);
    const totals = { files: 0, sessions: 0, human: 0, synthetic: 0, toolCalls: 0, toolOutputs: 0 };
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const raw = JSON.parse(text) as {
        messages: { role: string; content: { type: string; text?: unknown }[]; tool_calls?: unknown[] }[];
      };
      const t = parseTranscript(text);
      expect(t.format, path).toBe('openai');
      const calls = raw.messages.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0);
      const outputs = raw.messages.filter((m) => m.role === 'tool').length;
      expect(t.messages.filter((m) => m.role === 'assistant' && m.toolName).length, path).toBe(calls);
      expect(t.messages.filter((m) => m.role === 'tool').length, path).toBe(outputs);
      // Independent: user messages whose text does not open with harness markup, a continuation
      // summary, or the prompt Claude Code sends for `/init` right after the command's own message.
      let afterInit = false;
      const typed = raw.messages.filter((m) => {
        const first = String(m.content.find((b) => b.type === 'text')?.text ?? '').trimStart();
        const expansion = afterInit && m.role === 'user';
        afterInit = m.role === 'user' && first.includes('<command-name>/init</command-name>');
        if (m.role !== 'user' || expansion) return false;
        return !first.startsWith('<') && !first.startsWith('This session is being continued');
      }).length;
      const human = t.messages.filter((m) => m.role === 'user' && !m.synthetic).length;
      // SOURCES.jsonl's human_turns differ by 0 to 7 per file (76 in all, 62 here): the converters
      // dropped Claude Code's isMeta flag, and the curator's rule for command echoes and skill bodies
      // is not recorded; the parser flags by the text's opening only.
      expect(human, path).toBe(typed);
      totals.files++;
      totals.sessions++;
      totals.human += human;
      totals.synthetic += t.messages.filter((m) => m.role === 'user' && m.synthetic).length;
      totals.toolCalls += calls;
      totals.toolOutputs += outputs;
    }
    console.log(`converted sessions totals: ${JSON.stringify(totals)}`);
  });
});

describe("Claude Code's /init prompt in a converted session", () => {
  it('is the command’s text, not the person’s: no rule is learned from its usage notes', () => {
    const session = {
      meta: {},
      messages: [
        {
          role: 'user',
          content: '<command-message>init</command-message>\n<command-name>/init</command-name>',
        },
        {
          role: 'user',
          content:
            'Please analyze this codebase and create a CLAUDE.md file, which will be given to future instances of Claude Code to operate in this repository.\n\nUsage notes:\n- When you make the initial CLAUDE.md, do not repeat yourself.',
        },
        { role: 'assistant', content: 'The repository is empty.' },
        { role: 'user', content: 'Please analyze this codebase again, I added the files.' },
      ],
    };
    const t = parseTranscript(JSON.stringify(session));
    expect(t.messages.map((m) => m.synthetic ?? '')).toEqual(['command', 'command', '', '']);
    expect(heuristicReflect(t.messages).filter((i) => i.traceRefs[0] === 'message:m1')).toEqual([]);
  });
});
