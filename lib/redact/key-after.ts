/**
 * What may follow a fixed-length key with nothing, or one `_`, `.` or `-`, between: the start of another
 * key (`AKIA…AKIA…`, `AIza…sk-proj-…`, `AIza…_ghp_…`), or a placeholder that took one's place
 * (`AKIA…_[npm-token-1]`: a second pass, or the first reading what comes before a key it found). A
 * fixed-length kind refuses a word that goes on past its length (it is no key then), unless another key
 * starts there; refusing it would leave both keys in clear, since the second is glued to a run of word
 * characters too long for a glued start. Each start is one of a built-in kind's; the vendor table's
 * starts are too many to list in every row's end, so the scanner finds those from the second key
 * (vendor-scan.ts, and `keyBefore` in matches.ts). test/unit/redact-glued.test.ts glues every kind and
 * every vendor format after every other.
 */

/**
 * The starts of an AWS key id (access, session, …).
 *
 * @example
 * ```ts
 * new RegExp(`^(?:${AWS_ID_PREFIX})`).test('ASIA0123456789ABCDEF'); // true
 * ```
 */
export const AWS_ID_PREFIX = 'AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9]';

/**
 * A key's start, maybe after one `_`, `.` or `-` (a regular-expression source, for a lookahead).
 *
 * @example
 * ```ts
 * new RegExp(`^${KEY_AFTER}`).test('_ghp_x'); // true
 * ```
 */
export const KEY_AFTER = `[_.-]?(?:sk-|sk_|rk_|whsec_|gh[pousr]_|github_pat_|xox[abeoprs][.-]|xapp-|eyJ|${AWS_ID_PREFIX}|AIza|https?:\\/\\/|hooks\\.slack\\.com\\/|\\[)`;

/**
 * The end of a fixed-length key whose characters are `chars` (a class's inside): no more of them,
 * unless another key starts there.
 *
 * @example
 * ```ts
 * new RegExp(`^AKIA[A-Z0-9]{16}${keyEnd('A-Za-z0-9')}`).test('AKIA0123456789ABCDEFghp_'); // true
 * ```
 */
export const keyEnd = (chars: string): string => `(?!(?!${KEY_AFTER})[${chars}])`;
