/**
 * What a console reader (Claude Code's, Gemini CLI's) uses to join the breaks its terminal made when
 * it wrapped prose at its width: the widths are known only once the whole copy is read, so the prose
 * turns' messages are made at the end. Every line counts for the copy's width by its length (outputs
 * are most of a copy, and their width only stands in where the prose shows none); the agent's prose
 * and the prompts are measured in columns, each for its own width (the prose wraps a few columns short
 * of the outputs).
 */
import type { Message } from '../types.js';
import { trimmedEnd, usedColumns, WrapCap } from './console-wrap.js';
import type { Turn } from './text-turns.js';

/** The place of a prose message until the copy's widths are known (replaced in `finish`). */
const PENDING: Message = Object.freeze({ id: '', role: 'assistant', content: '' }) as Message;

/**
 * Measures a console copy's lines and joins its prose turns' wrapped lines once it is read.
 *
 * @example
 * ```ts
 * const wraps = new WrapJoiner(true);
 * wraps.line(raw); // every line
 * wraps.add(turn, text, raw); // a line of prose
 * wraps.push(turn, messages); // instead of messages.push(turn.toMessage())
 * wraps.finish(messages); // at the end
 * ```
 */
export class WrapJoiner {
  private readonly all = new WrapCap();
  private readonly assistant = new WrapCap();
  private readonly user = new WrapCap();
  private readonly pending: { turn: Turn; at: number }[] = [];

  /** `on`: false to keep every break (`keepLineBreaks`): lines are then added as they are. */
  constructor(private readonly on: boolean) {}

  /** Counts a line of the copy for its width. */
  line(line: string): void {
    if (this.on) this.all.add(line, trimmedEnd(line));
  }

  /** Adds a line of prose to `turn` (a person's or the agent's), with how it was printed. */
  add(turn: Turn, text: string, printed: string): void {
    if (!this.on) {
      turn.add(text);
      return;
    }
    const used = usedColumns(printed);
    turn.add(text, false, printed, used);
    (turn.role === 'user' ? this.user : this.assistant).add(printed, used);
  }

  /** Pushes `turn`'s message, or its place when it holds measured prose (made in `finish`). */
  push(turn: Turn, messages: Message[]): void {
    if (turn.measured) this.pending.push({ turn, at: messages.length });
    messages.push(turn.measured ? PENDING : turn.toMessage());
  }

  /** Makes the prose turns' messages, each kind of prose at its own width, else at the copy's. */
  finish(messages: Message[]): void {
    if (this.pending.length === 0) return;
    const all = this.all.width();
    const assistant = this.assistant.width() || all;
    const user = this.user.width() || all;
    for (const { turn, at } of this.pending)
      messages[at] = turn.toMessage(turn.role === 'user' ? user : assistant);
  }
}
