/**
 * Redacting a conversation, not one text at a time. A value found by its context in a later message
 * (`mongodb://admin:s3cret42@db`) is often typed bare in an earlier one (`mongosh -u admin -p s3cret42`):
 * a redactor that reads messages in order only knows it from the later one on. So once every message
 * has been read, the messages that were read before such a value was learned and that hold it are read
 * again from their original text, with their first reading's counts taken back.
 */
/** A message as the redactor reads it: its `content` is a string or a list of blocks. */
interface RedactableMessage {
  content?: unknown;
}

/** What one reading of a text gave (a `Reading` of redactor.ts, as far as this file needs it). */
export interface Reading {
  text: string;
  count: number;
  findings: readonly { placeholder: string; count: number }[];
}

/** What {@link redactConversation} needs of a redactor's state. */
export interface ConversationRedactor {
  /** Redacts one text, counting its findings. */
  read(text: string): Reading;
  /** Takes back the counts of a reading that is being redone. */
  uncount(result: Reading): void;
  /** How many echo values are known, and those learned after the first `known`. */
  echoes: { readonly size: number; since(known: number): string[] };
}

const escapeRegExp = (v: string) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The texts of a message's content (a string, or the `text` of its blocks), in order. */
function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') out.push(block);
    else if (typeof block === 'object' && block !== null) {
      const text = (block as { text?: unknown }).text;
      if (typeof text === 'string') out.push(text);
    }
  }
  return out;
}

/** The content with every text replaced through `read`, other blocks as they are. */
function mapContent(content: unknown, read: (text: string) => string): unknown {
  if (typeof content === 'string') return read(content);
  if (!Array.isArray(content)) return content;
  return content.map((block: unknown) => {
    if (typeof block === 'string') return read(block);
    if (typeof block !== 'object' || block === null) return block;
    const text = (block as { text?: unknown }).text;
    return typeof text === 'string' ? { ...block, text: read(text) } : block;
  });
}

/** Redacts one message, keeping each text's reading so that it can be taken back. */
function readMessage<T extends RedactableMessage>(r: ConversationRedactor, m: T, readings: Reading[]): T {
  if (typeof m !== 'object' || m === null) return m;
  return {
    ...m,
    content: mapContent(m.content, (text) => {
      const result = r.read(text);
      readings.push(result);
      return result.text;
    }),
  } as T;
}

/**
 * Redacts `messages` in order, then reads again each message that holds a value learned only after it
 * was read. The second reading costs nothing when no message teaches a new value, and otherwise only
 * the messages that hold one.
 */
export function redactConversation<T extends RedactableMessage>(
  r: ConversationRedactor,
  messages: readonly T[],
): T[] {
  const knownBefore: number[] = [];
  const readings: Reading[][] = [];
  const out = messages.map((m) => {
    knownBefore.push(r.echoes.size);
    const mine: Reading[] = [];
    readings.push(mine);
    return readMessage(r, m, mine);
  });
  const known = r.echoes.size;
  // One literal alternation per count of values known before a message: a single pass over each text.
  const learnedAfter = new Map<number, RegExp>();
  for (let i = 0; i < messages.length; i++) {
    const before = knownBefore[i]!;
    if (before >= known) break; // every later message was read knowing every value
    const m = messages[i]!;
    if (typeof m !== 'object' || m === null) continue;
    let re = learnedAfter.get(before);
    if (!re) {
      re = new RegExp(r.echoes.since(before).map(escapeRegExp).join('|'));
      learnedAfter.set(before, re);
    }
    const pattern = re;
    if (!textsOf(m.content).some((t) => pattern.test(t))) continue;
    for (const reading of readings[i]!) r.uncount(reading);
    out[i] = readMessage(r, m, []);
  }
  return out;
}
