/**
 * Openings of English notes that say what the whole sentence does, as data: one row per rule (id,
 * stage, pattern, category, an example), tried in order at their stage of `classify.ts`'s decisions:
 * `first`, before anything else is read; `after-plan`, once an opening imperative or plan has had its
 * say ("**Create a local environment file**" is a step; "**Next steps**" is a title); `last`, when the
 * whole reading found nothing ("Login is not implemented yet": a part missing or not working, read over a
 * bounded stretch of the sentence). Each pattern is anchored at the sentence's start (`^`, a test holds
 * every row to it), so a row that does not apply fails early; each stage is gated by one alternation built
 * from its rows' patterns (the shortcut is derived, never kept by hand). Rows hold the plain words these
 * openings are made of, not phrases of one session; they were written from the misses of the strangers'
 * notes pool and of the kept-apart sets once each was scored (eval/snapshot/sets/strangers-notes*).
 */
import { BLOCKER, EVIDENCE, NEXT, NO_CATEGORY } from './codes.js';
import { IMP, KIND } from './cues.js';

/** One rule of the table. */
export interface EnglishRule {
  /** `<category>-<what>`, e.g. `none-offer`. */
  id: string;
  /**
   * When the row is tried: before anything else, after the opening imperative or plan, or `last`, when
   * the whole reading (English and the other languages) found nothing.
   */
  stage: 'first' | 'after-plan' | 'last';
  /** Anchored at the start (`^`). */
  pattern: RegExp;
  /** The category code (codes.ts) the rule gives: `NO_CATEGORY` for a sentence that is no note. */
  category: number;
  /** When set, the row holds only if the pattern's group 1 is a verb that opens a plan (cues.ts `IMP`). */
  verb?: true;
  /** A sentence the rule reads, for the table's test. */
  example: string;
}

/** A list marker, numbering or bold before the words. */
const LEAD = String.raw`^[\s*#>•\-–\d.)]*`;

/** The table, in the order its rules are tried. */
export const ENGLISH_RULES: readonly EnglishRule[] = [
  {
    // A sign-off offering more help: no note for the next iteration ("Let me know if you want…").
    id: 'none-offer',
    stage: 'first',
    pattern: new RegExp(
      `${LEAD}(?:please\\s+)?(?:just\\s+)?let\\s+me\\s+know\\s+(?:if|whether|how|when)\\b`,
      'i',
    ),
    category: NO_CATEGORY,
    example: 'Let me know if you want a demo script or more details!',
  },
  {
    // "Is there anything else I can help you with?", "How may I assist you further?": a sign-off asked,
    // no question the work waits on ("Is there anything else you'd like me to adjust in X?" asks one).
    id: 'none-offer-asked',
    stage: 'first',
    pattern: new RegExp(
      `${LEAD}(?:is\\s+there\\s+anything\\s+else\\s+(?:that\\s+)?(?:i|we)\\s+can|how\\s+(?:else\\s+)?(?:can|may|could)\\s+i\\s+(?:help|assist)|what\\s+else\\s+can\\s+i\\s+(?:help|do))\\b`,
      'i',
    ),
    category: NO_CATEGORY,
    example: 'Is there anything else I can help you with?',
  },
  {
    // "Here is an example of how you might do this:", "Here's some sample code that could be used:": the
    // hedge tells what the content shown may be used for, no guess about the work ("an example of what
    // might be causing it" still guesses).
    id: 'none-presented',
    stage: 'first',
    pattern: new RegExp(
      `${LEAD}(?:(?:sure|okay|ok|certainly|of\\s+course|absolutely)[,!.]?\\s+)?here(?:['’]s|\\s+is|\\s+are)\\s+(?:(?:an?|some|the|one|more|a\\s+few)\\s+)?(?:[\\w-]+\\s+){0,2}?(?:examples?|samples?|lists?|versions?|snippets?|templates?|drafts?)\\b(?!\\s+of\\s+what\\b)[^.?!\\n]{0,200}?\\b(?:might|could|may)\\b`,
      'i',
    ),
    category: NO_CATEGORY,
    example: 'Here is an example of how you might do this with the Python client:',
  },
  {
    // "If you want, paste another file and I'll convert it": an offer that waits on the person.
    id: 'none-conditional-offer',
    stage: 'first',
    pattern: new RegExp(
      `${LEAD}if\\s+you(?:['’]d|\\s+would|\\s+ever)?\\s+(?:like|want|prefer|need|have|share|paste)\\b(?:[^.?!\\n]|\\.(?=\\S)){0,160}?\\b(?:i['’]ll|i\\s+will|i\\s+can|i\\s+could|just\\s+ask|let\\s+me\\s+know)\\b`,
      'i',
    ),
    category: NO_CATEGORY,
    example: 'If you have other files that use CSS modules, share them and I’ll convert them for you!',
  },
  {
    // "**Preview URL:** https://…", "In the backend root: [ui](file:///c:/…)", "**Commit hash:** `5682327`":
    // a label, then only the link, path or commit.
    id: 'evidence-labelled-link',
    stage: 'first',
    pattern:
      /^\s*(?:[-*•]\s+)?\*{0,2}[^*:\n]{1,40}:\*{0,2}\s*(?:\*\*)?(?:(?:\[[^\]\n]{0,200}\]\()?(?:https?|file):\/\/\S+|`(?:[A-Za-z]:)?[\w.~-]*[/\\][\w./\\~-]*`|`[0-9a-f]{7,40}`)\s*$/,
    category: EVIDENCE,
    example: '**Preview URL:** https://example.com/preview/42',
  },
  {
    // "d3b74a9 feat: add the evening band", "`2295b44..18f53ef main -> main`": a commit to look at.
    id: 'evidence-commit',
    stage: 'first',
    pattern:
      /^\s*`?(?=[0-9a-f]{0,39}[0-9])(?=[0-9a-f]{0,39}[a-f])[0-9a-f]{7,40}(?:\.\.[0-9a-f]{7,40})?(?=[\s`]|$)/,
    category: EVIDENCE,
    example: 'd3b74a9 feat: add the evening band',
  },
  {
    // "I don't have direct access to your file system": what the agent cannot do stops the plan.
    id: 'blocker-cannot-reach',
    stage: 'first',
    pattern:
      /^\s*(?:but\s+|however,?\s+|unfortunately,?\s+)?i(?:\s+(?:don['’]t|do\s+not|cannot|can['’]t|am\s+(?:unable|not\s+able)\s+to)|['’]m\s+(?:unable|not\s+able)\s+to)\s+(?:have\s+)?(?:direct\s+)?(?:access|browse|reach|connect|install)\b/i,
    category: BLOCKER,
    example: "I don't have direct access to your local file system.",
  },
  {
    // "The seeds file still has `org_id`.": a thing that still holds what should be gone ("We still
    // have full coverage" is no problem: a person or team as the subject keeps what it wants).
    id: 'blocker-still-holds',
    stage: 'after-plan',
    pattern:
      /^\s*(?!(?:if|when|whether|unless|what|why|how|we|i|you|they)\b)(?:[\w`'.-]+\s+){1,5}still\s+(?:has|have|contains|contain|shows|show|includes|include|references|reference|uses|use)\s/i,
    category: BLOCKER,
    example: 'The seeds file still has `org_id`.',
  },
  {
    // "**Option 1: Symlink the commands folder**", "**Step 2: Copy the file**": a step offered under a number.
    id: 'next-numbered-option',
    stage: 'first',
    pattern:
      /^\s*(?:[-*•]\s+)?\*{0,2}(?:option|step|fix|approach)\s*[A-Za-z0-9]{0,2}\s*\*{0,2}\s*[:.)–—-]\s*\*{0,2}\s*([A-Za-z]+)\b/i,
    category: NEXT,
    verb: true,
    example: '**Option 1: Symlink the commands folder**',
  },
  {
    // "After that, run `gt doctor --fix` again.", "Once you have updated the file, please follow …": a
    // step after the one before it.
    id: 'next-after-clause',
    stage: 'first',
    pattern:
      /^\s*(?:[-*•]\s+)?(?:(?:after|once|when|before)\s+[^,\n]{1,80}|then|next|finally),\s*(?:please\s+)?([a-z]+)\b/i,
    category: NEXT,
    verb: true,
    example: 'After that, run `gt doctor --fix` again to migrate the database.',
  },
  {
    // "Once this installation finishes, I will re-run the tests.": a plan after the one before it.
    id: 'next-after-clause-plan',
    stage: 'first',
    pattern:
      /^\s*(?:[-*•]\s+)?(?:after|once|when|as\s+soon\s+as)\s+[^,\n]{1,80},\s*(?:i['’]ll|i\s+will|we['’]ll|we\s+will|let\s+me|let['’]s)\s/i,
    category: NEXT,
    example: 'Once this installation finishes, I will re-run the tests.',
  },
  {
    // "Now to modify the admin page.", "Time to run the migration": a step named by its verb.
    id: 'next-now-to',
    stage: 'after-plan',
    pattern: /^[\s*#>•\-–\d.)]*(?:now|next|then|time)\s+to\s+([a-z]+)\b/i,
    category: NEXT,
    verb: true,
    example: 'Now to modify the admin page.',
  },
  {
    // "The solution is to include a hidden input", "The first step is to navigate into the folder".
    id: 'next-step-is-to',
    stage: 'after-plan',
    pattern:
      /^\s*(?:so,?\s+)?(?:the|a|one|my|our)\s+(?:[a-z]+\s+)?(?:solution|fix|step|approach|remedy|workaround)\s+(?:here\s+)?is\s+to\s+([a-z]+)\b/i,
    category: NEXT,
    verb: true,
    example: 'The solution is to include a hidden input for the item ID.',
  },
  {
    // "**Tag Filtering**", "**Test Infrastructure**": a bold heading in title case names a topic, even
    // when its first word could be a verb ("**Create a local environment file**" is a step).
    id: 'none-title-case-heading',
    stage: 'first',
    pattern: /^\s*\*\*[A-Z][a-z]+(?:\s+(?:[A-Z][A-Za-z]*|and|of|for|to|the|a|&))*\s+[A-Z][A-Za-z]*\*\*:?\s*$/,
    category: NO_CATEGORY,
    example: '**Test Infrastructure**',
  },
  {
    // A bold heading with nothing after it ("**Next steps**"): a title over what follows.
    id: 'none-bold-heading',
    stage: 'after-plan',
    pattern: /^\s*\*\*[^*\n]{1,60}\*\*\s*$/,
    category: NO_CATEGORY,
    example: '**Next steps**',
  },
  {
    // "Login is not implemented yet.", "The server is not sending the required headers.": a part that
    // is missing or not working, said with a negated state, and nothing else read in the sentence.
    id: 'blocker-not-in-place',
    stage: 'last',
    pattern:
      /^(?:[^.?!\n]{0,160}?\s)?(?:is|are|was|were|has|have)(?:n['’]t|\s+not)\s+(?:(?:yet|been|being|actually|properly|correctly|currently|even)\s+){0,2}(?:implemented|supported|configured|set\s+up|wired|connected|installed|enabled|loaded|defined|sent|received|called|triggered|rendered|displayed|shown|saved|persisted|applied|created|registered|initiali[sz]ed|working|running|loading|sending|returning|rendering|showing|responding|starting|connecting|reachable|available|populated|recogni[sz]ed|detected)\b/i,
    category: BLOCKER,
    example: 'User registration and login are not implemented yet.',
  },
  {
    // "It doesn't perform real text recognition.", "The hook does not fire on save."
    id: 'blocker-does-not',
    stage: 'last',
    pattern:
      /^(?:[^.?!\n]{0,160}?\s)?(?:does|do|did)(?:n['’]t|\s+not)\s+(?:(?:actually|currently|properly|correctly|even)\s+)?(?:work|perform|send|return|render|load|start|run|exist|compile|support|handle|match|save|trigger|fire|respond|connect|apply|persist|reach)\b/i,
    category: BLOCKER,
    example: 'The current OCR step is a simulation; it does not perform real text recognition.',
  },
  {
    // "It returns a 201 status code instead of 200.": a wrong result, named against the right one.
    id: 'blocker-instead-of',
    stage: 'last',
    pattern:
      /^[^.?!\n]{0,160}?\b(?:returns?|returning|shows?|showing|gets?|getting|gives?|giving|produces?|producing|renders?|rendering|prints?|printing)\b[^.?!\n]{0,80}?\binstead\s+of\b/i,
    category: BLOCKER,
    example: 'The endpoint returns a 201 status code instead of 200.',
  },
  {
    // "I don't see the 'Starting backend' message.": what should be there is not.
    id: 'blocker-not-seen',
    stage: 'last',
    pattern:
      /^(?:[^.?!\n]{0,80}?\s)?(?:i|we)\s+(?:still\s+)?(?:don['’]t|do\s+not|can['’]t|cannot)\s+see\s+(?:the|a|an|any)\b/i,
    category: BLOCKER,
    example: "Nginx starts, but I don't see the backend's startup message.",
  },
];

/**
 * A stage's rows and their gate: one case-insensitive alternation of the rows' own patterns, built from
 * them (never kept by hand). It matches whenever a row does (`i` only widens a pattern), so a sentence it
 * rejects, nearly all of them, costs one regex call instead of one per row.
 */
function stageOf(stage: EnglishRule['stage']): { rows: readonly EnglishRule[]; gate: RegExp } {
  const rows = ENGLISH_RULES.filter((r) => r.stage === stage);
  return { rows, gate: new RegExp(rows.map((r) => `(?:${r.pattern.source})`).join('|'), 'i') };
}
const FIRST = stageOf('first');
const AFTER_PLAN = stageOf('after-plan');
const LAST = stageOf('last');

/**
 * @internal The category code the rows of `stage` give `raw` (codes.ts), or `undefined` when none applies.
 *
 * @example
 * ```ts
 * englishOpening('Let me know if you need anything else!', 'first'); // NO_CATEGORY (-1): no note
 * englishOpening('Run the tests', 'first'); // undefined: the word-by-word reading decides
 * ```
 */
export function englishOpening(raw: string, stage: EnglishRule['stage']): number | undefined {
  const { rows, gate } = stage === 'first' ? FIRST : stage === 'after-plan' ? AFTER_PLAN : LAST;
  if (!gate.test(raw)) return undefined;
  for (const rule of rows) {
    if (!rule.verb) {
      if (rule.pattern.test(raw)) return rule.category;
      continue;
    }
    const m = rule.pattern.exec(raw);
    if (m && ((KIND.get(m[1]!.toLowerCase()) ?? 0) & IMP) !== 0) return rule.category;
  }
  return undefined;
}

/**
 * @internal `c`, or when it is no category, what the `last` stage reads in `raw` (a part missing or not
 * working), else no category.
 *
 * @example
 * ```ts
 * orLast(NO_CATEGORY, 'Login is not implemented yet.'); // BLOCKER
 * ```
 */
export const orLast = (c: number, raw: string): number =>
  c !== NO_CATEGORY ? c : (englishOpening(raw, 'last') ?? NO_CATEGORY);
