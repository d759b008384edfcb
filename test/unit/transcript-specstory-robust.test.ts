/**
 * SpecStory exports at the edges: unclosed blocks, located errors, the never-throw property, linear
 * growth on adversarial input, and a walk of the 74 real exports in ../shared/data/specstory against an
 * independent count of the turn headers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../../lib/core/index';
import { parseTranscript, safeParseTranscript } from '../../lib/transcript/index';
import { describeGrowth, doublings, measureGrowth, thrown } from './linear-time';

describe('specstory', () => {
  it('an unclosed block ends at the next header: no turn is lost', () => {
    const text =
      '_**Assistant**_\n\n<details>\n<summary>Edit file: a.ts</summary>\nx\n\n_**User**_\n\nthanks\n';
    const t = parseTranscript(text);
    expect(t.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(t.messages[2]!.content).toBe('thanks');
  });

  it('throws a located TranscriptError for text with no turn', () => {
    const err = thrown<TranscriptError>(() =>
      parseTranscript('# Notes\n\nnothing here\n', { format: 'specstory' }),
    );
    expect(err).toBeInstanceOf(TranscriptError);
    expect(err.message).toBe(
      '[specstory] No SpecStory turn found (no "_**User**_" or "_**Assistant**_" header) (line 1)',
    );
    expect(thrown<TranscriptError>(() => parseTranscript({ a: 1 }, { format: 'specstory' })).message).toMatch(
      /^\[specstory\] Expected SpecStory markdown/,
    );
  });

  it('never throws anything but a TranscriptError (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '_**User**_',
        '_**User (2025-01-02 10:00Z)**_',
        '_**Agent (m, Agent)**_',
        '_****_',
        '---',
        '<think>',
        '</think>',
        '<details>',
        '</details>',
        '<summary>Tool use: **x** • y</summary>',
        '<tool-use data-tool-name="x">',
        '</tool-use>',
        '<!-- cursor Session  -->',
        '```',
        '```diff',
        '````',
        '+ x',
        '',
      ),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (lines) => {
        const r = safeParseTranscript(lines.join('\n'), { format: 'specstory' });
        if (!r.ok) expect(r.error).toBeInstanceOf(TranscriptError);
        else for (const m of r.value.messages) expect(typeof m.content).toBe('string');
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['unclosed <details>', (n: number) => `_**Assistant**_\n${'<details>\n'.repeat(n)}`],
    ['bare user headers', (n: number) => '_**User**_\n'.repeat(n)],
    ['unclosed <think>', (n: number) => `_**Agent**_\n<think>\n${'x </thin\n'.repeat(n)}`],
    [
      'unclosed <tool-use>',
      (n: number) => `_**Agent**_\n${'<tool-use data-tool-name="t"><details>\n'.repeat(n)}`,
    ],
    ['one long header-like line', (n: number) => `_**User (${'('.repeat(n * 8)}`],
    // A read after each of many blank lines and separators: each looks back to the last line with text.
    ['reads between blank lines', (n: number) => `_****_\n${'\n\n\n---\n\nRead file: a\n'.repeat(n)}`],
    ['blank lines then reads', (n: number) => `_****_\nx\n${'\n'.repeat(n)}${'Read file: a\n'.repeat(n)}`],
    ['tool names between blank lines', (n: number) => `_****_\n${'\n\n---\n\nTool use: **a**\n'.repeat(n)}`],
    // Cursor's query wrapper: unclosed tags, and many wrappers in one turn.
    ['unclosed query wrappers', (n: number) => `_**User**_\n\n<timestamp>${'<user_query>\n'.repeat(n)}`],
    [
      'query wrappers in one turn',
      (n: number) => `_**User**_\n\n${'<user_query>a</user_query>\n'.repeat(n)}`,
    ],
    // Edits rendered in the agent's prose: many of them, and fences left open.
    ['empty fences', (n: number) => `_**Assistant**_\n\n${'Now: \n```\n\n```\n'.repeat(n)}`],
    ['diff sections', (n: number) => `_****_\n${'---\n\n```diff\n+ a\n```\n\n'.repeat(n)}`],
    ['an unclosed diff section', (n: number) => `_****_\n\n\`\`\`diff\n${'+ a\n'.repeat(n)}`],
    ['blank lines then diff fences', (n: number) => `_****_\nx\n${'\n'.repeat(n)}${'```diff\n'.repeat(n)}`],
    ['an unclosed empty fence', (n: number) => `_**Assistant**_\n\nx\n\`\`\`\n${'\n'.repeat(n)}`],
    ['blank lines then notices', (n: number) => `_****_\nx\n${'\n'.repeat(n)}${'Cancelled\n'.repeat(n)}`],
    [
      'failed edits with no retry',
      (n: number) => `_****_\n${'---\n\nCannot edit files blocked by globalIgnore\n\n'.repeat(n)}`,
    ],
    ['cancels between blank lines', (n: number) => `_****_\n${'\n\n---\n\nCancelled\n'.repeat(n)}`],
  ])('stays linear on %s (time at 2x / time at 1x ≤ 3)', (_, make) => {
    const g = measureGrowth(
      (s: string) => safeParseTranscript(s, { format: 'specstory' }),
      make,
      doublings(6_250),
    );
    expect(g.excess, describeGrowth(g)).toBeLessThanOrEqual(1);
  });
});

const DIR = resolve(import.meta.dirname, '../../../shared/data/specstory');
const present = existsSync(DIR);
if (!present) console.warn(`transcript-specstory: ${DIR} is absent, skipping the real-data walk`);

function walk(d: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(d).sort()) {
    const p = join(d, entry);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (entry.endsWith('.md')) out.push(p);
  }
  return out;
}

/** Independent count: user headers, and those whose section holds something besides blanks and `---`. */
function countUserTurns(text: string): { headers: number; nonEmpty: number } {
  const lines = text.split(/\r?\n/);
  const isHeader = (l: string) => /^_\*\*(User|Assistant|Agent|)( \(.*\))?\*\*_\s*$/.test(l);
  let headers = 0;
  let nonEmpty = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!/^_\*\*User( \(.*\))?\*\*_\s*$/.test(lines[i]!)) continue;
    headers++;
    let j = i + 1;
    let content = false;
    for (; j < lines.length && !isHeader(lines[j]!); j++) {
      const l = lines[j]!.trim();
      if (l !== '' && l !== '---') content = true;
    }
    if (content) nonEmpty++;
  }
  return { headers, nonEmpty };
}

describe.skipIf(!present)('real SpecStory exports in ../shared/data/specstory', () => {
  const files = present ? walk(DIR) : [];
  const sources = present
    ? new Map(
        readFileSync(join(DIR, 'SOURCES.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { file: string; human_turns: number })
          .map((r) => [join(DIR, r.file), r.human_turns] as const),
      )
    : new Map<string, number>();

  it('every export parses; user turns match the independent count and SOURCES.jsonl', () => {
    expect(files.length).toBe(74);
    const totals = {
      files: 0,
      sessions: 0,
      human: 0,
      synthetic: 0,
      toolCalls: 0,
      toolOutputs: 0,
      headers: 0,
    };
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const t = parseTranscript(text);
      expect(t.format, path).toBe('specstory');
      const users = t.messages.filter((m) => m.role === 'user');
      const { headers, nonEmpty } = countUserTurns(text);
      // A user section with nothing in it (an attachment-only turn, exported empty) gives no message.
      expect(users.length, path).toBe(nonEmpty);
      // SOURCES.jsonl counts user headers, empty sections included.
      expect(sources.get(path), path).toBe(headers);
      totals.files++;
      totals.sessions++;
      totals.headers += headers;
      totals.human += users.filter((m) => !m.synthetic).length;
      totals.synthetic += users.filter((m) => m.synthetic).length;
      totals.toolCalls += t.messages.filter((m) => m.role === 'assistant' && m.toolName).length;
      totals.toolOutputs += t.messages.filter((m) => m.role === 'tool').length;
    }
    console.log(`specstory totals: ${JSON.stringify(totals)}`);
    expect(totals.headers).toBe(1586);
  });

  it("the title's start: read where the title has a time, within hours of the file name's", () => {
    let zoned = 0;
    let local = 0;
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const started = parseTranscript(text).meta?.startedAt;
      // Independent reading of the first heading's time: `# … (2025-07-18 01:12Z)` / `# 2025-10-25 18:17:26Z`.
      const title = /^# (?:.*\()?(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2})?)(Z?)\)?\s*$/m.exec(text);
      if (!title) {
        expect(started, path).toBeUndefined();
        continue;
      }
      if (title[3]) {
        zoned++;
        expect(started, path).toBe(new Date(`${title[1]}T${title[2]}Z`).toISOString());
        // SpecStory names the file by a time in UTC too: the session's start, or (v2.1, whose title
        // is the start) when the export was first written, up to hours later.
        const name = /(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})(?:-(\d{2}))?Z/.exec(path);
        if (name) {
          const fromName = Date.parse(`${name[1]}T${name[2]}:${name[3]}:${name[4] ?? '00'}Z`);
          const gap = Date.parse(started!) - fromName;
          expect(Math.abs(gap), path).toBeLessThan(4 * 3600_000);
        }
      } else {
        local++;
        expect(started, path).toBe(`${title[1]}T${title[2]}`);
      }
    }
    expect([zoned, local]).toEqual([42, 17]);
  });
});
