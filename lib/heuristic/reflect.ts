/**
 * `heuristicReflect`: seed 004's `heuristic_reflect` on rearview messages, with the word- and
 * context-aware detector of `scanner.ts` in place of substring markers.
 */
import { contentText, defaultRef, truncateUtf8 } from '../core/index.js';
import { DEFAULT_MARKERS, type MarkerSet } from './markers.js';
import {
  CHALLENGE,
  CORRECTION,
  type CompiledMarkers,
  compileMarkers,
  FRICTION,
  POSITIVE,
  PREFERENCE,
  scanTurn,
} from './scanner.js';
import type { MessageLike, ReflectionInsight } from './types.js';

/**
 * Options of {@link heuristicReflect}.
 *
 * @example
 * ```ts
 * const options: HeuristicOptions = { markers: { ...DEFAULT_MARKERS, friction: [...DEFAULT_MARKERS.friction, 'ffs'] } };
 * ```
 */
export interface HeuristicOptions {
  /** Marker lists (default {@link DEFAULT_MARKERS}), or lists compiled once with {@link compileMarkers}. */
  markers?: MarkerSet | CompiledMarkers;
  /** Builds a turn's trace reference. Default `message:{id}`, with `id = message.id ?? 'm' + index`. */
  ref?: (message: MessageLike, index: number) => string;
}

/** What {@link classifyTurn} found in one user turn. */
export interface TurnSignals {
  /** Any correction: an explicit one or a challenging question. */
  correction: boolean;
  /** Only a challenging question ("Shouldn't that…?") marked it as a correction. */
  challenge: boolean;
  preference: boolean;
  /** The preference is approval of what the assistant did. */
  positive: boolean;
  friction: boolean;
}

let defaultCompiled: CompiledMarkers | undefined;
let compiledCache: WeakMap<object, CompiledMarkers> | undefined;

/** @internal */
export function resolveMarkers(markers: MarkerSet | CompiledMarkers | undefined): CompiledMarkers {
  // Absent, the defaults themselves, or not an object at all: the compiled defaults.
  if (typeof markers !== 'object' || markers === null || markers === DEFAULT_MARKERS) {
    defaultCompiled ??= compileMarkers(DEFAULT_MARKERS);
    return defaultCompiled;
  }
  if ('byFirst' in markers) return markers;
  compiledCache ??= new WeakMap();
  let compiled = compiledCache.get(markers);
  if (!compiled) {
    compiled = compileMarkers(markers);
    compiledCache.set(markers, compiled);
  }
  return compiled;
}

/**
 * Classifies one user turn. Linear in its length; never throws.
 *
 * @example
 * ```ts
 * classifyTurn('Shouldn\'t that be using a fixture?').correction; // true
 * classifyTurn('Is 49 a perfect square?').preference;             // false
 * ```
 */
export function classifyTurn(text: string, markers?: MarkerSet | CompiledMarkers): TurnSignals {
  const bits = scanTurn(text, resolveMarkers(markers));
  return {
    correction: (bits & (CORRECTION | CHALLENGE)) !== 0,
    challenge: (bits & (CORRECTION | CHALLENGE)) === CHALLENGE,
    preference: (bits & PREFERENCE) !== 0,
    positive: (bits & POSITIVE) !== 0,
    friction: (bits & FRICTION) !== 0,
  };
}

const RECOMMENDATION_MARKERS = ['instead,', 'actually,', 'please ', 'use ', "don['’]t "];
/** Compiled on first use (not at module scope), then reused for every insight. */
let recommendationRes: RegExp[] | undefined;

/**
 * The actionable part of a correction, as in the seed: from the first of `instead,`, `actually,`,
 * `please `, `use `, `don't ` (in that order of preference, case-insensitive, at a word start) to the
 * next `.` or 150 bytes; else "Apply the user's correction.".
 *
 * @example
 * ```ts
 * extractRecommendation('No. Please use the fixture. Thanks'); // 'Please use the fixture'
 * ```
 */
export function extractRecommendation(text: string): string {
  if (typeof text === 'string') {
    recommendationRes ??= RECOMMENDATION_MARKERS.map((m) => new RegExp(`(?<![a-z])${m}`, 'i'));
    for (const marker of recommendationRes) {
      const found = marker.exec(text);
      if (!found) continue;
      const rest = text.slice(found.index);
      const dot = rest.indexOf('.');
      const out = (dot >= 0 ? rest.slice(0, dot) : truncateUtf8(rest, 150)).trim();
      if (out) return out;
    }
  }
  return "Apply the user's correction.";
}

/**
 * Finds user corrections, preferences and friction in a conversation without any model call (seed
 * 004's `heuristic_reflect`). Only user turns are read; messages flagged `synthetic` (turns no person
 * wrote: continuation summaries, command expansions, hook output, an agent's task) are skipped
 * entirely, as if absent. Each insight's `traceRefs` name the turn
 * itself and, for a correction, the previous user turn and the message just before the correction
 * (normally the assistant reply being corrected). Deterministic; never throws on malformed messages.
 *
 * @example
 * ```ts
 * const { messages } = parseTranscript(text);
 * for (const insight of heuristicReflect(messages)) console.log(insight.category, insight.fact);
 * ```
 */
export function heuristicReflect(
  messages: readonly MessageLike[],
  options: HeuristicOptions = {},
): ReflectionInsight[] {
  const out: ReflectionInsight[] = [];
  if (!Array.isArray(messages)) return out;
  const compiled = resolveMarkers(options?.markers);
  const refOf = typeof options?.ref === 'function' ? options.ref : defaultRef;
  let prev: { text: string; ref: string } | undefined;
  let lastOther: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    // A turn no person wrote (a continuation summary, a command expansion…) teaches nothing.
    if (m === null || typeof m !== 'object' || m.synthetic) continue;
    const text = contentText(m.content);
    if (m.role !== 'user' && m.role !== 'human') {
      if (text !== undefined) lastOther = refOf(m, i);
      continue;
    }
    if (text === undefined || text.trim() === '') continue;
    const ref = refOf(m, i);
    const bits = scanTurn(text, compiled);
    if (bits & (CORRECTION | CHALLENGE)) {
      const refs = [ref];
      if (prev) refs.push(prev.ref);
      if (lastOther !== undefined && !refs.includes(lastOther)) refs.push(lastOther);
      const strong = (bits & CORRECTION) !== 0;
      out.push({
        fact: `User correction: ${truncateUtf8(text, 200)}${prev ? ` (following: ${truncateUtf8(prev.text, 100)})` : ''}`,
        recommendation: extractRecommendation(text),
        category: 'correction',
        confidence: strong ? 'high' : 'medium',
        tags: ['user_feedback', 'correction', ...(strong ? [] : ['question'])],
        traceRefs: refs,
      });
    }
    if (bits & PREFERENCE) {
      const approval = (bits & POSITIVE) !== 0;
      out.push({
        fact: `User preference: ${truncateUtf8(text, 200)}`,
        recommendation: approval ? 'Continue this approach.' : extractRecommendation(text),
        category: 'preference',
        confidence: 'high',
        tags: ['user_feedback', 'preference', ...(approval ? ['approval'] : [])],
        traceRefs: [ref],
      });
    }
    if (bits & FRICTION) {
      out.push({
        fact: `Friction point: ${truncateUtf8(text, 200)}`,
        recommendation: 'Automate or remember this to avoid user repetition.',
        category: 'friction',
        confidence: 'medium',
        tags: ['user_feedback', 'friction'],
        traceRefs: [ref],
      });
    }
    prev = { text, ref };
    lastOther = undefined;
  }
  return out;
}
