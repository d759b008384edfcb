/**
 * Evidence seen from the folder the session worked in (`SnapshotInput.root`, lib/snapshot/root.ts):
 * listed relative to it, the folder itself and those above it left out, places kept apart as before;
 * the folder read from the transcripts that record it (`TranscriptMeta.cwd`).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deterministicSnapshot,
  deterministicSnapshotWithTrace,
  readSnapshotSource,
  snapshotInputFrom,
} from '../../lib/snapshot/index';
import { isRootOrAbove, relativeToRoot, rootSpellings } from '../../lib/snapshot/root';
import { parseTranscript } from '../../lib/transcript/index';
import { METADATA_FILE, sharedDataDir, walkFiles } from '../../tools/shared/data';
import { claudeSession } from '../fixtures/claude-session';
import { notesInput } from '../fixtures/notes-input';

const notes = (values: string[], root?: string) => notesInput(values, 'fix the app', root);
const evidence = (values: string[], root?: string) =>
  deterministicSnapshot(notes(values, root)).requiredEvidenceLinks;

describe('rootSpellings', () => {
  it('spells a folder as written, under ~ when it lies in a home folder, and a drive with either separator', () => {
    expect(rootSpellings('/Users/ana/proj/')).toEqual({
      whole: ['/Users/ana/proj', '~/proj'],
      under: [
        ['/Users/ana/proj/', ''],
        ['~/proj/', ''],
      ],
    });
    expect(rootSpellings('/srv/app')?.whole).toEqual(['/srv/app']);
    // A drive folder in both separators, its letter in both cases (Windows reads `c:` as `C:`).
    expect(rootSpellings('C:\\work\\repo')?.under).toEqual([
      ['C:\\work\\repo\\', ''],
      ['C:/work/repo/', ''],
      ['c:\\work\\repo\\', ''],
      ['c:/work/repo/', ''],
    ]);
    // A home folder itself: what lies under it is listed under ~/.
    expect(rootSpellings('/home/ana')).toEqual({ whole: ['/home/ana', '~'], under: [['/home/ana/', '~/']] });
    // The superuser's home (an agent in a container): `~/app/src/a.ts` is `src/a.ts` there too.
    expect(rootSpellings('/root/app')?.whole).toEqual(['/root/app', '~/app']);
    expect(evidence(['Edited `~/app/src/a.ts` and `/root/app/src/b.ts`.'], '/root/app')).toEqual([
      'src/a.ts',
      'src/b.ts',
    ]);
  });

  it('names no folder for a relative path, a bare root or drive, or anything but a string', () => {
    for (const root of ['src', '', '/', '//', 'C:\\', 'C:', '~/proj', 42, null, undefined, {}])
      expect(rootSpellings(root), String(root)).toBeUndefined();
  });
});

describe('isRootOrAbove and relativeToRoot', () => {
  const root = rootSpellings('/Users/ana/proj')!;

  it('the folder, a folder above it and the bare / are no evidence; a sibling or a cut spelling is', () => {
    for (const text of [
      '/Users/ana/proj',
      '/Users/ana/proj/',
      '~/proj',
      '/Users/ana',
      '/Users/ana/',
      '/Users',
      '/',
      '~',
    ])
      expect(isRootOrAbove(root, text), text).toBe(true);
    for (const text of [
      '/Users/ana/pro',
      '/Users/ana/proj2',
      '/Users/ana/proj/src',
      'proj',
      'Users/ana',
      '/api',
    ])
      expect(isRootOrAbove(root, text), text).toBe(false);
  });

  it('drops the folder before a name, in a bare path and inside a sentence, in both spellings', () => {
    expect(relativeToRoot(root, '/Users/ana/proj/src/a.ts:12')).toBe('src/a.ts:12');
    expect(relativeToRoot(root, '~/proj/README.md')).toBe('README.md');
    expect(relativeToRoot(root, 'See `/Users/ana/proj/docs/setup.md` and ~/proj/.env.example.')).toBe(
      'See `docs/setup.md` and .env.example.',
    );
    expect(relativeToRoot(root, 'PYTHON=/Users/ana/proj/.venv/bin/python3')).toBe('PYTHON=.venv/bin/python3');
  });

  it('keeps the folder followed by nothing, a space or a separator, inside a longer path, and other folders', () => {
    for (const text of [
      'cd /Users/ana/proj/ && ls',
      '/Users/ana/proj//a.ts',
      '/mnt/Users/ana/proj/a.ts',
      '/Users/ana/proj2/a.ts',
      '/Users/ana/other/b.ts',
      'https://example.com/Users/ana/proj/a.ts',
    ])
      expect(relativeToRoot(root, text), text).toBe(text);
  });

  it('a drive folder in either separator; a home folder as ~/', () => {
    const drive = rootSpellings('C:\\TASK\\repo')!;
    expect(relativeToRoot(drive, 'C:\\TASK\\repo\\src\\a.ts')).toBe('src\\a.ts');
    expect(relativeToRoot(drive, 'C:/TASK/repo/src/a.ts')).toBe('src/a.ts');
    expect(isRootOrAbove(drive, 'C:\\TASK')).toBe(true);
    expect(isRootOrAbove(drive, 'C:/TASK/repo/')).toBe(true);
    expect(relativeToRoot(drive, 'c:\\TASK\\repo\\README.md')).toBe('README.md');
    const home = rootSpellings('/home/ana')!;
    expect(relativeToRoot(home, '/home/ana/.config/app.json')).toBe('~/.config/app.json');
    expect(relativeToRoot(home, '~/.config/app.json')).toBe('~/.config/app.json');
  });

  it('never throws, never empties an item, and reads an item once (property; linear on repeats)', () => {
    const part = fc.constantFrom('/', '\\', '~', 'Users', 'ana', 'proj', 'a.ts', ' ', ':', 'C:', '.', 'x');
    const path = fc.array(part, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(path, path, (folder, text) => {
        const spellings = rootSpellings(folder);
        if (spellings === undefined) return;
        const out = relativeToRoot(spellings, text);
        expect(out.length <= text.length || spellings.under.some(([, into]) => into === '~/')).toBe(true);
        if (text.length > 0) expect(out.length).toBeGreaterThan(0);
        expect(typeof isRootOrAbove(spellings, text)).toBe('boolean');
      }),
    );
    // Many spellings of the folder in one item: each is read once (no rescans).
    const many = ' /Users/ana/proj/a'.repeat(20_000);
    expect(relativeToRoot(root, many)).toBe(' a'.repeat(20_000));
  });
});

describe('deterministicSnapshot with a root', () => {
  const entries = [
    'Edit /Users/ana/proj/src/app.ts to add the retry.',
    '/Users/ana/proj/src/app.ts',
    'src/app.ts',
    '/Users/ana/proj',
    '/Users/ana',
    '/Users/ana/other/notes.md',
    '/Users/ana/proj/frontend/src/App.tsx',
    'petmarket/frontend/src/App.tsx',
  ];

  it('lists evidence relative to the folder, leaves the folder and those above it out, and merges spellings', () => {
    expect(evidence(entries, '/Users/ana/proj')).toEqual([
      'petmarket/frontend/src/App.tsx',
      'frontend/src/App.tsx',
      'src/app.ts',
      '/Users/ana/other/notes.md',
    ]);
    // Without it, the folder and the home folder are listed, and the absolute spellings.
    const without = evidence(entries);
    expect(without).toContain('/Users/ana/proj');
    expect(without).toContain('/Users/ana');
  });

  it('traces what it left out, and changes no other list', () => {
    const t = deterministicSnapshotWithTrace(notes(entries, '/Users/ana/proj'));
    expect(t.dropped.filter((d) => d.reason === 'root').map((d) => d.text)).toEqual([
      '/Users/ana/proj',
      '/Users/ana',
    ]);
    const plain = deterministicSnapshot(notes(entries));
    const rooted = t.snapshot;
    expect({ ...rooted, requiredEvidenceLinks: [] }).toEqual({ ...plain, requiredEvidenceLinks: [] });
    for (const k of t.kept.filter((k) => k.category === 'requiredEvidenceLinks'))
      expect(rooted.requiredEvidenceLinks).toContain(k.text);
  });

  it('a root that names no folder changes nothing', () => {
    for (const root of ['', 'src', '/', 42 as unknown as string])
      expect(evidence(entries, root), String(root)).toEqual(evidence(entries));
  });

  it('snapshotInputFrom keeps the root on the input and its previous snapshot', () => {
    const many = entries.map((value, i) => ({ scope: 'notes', key: `k${i}`, value, sourceIteration: i * 2 }));
    const input = snapshotInputFrom('fix the app', many, '/Users/ana/proj');
    expect(input.root).toBe('/Users/ana/proj');
    expect(input.previous?.requiredEvidenceLinks.some((e) => e.startsWith('/Users/ana/proj'))).toBe(false);
    expect(snapshotInputFrom('fix the app', many)).not.toHaveProperty('root');
  });
});

describe('TranscriptMeta.cwd', () => {
  it('is the first folder a Claude Code session records, less its trailing separator', () => {
    const lines = [
      {
        type: 'user',
        uuid: 'u1',
        cwd: '/Users/ana/proj/',
        message: { role: 'user', content: 'Fix the login test' },
      },
      {
        type: 'assistant',
        uuid: 'a1',
        cwd: '/Users/ana/proj/sub',
        message: { role: 'assistant', content: 'Done.' },
      },
    ];
    const t = parseTranscript(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(t.format).toBe('claude-code-jsonl');
    expect(t.meta?.cwd).toBe('/Users/ana/proj');
  });

  it('is read from a Codex rollout, a converted session and the console welcome box', () => {
    const codex = [
      {
        timestamp: '2025-11-06T06:44:45Z',
        type: 'session_meta',
        payload: { id: 's1', cwd: '/Users/ana/proj' },
      },
      {
        timestamp: '2025-11-06T06:44:46Z',
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add a test' }] },
      },
    ];
    expect(parseTranscript(codex.map((l) => JSON.stringify(l)).join('\n')).meta?.cwd).toBe('/Users/ana/proj');
    const converted = {
      messages: [
        { role: 'user', content: 'Fix it' },
        { role: 'assistant', content: 'Fixed.' },
      ],
      meta: { session_meta: { cwd: 'C:\\TASK\\repo' } },
    };
    expect(parseTranscript(JSON.stringify(converted)).meta?.cwd).toBe('C:\\TASK\\repo');
    const console = [
      '╭───────────────────────────────────────╮',
      '│ ✻ Welcome to Claude Code!             │',
      '│                                       │',
      '│   cwd: /Users/ana/my proj             │',
      '╰───────────────────────────────────────╯',
      '',
      '> Run the tests',
      '',
      '⏺ All tests pass.',
    ].join('\n');
    const read = parseTranscript(console);
    expect(read.format).toBe('claude-code-console');
    expect(read.meta?.cwd).toBe('/Users/ana/my proj');
  });

  it("is read from Cline's environment details, in either layout", () => {
    const details =
      '<environment_details>\n# Current Working Directory (c:/Users/ana/proj) Files\nsrc/\n</environment_details>';
    const api = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<task>\nFix the build\n</task>' },
          { type: 'text', text: details },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
    ];
    expect(parseTranscript(JSON.stringify(api)).meta).toEqual({ agent: 'cline', cwd: 'c:/Users/ana/proj' });
    const ui = [
      { ts: 1, type: 'say', say: 'text', text: 'Fix the build' },
      {
        ts: 2,
        type: 'say',
        say: 'api_req_started',
        text: JSON.stringify({ request: `<task>Fix the build</task>\n${details}` }),
      },
      { ts: 3, type: 'say', say: 'text', text: 'Fixed.' },
    ];
    expect(parseTranscript(JSON.stringify(ui)).meta?.cwd).toBe('c:/Users/ana/proj');
  });

  it('is absent where the export records none, and a bare root is not kept', () => {
    expect(
      parseTranscript('[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]').meta,
    ).toBeUndefined();
    const line = { type: 'user', uuid: 'u1', cwd: '/', message: { role: 'user', content: 'hi' } };
    expect(parseTranscript(JSON.stringify(line)).meta?.cwd).toBeUndefined();
  });

  it('readSnapshotSource gives the snapshot the folder', () => {
    const source = readSnapshotSource(
      claudeSession('/Users/ana/proj', [
        'Fix the login test',
        'The test lives in /Users/ana/proj/tests/login.test.ts.',
      ]),
    );
    expect(source.input.root).toBe('/Users/ana/proj');
  });
});

describe.runIf(sharedDataDir() !== undefined)('on the shared transcripts that record their folder', () => {
  it('lists no evidence that is the folder, above it, or spelled under it', () => {
    let sessions = 0;
    let relative = 0;
    for (const file of walkFiles(sharedDataDir()!).filter((f) => !METADATA_FILE.test(f))) {
      let source: ReturnType<typeof readSnapshotSource>;
      try {
        source = readSnapshotSource(readFileSync(file, 'utf8'));
      } catch {
        continue;
      }
      const root = source.input.root;
      if (root === undefined) continue;
      sessions++;
      const spellings = rootSpellings(root)!;
      const listed = deterministicSnapshot(source.input).requiredEvidenceLinks;
      expect(new Set(listed).size, file).toBe(listed.length);
      for (const item of listed) {
        expect(isRootOrAbove(spellings, item), `${file}: ${item}`).toBe(false);
        expect(relativeToRoot(spellings, item), `${file}: ${item}`).toBe(item);
        expect(item.length, file).toBeGreaterThan(0);
      }
      relative += listed.length;
    }
    // 43 of the shared transcripts record their folder (Claude Code, Codex, console, converted sessions).
    expect(sessions).toBeGreaterThanOrEqual(40);
    expect(relative).toBeGreaterThan(300);
  }, 300_000);
});
