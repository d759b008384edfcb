/**
 * Playbook formatting for prompts: the sections as Markdown headers, one key
 * point per line with its bracketed id, inside {@link PLAYBOOK_TEMPLATE}.
 *
 * @module
 */
import { type KeyPoint, type Playbook, SECTION_NAMES } from './model.js';
import { sanitizeKeyPointText } from './sanitize.js';
import { fillTemplate, PLAYBOOK_TEMPLATE } from './templates.js';

/** Options of {@link formatKeyPoints} and {@link formatPlaybook}. */
export interface FormatOptions {
  /** Append `(helpful=N, harmful=M)` to each line. Default false for injection, true for the Reflector. */
  counts?: boolean;
  /** Text when the playbook has no key points. Default `'(no key points yet)'`. */
  empty?: string;
}

/**
 * One key point as a prompt line: `- [pat-001] text`, or with counts
 * `- [pat-001] (helpful=3, harmful=0) text`. The text is sanitized (one line, no invisible characters).
 *
 * @example
 * ```ts
 * formatKeyPointLine({ name: 'pat-001', text: 'Use types', helpful: 3, harmful: 0 }); // '- [pat-001] Use types'
 * ```
 */
export function formatKeyPointLine(kp: KeyPoint, options: Pick<FormatOptions, 'counts'> = {}): string {
  const counts = options.counts ? `(helpful=${kp.helpful}, harmful=${kp.harmful}) ` : '';
  return `- [${kp.name}] ${counts}${sanitizeKeyPointText(kp.text)}`;
}

/**
 * The sections of a playbook as Markdown: `## SECTION` then one line per key point; empty sections are
 * left out, and an empty playbook gives `options.empty`. This is what fills `{key_points}`.
 *
 * @example
 * ```ts
 * formatKeyPoints(pb); // '## PATTERNS & APPROACHES\n- [pat-001] Use types'
 * ```
 */
export function formatKeyPoints(playbook: Playbook, options: FormatOptions = {}): string {
  const blocks: string[] = [];
  for (const section of SECTION_NAMES) {
    const points = playbook.sections[section];
    if (!points?.length) continue;
    const lines = new Array<string>(points.length + 1);
    lines[0] = `## ${section}`;
    for (let i = 0; i < points.length; i++) lines[i + 1] = formatKeyPointLine(points[i]!, options);
    blocks.push(lines.join('\n'));
  }
  return blocks.length ? blocks.join('\n\n') : (options.empty ?? '(no key points yet)');
}

/**
 * The playbook ready to inject into a system prompt: {@link PLAYBOOK_TEMPLATE} (with its citation
 * directive) with `{key_points}` filled by {@link formatKeyPoints}. Pure and deterministic: the same
 * playbook gives the same bytes in every runtime.
 *
 * @example
 * ```ts
 * const system = `${basePrompt}\n\n${formatPlaybook(await playbooks.load('default'))}`;
 * ```
 */
export function formatPlaybook(
  playbook: Playbook,
  options: FormatOptions & { template?: string } = {},
): string {
  return fillTemplate(options.template ?? PLAYBOOK_TEMPLATE, {
    key_points: formatKeyPoints(playbook, options),
  });
}
