/** A turn being assembled from text lines, joined once at the end (no concatenation in loops). */
import type { Message, Role, SyntheticKind } from '../types.js';
import { consoleTurnKind, syntheticKind } from './synthetic.js';

/**
 * Lines of one turn of a text transcript.
 *
 * @example
 * ```ts
 * const turn = new Turn('user', 3);
 * turn.add('hello');
 * turn.toMessage(); // { id: 'm3', role: 'user', content: 'hello', source: { line: 3 } }
 * ```
 */
export class Turn {
  private readonly parts: string[] = [];
  private blanks = 0;
  toolName?: string;
  toolUseId?: string;
  /** Set by a format that knows the turn is not a person's; else harness text is recognised by its start. */
  synthetic?: SyntheticKind;
  /** Set by a console's format: a person's turn that is a console's slash command is synthetic too. */
  console = false;

  constructor(
    readonly role: Role,
    readonly line: number,
  ) {}

  /** Adds a line; blank lines are held back until a non-blank one follows, so trailing blanks drop. */
  add(text: string, blank = false): void {
    if (blank) {
      if (this.parts.length > 0) this.blanks++;
      return;
    }
    for (; this.blanks > 0; this.blanks--) this.parts.push('');
    this.parts.push(text);
  }

  get content(): string {
    return this.parts.length === 1 ? this.parts[0]! : this.parts.join('\n');
  }

  /** The first line of {@link content} ('' before any), without joining the others. */
  get firstLine(): string {
    return this.parts[0] ?? '';
  }

  toMessage(): Message {
    const m: Message = {
      id: `m${this.line}`,
      role: this.role,
      content: this.content,
      source: { line: this.line },
    };
    if (this.toolName !== undefined) m.toolName = this.toolName;
    if (this.toolUseId !== undefined) m.toolUseId = this.toolUseId;
    if (this.role === 'user') {
      const kind = this.synthetic ?? (this.console ? consoleTurnKind : syntheticKind)(m.content);
      if (kind !== undefined) m.synthetic = kind;
    }
    return m;
  }
}

/**
 * Removes up to `max` leading spaces (plain or no-break: terminals copy indentation as U+00A0).
 *
 * @example
 * ```ts
 * dedent('     x', 2); // '   x'
 * ```
 */
export function dedent(line: string, max: number): string {
  let i = 0;
  while (i < max && i < line.length && (line.charCodeAt(i) === 0x20 || line.charCodeAt(i) === 0xa0)) i++;
  return i === 0 ? line : line.slice(i);
}
