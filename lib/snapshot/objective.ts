/**
 * A session's objective from its task message: the task under a harness's wrapping (a SWE-agent or
 * mini-swe-agent `<pr_description>` or `ISSUE:` block, Terminus' `Task Description:`), else the text.
 * `entriesFromMessages` (adapters.ts) reads its first person's message with it.
 */

const OPEN_PR = '<pr_description>';

/**
 * `/<pr_description>\s*([\s\S]*?)<\/pr_description>/.exec(text)?.[1]` with two searches: the first
 * opener and the first closer after it (when that opener has none, no later one has). The regex read
 * to the closer again for each space it gave back from `\s*` (quadratic on a long run of spaces).
 */
function prDescription(text: string): string | undefined {
  const open = text.indexOf(OPEN_PR);
  if (open < 0) return undefined;
  const close = text.indexOf('</pr_description>', open + OPEN_PR.length);
  if (close < 0) return undefined;
  // mini-swe-agent opens the description with its own words: the task starts after them.
  return text
    .slice(open + OPEN_PR.length, close)
    .replace(/^\s+/, '')
    .replace(HARNESS_LEAD, '');
}

/** The words mini-swe-agent's template puts before the PR description it quotes. */
const HARNESS_LEAD = /^Consider the following PR description:\s*/;

const TASK_DESCRIPTION = 'Task Description:';

/**
 * The task under a harness's own instructions: Terminus' prompt explains its JSON reply format first
 * and quotes the task after a `Task Description:` line, then the terminal's screen. Undefined without
 * that line.
 */
function taskDescription(text: string): string | undefined {
  const at = text.indexOf(TASK_DESCRIPTION);
  if (at < 0 || (at > 0 && text[at - 1] !== '\n')) return undefined;
  const from = at + TASK_DESCRIPTION.length;
  const screen = text.indexOf('\nCurrent terminal state:', from);
  return withoutTaskHeading(text.slice(from, screen < 0 ? undefined : screen));
}

/** A task's own heading (`# Task`) says nothing the task does not. */
const withoutTaskHeading = (text: string): string => text.replace(/^\s*#{1,6}[ \t]*Task[ \t]*\n/i, '');

/**
 * `text` without its closed HTML comments (`<!-- Please check the guidelines… -->`): an issue
 * template's notes to its writer, which SWE-bench tasks quote. One pass: an unclosed `<!--` ends it.
 */
function withoutComments(text: string): string {
  let at = text.indexOf('<!--');
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = text.indexOf('-->', at + 4);
    if (end < 0) break;
    out += `${text.slice(from, at)} `;
    from = end + 3;
    at = text.indexOf('<!--', from);
  }
  return out + text.slice(from);
}

/**
 * The objective in a task message: a `<pr_description>` or an `ISSUE:` block when there is one (SWE-agent
 * and mini-swe-agent tasks), the text after a `Task Description:` line (Terminus), else the text
 * itself; whitespace squashed (and a PR's or issue's HTML comments dropped), at most ~240 characters.
 *
 * @example
 * ```ts
 * objectiveFromText('<pr_description>Fix the retry queue</pr_description> …'); // 'Fix the retry queue'
 * ```
 */
export function objectiveFromText(text: string): string {
  const pr = prDescription(text) ?? taskDescription(text);
  const issue = pr === undefined ? /ISSUE:\s*([\s\S]*?)(?:\n\s*\n|INSTRUCTIONS:|$)/.exec(text) : null;
  // An issue template's comments, in a quoted PR or issue only: a person's own text may hold a
  // comment that is the task ("implement this TO-DO: ```md <!-- TO-DO: … -->```").
  const quoted = pr ?? issue?.[1];
  const body = (quoted === undefined ? text : withoutComments(quoted)).replace(/\s+/g, ' ').trim();
  return body.length <= 240 ? body : body.slice(0, 240).replace(/\s\S*$/, '');
}

/**
 * Words of a turn that states no task: greetings, thanks, forms of address and requests to go on, by
 * their letters with repeats squashed ("hellooooo" → "helo", "hii" → "hi"). English, with the
 * greetings of the languages the shared data holds.
 */
const NO_TASK = new Set(
  [
    'hi hello hey heya yo sup wassup whatsup howdy hola hallo bonjour salut ciao hej привет 你好 您好',
    'こんにちは 안녕 안녕하세요 good morning afternoon evening gm thanks thank you thx ty man bro buddy',
    'dude mate there my all everyone guys friend please continue go on keep going ahead next more',
    'generating the previous response and again',
  ]
    .join(' ')
    .split(' ')
    .map((w) => squeezeRepeats(w)),
);
/** A turn of more words than this states something, whatever they are. */
const NO_TASK_WORDS = 6;

/** A word with its runs of one letter cut to one: typed greetings stretch their vowels. */
function squeezeRepeats(word: string): string {
  let out = '';
  for (const c of word) if (out.length === 0 || out[out.length - 1] !== c) out += c;
  return out;
}

/**
 * Whether a person's turn states no task: at most six words, each a greeting, a thanks, a form of
 * address or a request to go on ("yo wassup", "Hello hello", "please continue", "continue the previous
 * response"). Such a first turn is no objective: the next one is. Reads at most the first 80
 * characters, so a long turn costs nothing.
 *
 * @example
 * ```ts
 * statesNoTask('yo wassup'); // true
 * statesNoTask('Hi! Please add a dark mode toggle.'); // false
 * ```
 */
export function statesNoTask(text: string): boolean {
  const head = text.trim();
  if (head.length === 0 || head.length > 80) return false;
  const words = head
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  return (
    words.length > 0 && words.length <= NO_TASK_WORDS && words.every((w) => NO_TASK.has(squeezeRepeats(w)))
  );
}
