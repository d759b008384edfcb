/**
 * Seed 001 Reflector scenarios (SCN-REFL-003…005, 007, 008) through the real @anthropic-ai/sdk against
 * the local Messages API server: replies, retries and failures, reply parsing, redaction, the template.
 */
import { anthropicClient } from 'rearview/llm';
import {
  emptyPlaybook,
  formatTranscript,
  type Playbook,
  parseReflectorReply,
  REFLECTOR_TEMPLATE,
  type ReflectorDiagnostic,
  reflectorPrompt,
  runReflector,
} from 'rearview/playbook';
import { describe, expect, it } from 'vitest';
import { useMockAnthropic } from '../llm/use-mock';
import { freePort } from '../runtime/runtimes';

const mock = useMockAnthropic();

/** The real client against the mock; backoff waits recorded, not slept. */
function client(options: Parameters<typeof anthropicClient>[0] = {}) {
  const waits: number[] = [];
  const llm = anthropicClient({
    apiKey: 'sk-ant-test-key',
    baseURL: mock.url,
    ...options,
    retry: { random: () => 0, sleep: async (ms) => void waits.push(ms) },
  });
  return { llm, waits };
}

const messages = [
  { role: 'user', content: 'Help me refactor this code' },
  { role: 'assistant', content: 'Based on [pat-001], I will add type hints first.' },
  { role: 'user', content: 'Looks good, thanks' },
];

function typeHintsPlaybook(): Playbook {
  const pb = emptyPlaybook();
  pb.sections['PATTERNS & APPROACHES'].push({
    name: 'pat-001',
    text: 'use type hints',
    helpful: 3,
    harmful: 0,
  });
  return pb;
}

function promptOf(i = 0): string {
  const body = mock.requests[i]!.body as { messages: { content: string }[] };
  return body.messages[0]!.content;
}

const EXPECTED_003_01 = {
  analysis: 'The session showed good use of type hints as recommended by pat-001.',
  bullet_tags: [
    {
      name: 'pat-001',
      tag: 'helpful',
      rationale: 'Type hints were applied correctly throughout the refactoring.',
    },
  ],
};

describe('runReflector through the real SDK (seed 001)', () => {
  it('SCN-REFL-003-01: returns analysis and bullet tags; the prompt holds transcript, playbook and cited ids', async () => {
    mock.script([{ kind: 'json', text: JSON.stringify(EXPECTED_003_01) }]);
    const { llm } = client();
    const out = await runReflector(messages, typeHintsPlaybook(), ['pat-001'], { llm });
    expect(out).toEqual({ analysis: EXPECTED_003_01.analysis, keyPointTags: EXPECTED_003_01.bullet_tags });
    expect(mock.requests).toHaveLength(1);
    const prompt = promptOf();
    expect(prompt).toContain('[user] Help me refactor this code');
    expect(prompt).toContain('- [pat-001] (helpful=3, harmful=0) use type hints');
    expect(prompt).toContain('cited during the session\npat-001\n');
  });

  it('SCN-REFL-003-02: empty cited ids → content-based mode, still a valid result', async () => {
    mock.script([
      {
        kind: 'json',
        text: '{"analysis": "Type hints were used without being cited.", "bullet_tags": [{"name": "pat-001", "tag": "helpful", "rationale": "Visible in the diff."}]}',
      },
    ]);
    const { llm } = client();
    const out = await runReflector(messages, typeHintsPlaybook(), [], { llm });
    expect(out.analysis).toBe('Type hints were used without being cited.');
    expect(out.keyPointTags).toEqual([
      { name: 'pat-001', tag: 'helpful', rationale: 'Visible in the diff.' },
    ]);
    const prompt = promptOf();
    expect(prompt).toMatch(/cited during the session\nnone\n/);
    expect(prompt).toContain('Content-based mode');
  });

  it('SCN-REFL-003-03: empty playbook → empty bullet tags, analysis kept', async () => {
    mock.script([
      {
        kind: 'json',
        text: '{"analysis": "The user asked for a refactor; it went smoothly.", "bullet_tags": []}',
      },
    ]);
    const { llm } = client();
    const out = await runReflector(messages, emptyPlaybook(), [], { llm });
    expect(out).toEqual({ analysis: 'The user asked for a refactor; it went smoothly.', keyPointTags: [] });
    expect(promptOf()).toContain('(the playbook is empty)');
  });

  it('SCN-REFL-004-01: three tags keep their names, tags and rationales', async () => {
    const tags = [
      { name: 'pat-001', tag: 'helpful', rationale: 'Applied correctly' },
      { name: 'mis-001', tag: 'harmful', rationale: 'Led to incorrect approach' },
      { name: 'pref-001', tag: 'neutral', rationale: 'Not relevant to this session' },
    ];
    mock.script([
      { kind: 'json', text: JSON.stringify({ analysis: 'Session had mixed results...', bullet_tags: tags }) },
    ]);
    const { llm } = client();
    const out = await runReflector(messages, typeHintsPlaybook(), ['pat-001'], { llm });
    expect(out.keyPointTags).toEqual(tags);
  });

  it('SCN-REFL-005-01: connection refused until retries are exhausted → empty result and a diagnostic', async () => {
    const port = await freePort();
    const waits: number[] = [];
    const llm = anthropicClient({
      apiKey: 'k',
      baseURL: `http://127.0.0.1:${port}`,
      retry: { random: () => 0, sleep: async (ms) => void waits.push(ms) },
    });
    const diagnostics: ReflectorDiagnostic[] = [];
    const out = await runReflector(messages, typeHintsPlaybook(), ['pat-001'], {
      llm,
      onDiagnostic: (d) => diagnostics.push(d),
    });
    expect(out).toEqual({ analysis: '', keyPointTags: [] });
    expect(waits).toEqual([2000, 4000, 8000]); // 3 retries with the seed's backoff: 4 attempts
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ stage: 'llm', code: 'llm_connection' });
    expect((diagnostics[0]!.error as { attempts?: number }).attempts).toBe(4);
  });

  it('REQ-REFL-006: 5xx after retries, 4xx at once, abort — all give the empty result', async () => {
    mock.script([{ kind: 'status', status: 500 }]);
    const a = client();
    const d1: ReflectorDiagnostic[] = [];
    expect(
      await runReflector(messages, typeHintsPlaybook(), [], { llm: a.llm, onDiagnostic: (d) => d1.push(d) }),
    ).toEqual({ analysis: '', keyPointTags: [] });
    expect(mock.requests).toHaveLength(4);
    expect(d1[0]).toMatchObject({ stage: 'llm', code: 'llm_server' });

    mock.script([{ kind: 'status', status: 401 }]);
    const d2: ReflectorDiagnostic[] = [];
    expect(
      await runReflector(messages, typeHintsPlaybook(), [], {
        llm: client().llm,
        onDiagnostic: (d) => d2.push(d),
      }),
    ).toEqual({ analysis: '', keyPointTags: [] });
    expect(mock.requests).toHaveLength(1);
    expect(d2[0]!.code).toBe('llm_auth');

    mock.script([{ kind: 'json', text: '{}', delayMs: 2000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const d3: ReflectorDiagnostic[] = [];
    const out = await runReflector(messages, typeHintsPlaybook(), [], {
      llm: client().llm,
      signal: controller.signal,
      onDiagnostic: (d) => d3.push(d),
    });
    expect(out).toEqual({ analysis: '', keyPointTags: [] });
    expect(d3[0]!.code).toBe('llm_aborted');
  });

  it('SCN-REFL-005-02: unparseable replies (prose, malformed JSON) → empty result and a parse diagnostic', async () => {
    for (const text of [
      'I think the session went fine overall.',
      '{"analysis": "cut off',
      '```json\n{"analysis": \n```',
    ]) {
      mock.script([{ kind: 'json', text }]);
      const diagnostics: ReflectorDiagnostic[] = [];
      const out = await runReflector(messages, typeHintsPlaybook(), [], {
        llm: client().llm,
        onDiagnostic: (d) => diagnostics.push(d),
      });
      expect(out).toEqual({ analysis: '', keyPointTags: [] });
      expect(diagnostics.map((d) => d.code)).toEqual(['reply_unparseable']);
    }
  });

  it('SCN-REFL-008-01: JSON wrapped in prose is found by balanced-brace counting', async () => {
    mock.script([
      {
        kind: 'json',
        text: 'Here is my analysis of the session:\n\n{"analysis": "The session showed good use of type hints.", "bullet_tags": [{"name": "pat-001", "tag": "helpful", "rationale": "Type hints were applied correctly."}]}\n\nLet me know if you need more detail.',
      },
    ]);
    const out = await runReflector(messages, typeHintsPlaybook(), ['pat-001'], { llm: client().llm });
    expect(out).toEqual({
      analysis: 'The session showed good use of type hints.',
      keyPointTags: [{ name: 'pat-001', tag: 'helpful', rationale: 'Type hints were applied correctly.' }],
    });
  });

  it('SCN-REFL-008-02: a ```json fence is extracted (streamed reply too)', async () => {
    const text = '```json\n{"analysis": "No significant observations.", "bullet_tags": []}\n```';
    mock.script([{ kind: 'json', text }]);
    expect(await runReflector(messages, typeHintsPlaybook(), [], { llm: client().llm })).toEqual({
      analysis: 'No significant observations.',
      keyPointTags: [],
    });
    mock.script([{ kind: 'sse', text, chunks: 7 }]);
    expect(
      await runReflector(messages, typeHintsPlaybook(), [], { llm: client({ stream: true }).llm }),
    ).toEqual({
      analysis: 'No significant observations.',
      keyPointTags: [],
    });
  });

  it('REQ-REFL-008: partial JSON is accepted with defaults and reported', async () => {
    mock.script([
      {
        kind: 'json',
        text: '{"bullet_tags": [{"name": "pat-001", "tag": "Helpful"}, {"tag": "harmful"}, 7]}',
      },
    ]);
    const diagnostics: ReflectorDiagnostic[] = [];
    const out = await runReflector(messages, typeHintsPlaybook(), [], {
      llm: client().llm,
      onDiagnostic: (d) => diagnostics.push(d),
    });
    expect(out).toEqual({ analysis: '', keyPointTags: [{ name: 'pat-001', tag: 'helpful', rationale: '' }] });
    expect(diagnostics[0]).toMatchObject({ stage: 'shape', code: 'reply_partial' });
    expect(diagnostics[0]!.message).toContain('2 bullet tag(s)');
    expect(parseReflectorReply('{"analysis": "only analysis"}').result).toEqual({
      analysis: 'only analysis',
      keyPointTags: [],
    });
  });

  it('redacts the transcript before it is sent, with stable placeholders (and honours redact: false)', async () => {
    const secretive = [
      {
        role: 'user',
        content: 'My key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 and mail jane@corp.io',
      },
      { role: 'assistant', content: 'I will email jane@corp.io now.' },
    ];
    // A client that does not redact (like a non-Anthropic client): the Reflector's own redaction must hold.
    mock.script([{ kind: 'json', text: '{"analysis": "ok", "bullet_tags": []}' }]);
    await runReflector(secretive, typeHintsPlaybook(), [], { llm: client({ redact: false }).llm });
    const prompt = promptOf();
    expect(prompt).not.toContain('jane@corp.io');
    expect(prompt).not.toContain('sk-ant-api03');
    expect(prompt).toContain('[user] My key is [anthropic-key-1] and mail [email-1]');
    expect(prompt).toContain('[assistant] I will email [email-1] now.');

    const raw = reflectorPrompt(secretive, typeHintsPlaybook(), [], { redact: false });
    expect(raw).toContain('jane@corp.io');
  });

  it('SCN-REFL-007-01: the template has the placeholders, both modes, an example, name/tag keys', () => {
    for (const p of ['{transcript}', '{playbook}', '{cited_ids}']) expect(REFLECTOR_TEMPLATE).toContain(p);
    expect(REFLECTOR_TEMPLATE).toContain('"analysis"');
    expect(REFLECTOR_TEMPLATE).toContain('"bullet_tags"');
    expect(REFLECTOR_TEMPLATE).toMatch(/Citation-guided mode/);
    expect(REFLECTOR_TEMPLATE).toMatch(/Content-based mode/);
    expect(REFLECTOR_TEMPLATE).toMatch(/"name": "pat-001", "tag": "helpful", "rationale"/);
    expect(REFLECTOR_TEMPLATE).not.toMatch(/"id":|"rating":/);
    for (const t of ['"helpful"', '"harmful"', '"neutral"']) expect(REFLECTOR_TEMPLATE).toContain(t);
    // The output example is itself a valid reflector reply.
    const example = parseReflectorReply(REFLECTOR_TEMPLATE.slice(REFLECTOR_TEMPLATE.indexOf('```json')));
    expect(example.parsed).toBe(true);
    expect(example.result.keyPointTags.map((t) => t.tag)).toEqual(['helpful', 'harmful', 'neutral']);
  });

  it('a transcript value holding a placeholder is not expanded again; huge transcripts are elided in the middle', () => {
    const prompt = reflectorPrompt(
      [{ role: 'assistant', content: 'literal {playbook} and {cited_ids}' }],
      typeHintsPlaybook(),
      ['pat-001'],
    );
    expect(prompt).toContain('[assistant] literal {playbook} and {cited_ids}');
    const many = Array.from({ length: 400 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `message ${i} ${'word '.repeat(50)}`,
    }));
    const text = formatTranscript(many, { maxTokens: 2000 });
    expect(text.startsWith('[user] message 0 ')).toBe(true);
    expect(text).toContain('message 399 ');
    expect(text).toMatch(/\[… \d+ messages left out …\]/);
  });
});
