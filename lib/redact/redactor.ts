import { ValidationError } from '../core/index.js';
import { ECHO_KIND, Echoes } from './echoes.js';
import { type ConversationRedactor, type Reading, redactConversation } from './messages.js';
import { type Config, configFor, LITERAL_KIND, type RedactOptions } from './options.js';
import { findPlaceholders } from './placeholders.js';
import { foundOf, mergeFound, uncovered } from './readings.js';
import { type CompiledRules, ScanTrace, type Span, scan } from './scanner.js';
import { originalRange, skeletonOf } from './skeleton.js';

export type { RedactAllow, RedactOptions, RedactPattern } from './options.js';

/**
 * One distinct redacted value.
 *
 * @example
 * ```ts
 * redact('a@x.io b@x.io a@x.io').findings[0]; // { kind: 'email', placeholder: '[email-1]', count: 2 }
 * ```
 */
export interface RedactFinding {
  /** The kind, e.g. `email`, `anthropic-key` or a custom pattern's kind. */
  kind: string;
  /** What replaced the value, e.g. `[email-1]`. */
  placeholder: string;
  /** How many times it was replaced (in this call; across all calls for `Redactor.findings()`). */
  count: number;
  /** The value itself — only with `includeOriginals: true`. */
  original?: string;
}

/**
 * What {@link redact} returns.
 *
 * @example
 * ```ts
 * const { text, findings, count } = redact('mail jane@corp.io');
 * // text 'mail [email-1]', findings [{ kind: 'email', placeholder: '[email-1]', count: 1 }], count 1
 * ```
 */
export interface RedactResult {
  /** The text with every finding replaced by its placeholder. */
  text: string;
  /** One entry per distinct value, in order of first appearance in this text. */
  findings: RedactFinding[];
  /** Total number of replacements. */
  count: number;
}

/**
 * A message whose `content` is a string, or an array of blocks whose `text` strings are redacted.
 *
 * @example
 * ```ts
 * const m: RedactableMessage = { content: [{ type: 'text', text: 'mail jane@corp.io' }] };
 * ```
 */
export interface RedactableMessage {
  content: string | readonly unknown[];
}

/**
 * A redactor that keeps one placeholder map across calls: `[email-1]` is the same address in every
 * message it redacts. Not safe to share between unrelated documents (placeholders would correlate).
 *
 * @example
 * ```ts
 * const r: Redactor = createRedactor();
 * r.redactText('jane@corp.io'); // '[email-1]'
 * r.count; // 1
 * ```
 */
export interface Redactor {
  /** Redacts one text; findings and counts cover this call only. */
  redact(text: string): RedactResult;
  /** Redacts one text and returns only the new text. */
  redactText(text: string): string;
  /** Returns new message objects with redacted `content`; the inputs are not modified. */
  redactMessages<T extends RedactableMessage>(messages: readonly T[]): T[];
  /** Every distinct value seen so far, in order of first appearance, with counts over all calls. */
  findings(): RedactFinding[];
  /** Total replacements over all calls. */
  readonly count: number;
}

interface Entry {
  kind: string;
  placeholder: string;
  value: string;
  count: number;
}

/** Placeholder map and numbering shared by the calls of one redactor. */
class State {
  readonly byValue = new Map<string, Entry>();
  /** Placeholders handed out so far, for spotting them when a later text already holds one. */
  readonly assigned = new Set<string>();
  readonly order: Entry[] = [];
  readonly nextNumber = new Map<string, number>();
  readonly reserved = new Map<string, Set<number>>();
  readonly echoes = new Echoes();
  total = 0;

  reserve(kind: string, n: number): void {
    const set = this.reserved.get(kind);
    if (set) set.add(n);
    else this.reserved.set(kind, new Set([n]));
  }

  entryFor(kind: string, value: string): Entry {
    const existing = this.byValue.get(value);
    if (existing) return existing;
    const taken = this.reserved.get(kind);
    let n = this.nextNumber.get(kind) ?? 1;
    while (taken?.has(n)) n++;
    this.nextNumber.set(kind, n + 1);
    const entry: Entry = { kind, placeholder: `[${kind}-${n}]`, value, count: 0 };
    this.byValue.set(value, entry);
    this.assigned.add(entry.placeholder);
    this.order.push(entry);
    return entry;
  }
}

function run(state: State, config: Config, text: string): RedactResult {
  if (typeof text !== 'string') {
    throw new ValidationError([{ path: '', message: `must be a string, got ${typeof text}` }], {
      subject: 'Text to redact',
    });
  }
  const { rules, isAllowed } = config;
  // The scan reads the text as a reader sees it (invisible characters dropped, NFKC): see skeleton.ts.
  const sk = skeletonOf(text, rules.knownKinds);
  const scanned = sk.text;
  // Placeholders already in the text reserve their numbers, and no caller pattern may match into them.
  // One that an earlier call of this redactor handed out (`[email-1]` pasted back in) would be restored
  // to that call's value: it is replaced too, as a value of kind `placeholder`.
  const existing: number[] = [];
  const literals: number[] = [];
  // A placeholder wedged into a key is not in the skeleton; its number stays reserved all the same,
  // and one this redactor handed out is a literal as well (unless a finding covers it).
  const own: number[] = [];
  if (scanned !== text)
    findPlaceholders(text, rules.knownKinds, (kind, n, start, end) => {
      state.reserve(kind, n);
      if (state.assigned.has(text.slice(start, end))) own.push(start, end);
    });
  findPlaceholders(scanned, rules.knownKinds, (kind, n, start, end) => {
    state.reserve(kind, n);
    existing.push(start, end);
    if (state.assigned.has(scanned.slice(start, end))) literals.push(...originalRange(sk, start, end));
  });
  const spans = spansOf(state, rules, scanned, existing, isAllowed, sk.wedges);
  // Most texts (a line, a message) hold nothing: no findings to map, no output to build.
  if (spans.length === 0 && !sk.wedges && literals.length === 0 && own.length === 0)
    return { text, findings: [], count: 0 };
  let found = foundOf(spans, sk, state.echoes);
  if (sk.wedges) {
    // Read again with the wedged placeholders kept, as a pass over the output reads them (readings.ts).
    const kept = skeletonOf(text, rules.knownKinds, true);
    const read = new Set<number>();
    for (let i = 0; i < existing.length; i += 2)
      read.add(originalRange(sk, existing[i]!, existing[i + 1]!)[0]);
    const at: number[] = [];
    const wedged = new Set<number>();
    findPlaceholders(kept.text, rules.knownKinds, (_kind, _n, start, end) => {
      at.push(start, end);
      const [from] = originalRange(kept, start, end);
      if (!read.has(from)) wedged.add(from);
    });
    const more = foundOf(spansOf(state, rules, kept.text, at, isAllowed), kept, state.echoes);
    // An address that ends at such a placeholder had its domain cut by it: no address (scanner.ts).
    found = mergeFound(
      found,
      more.filter((f) => f.kind !== 'email' || !wedged.has(f.end)),
    );
  }
  const todo = own.length > 0 ? uncovered(literals, own, found) : literals;
  const out = new Output(text);
  let nextLiteral = 0;
  for (const f of found) {
    // Literal placeholders before this finding first, in order (none is inside one).
    while (nextLiteral < todo.length && todo[nextLiteral]! < f.start) {
      nextLiteral = out.literal(todo, nextLiteral, state);
    }
    out.replace(f.start, f.end, state.entryFor(f.kind, text.slice(f.start, f.end)));
  }
  while (nextLiteral < todo.length) nextLiteral = out.literal(todo, nextLiteral, state);
  state.total += out.count;
  if (out.count === 0) return { text, findings: [], count: 0 };
  out.parts.push(text.slice(out.last));
  const findings: RedactFinding[] = [];
  for (const [entry, n] of out.seen) findings.push(finding(entry, n, config.includeOriginals));
  return { text: out.parts.join(''), findings, count: out.count };
}

/**
 * The spans to replace. A value found by its context that also appears bare (see echoes.ts) makes the
 * scan run again with the values as one more rule; a few rounds at most, as a round may find new values.
 */
function spansOf(
  state: State,
  rules: CompiledRules,
  text: string,
  existing: readonly number[],
  isAllowed: Config['isAllowed'],
  wedges?: readonly number[],
): Span[] {
  // A first scan without patterns records its steps: a round with echoes replays those they leave as
  // they were, so it costs the echoes' search and the steps near them rather than a second whole scan.
  let trace: ScanTrace | undefined;
  for (let round = 0; ; round++) {
    const echo = state.echoes.asRule();
    const withEchoes = echo ? { ...rules, custom: [...rules.custom, echo] } : rules;
    if (round === 0 && withEchoes.custom.length === 0) trace = new ScanTrace();
    const spans: Span[] = [];
    scan(
      text,
      withEchoes,
      existing,
      (span) => {
        if (!isAllowed?.(text.slice(span.valueStart, span.end), span.kind)) spans.push(span);
      },
      wedges,
      trace,
    );
    let fresh = false;
    let echoed = 0;
    for (const s of spans) {
      if (s.kind === ECHO_KIND) continue;
      const value = text.slice(s.valueStart, s.end);
      if (state.echoes.add(s.kind, value)) fresh = true;
      if (state.echoes.has(value)) echoed++;
    }
    if (!fresh || round === 2) return spans;
    // Scan again only if the values appear more often than they were found.
    if (state.echoes.count(text) <= echoed) return spans;
  }
}

/** The redacted text as it is built, and what one call replaced. */
class Output {
  readonly parts: string[] = [];
  readonly seen = new Map<Entry, number>();
  last = 0;
  count = 0;
  constructor(readonly text: string) {}

  /** Replaces text[start, end) (after everything replaced so far) by `entry`'s placeholder. */
  replace(start: number, end: number, entry: Entry): void {
    this.parts.push(this.text.slice(this.last, start), entry.placeholder);
    this.last = end;
    entry.count++;
    this.seen.set(entry, (this.seen.get(entry) ?? 0) + 1);
    this.count++;
  }

  /** Replaces the literal placeholder at `literals[i]` (start, end); returns the next index. */
  literal(literals: readonly number[], i: number, state: State): number {
    const start = literals[i]!;
    const end = literals[i + 1]!;
    this.replace(start, end, state.entryFor(LITERAL_KIND, this.text.slice(start, end)));
    return i + 2;
  }
}

function finding(entry: Entry, count: number, includeOriginals: boolean): RedactFinding {
  const f: RedactFinding = { kind: entry.kind, placeholder: entry.placeholder, count };
  if (includeOriginals) f.original = entry.value;
  return f;
}

/** Takes back what one reading counted (its text is being read again). */
function uncount(state: State, result: Reading): void {
  state.total -= result.count;
  for (const f of result.findings) {
    const entry = state.order.find((e) => e.placeholder === f.placeholder);
    if (entry) entry.count -= f.count;
  }
}

/**
 * Creates a redactor whose placeholders stay stable across calls, so every message of one transcript
 * shares them: `[email-1]` is the same address everywhere. Options are checked and compiled once.
 * A later text that already holds one of the placeholders handed out (a redacted reply pasted back
 * in) gets `[placeholder-1]` for it, so restoring a reply cannot turn that literal text into the value.
 *
 * @throws {ValidationError} code `validation_failed` when an option is malformed (unknown kind, bad
 * kind name, a pattern that is neither a string nor a RegExp, …).
 *
 * @example
 * ```ts
 * const r = createRedactor({ allow: ['noreply@anthropic.com'] });
 * r.redactText('mail jane@corp.io');      // 'mail [email-1]'
 * r.redactText('cc jane@corp.io, bob@x.dev'); // 'cc [email-1], [email-2]'
 * r.findings(); // [{ kind: 'email', placeholder: '[email-1]', count: 2 }, { …'[email-2]', count: 1 }]
 * r.redactText('you wrote [email-1]');    // 'you wrote [placeholder-1]'
 * ```
 */
export function createRedactor(options?: RedactOptions): Redactor {
  const config = configFor(options);
  const state = new State();
  const conversation: ConversationRedactor = {
    read: (text) => run(state, config, text),
    uncount: (result) => uncount(state, result),
    echoes: state.echoes,
  };
  const redactor: Redactor = {
    redact: (text) => run(state, config, text),
    redactText: (text) => run(state, config, text).text,
    redactMessages<T extends RedactableMessage>(messages: readonly T[]): T[] {
      if (!Array.isArray(messages)) {
        throw new ValidationError([{ path: '', message: 'must be an array of messages' }], {
          subject: 'Messages to redact',
        });
      }
      return redactConversation(conversation, messages);
    },
    findings: () => state.order.map((e) => finding(e, e.count, config.includeOriginals)),
    get count() {
      return state.total;
    },
  };
  return redactor;
}

/**
 * Replaces secrets and personal data in `text` with numbered placeholders (`[email-1]`,
 * `[anthropic-key-1]`, …): API keys (Anthropic, OpenAI, AWS, GitHub, Stripe, Google, Slack), Slack
 * webhooks, bearer tokens, JWTs, PEM private keys, credentials in URLs, the values of settings such as
 * `PASSWORD=` or `"api_key": "…"`, email addresses and any `patterns` you add. The same value always
 * gets the same placeholder; numbers are per kind, by first appearance, and skip any placeholder the
 * text already holds. One linear pass. The original values are not in the result unless
 * `includeOriginals` is set.
 *
 * @throws {ValidationError} code `validation_failed` when `text` is not a string or an option is malformed.
 *
 * @example
 * ```ts
 * const { text, findings, count } = redact('key sk-ant-api03-abcdefghijklmnopqrstuv, mail jane@corp.io');
 * // text: 'key [anthropic-key-1], mail [email-1]'
 * // findings: [{ kind: 'anthropic-key', placeholder: '[anthropic-key-1]', count: 1 },
 * //            { kind: 'email', placeholder: '[email-1]', count: 1 }]
 * // count: 2
 * redact('ticket TCK-42', { patterns: [{ kind: 'ticket', pattern: /TCK-\d+/ }] }).text; // 'ticket [ticket-1]'
 * ```
 */
export function redact(text: string, options?: RedactOptions): RedactResult {
  return run(new State(), configFor(options), text);
}

/**
 * {@link redact}, returning only the redacted text.
 *
 * @example
 * ```ts
 * redactText('Authorization: Bearer abc123def456ghi789'); // 'Authorization: Bearer [bearer-token-1]'
 * redactText('jane@corp.io', { kinds: { email: false } }); // 'jane@corp.io'
 * ```
 */
export function redactText(text: string, options?: RedactOptions): string {
  return run(new State(), configFor(options), text).text;
}

/**
 * Redacts an array of messages with one shared placeholder map (see {@link createRedactor}) and returns
 * new message objects; the inputs are not modified. `content` may be a string or an array of content
 * blocks, whose string `text` fields (and bare strings) are redacted; anything else is kept as is.
 *
 * @example
 * ```ts
 * redactMessages([
 *   { role: 'user', content: 'I am jane@corp.io' },
 *   { role: 'assistant', content: 'Hello jane@corp.io' },
 * ]);
 * // [{ role: 'user', content: 'I am [email-1]' }, { role: 'assistant', content: 'Hello [email-1]' }]
 * ```
 */
export function redactMessages<T extends RedactableMessage>(
  messages: readonly T[],
  options?: RedactOptions,
): T[] {
  return createRedactor(options).redactMessages(messages);
}
