/**
 * Draws the memory-like entries of the labelled set from ../shared/data, deterministically: each
 * source's sentences (agent thoughts, replies, summary bullets) are collected with their file and
 * position, and the ones with the smallest FNV-1a hash of their position are kept. Run once to
 * (re)write set 1, eval/snapshot/sets/1/entries.jsonl: `npx tsx eval/snapshot/sample.ts`. Labels live
 * apart, in sets/1/labels.tsv, written by hand from LABELLING.md.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fnv1a32 } from '../../lib/core/index.js';
import { setPath } from './sets';

export const DATA = resolve(import.meta.dirname, '../../../shared/data');
export const ENTRIES = setPath(1, 'entries.jsonl');

/** One sampled entry: its id, source kind, file (relative to the data folder), position and text. */
export interface SampledEntry {
  id: string;
  kind: string;
  file: string;
  pos: string;
  text: string;
}

interface Raw {
  file: string;
  pos: string;
  text: string;
}

/** Sentences of a paragraph: split at line breaks and sentence ends, markdown bullets stripped. */
export function sentences(paragraph: string): string[] {
  const out: string[] = [];
  for (const line of paragraph.split(/\n+/)) {
    const l = line.replace(/^\s*(?:[-*•]|\d+\.)\s+/, '').trim();
    if (l === '' || l.startsWith('```') || /^[#>|]/.test(l)) continue;
    for (const s of l.split(/(?<=[.!?])\s+(?=[A-Z`])/)) {
      const t = s.trim();
      if (t.length >= 12 && t.length <= 240 && /[a-z]/.test(t)) out.push(t);
    }
  }
  return out;
}

function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?(```|$)/g, '\n');
}

function sweAgent(): Raw[] {
  const dir = join(DATA, 'swe-agent');
  const out: Raw[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.traj'))
    .sort()) {
    const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { trajectory?: { thought?: string }[] };
    (d.trajectory ?? []).forEach((s, i) => {
      sentences(withoutCode(s.thought ?? '')).forEach((text, j) => {
        out.push({ file: `swe-agent/${f}`, pos: `trajectory[${i}].thought#${j}`, text });
      });
    });
  }
  return out;
}

function miniSweAgent(): Raw[] {
  const dir = join(DATA, 'mini-swe-agent');
  const out: Raw[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.traj.json'))
    .sort()) {
    const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
      messages?: { role: string; content: unknown }[];
    };
    (d.messages ?? []).forEach((m, i) => {
      if (m.role !== 'assistant' || typeof m.content !== 'string') return;
      const thought = withoutCode(m.content).replace(/^THOUGHT:\s*/, '');
      sentences(thought).forEach((text, j) => {
        out.push({ file: `mini-swe-agent/${f}`, pos: `messages[${i}]#${j}`, text });
      });
    });
  }
  return out;
}

function claudeJsonl(): Raw[] {
  const dir = join(DATA, 'claude-code-jsonl');
  const out: Raw[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.jsonl'))
    .sort()) {
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .forEach((line, n) => {
        if (!line.includes('"assistant"')) return;
        let ev: { type?: string; message?: { content?: unknown } };
        try {
          ev = JSON.parse(line);
        } catch {
          return;
        }
        if (ev.type !== 'assistant' || !Array.isArray(ev.message?.content)) return;
        for (const block of ev.message.content as { type: string; text?: string }[]) {
          if (block.type !== 'text' || !block.text) continue;
          sentences(withoutCode(block.text)).forEach((text, j) => {
            out.push({ file: `claude-code-jsonl/${f}`, pos: `line ${n + 1}#${j}`, text });
          });
        }
      });
  }
  return out;
}

/** The console's agent paragraphs: a `⏺` line that is no tool call, with its indented continuation. */
function consoleAgent(): Raw[] {
  const dir = join(DATA, 'claude-code-console');
  const out: Raw[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => /^day-\d+\.md$/.test(x))
    .sort()) {
    const lines = readFileSync(join(dir, f), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (!l.startsWith('⏺ ') || /^⏺ [A-Z][A-Za-z]*\(/.test(l)) continue;
      let para = l.slice(2);
      for (let k = i + 1; k < lines.length && /^ {2}\S/.test(lines[k]!); k++) para += ` ${lines[k]!.trim()}`;
      sentences(para.replace(/\s+/g, ' ')).forEach((text, j) => {
        out.push({ file: `claude-code-console/${f}`, pos: `line ${i + 1}#${j}`, text });
      });
    }
  }
  return out;
}

function consoleSummary(): Raw[] {
  const dir = join(DATA, 'claude-code-console');
  const out: Raw[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.startsWith('gemini-summary'))
    .sort()) {
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .forEach((line, n) => {
        if (!/^\s*[*-]\s+/.test(line)) return;
        const t = line.replace(/^\s*[*-]\s+/, '').trim();
        if (t.length >= 12 && t.length <= 240)
          out.push({ file: `claude-code-console/${f}`, pos: `line ${n + 1}`, text: t });
      });
  }
  return out;
}

/** Sources, their split and how many entries each gives. */
export const SOURCES: {
  kind: string;
  split: 'tune' | 'held-out' | 'untouched';
  n: number;
  read: () => Raw[];
}[] = [
  { kind: 'swe-agent', split: 'tune', n: 110, read: sweAgent },
  { kind: 'claude-code-jsonl', split: 'tune', n: 110, read: claudeJsonl },
  { kind: 'mini-swe-agent', split: 'held-out', n: 110, read: miniSweAgent },
  { kind: 'console-agent', split: 'held-out', n: 110, read: consoleAgent },
  { kind: 'console-summary', split: 'untouched', n: 80, read: consoleSummary },
];

/** The n entries of a source with the smallest position hashes, distinct texts, in source order. */
function pick(kind: string, raws: Raw[], n: number): SampledEntry[] {
  const seen = new Set<string>();
  const unique = raws.filter((r) => !seen.has(r.text) && seen.add(r.text));
  const ranked = unique
    .map((r, i) => ({ r, i, h: fnv1a32(`${r.file}|${r.pos}`) }))
    .sort((a, b) => a.h - b.h || a.i - b.i)
    .slice(0, n)
    .sort((a, b) => a.i - b.i);
  return ranked.map(({ r }, j) => ({ id: `${kind}-${String(j + 1).padStart(3, '0')}`, kind, ...r }));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const all = SOURCES.flatMap((s) => pick(s.kind, s.read(), s.n));
  writeFileSync(ENTRIES, `${all.map((e) => JSON.stringify(e)).join('\n')}\n`);
  process.stderr.write(`wrote ${all.length} entries to ${ENTRIES}\n`);
}
