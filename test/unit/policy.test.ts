/**
 * The insight → key point policy of rearview/playbook: the user's instruction as an imperative (never
 * a template), what a correction corrected, approvals and complaints as evidence rather than key
 * points, failure lessons. Over a whole conversation (one key point per lesson, the session facade,
 * the playground): policy-proposals.test.ts.
 */
import fc from 'fast-check';
import { heuristicReflect, type ReflectionInsight } from 'rearview/heuristic';
import {
  extractInstruction,
  insightProposals,
  isStandingRule,
  MAX_INSTRUCTION_CHARS,
  proposeKeyPoint,
  turnVerdict,
} from 'rearview/playbook';
import { describe, expect, it } from 'vitest';

/** The agent's reply before a test's turn: a turn no reply has answered yet corrects nothing. */
const REPLY = { role: 'assistant', content: 'Done.', id: 'r' };

const insightOf = (text: string, category: string) => {
  const found = heuristicReflect([REPLY, { role: 'user', content: text, id: 't' }]).find(
    (i) => i.category === category,
  );
  if (!found) throw new Error(`no ${category} in ${JSON.stringify(text)}`);
  return found;
};

/** An insight of any category, as a detector (or a future one) would emit it. */
const raw = (category: string, tags: string[] = [], extra: Partial<ReflectionInsight> = {}) =>
  ({ category, confidence: 'high', tags, traceRefs: ['message:t'], ...extra }) as const;

const TEMPLATES =
  /apply the user['’]s correction|continue this approach|inspect (?:the )?raw|user preference:|corrected this/i;

describe('extractInstruction', () => {
  it.each([
    ['No, use pnpm instead of npm.', 'Use pnpm instead of npm.'],
    [
      "No! Don't modify the implementation while probing. Ask first.",
      "Don't modify the implementation while probing; ask first.",
    ],
    ['I prefer short answers.', 'Prefer short answers.'],
    ["Shouldn't that be using a fixture?", 'Use a fixture.'],
    ['No, not GraphQL. I said REST endpoint.', 'Use REST endpoint, not GraphQL.'],
    ['I already told you, use tabs not spaces.', 'Use tabs not spaces.'],
    ['you should run the tests before committing', 'Run the tests before committing.'],
    ["I don't want you to publish manually.", "Don't publish manually."],
    ['Can you use the existing helper instead?', 'Use the existing helper instead.'],
    ['no, USE pnpm instead of npm!!', 'Use pnpm instead of npm.'],
    ['Perfect! From now on, always use fixtures in specs.', 'Always use fixtures in specs.'],
    // An approval or an apology before the instruction, and the clause after "but".
    ['Good, but keep the docs in the docs folder.', 'Keep the docs in the docs folder.'],
    [
      'Sorry for interrupting, go on, but I wanted to remind you to always run the specs before pushing.',
      'Always run the specs before pushing.',
    ],
    ['I dislike inline comments in shell snippets.', 'Avoid inline comments in shell snippets.'],
    ['please translate each answer into English', 'Translate each answer into English.'],
  ])('%j → %j', (text, expected) => {
    expect(extractInstruction(text)).toBe(expected);
  });

  it.each([
    'No, that is wrong.',
    'Why did you do that?',
    'That is not what I asked.',
    'No. Do not use it.',
    '```\nno, use the other branch\n```',
    // A compiler's diagnostic, with the advice glued under it: the tool's words, not the person's.
    'lib/main.dart:35:1: Error: Directives must appear before any declarations.\nTry moving the directive before any declarations.',
  ])('finds no instruction in %j', (text) => {
    expect(extractInstruction(text)).toBeUndefined();
  });

  it('keeps only standing rules when asked, and bounds the length', () => {
    const text = 'Fix the MQTT card in page.tsx. Do not change the other cards.';
    expect(extractInstruction(text)).toBe('Fix the MQTT card in page.tsx; do not change the other cards.');
    expect(extractInstruction(text, { rulesOnly: true })).toBe('Do not change the other cards.');
    expect(isStandingRule('Rename the card title.')).toBe(false);
    expect(isStandingRule('Run the tests before committing.')).toBe(true);
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.string({ maxLength: 600 }), (a, b) => {
        const out = extractInstruction(`No, use ${a} instead. ${b}`);
        if (out === undefined) return;
        expect(out.length).toBeLessThanOrEqual(MAX_INSTRUCTION_CHARS + 1);
        expect(out).toMatch(/^\S/);
        expect(out).toMatch(/[.…]$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('proposeKeyPoint', () => {
  it('turns a correction into its instruction in MISTAKES TO AVOID, with what it corrected', () => {
    const text = 'No, use pnpm instead of npm.';
    expect(proposeKeyPoint(insightOf(text, 'correction'), text)).toEqual({
      section: 'MISTAKES TO AVOID',
      text: 'Use pnpm instead of npm.',
      category: 'correction',
      traceRefs: ['message:t', 'message:r'],
    });
    const call = { content: '{"command":"npm install --save lodash","description":"x"}', toolName: 'Bash' };
    expect(proposeKeyPoint(insightOf(text, 'correction'), { text, previous: call })?.context).toBe(
      'Bash npm install --save lodash',
    );
    const reply = { content: '<thinking-content-1>I will run npm install. Then the tests.' };
    expect(proposeKeyPoint(insightOf(text, 'correction'), { text, previous: reply })?.context).toBe(
      'I will run npm install.',
    );
    // Past a short exclamation, to what the reply says it did.
    const cheer = { content: 'Perfect! I switched the install to npm ci.' };
    expect(proposeKeyPoint(insightOf(text, 'correction'), { text, previous: cheer })?.context).toBe(
      'I switched the install to npm ci.',
    );
    // A tool that carries the agent's words (Cline) or names its file by another key: what it said or
    // touched, not only the tool's name.
    const plan = {
      content: '{"response":"## Plan\\n\\nI will migrate to pnpm. Then run tests."}',
      toolName: 'plan_mode_respond',
    };
    expect(proposeKeyPoint(insightOf(text, 'correction'), { text, previous: plan })?.context).toBe(
      'plan_mode_respond I will migrate to pnpm.',
    );
    const write = {
      content: '{"absolutePath":"c:\\\\app\\\\a.ts","content":"x"}',
      toolName: 'write_to_file',
    };
    expect(proposeKeyPoint(insightOf(text, 'correction'), { text, previous: write })?.context).toBe(
      'write_to_file c:\\app\\a.ts',
    );
  });

  it('gives each insight of one turn the same proposals, its own copies, and each refusal', () => {
    // One turn, two insights (a correction and friction): the writer reads the text once for both.
    const text = 'I already told you, use pnpm not npm.';
    const [correction, friction] = [insightOf(text, 'correction'), insightOf(text, 'friction')];
    const a = insightProposals(correction, text);
    const b = insightProposals(friction, text);
    expect(a.map((p) => p.text)).toEqual(['Use pnpm not npm.']);
    expect(b.map((p) => p.text)).toEqual(a.map((p) => p.text));
    a[0]!.text = 'changed';
    expect(insightProposals(friction, text)[0]!.text).toBe('Use pnpm not npm.');
    // A refused turn is refused for every insight that asks, and another text is read anew.
    const refusals: string[] = [];
    const task = 'I already told you, fix the error.';
    for (const category of ['correction', 'friction'])
      insightProposals(insightOf(task, category), task, { onRefused: (r) => refusals.push(r) });
    expect(refusals).toHaveLength(2);
    expect(new Set(refusals).size).toBe(1);
    expect(insightProposals(correction, 'No, use yarn instead of npm.').map((p) => p.text)).toEqual([
      'Use yarn instead of npm.',
    ]);
  });

  it('proposes nothing for a correction without an instruction or with a one-off task', () => {
    const wrong = `No, that is wrong.\nThe ${'numbers '.repeat(60)}are off.`;
    expect(proposeKeyPoint(insightOf(wrong, 'correction'), wrong)).toBeUndefined();
    const task = 'No, rename the card title to Overview.';
    expect(proposeKeyPoint(insightOf(task, 'correction'), task)).toBeUndefined();
  });

  it('keeps medium-confidence corrections (challenges) by default and drops them with minConfidence: high', () => {
    const text = "Shouldn't that be using a fixture every time?";
    const insight = { ...raw('correction', ['correction', 'question']), confidence: 'medium' as const };
    expect(proposeKeyPoint(insight, text)).toMatchObject({
      section: 'MISTAKES TO AVOID',
      text: 'Use a fixture every time.',
    });
    expect(proposeKeyPoint(insight, text, { minConfidence: 'high' })).toBeUndefined();
  });

  it('preferences go to USER PREFERENCES; bare approvals, under either name, teach nothing', () => {
    const pref = 'From now on, always answer in British English.';
    expect(proposeKeyPoint(raw('preference', ['preference']), pref)).toMatchObject({
      section: 'USER PREFERENCES',
      text: 'Always answer in British English.',
    });
    expect(proposeKeyPoint(raw('preference', ['approval']), 'Great, thanks!')).toBeUndefined();
    expect(proposeKeyPoint(raw('approval'), 'Perfect, that works.')).toBeUndefined();
    // Not bare: the rule it states is kept, the approval itself is evidence (turnVerdict).
    expect(
      proposeKeyPoint(raw('approval'), 'Perfect. From now on always run the migrations first.'),
    ).toMatchObject({
      section: 'USER PREFERENCES',
      text: 'Always run the migrations first.',
    });
    // What an approving turn says it likes praises the reply ("Prefer the blackmail aspect." is no rule);
    // a rule beside it still stands.
    expect(
      proposeKeyPoint(raw('approval'), 'I like the blackmail aspect. Can you give me a backstory?'),
    ).toBe(undefined);
    expect(
      proposeKeyPoint(raw('approval'), 'I really love it. From now on always run the migrations first.'),
    ).toMatchObject({ text: 'Always run the migrations first.' });
    // A preference that is not an approval keeps its "I like": a liking the person states as a rule.
    expect(proposeKeyPoint(raw('preference', ['preference']), 'I like tabs over spaces.')).toMatchObject({
      text: 'Prefer tabs over spaces.',
    });
  });

  it('friction only when it says what to do', () => {
    const told = 'I already told you, use tabs not spaces.';
    expect(proposeKeyPoint(raw('friction', ['friction']), told)).toMatchObject({
      section: 'USER PREFERENCES',
      text: 'Use tabs not spaces.',
    });
    const again = 'Again? I already told you that.';
    expect(proposeKeyPoint(raw('friction', ['friction']), again)).toBeUndefined();
  });

  it('keeps a failure lesson only when a fix was found that is no one-off, never a template', () => {
    const lesson =
      'When `Read` fails with "File content (N tokens) exceeds maximum allowed tokens (N).": pass `offset`/`limit`.';
    const failure = (tags: string[]) =>
      raw('anti_pattern', ['tool_failure', 'tool:Read', ...tags], { recommendation: lesson });
    expect(proposeKeyPoint(failure(['fix_found']), '')).toEqual({
      section: 'MISTAKES TO AVOID',
      text: lesson,
      category: 'anti_pattern',
      traceRefs: ['message:t'],
    });
    // A failure with no fix says what went wrong, not what to do: evidence, however often it recurred.
    expect(proposeKeyPoint(failure(['no_fix', 'recurring']), '')).toBeUndefined();
    // A fix its judge refused (a value changed for that task, an unreadable error): evidence too.
    expect(proposeKeyPoint(failure(['fix_found', 'one_off']), '')).toBeUndefined();
    expect(proposeKeyPoint(failure(['fix_found', 'recurring', 'one_off']), '')).toBeUndefined();
    expect(proposeKeyPoint(failure(['no_fix']), '')).toBeUndefined();
    expect(proposeKeyPoint(failure(['retried', 'recurring']), '')).toBeUndefined();
    expect(
      proposeKeyPoint(raw('anti_pattern', ['tool_failure']), 'use the other tool instead'),
    ).toBeUndefined();
    expect(proposeKeyPoint(raw('gotcha'), 'Use the other tool instead.')).toBeUndefined();
  });

  it('never proposes template text, whatever the turn', () => {
    const turns = [
      'No, that is wrong.',
      'Again? I already told you that.',
      'Great, thanks!',
      'No. Rewind.',
      'You did it again!',
      'No, use pnpm instead of npm.',
      "Shouldn't that be using a fixture?",
    ];
    let proposals = 0;
    fc.assert(
      fc.property(fc.constantFrom(...turns), fc.string({ maxLength: 80 }), (turn, tail) => {
        const text = `${turn} ${tail}`;
        for (const insight of heuristicReflect([REPLY, { role: 'user', content: text }])) {
          const all = insightProposals(insight, text);
          expect(proposeKeyPoint(insight, text)).toEqual(all[0]);
          for (const p of all) {
            proposals++;
            expect(p.text).not.toMatch(TEMPLATES);
            expect(p.traceRefs).toEqual(insight.traceRefs);
          }
        }
      }),
      { numRuns: 200 },
    );
    // The property checked real key points: the turns above do propose some.
    expect(proposals).toBeGreaterThan(0);
  });
});

describe('turnVerdict', () => {
  it('corrections and complaints are evidence against the cited key points, approvals for them', () => {
    const verdict = (text: string) =>
      turnVerdict(heuristicReflect([REPLY, { role: 'user', content: text }]), text);
    expect(verdict("No, that's wrong. Use pnpm add.")).toEqual({ tag: 'harmful', reason: 'corrected' });
    const friction = [raw('friction', ['friction'])];
    expect(turnVerdict(friction, 'Again? I already told you that.')).toEqual({
      tag: 'harmful',
      reason: 'complained about',
    });
    // A complaint that says what to do instead becomes a preference, not evidence.
    expect(turnVerdict(friction, 'I already told you: use tabs not spaces.')).toBeUndefined();
    expect(verdict('Great, thanks!')).toEqual({ tag: 'helpful', reason: 'approved' });
    expect(turnVerdict([raw('preference', ['approval'])], 'perfect')).toEqual({
      tag: 'helpful',
      reason: 'approved',
    });
    expect(turnVerdict([raw('approval')], 'perfect')).toEqual({ tag: 'helpful', reason: 'approved' });
    expect(verdict('How do I run the tests?')).toBeUndefined();
  });
});
