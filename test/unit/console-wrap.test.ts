/**
 * Console copies wrapped at the terminal's width: the width found from the copy, the breaks told
 * apart (the terminal's from the writer's), and the paragraphs the console reader joins again.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columns, wrappedBreak, wrapWidth } from '../../lib/transcript/formats/console-wrap';
import { parseTranscript } from '../../lib/transcript/index';
import { bothReadings, breakJoined } from '../../tools/shared/console-breaks';
import { sharedDataDir } from '../../tools/shared/data';

/** Word-wraps `text` as the console prints it: `first` before the first line, `indent` before the rest. */
function wrap(text: string, width: number, first = '⏺ ', indent = '  '): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    const start = line === first || line === indent;
    if (!start && columns(line) + 1 + columns(word) > width) {
      lines.push(line);
      line = indent + word;
    } else line += start ? word : ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** Cuts `text` character by character at `width` columns, as the terminal does text without spaces. */
function cut(text: string, width: number, first = '> ', indent = '  '): string[] {
  const lines: string[] = [];
  let line = first;
  for (const ch of text) {
    if (columns(line) + columns(ch) > width) {
      lines.push(line);
      line = indent;
    }
    line += ch;
  }
  lines.push(line);
  return lines;
}

const PARAGRAPH =
  'The issue is still happening because something is making a GET request to /api/v1/users/new which does not exist on the backend. This suggests there might be a navigation or API call issue in the client pages that we have not looked at yet, so the next step is to search the client for the route.';
const SECOND =
  'Let me check if there is something in the ClientsPage or ClientFormPage that is triggering this incorrect API call before touching the server, since the server logs show the request arriving with the wrong path every time the form loads.';

/** A console copy wrapped at `width`: a prompt, two wrapped paragraphs, a call and its output, a list. */
function copy(width: number): string {
  return [
    ...wrap(
      'the form page still fails with a 404 when I open it from the clients list, and the browser console shows the same error as before',
      width,
      '> ',
    ),
    '',
    ...wrap(PARAGRAPH, width),
    '',
    ...wrap(SECOND, width, '  '),
    '',
    '⏺ Search(pattern: "/new", path: "src")',
    '  ⎿  Found 2 files (ctrl+o to expand)',
    '',
    '⏺ Two places build that path:',
    '  - src/pages/ClientFormPage.tsx',
    '  - src/api/users.ts',
  ].join('\n');
}

describe('the width a console copy was wrapped at', () => {
  it('is the cap many lines reach and almost none pass', () => {
    expect(wrapWidth(copy(60))).toBe(60);
    expect(wrapWidth(copy(100))).toBeLessThanOrEqual(100);
    expect(wrapWidth(copy(100))).toBeGreaterThan(90);
  });

  it('is 0 when no cap shows: short lines, or long lines of every length', () => {
    expect(wrapWidth('> hi\n\n⏺ Hello.\n  ⎿  ok')).toBe(0);
    const ragged = Array.from({ length: 40 }, (_, i) => `⏺ ${'x'.repeat(40 + i * 7)}`).join('\n');
    expect(wrapWidth(ragged)).toBe(0);
  });

  it('does not count the welcome box, and lets a few longer lines pass (a pasted log)', () => {
    const box = `╭${'─'.repeat(200)}╮\n│${' '.repeat(200)}│\n╰${'─'.repeat(200)}╯`;
    expect(wrapWidth(`${box}\n${copy(60)}`)).toBe(60);
    expect(wrapWidth(`${copy(60)}\n  ⎿  ${'y'.repeat(150)}`)).toBe(60);
  });

  it('counts East Asian characters and emoji as two columns', () => {
    expect(columns('abc')).toBe(3);
    expect(columns('日本語')).toBe(6);
    expect(columns('한국')).toBe(4);
    expect(columns('ok 🚀')).toBe(5);
  });
});

describe('a break the terminal made', () => {
  const before = '⏺ The request goes to /api/v1/users/new, which does not exist on';
  it('is one where the next word did not fit', () => {
    expect(wrappedBreak(before, '  the backend.', 66)).toBe(true);
    expect(wrappedBreak(before, '  the backend.', 80)).toBe(false);
    expect(wrappedBreak(before, '  the backend.', 0)).toBe(false);
  });

  it('is never one before a list item, a heading, a table row or an output, or after a colon', () => {
    for (const next of [
      '  - item',
      '  1. step',
      '  # Title',
      '  | a | b |',
      '  ⎿  ok',
      '  ✅ done',
      '  ```',
      '  ana@mac ~/proj % ls',
    ])
      expect(wrappedBreak(before, next, 66), next).toBe(false);
    expect(wrappedBreak(`${before.slice(0, -3)} as:`, '  the backend.', 66)).toBe(false);
  });

  it('is not one after a short line (a long path on a line of its own), nor between two paths', () => {
    expect(wrappedBreak('⏺ Files:', '  /home/ana/proj/src/very/long/path/to/file.ts', 40)).toBe(false);
    const path = '  /home/ana/proj/training/results/EAF-477_original_v2.pdf  (632 detections)';
    expect(wrappedBreak(path, '  /home/ana/proj/training/results/EAF-477_lora_v2.pdf', 80)).toBe(false);
  });
});

describe('parseTranscript joins what the terminal wrapped', () => {
  it('the agent prose and the prompt of a copy wrapped at 60 columns read as at 100, and as written', () => {
    for (const width of [60, 100]) {
      const t = parseTranscript(copy(width));
      expect(t.format).toBe('claude-code-console');
      const [prompt, agent, search, , list] = t.messages;
      expect(prompt!.content).toBe(
        'the form page still fails with a 404 when I open it from the clients list, and the browser console shows the same error as before',
      );
      expect(agent!.content).toBe(`${PARAGRAPH}\n\n${SECOND}`);
      expect(search!.toolName).toBe('Search');
      // The list the agent wrote keeps its lines.
      expect(list!.content).toBe(
        'Two places build that path:\n- src/pages/ClientFormPage.tsx\n- src/api/users.ts',
      );
    }
  });

  it('keeps every break with keepLineBreaks, and the joins change nothing but whitespace', () => {
    const text = copy(60);
    const kept = parseTranscript(text, { keepLineBreaks: true }).messages;
    const joined = parseTranscript(text).messages;
    expect(kept[1]!.content.split('\n').length).toBeGreaterThan(8);
    expect(kept.map((m) => m.content.replace(/\s+/g, ''))).toEqual(
      joined.map((m) => m.content.replace(/\s+/g, '')),
    );
  });

  it('joins a prompt the console wrapped at the margin, and CJK lines without a space', () => {
    const cjk =
      '请根据数据分析结果生成一个名为数据看板的综合页面看板应包含数据可视化设计并显示你实际处理的数据集总记录数和每个类别的统计结果';
    const lines = cut(cjk, 50);
    const body = [...lines, '', ...wrap(PARAGRAPH, 50), '', ...wrap(SECOND, 50)].join('\n');
    expect(parseTranscript(body).messages[0]!.content).toBe(cjk);
    const margin = wrap(PARAGRAPH, 50, '> ', '');
    const t = parseTranscript([...margin, '', ...wrap(SECOND, 50)].join('\n'));
    expect(t.messages[0]!.content).toBe(PARAGRAPH);
  });

  it('joins a word the terminal cut at the width (a CJK clause has no spaces to wrap at) without a space', () => {
    // 22 CJK characters and a full-width parenthesis, then the code name: column 60 falls inside it.
    const clause =
      '请分析数据集里支持多模态处理能力的智能体类型（multimodal_capability）在该类型中的占比并排名前三的类型是哪三个以及原因是什么并且给出图表和说明';
    const lines = cut(clause, 60);
    const body = [...lines, '', ...wrap(PARAGRAPH, 60), '', ...wrap(SECOND, 60)].join('\n');
    expect(lines.some((l) => /[a-z]$/.test(l))).toBe(true);
    expect(parseTranscript(body).messages[0]!.content).toBe(clause);
  });

  it("reads the agent's prose at its own width when it wraps short of the outputs", () => {
    // Outputs reach 80 columns; the agent's prose wraps at 74: at 80, "the" would have fitted.
    const output = Array.from({ length: 8 }, (_, i) => `  ⎿  ${String(i).repeat(75)}`);
    const prose = wrap(`${PARAGRAPH} ${SECOND}`, 74);
    const t = parseTranscript(['> go on', '', '⏺ Bash(make)', ...output, '', ...prose].join('\n'));
    expect(t.messages.at(-1)!.content).toBe(`${PARAGRAPH} ${SECOND}`);
  });

  it("measures an early console's line with its cost note, which took the line's right end", () => {
    const cost = '          Cost: $0.0532 (11.1s)';
    const lines = wrap(PARAGRAPH, 80);
    // The first line ends short of the width because the note stood there.
    const first = `⏺ The request goes to /api/v1/users/new, which does not${cost}`;
    const copy = [...wrap(SECOND, 80), '', first, '  exist on the backend.', '', ...lines].join('\n');
    const t = parseTranscript(copy);
    expect(t.messages[1]!.content).toBe(
      'The request goes to /api/v1/users/new, which does not exist on the backend.',
    );
  });

  it('joins the Gemini CLI console the same way: ✦ replies, bare and boxed prompts', () => {
    const boxed = wrap(PARAGRAPH, 56, '> ', '  ').map((l) => `│ ${l.padEnd(58)} │`);
    const copy = [
      `╭${'─'.repeat(60)}╮`,
      ...boxed,
      `╰${'─'.repeat(60)}╯`,
      '',
      ...wrap(SECOND, 70, '✦ ', '  '),
      '',
      ...wrap(`${PARAGRAPH} ${SECOND}`, 70, '✦ ', '  '),
    ].join('\n');
    const t = parseTranscript(copy);
    expect(t.format).toBe('gemini-cli-console');
    expect(t.messages.map((m) => m.content)).toEqual([PARAGRAPH, SECOND, `${PARAGRAPH} ${SECOND}`]);
    const kept = parseTranscript(copy, { keepLineBreaks: true });
    expect(kept.messages[1]!.content.split('\n').length).toBeGreaterThan(2);
  });

  it('loses no character of any copy (property)', () => {
    const word = fc.stringMatching(/^[a-z]{1,12}$/);
    // Copies whose joins changed something: the property must be tried on joined text, not only on
    // copies too short to show a width.
    let withJoins = 0;
    fc.assert(
      fc.property(
        // Paragraphs long enough to wrap several times, so that most copies show their width.
        fc.array(fc.array(word, { minLength: 20, maxLength: 60 }), { minLength: 2, maxLength: 6 }),
        fc.integer({ min: 40, max: 100 }),
        (paragraphs, width) => {
          const text = paragraphs
            .flatMap((p, i) => [...wrap(p.join(' '), width, i % 2 ? '> ' : '⏺ '), ''])
            .join('\n');
          const kept = parseTranscript(text, {
            keepLineBreaks: true,
            format: 'claude-code-console',
          }).messages;
          const joined = parseTranscript(text, { format: 'claude-code-console' }).messages;
          expect(joined.map((m) => m.content.replace(/\s+/g, ''))).toEqual(
            kept.map((m) => m.content.replace(/\s+/g, '')),
          );
          expect(joined.map((m) => m.role)).toEqual(kept.map((m) => m.role));
          if (joined.some((m, i) => m.content !== kept[i]!.content)) withJoins++;
        },
      ),
    );
    expect(withJoins).toBeGreaterThan(50);
  });
});

describe('the judged breaks (eval/transcript/sets/console-wrap)', () => {
  const rows = readFileSync(
    resolve(import.meta.dirname, '../../eval/transcript/sets/console-wrap/labels.jsonl'),
    'utf8',
  )
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  it('are references only, one reader each and a second on a sample, agreeing', () => {
    expect(rows.length).toBe(300);
    expect(new Set(rows.map((r) => r.id)).size).toBe(300);
    for (const r of rows) {
      expect(['wrap', 'written', 'unclear']).toContain(r.label);
      expect(String(r.shaA)).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.keys(r).some((k) => /text|line_?[AB]$/i.test(k))).toBe(false);
    }
    const second = rows.filter((r) => r.second !== undefined);
    expect(second.length).toBe(92);
    expect(second.every((r) => r.second === r.label)).toBe(true);
  });

  const data = sharedDataDir();
  it.skipIf(!data || !existsSync(join(data, 'claude-code-console')))(
    'on the shared console days: no break a reader called written is joined',
    () => {
      const shared = rows.filter((r) => r.source === 'shared');
      let found = 0;
      let missed = 0;
      for (const r of shared) {
        const reading = bothReadings(join(data!, String(r.file)), 'claude-code-console');
        const joined = breakJoined(reading, Number(r.messageLine), String(r.shaA), String(r.shaB));
        expect(joined, String(r.id)).toBeDefined();
        found++;
        if (r.label === 'written') expect(joined, String(r.id)).toBe(false);
        if (r.label === 'wrap' && !joined) missed++;
      }
      expect(found).toBe(shared.length);
      // The wraps still kept: a paragraph of a session whose terminal was narrower for a while, a
      // traceback line the printing tool wrapped, a shell option that starts with `-` (the README's).
      expect(missed).toBeLessThanOrEqual(6);
    },
  );
});
