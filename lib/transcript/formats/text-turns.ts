/** A turn being assembled from text lines, joined once at the end (no concatenation in loops). */
import type { Message, Role, SyntheticKind } from '../types.js';
import { joinsWithoutSpace, wrappedBreak } from './console-wrap.js';
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
  /**
   * The lines as printed, beside `parts` ('' for a blank line or a line not to be measured), kept by
   * a console's format so that the breaks its terminal made can be joined once its width is known.
   */
  private printed: string[] | undefined;
  /** The used columns of each printed line (`usedColumns`), beside `printed`. */
  private used: number[] | undefined;
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

  /**
   * Adds a line; blank lines are held back until a non-blank one follows, so trailing blanks drop.
   * `printed`: the line as the terminal printed it (indent and mark included), and `used` its used
   * columns, for {@link joined}.
   */
  add(text: string, blank = false, printed?: string, used = 0): void {
    if (blank) {
      if (this.parts.length > 0) this.blanks++;
      return;
    }
    for (; this.blanks > 0; this.blanks--) {
      this.parts.push('');
      this.printed?.push('');
      this.used?.push(0);
    }
    if (printed !== undefined && this.printed === undefined) {
      this.printed = this.parts.map(() => '');
      this.used = this.parts.map(() => 0);
    }
    this.parts.push(text);
    this.printed?.push(printed ?? '');
    this.used?.push(printed === undefined ? 0 : used);
  }

  /** Whether every line added is blank or spaces (an empty prompt, which sends nothing). */
  get blank(): boolean {
    return this.parts.every((p) => p.trim() === '');
  }

  /** Whether lines were added with how they were printed. */
  get measured(): boolean {
    return this.printed !== undefined;
  }

  /**
   * The content with each break the terminal made at `width` joined (`wrappedBreak`): after a space,
   * or none where `joinsWithoutSpace` says so (East Asian text, a word the terminal cut). Lines added
   * without their printed form keep their breaks, and so does every line when `width` is 0.
   */
  joined(width: number): string {
    const printed = this.printed;
    if (printed === undefined || width === 0) return this.content;
    const lines: string[] = [];
    let run: string[] | undefined;
    for (let k = 0; k < this.parts.length; k++) {
      const text = this.parts[k]!;
      if (
        k > 0 &&
        run !== undefined &&
        printed[k] !== '' &&
        wrappedBreak(printed[k - 1]!, printed[k]!, width, this.used![k - 1])
      ) {
        const piece = text.trim();
        const last = run[run.length - 1]!;
        run[run.length - 1] = last.trimEnd();
        run.push(joinsWithoutSpace(printed[k - 1]!, piece, width) ? piece : ` ${piece}`);
        continue;
      }
      if (run !== undefined) lines.push(run.length === 1 ? run[0]! : run.join(''));
      run = printed[k] === '' ? undefined : [text];
      if (run === undefined) lines.push(text);
    }
    if (run !== undefined) lines.push(run.length === 1 ? run[0]! : run.join(''));
    return lines.join('\n');
  }

  get content(): string {
    return this.parts.length === 1 ? this.parts[0]! : this.parts.join('\n');
  }

  /** The first line of {@link content} ('' before any), without joining the others. */
  get firstLine(): string {
    return this.parts[0] ?? '';
  }

  /** The message; with `width`, the terminal's breaks at that width joined ({@link joined}). */
  toMessage(width = 0): Message {
    const m: Message = {
      id: `m${this.line}`,
      role: this.role,
      content: width === 0 ? this.content : this.joined(width),
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
