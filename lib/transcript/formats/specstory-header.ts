/**
 * SpecStory's headers and session lines: who speaks in a turn header and what its parentheses say,
 * the `<!-- cursor Session … -->` comment, and the title's start time. Kept apart from the parser so
 * the detector reads headers without the parser's state.
 */
import type { Role } from '../types.js';
import type { ParseState } from './result.js';

/** A turn header: who speaks, and what the parentheses say (a time for users, a model for agents). */
interface Header {
  role: Role;
  label?: string;
}

/**
 * The header a line is, or undefined: `_**User**_`, `_**User (2025-12-06 19:04Z)**_`,
 * `_**Assistant**_`, `_**Agent (claude-opus-4-5, Agent)**_`, `_****_`.
 *
 * @example
 * ```ts
 * specstoryHeader('_**Agent (claude-opus-4-5)**_'); // { role: 'assistant', label: 'claude-opus-4-5' }
 * specstoryHeader('_**TOC:**_'); // undefined
 * ```
 */
export function specstoryHeader(line: string): Header | undefined {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 0x20 || line.charCodeAt(end - 1) === 0x09)) end--;
  if (end < 6 || !line.startsWith('_**') || !line.startsWith('**_', end - 3)) return undefined;
  const inner = line.slice(3, end - 3);
  const open = inner.indexOf(' (');
  const name = open < 0 ? inner : inner.slice(0, open);
  let label: string | undefined;
  if (open >= 0) {
    if (!inner.endsWith(')')) return undefined;
    label = inner.slice(open + 2, inner.length - 1).trim();
  }
  let role: Role;
  if (name === 'User') role = 'user';
  else if (name === 'Assistant' || name === 'Agent' || name === '') role = 'assistant';
  else return undefined;
  return label ? { role, label } : { role };
}

/**
 * `2025-12-06 19:04:39Z` / `2025-12-06 19:04Z` → ISO; anything else → undefined.
 *
 * @example
 * ```ts
 * isoTime('2025-12-06 19:04Z'); // '2025-12-06T19:04Z'
 * ```
 */
export function isoTime(label: string): string | undefined {
  if (label.length < 16 || label.charCodeAt(10) !== 0x20) return undefined;
  for (const i of [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15]) {
    const c = label.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  return `${label.slice(0, 10)}T${label.slice(11)}`;
}

/**
 * `model claude-3.7-sonnet, mode Agent` / `copilot/claude-sonnet-4.5` / `default` → the model.
 *
 * @example
 * ```ts
 * modelOf('model claude-3.7-sonnet, mode Agent'); // 'claude-3.7-sonnet'
 * ```
 */
export function modelOf(label: string): string | undefined {
  let model = label.startsWith('model ') ? label.slice(6) : label;
  const comma = model.indexOf(',');
  if (comma >= 0) model = model.slice(0, comma);
  model = model.trim();
  return model === 'default' || model.length === 0 ? undefined : model;
}

/**
 * `<!-- cursor Session 1f0c… (2025-…) -->` → the agent and the session id, in `state.meta`.
 *
 * @example
 * ```ts
 * sessionComment('<!-- cursor Session 1f0c2 (2025-12-06 19:04Z) -->', state); // meta.agent 'cursor'
 * ```
 */
export function sessionComment(line: string, state: ParseState): void {
  if (!line.startsWith('<!-- ')) return;
  const at = line.indexOf(' Session ');
  if (at < 0) return;
  state.meta ??= {};
  const meta = state.meta;
  meta.agent = line.slice(5, at).trim();
  const rest = line.slice(at + ' Session '.length);
  const space = rest.indexOf(' ');
  const id = (space < 0 ? rest : rest.slice(0, space)).trim();
  if (id.length > 0 && id !== '-->') meta.sessionId = id;
}

/**
 * The title's time, `# Populate the database (2025-07-18 01:12Z)` or `# 2025-10-25 18:17:26Z`, as the
 * session's start. Older exports write it in the writer's local time with no zone,
 * `# Remove DOM nodes (2025-05-12 09:53:57)`: kept without an offset, as written.
 *
 * @example
 * ```ts
 * sessionStart('# Populate the database (2025-07-18 01:12Z)', state); // meta.startedAt '2025-07-18T01:12:00.000Z'
 * ```
 */
export function sessionStart(line: string, state: ParseState): void {
  if (state.meta?.startedAt !== undefined || !line.startsWith('# ')) return;
  const end = line.trimEnd();
  const open = end.lastIndexOf(' (');
  // v2.1 titles are the time itself, `# 2025-10-25 18:17:26Z`; older ones a title and the time.
  const label = end.endsWith(')') && open >= 0 ? end.slice(open + 2, end.length - 1) : end.slice(2);
  const at = isoTime(label);
  if (at === undefined) return;
  const utc = at.endsWith('Z');
  const t = new Date(utc ? at : `${at}Z`);
  // `Date` rolls a day that does not exist (2025-02-30) over in some engines: such a title is no date.
  if (!Number.isFinite(t.getTime()) || !t.toISOString().startsWith(at.slice(0, 10))) return;
  state.meta ??= {};
  state.meta.startedAt = utc ? t.toISOString() : at;
}
