import {
  errorClass,
  failureLesson,
  groupFailures,
  reflectFromTrajectories,
  stepsFromMessages,
} from 'rearview/failures';
import {
  dedupeProposals,
  emptyPlaybook,
  extractInstruction,
  proposeKeyPoints,
  turnContexts,
  turnVerdict,
} from 'rearview/playbook';
import { lessons } from 'rearview/session';
import { parseTrajectory } from 'rearview/transcript';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

/** A Claude Code-shaped conversation: corrections, an approval of a cited key point, failed tool calls. */
const CONVERSATION = [
  { id: 'u1', role: 'user', content: 'Install the deps and read big.ts' },
  { id: 'c1', role: 'assistant', content: '{"command":"npm install"}', toolName: 'Bash', toolUseId: 't1' },
  { id: 'r1', role: 'tool', content: 'ok', toolName: 'Bash', toolUseId: 't1' },
  { id: 'u2', role: 'user', content: 'No, use pnpm instead of npm. Café ☕ rules.' },
  { id: 'c2', role: 'assistant', content: '{"file_path":"big.ts"}', toolName: 'Read', toolUseId: 't2' },
  {
    id: 'r2',
    role: 'tool',
    content: 'File content (30120 tokens) exceeds maximum allowed tokens (25000).',
    toolName: 'Read',
    toolUseId: 't2',
    isError: true,
  },
  {
    id: 'c3',
    role: 'assistant',
    content: '{"file_path":"big.ts","offset":1,"limit":400}',
    toolName: 'Read',
    toolUseId: 't3',
  },
  { id: 'r3', role: 'tool', content: 'export …', toolName: 'Read', toolUseId: 't3' },
  { id: 'a1', role: 'assistant', content: 'Following [mis-001], done with pnpm.' },
  { id: 'u3', role: 'user', content: 'Perfect, thanks!' },
  { id: 'u4', role: 'user', content: 'No! Use pnpm instead of npm, please.' },
];

const MINI = JSON.stringify({
  instance_id: 'demo__demo-2',
  info: { exit_status: 'Submitted', submission: 'diff' },
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Fix the bug.' },
    { role: 'assistant', content: 'THOUGHT: build\n```bash\nmake\n```' },
    {
      role: 'user',
      content:
        "<returncode>2</returncode>\n<output>\nmake: *** No rule to make target 'all'.  Stop.\n</output>",
    },
    { role: 'assistant', content: 'THOUGHT: again\n```bash\nmake\n```' },
    {
      role: 'user',
      content:
        "<returncode>2</returncode>\n<output>\nmake: *** No rule to make target 'all'.  Stop.\n</output>",
    },
    { role: 'assistant', content: 'THOUGHT: subdir\n```bash\nmake -C src\n```' },
    { role: 'user', content: '<returncode>0</returncode>\n<output>\nok\n</output>' },
  ],
});

/** Lessons worth keeping: byte-identical classes, lessons, instructions and key points everywhere. */
export const lessonsCases: ConformanceCase[] = [
  {
    name: 'lessons/error classes, failure groups and their fixes',
    run() {
      const classes = [
        errorClass('Exit code 128\nfatal: The current branch feat-ü has no upstream branch.'),
        errorClass(
          'Traceback (most recent call last):\n  File "/a/b.py", line 3\nValueError: bad value 42 ☕',
        ),
        errorClass(`cat: /tmp/${'é'.repeat(300)}/x.txt: No such file or directory`),
      ];
      checkEqual(classes[1], 'ValueError: bad value N ☕', 'traceback class');
      const run = parseTrajectory(MINI);
      const groups = groupFailures([run]);
      checkEqual(groups.length, 1, 'one class for two identical failures');
      const lesson = failureLesson(groups[0]!);
      check(lesson.endsWith(': add `-C`.'), 'the fix that worked');
      const insights = reflectFromTrajectories([run], { allOutcomes: true });
      checkEqual(
        insights[0]!.traceRefs,
        [
          'trajectory:demo__demo-2:event:0',
          'trajectory:demo__demo-2:event:1',
          'trajectory:demo__demo-2:event:2',
        ],
        'every occurrence, then the fix',
      );
      checkEqual(reflectFromTrajectories([run]), [], 'a solved run only when asked');
      return { classes, groups, lesson, insights, steps: stepsFromMessages(CONVERSATION) };
    },
  },
  {
    name: 'lessons/instructions, verdicts and one key point per lesson',
    run() {
      const texts = [
        'No, use pnpm instead of npm.',
        "No! Don't modify the implementation while probing. Ask first.",
        "Shouldn't that be using a fixture?",
        'No, not GraphQL. I said REST endpoint.',
        'No, that is wrong. Ça ne marche pas.',
        `No, use ${'é'.repeat(200)} instead.`,
      ];
      const instructions = texts.map((t) => extractInstruction(t) ?? null);
      checkEqual(instructions[4], null, 'no instruction, no key point');
      const proposals = proposeKeyPoints(
        CONVERSATION.filter((m) => m.role === 'user').map((m) => ({
          category: 'correction',
          confidence: 'high' as const,
          tags: ['correction'],
          traceRefs: [`message:${m.id}`],
        })),
        turnContexts(CONVERSATION),
      );
      checkEqual(
        proposals.map((p) => p.text),
        ['Use pnpm instead of npm.'],
        'the two pnpm corrections are one lesson',
      );
      const verdicts = [
        turnVerdict([{ category: 'approval', confidence: 'high', tags: [], traceRefs: [] }], 'Perfect!'),
        turnVerdict([{ category: 'friction', confidence: 'medium', tags: [], traceRefs: [] }], 'Again?'),
      ];
      return { instructions, proposals, verdicts, dedup: dedupeProposals(proposals, emptyPlaybook()) };
    },
  },
  {
    name: 'lessons/the whole pipeline on a conversation and a run',
    run() {
      const out = lessons({ messages: CONVERSATION, trajectories: [parseTrajectory(MINI)] });
      check(
        out.proposed.some(
          (p) => p.text.startsWith('When `Read` fails with') && p.text.endsWith(': pass `offset`/`limit`.'),
        ),
        'the Read lesson carries its fix',
      );
      check(
        out.tags.some((t) => t.name === 'mis-001' && t.tag === 'helpful'),
        'the approval tags the cited key point',
      );
      check(
        !out.proposed.some((p) => /apply the user|continue this approach|inspect (the )?raw/i.test(p.text)),
        'no template',
      );
      return out;
    },
  },
];
