/**
 * The rule-based backend: a deterministic summariser of the utterance and the top-K snippets.
 */
import { normalizeText, truncateTokens } from './text.js';

/**
 * Summarises a turn: the utterance and the first `topkSnippets` snippets, each lowercased with
 * punctuation replaced by spaces and whitespace collapsed (Python's `re.sub(r"[^\w\s]+", " ", …)`
 * semantics), joined by single spaces, cut to the first `summaryTokens` whitespace tokens. Empty
 * pieces are skipped; non-string snippets are ignored.
 *
 * @example
 * ```ts
 * rulebasedSummary('Fixed the parser!', ['Parser: handles CRLF.'], { summaryTokens: 5, topkSnippets: 3 });
 * // 'fixed the parser parser handles'
 * ```
 */
export function rulebasedSummary(
  utter: string,
  snippets: readonly unknown[],
  options: { summaryTokens: number; topkSnippets: number },
): string {
  const top = snippets.slice(0, Math.max(0, options.topkSnippets)).filter((s) => typeof s === 'string');
  const pieces = [normalizeText(utter ?? ''), ...top.map((s) => normalizeText(s as string))];
  return truncateTokens(pieces.filter((p) => p !== '').join(' '), options.summaryTokens);
}
