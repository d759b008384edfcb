/**
 * rearview/heuristic: every test of seed 004 (named after the Rust test it ports), the shape of an
 * insight (texts, categories, confidences, tags, trace references), and insightMetadata's provenance.
 */
import { describe, expect, it } from 'vitest';
import { truncateUtf8 } from '../../lib/core/index';
import { reflectFromTrajectories } from '../../lib/failures/index';
import { extractRecommendation, heuristicReflect, type ReflectionInsight } from '../../lib/heuristic/index';
import { parseReflectionResponse } from '../../lib/llm-reflect/index';
import { insightMetadata } from '../../lib/playbook/index';
import { parseTranscript, type Trajectory } from '../../lib/transcript/index';
import { SEED_MARKERS } from '../../tools/shared/seed-markers';
import { ALL, answered, conv } from './heuristic-helpers';

describe('seed 004 tests, ported 1:1', () => {
  it('detects_corrections', () => {
    const insights = heuristicReflect(
      conv([
        ['user', 'Add a REST endpoint'],
        ['assistant', "I'll add a GraphQL mutation"],
        ['user', 'No, not GraphQL. I said REST endpoint.'],
      ]),
    );
    expect(insights.length).toBeGreaterThan(0);
    expect(insights.some((i) => i.category === 'correction')).toBe(true);
  });

  it('detects_preferences', () => {
    const insights = heuristicReflect(
      conv([['user', 'I prefer using snake_case for all function names.']]),
      ALL,
    );
    expect(insights.some((i) => i.category === 'preference')).toBe(true);
  });

  it('detects_friction', () => {
    const insights = heuristicReflect(conv([['user', 'As I mentioned, use PostgreSQL not SQLite.']]), ALL);
    expect(insights.some((i) => i.category === 'friction')).toBe(true);
  });

  it('no_insights_from_normal_conversation', () => {
    const insights = heuristicReflect(
      conv([
        ['user', "What's the weather like?"],
        ['assistant', "I can't check the weather."],
      ]),
    );
    expect(insights).toEqual([]);
  });

  it('heuristic_attaches_trace_refs', () => {
    const insights = heuristicReflect(
      conv([['user', 'I prefer using snake_case for all function names.']]),
      ALL,
    );
    expect(insights.length).toBeGreaterThan(0);
    expect(insights.every((i) => i.traceRefs.length > 0)).toBe(true);
    // rearview's references are `message:{id}`; the seed's `conv:` form is one `ref` option away.
    expect(insights[0]!.traceRefs[0]!.startsWith('message:')).toBe(true);
    const seedStyle = heuristicReflect(conv([['user', 'I prefer tabs.']]), {
      ...ALL,
      ref: (m, i) => `conv:${m.role}@${i}`,
    });
    expect(seedStyle[0]!.traceRefs[0]!.startsWith('conv:')).toBe(true);
  });

  it('reflect_from_failed_trajectories_preserves_event_refs', () => {
    const traj: Trajectory = {
      id: 'p-42',
      format: 'claude-code-jsonl',
      steps: [
        { index: 0, tool: 'search', source: {} },
        { index: 1, tool: 'write_file', error: 'permission denied', source: {} },
      ],
      outcome: { failed: true },
      skipped: [],
      ignored: 0,
    };
    const insights = reflectFromTrajectories([traj]);
    expect(insights).toHaveLength(1);
    expect(insights[0]!.category).toBe('anti_pattern');
    expect(insights[0]!.traceRefs).toEqual(['trajectory:p-42:event:1']);
    expect(insights[0]!.fact).toContain('permission denied');
  });

  it('reflect_from_successful_trajectories_emits_nothing', () => {
    const traj: Trajectory = {
      id: 'p-ok',
      format: 'swe-agent',
      steps: [],
      outcome: { failed: false },
      skipped: [],
      ignored: 0,
    };
    expect(reflectFromTrajectories([traj])).toEqual([]);
  });

  it('insight_metadata_persists_trace_refs_as_provenance', () => {
    const insight: ReflectionInsight = {
      fact: 'x',
      recommendation: 'y',
      category: 'correction',
      confidence: 'high',
      tags: [],
      traceRefs: ['conv:abc@123'],
    };
    const meta = insightMetadata(insight);
    expect(meta.provenance).toHaveLength(2);
    expect(meta.provenance[1]!.source).toBe('trace');
    expect(meta.provenance[1]!.reference).toBe('conv:abc@123');
  });

  it('parse_reflection_json', () => {
    const response =
      '```json\n{"insights": [{"fact": "User prefers Rust", "recommendation": "Use Rust", "category": "preference", "confidence": "high", "tags": ["language"]}]}\n```';
    const insights = parseReflectionResponse(response);
    expect(insights).toHaveLength(1);
    expect(insights[0]!.category).toBe('preference');
  });

  it('truncate_ascii', () => {
    expect(truncateUtf8('hello world', 5)).toBe('hello');
  });

  it('truncate_no_op', () => {
    expect(truncateUtf8('hi', 10)).toBe('hi');
  });

  it('truncate_emoji', () => {
    expect(truncateUtf8('\u{1F600}\u{1F601}\u{1F602}', 5)).toBe('\u{1F600}');
  });

  it('truncate_multibyte_boundary', () => {
    expect(truncateUtf8('caf\u00e9', 4)).toBe('caf');
  });

  it('the seed turns give the same categories with the seed lists through the word-aware matcher', () => {
    const cats = (text: string) =>
      heuristicReflect(answered(text), { ...ALL, markers: SEED_MARKERS }).map((i) => i.category);
    expect(cats('No, not GraphQL. I said REST endpoint.')).toContain('correction');
    expect(cats('I prefer using snake_case for all function names.')).toEqual(['preference']);
    expect(cats('As I mentioned, use PostgreSQL not SQLite.')).toEqual(['friction']);
    expect(cats("What's the weather like?")).toEqual([]);
  });
});

describe('insight shape', () => {
  it('keeps the seed texts, categories, confidences and tags', () => {
    const msgs = conv([
      ['user', 'Add a REST endpoint'],
      ['assistant', "I'll add a GraphQL mutation"],
      ['user', 'No, not GraphQL. Please use REST. As I mentioned, REST.'],
    ]);
    const [correction, friction] = heuristicReflect(msgs, ALL);
    expect(correction).toEqual({
      fact: 'User correction: No, not GraphQL. Please use REST. As I mentioned, REST. (following: Add a REST endpoint)',
      recommendation: 'Please use REST',
      category: 'correction',
      confidence: 'high',
      score: 0.83,
      tags: ['user_feedback', 'correction'],
      traceRefs: ['message:t2', 'message:t0', 'message:t1'],
    });
    // The seed gives friction a fixed 'medium'; here confidence follows the calibrated score (0.82).
    expect(friction).toMatchObject({
      category: 'friction',
      confidence: 'high',
      score: 0.82,
      recommendation: 'Automate or remember this to avoid user repetition.',
      traceRefs: ['message:t2'],
    });
  });

  it('approval recommends continuing; a challenge question is a medium-confidence correction', () => {
    const [approval] = heuristicReflect(answered('Perfect, thanks!'));
    expect(approval).toMatchObject({ category: 'approval', recommendation: 'Continue this approach.' });
    // Challenging questions turned out the most precise evidence of a correction (calibrated score 0.89).
    const [challenge] = heuristicReflect(answered("Shouldn't that be using a fixture?"));
    expect(challenge).toMatchObject({ category: 'correction', confidence: 'high', score: 0.89 });
    expect(challenge!.tags).toContain('question');
  });

  it('cuts facts on a UTF-8 boundary', () => {
    const text = `No, ${'é'.repeat(150)}`;
    const [insight] = heuristicReflect(answered(text));
    expect(insight!.fact).toBe(`User correction: ${truncateUtf8(text, 200)}`);
    expect(insight!.fact.endsWith('\ufffd')).toBe(false);
  });

  it('references are stable for the same transcript and fall back to m{index} without ids', () => {
    const text = 'User: add a test\nAssistant: done\nUser: No, that test is wrong. Revert it.';
    const a = heuristicReflect(parseTranscript(text).messages);
    const b = heuristicReflect(parseTranscript(text).messages);
    expect(a).toEqual(b);
    expect(a[0]!.traceRefs).toEqual(['message:m3', 'message:m1', 'message:m2']);
    const bare = heuristicReflect([
      { role: 'assistant', content: 'x' },
      { role: 'user', content: 'No, wrong file.' },
    ]);
    expect(bare[0]!.traceRefs).toEqual(['message:m1', 'message:m0']);
  });

  it('reads only user turns, and Anthropic-style text blocks', () => {
    expect(heuristicReflect([{ role: 'assistant', content: 'No, that is wrong.' }])).toEqual([]);
    expect(heuristicReflect([{ role: 'tool', content: 'No, that is wrong.' }])).toEqual([]);
    const blocks = heuristicReflect([
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      { role: 'user', content: [{ type: 'text', text: 'That is wrong.' }] },
    ]);
    expect(blocks.map((i) => i.category)).toEqual(['correction']);
  });

  it('extractRecommendation follows the seed and respects word starts', () => {
    expect(extractRecommendation('Instead, use the fixture. Then run it.')).toBe('Instead, use the fixture');
    expect(extractRecommendation('because it is wrong')).toBe("Apply the user's correction.");
    expect(extractRecommendation('No. Don’t touch main')).toBe('Don’t touch main');
  });
});

describe('insightMetadata', () => {
  it('takes now explicitly and dates every entry', () => {
    const meta = insightMetadata(
      {
        fact: 'f',
        recommendation: 'r',
        category: 'friction',
        confidence: 'medium',
        tags: ['a'],
        traceRefs: ['message:m1', 'message:m2'],
      },
      '2025-01-02T03:04:05.000Z',
    );
    expect(meta).toEqual({
      confidence: 'medium',
      provenance: [
        { source: 'reflection', reference: 'conversation analysis', date: '2025-01-02T03:04:05.000Z' },
        { source: 'trace', reference: 'message:m1', date: '2025-01-02T03:04:05.000Z' },
        { source: 'trace', reference: 'message:m2', date: '2025-01-02T03:04:05.000Z' },
      ],
      affectedFiles: [],
      tags: ['a'],
      category: 'friction',
      usageCount: 0,
      helpfulCount: 0,
      outdatedReports: 0,
    });
  });
});
