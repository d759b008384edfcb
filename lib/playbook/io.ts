/**
 * Import and export: the ACE paper's text format and plain JSON. Both round-trip losslessly.
 *
 * ACE text: one `## SECTION` header per section, one line per key point,
 * `[pat-001] helpful=3 harmful=0 :: text`. What a line cannot carry — timestamps, provenance, text with
 * line breaks or edge spaces — follows it in a comment line `<!-- rearview {json} -->` that other ACE
 * readers skip (`metadata: false` leaves these out, for pure ACE output).
 *
 * @module
 */
import * as v from 'valibot';
import { parseJsonLocated, ValidationError } from '../core/index.js';
import { ProvenanceSchema } from './delta.js';
import {
  emptyPlaybook,
  isKeyPointName,
  type KeyPoint,
  type Playbook,
  parseKeyPointId,
  SECTION_NAMES,
  SECTION_SLUGS,
  type SectionName,
} from './model.js';
import { PlaybookSchema } from './schema.js';

/** Options of {@link toAceText}. */
export interface AceTextOptions {
  /** Write `<!-- rearview … -->` lines for what the ACE line cannot hold. Default true (lossless). */
  metadata?: boolean;
}

const META = '<!-- rearview ';

/**
 * A playbook in the ACE paper's text format (all five section headers, key points in order).
 *
 * @example
 * ```ts
 * toAceText(pb);
 * // '## PATTERNS & APPROACHES\n[pat-001] helpful=3 harmful=0 :: Use type hints\n\n## MISTAKES TO AVOID\n…'
 * ```
 */
export function toAceText(playbook: Playbook, options: AceTextOptions = {}): string {
  const withMeta = options.metadata ?? true;
  const blocks: string[] = [];
  for (const section of SECTION_NAMES) {
    const lines = [`## ${section}`];
    for (const kp of playbook.sections[section] ?? []) {
      const oneLine = kp.text.replace(/[\r\n]+/g, ' ');
      lines.push(`[${kp.name}] helpful=${kp.helpful} harmful=${kp.harmful} :: ${oneLine}`);
      if (!withMeta) continue;
      const meta: Record<string, unknown> = {};
      if (oneLine !== kp.text || kp.text.trim() !== kp.text) meta.text = kp.text;
      if (kp.createdAt !== undefined) meta.createdAt = kp.createdAt;
      if (kp.updatedAt !== undefined) meta.updatedAt = kp.updatedAt;
      if (kp.source !== undefined) meta.source = kp.source;
      if (Object.keys(meta).length) {
        // `--` cannot appear inside an HTML comment; JSON escapes keep the content exact.
        lines.push(`${META}${JSON.stringify({ name: kp.name, ...meta }).replace(/--/g, '-\\u002d')} -->`);
      }
    }
    blocks.push(lines.join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}

/** What {@link parseAceText} returns. */
export interface AceParseResult {
  playbook: Playbook;
  /** Lines skipped or remapped, with their line numbers. */
  warnings: string[];
}

const HEADING_START = /^\s*#{1,6}\s+/;
const SPACE = /\s/;
const TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * `/^\s*#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1]` without backtracking: the heading's start matches
 * one way only, its closing spaces and `#`s are read from the end, and what lies between is the name
 * (none when a line terminator is in it, which `.` does not cross). The single regex split a run of
 * spaces between the lazy name and its two `\s*` every way: cubic in the run (26 s on a 4 KB line).
 */
function headingName(line: string): string | undefined {
  const start = HEADING_START.exec(line);
  if (!start) return undefined;
  const from = start[0].length;
  let end = line.length;
  while (end > from && SPACE.test(line[end - 1]!)) end--;
  while (end > from && line[end - 1] === '#') end--;
  while (end > from && SPACE.test(line[end - 1]!)) end--;
  const name = line.slice(from, end);
  return TERMINATOR.test(name) ? undefined : name;
}

/** `body.replace(/\s*-->$/, '')` from the end (the regex tried `\s*` from every space of a run). */
function withoutCommentEnd(body: string): string {
  if (!body.endsWith('-->')) return body;
  let end = body.length - 3;
  while (end > 0 && SPACE.test(body[end - 1]!)) end--;
  return body.slice(0, end);
}

const LINE = /^\s*(?:[-*]\s+)?\[([^\]\s]+)\]((?:\s+[A-Za-z_]+=\d+)*)\s*::(?: (.*)|(.*))$/;
const ACE_SECTIONS: [RegExp, SectionName][] = [
  [/strateg|pattern|approach|hard rule|insight/i, 'PATTERNS & APPROACHES'],
  [/mistake|pitfall|avoid/i, 'MISTAKES TO AVOID'],
  [/preference/i, 'USER PREFERENCES'],
  [/context|project/i, 'PROJECT CONTEXT'],
];

/**
 * Reads the ACE text format: `## SECTION` headers (rearview's five, or ACE's own such as
 * `STRATEGIES AND HARD RULES` or `COMMON MISTAKES TO AVOID`, mapped by meaning; others go to OTHERS
 * with a warning), `[id] helpful=X harmful=Y :: content` lines (other `key=N` fields ignored), and
 * rearview's metadata comments. Blank lines are skipped; other lines, ids that are not key point names
 * (see `isKeyPointName`) and repeated ids are skipped with a warning naming the line. Never throws on
 * content; the result is a valid playbook.
 *
 * @example
 * ```ts
 * parseAceText('## STRATEGIES AND HARD RULES\n[str-00001] helpful=5 harmful=0 :: Check units first').playbook;
 * // sections['PATTERNS & APPROACHES'][0]: { name: 'str-00001', text: 'Check units first', helpful: 5, harmful: 0 }
 * ```
 */
export function parseAceText(text: string): AceParseResult {
  const playbook = emptyPlaybook();
  const warnings: string[] = [];
  const byName = new Map<string, KeyPoint>();
  let section: SectionName | undefined;
  let exact = false;
  let last: KeyPoint | undefined;
  const lines = typeof text === 'string' ? text.split(/\r?\n/) : [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = `line ${i + 1}`;
    if (!line.trim()) continue;
    const heading = headingName(line);
    if (heading !== undefined) {
      const own = SECTION_NAMES.find((s) => s.toLowerCase() === heading.toLowerCase());
      exact = own !== undefined;
      section = own ?? ACE_SECTIONS.find(([re]) => re.test(heading))?.[1];
      if (!section) {
        section = 'OTHERS';
        exact = false;
        warnings.push(`${at}: section ${JSON.stringify(heading)} read as OTHERS`);
      }
      last = undefined;
      continue;
    }
    if (line.trimStart().startsWith(META)) {
      const body = withoutCommentEnd(line.trim().slice(META.length));
      let meta: Record<string, unknown> | undefined;
      try {
        meta = JSON.parse(body) as Record<string, unknown>;
      } catch {
        meta = undefined;
      }
      if (!meta || !last || meta.name !== last.name) {
        warnings.push(`${at}: metadata comment does not follow its key point; skipped`);
        continue;
      }
      if (typeof meta.text === 'string') last.text = meta.text;
      if (typeof meta.createdAt === 'string') last.createdAt = meta.createdAt;
      if (typeof meta.updatedAt === 'string') last.updatedAt = meta.updatedAt;
      const src = v.safeParse(ProvenanceSchema, meta.source);
      if (meta.source !== undefined && src.success && src.output) last.source = src.output;
      continue;
    }
    const m = LINE.exec(line);
    if (!m) {
      if (!/^\s*<!--.*-->\s*$/.test(line)) warnings.push(`${at}: not a key point line; skipped`);
      continue;
    }
    const name = m[1]!;
    if (!isKeyPointName(name)) {
      warnings.push(
        `${at}: invalid key point name ${JSON.stringify(name)} (expected an id such as pat-001); skipped`,
      );
      last = undefined;
      continue;
    }
    if (byName.has(name)) {
      warnings.push(`${at}: repeated id ${name}; skipped`);
      last = undefined;
      continue;
    }
    const fields = new Map<string, number>();
    for (const f of m[2]!.trim().split(/\s+/)) {
      const [k, val] = f.split('=');
      if (k) fields.set(k.toLowerCase(), Number(val));
    }
    const id = parseKeyPointId(name);
    const bySlug = id ? SECTION_NAMES.find((s) => SECTION_SLUGS[s] === id.slug) : undefined;
    const target: SectionName = exact && section ? section : (bySlug ?? section ?? 'OTHERS');
    const kp: KeyPoint = {
      name,
      text: m[3] ?? m[4] ?? '',
      helpful: counter(fields.get('helpful')),
      harmful: counter(fields.get('harmful')),
    };
    playbook.sections[target].push(kp);
    byName.set(name, kp);
    last = kp;
  }
  return { playbook, warnings };
}

function counter(n: number | undefined): number {
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/**
 * A playbook as JSON text (2-space indent), sections and fields in a fixed order, so equal playbooks
 * give equal bytes.
 *
 * @example
 * ```ts
 * await file.write(playbookToJson(pb));
 * ```
 */
export function playbookToJson(playbook: Playbook): string {
  const sections: Record<string, unknown[]> = {};
  for (const s of SECTION_NAMES) {
    sections[s] = (playbook.sections[s] ?? []).map((kp) => ({
      name: kp.name,
      text: kp.text,
      helpful: kp.helpful,
      harmful: kp.harmful,
      ...(kp.createdAt !== undefined ? { createdAt: kp.createdAt } : {}),
      ...(kp.updatedAt !== undefined ? { updatedAt: kp.updatedAt } : {}),
      ...(kp.source !== undefined
        ? {
            source: {
              ...(kp.source.session !== undefined ? { session: kp.source.session } : {}),
              ...(kp.source.traceRefs !== undefined ? { traceRefs: [...kp.source.traceRefs] } : {}),
            },
          }
        : {}),
    }));
  }
  return `${JSON.stringify({ sections }, null, 2)}\n`;
}

/**
 * Reads a playbook from JSON text (rearview's or the reference design's `playbook.json`; missing sections are
 * added empty) and validates it.
 *
 * @throws {ValidationError} naming the line and column of a syntax error, or the path of a schema error.
 *
 * @example
 * ```ts
 * const pb = playbookFromJson(await file.text());
 * ```
 */
export function playbookFromJson(text: string): Playbook {
  const raw = parseJsonLocated(text, 'Playbook JSON') as { sections?: Record<string, unknown> } | null;
  const withSections =
    raw && typeof raw === 'object' && raw.sections && typeof raw.sections === 'object'
      ? { ...raw, sections: { ...emptyPlaybook().sections, ...raw.sections } }
      : raw;
  const parsed = v.safeParse(PlaybookSchema, withSections);
  if (!parsed.success) {
    throw new ValidationError(
      parsed.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message })),
      { subject: 'Playbook JSON' },
    );
  }
  return parsed.output as Playbook;
}
