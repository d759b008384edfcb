/** The input panel's texts: sizes, parse failures and where they are. */

/** A size in characters, as MB or KB. */
export const size = (chars: number) =>
  chars >= 1e6 ? `${(chars / 1e6).toFixed(1)} MB` : `${Math.round(chars / 1000).toLocaleString('en-US')} KB`;

/** The location is in the heading: the message's own "(line 54, column 14)" suffix is not repeated. */
export const withoutLocation = (message: string) =>
  message.replace(/ \((?:line \d+(?:, column \d+)?|index \d+)\)$/, '');

/**
 * The message of a parse failure. Text that looked like JSON but did not parse says so with its place,
 * `invalid JSON at 53:14: unexpected "m"`, rather than the detector's "neither JSON nor JSONL".
 */
export function parseErrorText(err: { message: string; line?: number; column?: number }): string {
  const message = withoutLocation(err.message);
  const json = /^(?:\[[\w-]+\] )?Input is neither JSON nor JSONL: (.*)$/s.exec(message);
  if (!json) return message;
  const at = err.line != null ? ` at ${err.line}${err.column != null ? `:${err.column}` : ''}` : '';
  return `invalid JSON${at}: ${json[1]}`;
}

export const located = (err: { line?: number; column?: number; index?: number }) =>
  err.line != null
    ? ` (line ${err.line}${err.column != null ? `, column ${err.column}` : ''})`
    : err.index != null
      ? ` (item ${err.index})`
      : '';
