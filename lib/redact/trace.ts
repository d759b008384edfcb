/**
 * What a scan without caller patterns chose, step by step, so that a scan of the same text with
 * patterns added (the echoes of values found by the first, see echoes.ts and redactor.ts) can take a
 * step over instead of working it out again. The scan is a pure function of its position: a step that
 * starts where a step of the first scan started, after a match, with no pattern matching before or at
 * the built-in match that step chose, ends where it ended and emits what it emitted. Such a second scan
 * costs the patterns' search and the steps near their matches, not a whole scan.
 */
import type { Span } from './rules.js';

/**
 * What each combined expression's search found from where it was asked: `from`, then the match it
 * returned (null: none to the end). A match found from `from` is the first at or after any position
 * between `from` and its own start, so a later scan of the same text asks again only outside those
 * stretches. Built by the first scan (its positions only grow), read forward by later ones.
 *
 * @example
 * ```ts
 * const log = new MatchLog();
 * log.record(0, 0, match); // expression 0, searched from 0, found `match` at 10
 * log.known(0, 5); // `match`: no search from 5 finds anything before 10
 * ```
 */
export class MatchLog {
  private readonly from: number[][] = [];
  private readonly found: (RegExpExecArray | null)[][] = [];
  private readonly cursor: number[] = [];

  /** Records that expression `i`, searched from `from`, found `m`. */
  record(i: number, from: number, m: RegExpExecArray | null): void {
    if (this.from[i] === undefined) {
      this.from[i] = [];
      this.found[i] = [];
    }
    this.from[i]!.push(from);
    this.found[i]!.push(m);
  }

  /** The match expression `i` finds from `from`, when a recorded search covers it; else undefined. */
  known(i: number, from: number): RegExpExecArray | null | undefined {
    const froms = this.from[i];
    if (froms === undefined) return undefined;
    const found = this.found[i]!;
    let k = this.cursor[i] ?? 0;
    while (k < froms.length && found[k] !== null && found[k]!.index < from) k++;
    this.cursor[i] = k;
    return k < froms.length && froms[k]! <= from ? found[k] : undefined;
  }

  /** Starts reading from the first search again. */
  rewind(): void {
    this.cursor.length = 0;
  }
}

/**
 * The steps of one scan without caller patterns (see the file's comment), with its searches.
 *
 * @example
 * ```ts
 * const trace = new ScanTrace();
 * scan(text, rules, [], onSpan, undefined, trace); // records
 * scan(text, { ...rules, custom: [echo] }, [], onSpan, undefined, trace); // replays what it can
 * ```
 */
export class ScanTrace {
  /** Per step: where it started (after a match), the start of the built-in match it chose. */
  private readonly from: number[] = [];
  private readonly chose: number[] = [];
  /**
   * Step k's spans are `spans[first[k], first[k + 1])`: a step is recorded after its spans. Its last
   * span ends where the step ended (`emit` gives the step's own span last).
   */
  private readonly first: number[] = [0];
  private readonly spans: Span[] = [];
  /** The step a replay looks at next (replays only move forward). */
  private cursor = 0;
  /** The combined expressions' searches of the first scan. */
  readonly matches = new MatchLog();

  /** Records a step that started at `from` after a match and chose the match at `chose`. */
  step(from: number, chose: number): void {
    this.from.push(from);
    this.chose.push(chose);
    this.first.push(this.spans.length);
  }

  /** Records a span the current step emits ({@link step} then closes the step). */
  span(span: Span): void {
    this.spans.push(span);
  }

  /** Starts a replay from the first step. */
  rewind(): void {
    this.cursor = 0;
    this.matches.rewind();
  }

  /**
   * The recorded step that started at `pos`, or -1. Positions asked must not go back.
   */
  at(pos: number): number {
    const from = this.from;
    while (this.cursor < from.length && from[this.cursor]! < pos) this.cursor++;
    return this.cursor < from.length && from[this.cursor] === pos ? this.cursor : -1;
  }

  /** Where step `k`'s built-in match started. */
  choseAt(k: number): number {
    return this.chose[k]!;
  }

  /** Emits step `k`'s spans again and returns where it ended. */
  replay(k: number, onSpan: (span: Span) => void): number {
    const end = this.first[k + 1]!;
    for (let i = this.first[k]!; i < end; i++) onSpan(this.spans[i]!);
    return this.spans[end - 1]!.end;
  }
}
