import {
  applyDelta,
  applyKeyPointTags,
  deduplicate,
  emptyPlaybook,
  enforceBudget,
  extractCitedIds,
  findDuplicates,
  formatPlaybook,
  type Playbook,
  parseAceText,
  playbookFromJson,
  playbookToJson,
  repairSpelling,
  sanitizeKeyPointText,
  selectForPrompt,
  toAceText,
  wilsonLowerBound,
  wordCounts,
} from 'rearview/playbook';
import { check, checkEqual } from '../check';
import type { ConformanceCase } from '../suite';

function sample(): Playbook {
  const pb = emptyPlaybook();
  const add = (s: keyof Playbook['sections'], name: string, text: string, helpful: number, harmful: number) =>
    pb.sections[s].push({
      name,
      text,
      helpful,
      harmful,
      createdAt: `2025-01-${name.slice(-2)}T00:00:00.000Z`,
    });
  add(
    'PATTERNS & APPROACHES',
    'pat-001',
    'Add type hints before refactoring; they surface interface bugs early.',
    7,
    0,
  );
  add(
    'PATTERNS & APPROACHES',
    'pat-002',
    'Prefer small, pure functions that can be unit tested in isolation.',
    4,
    0,
  );
  add(
    'PATTERNS & APPROACHES',
    'pat-003',
    'Prefer small pure functions which can be unit-tested in isolation.',
    1,
    0,
  );
  add(
    'PATTERNS & APPROACHES',
    'pat-004',
    'When a migration fails, inspect the generated SQL before retrying.',
    1,
    0,
  );
  add(
    'MISTAKES TO AVOID',
    'mis-001',
    'Never run database migrations against the shared staging database.',
    3,
    0,
  );
  add('MISTAKES TO AVOID', 'mis-002', 'Avoid catching broad exceptions; it hides the real failure.', 2, 2);
  add('USER PREFERENCES', 'pref-001', 'Concise answers, code first, caf\u00e9 \u{1F600} \u00fcber.', 4, 0);
  add('PROJECT CONTEXT', 'ctx-001', 'The API lives in services/api (Fastify, TypeScript).', 3, 0);
  pb.sections.OTHERS.push({ name: 'kpt_001', text: 'Legacy tip\u200b with\ttabs', helpful: 0, harmful: 1 });
  return pb;
}

/** Playbook formatting, citations, tags, deltas, dedup, budget, selection and ACE text: identical everywhere. */
export const playbookCases: ConformanceCase[] = [
  {
    name: 'playbook/formatPlaybook',
    run() {
      const text = formatPlaybook(sample());
      check(text.includes('cite its ID'), 'citation directive');
      check(text.includes('## PATTERNS & APPROACHES\n- [pat-001] Add type hints'), 'entries');
      check(text.includes('- [kpt_001] Legacy tip with tabs'), 'sanitized legacy entry');
      return {
        text,
        counts: formatPlaybook(sample(), { counts: true }),
        empty: formatPlaybook(emptyPlaybook()),
      };
    },
  },
  {
    name: 'playbook/extractCitedIds',
    run() {
      const ids = extractCitedIds([
        { role: 'user', content: 'Help me refactor this code' },
        { role: 'assistant', content: 'Based on [pat-001] and [mis-002], I recommend...' },
        { role: 'user', content: 'What about [pat-003]?' },
        {
          role: 'assistant',
          content: 'Good point. Also applying [pat-001] here, [kpt_001], [oth-3], [PAT-9]',
        },
        { role: 'assistant', content: [{ type: 'text', text: '[pref-010] and [ctx-1]' }] },
      ]);
      checkEqual(ids, ['pat-001', 'mis-002', 'kpt_001', 'oth-3', 'pref-010', 'ctx-1'], 'cited ids');
      return ids;
    },
  },
  {
    name: 'playbook/applyKeyPointTags',
    run() {
      const pb = sample();
      const warnings: string[] = [];
      const out = applyKeyPointTags(
        pb,
        [
          { name: 'pat-001', tag: 'helpful' },
          { name: 'pat-001', tag: 'helpful' },
          { name: 'mis-002', tag: 'harmful' },
          { name: 'pref-001', tag: 'neutral' },
          { name: 'pat-999', tag: 'helpful' },
          { name: 'ctx-001', tag: 'great' },
        ],
        { onWarning: (m) => warnings.push(m) },
      );
      check(out === pb, 'same object');
      checkEqual(pb.sections['PATTERNS & APPROACHES'][0]!.helpful, 9, 'repeated tags all apply');
      checkEqual(warnings.length, 2, 'unknown name and tag reported');
      return { pb, warnings };
    },
  },
  {
    name: 'playbook/applyDelta',
    run() {
      const res = applyDelta(
        sample(),
        [
          { type: 'ADD', section: 'MISTAKES TO AVOID', text: 'Back up first.', source: { session: 's1' } },
          { type: 'UPDATE', name: 'pat-404', text: 'never redirected' },
          { type: 'MERGE', names: ['pat-002', 'pat-003'], text: 'Small pure functions.' },
          { type: 'REMOVE', name: 'mis-003' },
          { type: 'ADD', section: 'MISTAKES TO AVOID', text: 'Fresh id.' },
        ],
        { now: () => '2026-01-01T00:00:00.000Z' },
      );
      checkEqual(
        res.rejected.map((r) => r.reason),
        ['key point pat-404 not found'],
        'missing target rejected',
      );
      checkEqual(
        res.playbook.sections['MISTAKES TO AVOID'].map((k) => k.name),
        ['mis-001', 'mis-002', 'mis-004'],
        'removed id not reused',
      );
      return res;
    },
  },
  {
    name: 'playbook/dedup',
    run() {
      const groups = findDuplicates(sample());
      checkEqual(
        groups.map((g) => g.names),
        [['pat-002', 'pat-003']],
        'near-duplicates',
      );
      const merged = deduplicate(sample(), { now: () => 't' });
      return { groups, playbook: merged.playbook };
    },
  },
  {
    name: 'playbook/budget and selectForPrompt',
    run() {
      const budget = enforceBudget(sample(), { maxTokens: 200, countTokens: (t) => Math.ceil(t.length / 4) });
      check(budget.tokens <= 200, 'within budget');
      const selection = selectForPrompt(sample(), 'database migration failed', {
        tokenBudget: 180,
        countTokens: (t) => Math.ceil(t.length / 4),
      });
      checkEqual(selection.selected[0]?.name, 'mis-001', 'most relevant first');
      return {
        evicted: budget.evicted,
        selected: selection.selected,
        wilson: [wilsonLowerBound(0, 0), wilsonLowerBound(1, 0), wilsonLowerBound(10, 5)],
      };
    },
  },
  {
    name: 'playbook/ACE text and JSON round trip',
    run() {
      const pb = sample();
      const text = toAceText(pb);
      checkEqual(parseAceText(text).playbook, pb, 'ACE text round trip');
      const json = playbookToJson(pb);
      checkEqual(playbookFromJson(json), pb, 'JSON round trip');
      return { text, json, sanitized: sanitizeKeyPointText('a\u202eb\u0000c\n\nd \udb40\udc41') };
    },
  },
  {
    name: 'playbook/repairSpelling',
    run() {
      const words = new Set("always run the specs before you push it dont don't use pnpm".split(' '));
      const counts = wordCounts([
        'Run the specs before you push it; before, before.',
        'Use pnpm — née pnpm.',
      ]);
      const isWord = (w: string) => words.has(w.toLowerCase());
      const out = [
        'Always run the specs beforu you pushit.',
        'Dont use `beforu` or Beforu in src/beforu.',
        'Ünïcode beforü and BEFORU stay.',
      ].map((t) => repairSpelling(t, { isWord, counts }));
      checkEqual(out[0]!.text, 'Always run the specs before you push it.', 'typos repaired');
      return { out, counts: [...counts] };
    },
  },
];
