/**
 * Robust JSON extraction from language-model replies.
 *
 * Strategy order, first success wins:
 *   0. the whole text, when it is itself valid JSON (see below);
 *   1. ```json fences, in order;
 *   2. bare ``` fences (no language tag), in order;
 *   3. balanced-brace objects: from the first `{`, count braces outside strings (string- and
 *      escape-aware) to the matching `}`; if that object does not parse, go on after it;
 *   4. `JSON.parse` of the whole text (in practice covered by step 0: JSON.parse rejects any text whose
 *      first character cannot start JSON, and step 0 tries all the others).
 *
 * Step 0 comes first because a reply that is entirely valid JSON needs no digging, and without it a
 * fenced example inside a JSON string value would win over the document that contains it. For any
 * text that is not valid JSON as a whole, steps 1–4 apply in the order above.
 *
 * Every step scans disjoint regions and parses each candidate once, so the whole function is linear
 * in the input: no rescan from every brace, no overlapping fence matches.
 */

const FENCE = '```';

/**
 * Extracts the first JSON value from a model reply: fenced, wrapped in prose, or raw.
 * Returns `undefined` when nothing parses. Never throws.
 *
 * @example
 * ```ts
 * extractJson('Here you go:\n```json\n{"a": 1}\n```'); // { a: 1 }
 * extractJson('Result: {"ok": true} — done.');        // { ok: true }
 * extractJson('no json here');                         // undefined
 * ```
 */
export function extractJson(text: string): unknown | undefined {
  if (typeof text !== 'string' || text.length === 0) return undefined;
  try {
    const start = firstNonSpace(text);
    if (start < text.length && looksLikeJsonStart(text.charCodeAt(start))) {
      const whole = tryParse(text);
      if (whole.ok) return whole.value;
    }
    const fenced = fromFences(text);
    if (fenced.ok) return fenced.value;
    const braced = fromBalancedBraces(text);
    if (braced.ok) return braced.value;
    // Step 4 (raw parse of the whole text) cannot succeed here: step 0 already tried every text whose
    // first character can start JSON, and JSON.parse rejects all others.
    return undefined;
  } catch {
    return undefined;
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false };
const FAILED: Parsed = { ok: false };

function tryParse(candidate: string): Parsed {
  // A thrown SyntaxError costs microseconds; most failing candidates are rejected by their first character.
  const start = firstNonSpace(candidate);
  if (start >= candidate.length) return FAILED;
  const first = candidate.charCodeAt(start);
  if (!looksLikeJsonStart(first)) return FAILED;
  let end = candidate.length - 1;
  while (end > start && isJsonSpace(candidate.charCodeAt(end))) end--;
  const last = candidate.charCodeAt(end);
  // Objects, arrays and strings must close with their own bracket or quote.
  if (
    (first === 0x7b && last !== 0x7d) ||
    (first === 0x5b && last !== 0x5d) ||
    (first === 0x22 && last !== 0x22)
  ) {
    return FAILED;
  }
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch {
    return FAILED;
  }
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  return i;
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function looksLikeJsonStart(c: number): boolean {
  // { [ " - 0-9 t f n
  return (
    c === 0x7b ||
    c === 0x5b ||
    c === 0x22 ||
    c === 0x2d ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x74 ||
    c === 0x66 ||
    c === 0x6e
  );
}

/** Which fences a pass looks at: ```json ones, or bare ones with no language tag. */
type FenceKind = 'json' | 'bare';

/**
 * Walks non-overlapping fences, like a regex `finditer` (each opening pairs with the next closing),
 * and tries to parse those of `kind`. Nothing is collected: a 10 MB reply with a million fences
 * allocates only the candidates it parses.
 */
function scanFences(text: string, kind: FenceKind): Parsed {
  let noLineStartFence = false;
  let from = 0;
  while (from < text.length) {
    const open = text.indexOf(FENCE, from);
    if (open < 0) break;
    let p = open + FENCE.length;
    const tagStart = p;
    while (p < text.length && isTagChar(text.charCodeAt(p))) p++;
    // Once a search finds no ``` at a line start, none lies further on either: skip the search from
    // then on, so each character is scanned a bounded number of times (linear, not quadratic).
    const lineStart = noLineStartFence ? -1 : findLineStartFence(text, p);
    if (lineStart < 0) noLineStartFence = true;
    const close = lineStart >= 0 ? lineStart : text.indexOf(FENCE, p);
    if (close < 0) break;
    const tagLength = p - tagStart;
    const wanted =
      kind === 'bare' ? tagLength === 0 : tagLength === 4 && text.slice(tagStart, p).toLowerCase() === 'json';
    if (wanted) {
      const parsed = tryParse(text.slice(p, close));
      if (parsed.ok) return parsed;
    }
    from = close + FENCE.length;
  }
  return FAILED;
}

/**
 * The closing fence is the first ``` that begins a line (CommonMark's rule — and JSON can never put a
 * backtick first on a line, so fenced JSON holding "```" in a string survives), else the first ``` at
 * all, for one-line replies such as ```json {"a":1}```. This finds the former; -1 when there is none.
 */
function findLineStartFence(text: string, from: number): number {
  let at = text.indexOf(FENCE, from);
  while (at >= 0) {
    if (startsLine(text, at, from)) return at;
    at = text.indexOf(FENCE, at + FENCE.length);
  }
  return -1;
}

function startsLine(text: string, at: number, floor: number): boolean {
  let i = at - 1;
  while (i >= floor && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  return i < floor ? false : text.charCodeAt(i) === 0x0a;
}

function isTagChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2d ||
    c === 0x5f ||
    c === 0x2b
  );
}

function fromFences(text: string): Parsed {
  if (text.indexOf(FENCE) < 0) return FAILED;
  const json = scanFences(text, 'json');
  return json.ok ? json : scanFences(text, 'bare');
}

/** Balanced `{…}` regions, each scanned once; a region that does not parse is skipped whole. */
function fromBalancedBraces(text: string): Parsed {
  let start = text.indexOf('{');
  while (start >= 0) {
    const end = matchingBrace(text, start);
    if (end < 0) return FAILED; // never closes: nothing after it can close either without rescanning
    const parsed = tryParse(text.slice(start, end + 1));
    if (parsed.ok) return parsed;
    start = text.indexOf('{', end + 1);
  }
  return FAILED;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i;
  }
  return -1;
}

/**
 * `text` as a JSON object (not an array, not a scalar), or `undefined` when it is none or does not
 * parse. Never throws. The shape a tool call's JSON input has: the failure lessons and the snapshot's
 * plan reader both read calls through it.
 *
 * @example
 * ```ts
 * parseJsonObject('{"command":"npm test"}'); // { command: 'npm test' }
 * parseJsonObject('[1, 2]'); // undefined
 * parseJsonObject('npm test'); // undefined
 * ```
 */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
