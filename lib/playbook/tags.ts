/**
 * Reflector tags on key points: tallying them (unknown names and values skipped, with the reason) and
 * applying them to the grow-only counters.
 *
 * @module
 */
import * as v from 'valibot';
import { isKeyPointName, type KeyPoint, type Playbook, SECTION_NAMES } from './model.js';

/** The three tags the reflector gives. */
export type TagValue = 'helpful' | 'harmful' | 'neutral';

/** One reflector verdict on one key point. `tag` is kept a string: unknown values are skipped. */
export interface KeyPointTag {
  name: string;
  tag: string;
  rationale?: string;
}

/**
 * valibot schema of a {@link KeyPointTag}.
 *
 * @example
 * ```ts
 * v.parse(KeyPointTagSchema, { name: 'pat-001', tag: 'helpful', rationale: 'applied' });
 * ```
 */
export const KeyPointTagSchema = v.object({
  name: v.string(),
  tag: v.string(),
  rationale: v.optional(v.string()),
});

/** Options of {@link applyKeyPointTags}. */
export interface ApplyTagsOptions {
  /** Receives one message per skipped tag. Default: `console.warn` (looked up when called). */
  onWarning?: (message: string) => void;
}

/** What {@link tallyKeyPointTags} found: increments per name and the tags it skipped. */
export interface TagTally {
  /** Increments per key point name, in first-seen order. */
  increments: Map<string, { helpful: number; harmful: number }>;
  /** Tags that changed nothing and why (`neutral` tags are not listed). */
  skipped: { tag: KeyPointTag; reason: string }[];
}

/**
 * Counts what `tags` would do to the key points named in `known`, without touching anything:
 * `helpful`/`harmful` +1 each (repeated tags all count), `neutral` nothing, unknown
 * names and unknown tag values skipped.
 *
 * @example
 * ```ts
 * tallyKeyPointTags(new Set(['pat-001']), [{ name: 'pat-001', tag: 'helpful' }]).increments.get('pat-001');
 * // { helpful: 1, harmful: 0 }
 * ```
 */
export function tallyKeyPointTags(known: ReadonlySet<string>, tags: readonly KeyPointTag[]): TagTally {
  const increments = new Map<string, { helpful: number; harmful: number }>();
  const skipped: TagTally['skipped'] = [];
  // Model output is untrusted: anything but an array is one skipped entry, never an exception.
  if (!Array.isArray(tags)) {
    skipped.push({ tag: tags as unknown as KeyPointTag, reason: 'bullet tags are not an array' });
    return { increments, skipped };
  }
  for (const tag of tags) {
    const name = (tag as { name?: unknown })?.name;
    const value = (tag as { tag?: unknown })?.tag;
    if (typeof name !== 'string' || !known.has(name)) {
      const what =
        typeof name === 'string' && !isKeyPointName(name) ? 'invalid key point name' : 'unknown key point';
      skipped.push({ tag, reason: `${what} ${JSON.stringify(name)}` });
      continue;
    }
    if (value === 'neutral') continue;
    if (value !== 'helpful' && value !== 'harmful') {
      skipped.push({ tag, reason: `unknown tag ${JSON.stringify(value)} for ${name}` });
      continue;
    }
    let inc = increments.get(name);
    if (!inc) {
      inc = { helpful: 0, harmful: 0 };
      increments.set(name, inc);
    }
    inc[value] += 1;
  }
  return { increments, skipped };
}

/**
 * Applies reflector tags to a playbook in place and returns the same object:
 * `helpful`/`harmful` add 1 to that counter, `neutral` changes nothing, an unknown name or tag value
 * is skipped with a warning, and repeated tags all apply. Counters only ever grow.
 *
 * @example
 * ```ts
 * applyKeyPointTags(pb, [{ name: 'pat-001', tag: 'helpful', rationale: 'Applied correctly' }]);
 * ```
 */
export function applyKeyPointTags(
  playbook: Playbook,
  tags: readonly KeyPointTag[],
  options: ApplyTagsOptions = {},
): Playbook {
  const byName = new Map<string, KeyPoint>();
  for (const s of SECTION_NAMES) for (const kp of playbook.sections[s] ?? []) byName.set(kp.name, kp);
  const { increments, skipped } = tallyKeyPointTags(new Set(byName.keys()), tags);
  for (const [name, inc] of increments) {
    const kp = byName.get(name)!;
    kp.helpful += inc.helpful;
    kp.harmful += inc.harmful;
  }
  if (skipped.length) {
    const warn = options.onWarning ?? ((m: string) => console.warn(m));
    // The warning's text is observable output (callers match on it; the conformance digest covers it),
    // so it keeps the name it was published with.
    for (const s of skipped) warn(`applyBulletTags: skipped ${s.reason}`);
  }
  return playbook;
}
