/**
 * Evidence dates, read the same way in every runtime. A session's turns carry timestamps in several
 * shapes: with an offset (Claude Code, Codex, Cline: `2025-03-01T09:00:00.000Z`) or without one
 * (aider's `# aider chat started at 2025-03-01 09:00:00`, Claude Code markdown exports), which the
 * writer meant in its own time zone. `Date.parse` reads the second kind in the runtime's zone, so the
 * same folder gave different dates (and a different `since` cut) on a laptop in Tokyo and a worker
 * in UTC. Here a time without an offset is read as UTC: off by at most the writer's offset, and the
 * same everywhere.
 */

/** `2025-03-01`, `2025-03-01T09:00`, `2025-03-01 09:00:00.123`, each with an optional `Z` or `±hh:mm`. */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)? ?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * A date-time in a file's name: SpecStory's `2025-07-18_01-12Z-title.md` and
 * `2025-12-06_19-04-39Z-….md`, Codex's `rollout-2025-09-07T01-32-39-<uuid>.jsonl`, or a day alone.
 */
const NAME_TIME = /(\d{4})-(\d{2})-(\d{2})(?:[T_ ](\d{2})[-:](\d{2})(?:[-:](\d{2}))?)?/;

/** Epoch milliseconds of a calendar time in UTC, or NaN when a field is out of range (no rollover). */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return Number.NaN;
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  // `Date.UTC` rolls 2025-02-30 over to March: a day that does not exist is no date.
  return new Date(t).getUTCDate() === d ? t : Number.NaN;
}

/**
 * An ISO 8601 day or time as an ISO string in UTC, or undefined when it is not one. A time without
 * an offset is read as UTC, in every runtime.
 *
 * @example
 * ```ts
 * isoInstant('2025-03-01 09:00:00'); // '2025-03-01T09:00:00.000Z'
 * isoInstant('2025-03-01T09:00:00+01:00'); // '2025-03-01T08:00:00.000Z'
 * isoInstant('March 1'); // undefined
 * ```
 */
export function isoInstant(value: string): string | undefined {
  if (value.length > 40) return undefined;
  const m = ISO_TIME.exec(value.trim());
  if (!m) return undefined;
  // Milliseconds: the fraction's first three digits (a finer fraction is cut, not rounded).
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  let t = utc(+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), ms);
  const zone = m[8];
  if (zone && zone !== 'Z' && zone !== 'z') {
    const digits = zone.replace(':', '');
    const minutes = +digits.slice(1, 3) * 60 + +(digits.slice(3, 5) || 0);
    t -= (zone[0] === '-' ? -1 : 1) * minutes * 60_000;
  }
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

/**
 * The date-time a file's name records (its base name only), read as UTC, or undefined. Exports
 * name a session by when it started, and that survives a copy; the file's modification time does not.
 * SpecStory's names are in UTC; Codex's in the writer's local time (off by its offset here).
 *
 * @example
 * ```ts
 * dateInName('.specstory/history/2025-07-18_01-12Z-populate-database.md'); // '2025-07-18T01:12:00.000Z'
 * dateInName('notes/session.jsonl'); // undefined
 * ```
 */
export function dateInName(name: string): string | undefined {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const m = NAME_TIME.exec(base);
  if (!m || +m[1]! < 1990) return undefined;
  const t = utc(+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}
