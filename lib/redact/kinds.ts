/**
 * The built-in kinds of secret and personal data, as regular-expression sources.
 *
 * Every repetition is bounded: V8's regexp engine keeps backtracking state for each repeated step of a
 * successful match, and an unbounded run of tens of megabytes overflows it (a `RangeError`). Real keys
 * are far shorter than the bounds; a longer run is redacted up to the bound.
 *
 * Every source is linear: each quantified run is a single character class followed by something the
 * class cannot match, so a failed attempt gives back at most one run, and every kind that begins with
 * a letter or digit also refuses to start inside a run of its own characters (a lookbehind added by
 * the scanner), so a long run is attempted once, not once per character. The vendor table's short starts
 * are the exception: after a run they are matched with at most 146 characters read and decided by the
 * scanner (vendor-scan.ts), whose reading back is bounded by a budget of twice the text.
 */
import { glued } from './glued.js';
import { AWS_ID_PREFIX, keyEnd } from './key-after.js';
import { vendorKind } from './vendor-scan.js';
import { VENDOR_KINDS, VENDOR_NAME } from './vendors.js';

/**
 * Names of the built-in kinds, in the order they are tried when two could start at the same place.
 *
 * @example
 * ```ts
 * BUILTIN_KINDS.includes('email'); // true
 * ```
 */
export const BUILTIN_KINDS = [
  'private-key',
  'aws-secret-key',
  'bearer-token',
  'url-credentials',
  'slack-webhook',
  'anthropic-key',
  'openai-key',
  'github-token',
  'stripe-key',
  'google-api-key',
  'slack-token',
  'aws-access-key',
  'jwt',
  'basic-auth',
  'secret',
  'email',
  'npm-token',
  'huggingface-token',
  'gitlab-token',
  'vendor-key',
] as const;

/**
 * One of {@link BUILTIN_KINDS}.
 *
 * @example
 * ```ts
 * const off: Partial<Record<BuiltinKind, boolean>> = { email: false };
 * ```
 */
export type BuiltinKind = (typeof BUILTIN_KINDS)[number];

/** @internal How the scanner builds one built-in kind into its combined regular expression. */
export interface KindSpec {
  kind: BuiltinKind;
  /** Pattern source without its left-boundary lookbehind. Capturing groups: none, or one (`secret`). */
  source: string;
  /**
   * What the scan looks for instead, when the kind is faster found from a rarer part than its start
   * (`://` rather than every word): the same groups; a lookbehind checks what comes before.
   */
  scan?: string;
  /** Negative lookbehind that keeps the kind from starting inside a run of its own characters. */
  lookbehind: string;
  /** The source's one capturing group is the secret; the rest of the match is context kept as is. */
  secretGroup: boolean;
  /**
   * For a kind found from a separator inside its prefix (the vendor table): each such row's scan,
   * sticky, and the part of its prefix before the separator, anchored at the end. A match starts at
   * the separator; the first row that matches there is the one the scan found, and its head is walked
   * back over (a class head such as `[A-Za-z0-9]{6}_` must not lend its length to `dckr_`).
   */
  heads?: readonly { scan: RegExp; head: RegExp }[];
  /** The heads (and separators) of the short starts a scan matches alone after a run (vendor-scan.ts). */
  deepHead?: RegExp;
  /** For a kind that may be glued to a short word: the sources of its fixed starts. */
  prefixes?: readonly string[];
  /**
   * For a kind whose scan finds its starts anywhere: the short ones (`npm_`, `AKIA`), which are part of a
   * run after 16 or more word characters unless a key ends there (the scanner decides: matches.ts).
   */
  deep?: readonly string[];
  /** The part of `source` that may be glued, when not all of it may (`openai-key`'s legacy keys). */
  gluedSource?: string;
}

const PEM_LABEL = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/.source;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/.source;
// A complete block: the body never holds five dashes or a bracket (so never a placeholder), at most 16 KiB.
const PEM_BODY = /(?:[^-[\]]|-(?!----)){0,16384}/.source;
// A block cut short (no END line): the base64 lines that follow, separated by real or escaped newlines.
// Repetitions of groups are bounded: each one costs the regexp engine backtracking stack.
// Lines may be separated by spaces only (newlines flattened), and an encrypted key's `Proc-Type:` and
// `DEK-Info:` headers and the blank line after them are part of the block.
const PEM_LINES =
  /(?:(?:[ \t]*(?:\r?\n|\\r?\\n)[ \t]*|[ \t]{1,16})(?:[A-Za-z0-9+/=]{16,16384}|[A-Z][A-Za-z-]{1,32}:[^\r\n\\]{0,256}|(?=\r?\n|\\r?\\n))){1,1024}/
    .source;

/** `AWS_SECRET_ACCESS_KEY`, `aws_secret_access_key`, `SecretAccessKey`, `secret-access-key`, any case. */
const AWS_SECRET_NAME = `(?:${ci('aws')}[_-]?)?${ci('secret')}[_-]?${ci('access')}[_-]?${ci('key')}`;
const AWS_SECRET_SEP = /(?:\\?["'])?[ \t]{0,16}[:=]>?[ \t]{0,16}(?:\\?["'])?/.source;

/**
 * File extensions that are not top-level domains, so `logo@2x.png` or `app@1.2.js` is not an address.
 * Real country codes that double as extensions (`.py`, `.md`, `.sh`, `.rs`, `.so`) stay addresses.
 */
const NOT_TLDS = (
  'png jpg jpeg gif svg webp ico bmp tif tiff js mjs cjs jsx ts tsx mts cts json jsonl yaml yml toml lock ' +
  'txt html htm css scss sass less wasm pyc pyi ipynb tgz whl exe dll dylib vue svelte java kt rb cpp hpp'
).split(' ');

const EMAIL_DOMAIN =
  /@(?:[A-Za-z0-9-]{1,63}\.){1,16}/.source +
  `(?!(?:${NOT_TLDS.map(ci).join('|')})(?![A-Za-z]))` +
  /[A-Za-z]{2,63}(?![A-Za-z0-9])/.source;

/** Letters, digits, `_` and `-`: the characters keys and tokens are made of. */
const WORD_DASH = /(?<![A-Za-z0-9_-])/.source;

/** Placeholders already in the text where a value starts (`password="[email-1]Hunter2…"`): skipped. */
const PH = /\[[a-z][a-z0-9_-]{0,63}-[1-9][0-9]{0,8}\]/.source;
/** Placeholders after an opening quote, before the value they would hide. */
const PH_QUOTED = `(?:(?<=["'\x60])(?:${PH}){1,4})?`;
/** Placeholders glued to a token after `Bearer ` or `Basic ` (`Bearer [email-1]abc…`). */
const PH_GLUED = `(?:(?:${PH}){1,4}(?=[A-Za-z0-9]))?`;

/** A placeholder (`[email-1]`): a value may hold a `[`, but never the start of one of these. */
const PLACEHOLDER_AHEAD = /\[(?![a-z][a-z0-9_-]{0,63}-[1-9][0-9]{0,8}\])/.source;

/**
 * The name of a setting that holds a secret: `PASSWORD`, `DB_PASSWORD`, `client_secret`, `GH_TOKEN`,
 * `OPENAI_API_KEY`, `x-api-key`, `accessToken`, `SECRET_KEY`, lower case, upper case or capitalised. Words joined by `_`, `-` or
 * `.` (or camel case) before the last one; `max_tokens` and `token_count` do not end in one. Words are
 * at most 32 characters, so a key (`ghp_` + 36) is never taken for part of a name.
 */
const SECRET_PREFIX = /(?:[A-Za-z0-9]{1,32}[_.-]|[A-Z]?[a-z0-9]{1,32}(?=[A-Z])){0,8}/.source;
// Lower case, upper case or capitalised (a class per letter would be tried at every position of the text).
const SECRET_WORD =
  '(?:[pP]ass(?:word|wd)|PASS(?:WORD|WD)|[pP]wd|[sS]ecret(?:[_-]?[kK]ey)?|SECRET(?:[_-]?KEY)?|[tT]oken|TOKEN|' +
  '[aA]pi[_-]?[kK]ey|API[_-]?KEY|[aA]ccount[_-]?[kK]ey|ACCOUNT_?KEY|[aA]ccess[_-]?[kK]ey|ACCESS_?KEY|' +
  '[pP]rivate[_-]?[kK]ey(?:[_-]?[iI]d)?|PRIVATE_?KEY(?:_?ID)?|' +
  // A URL's signature (`?sig=`, `&X-Amz-Signature=`), not "signature = …" in prose.
  '(?<=[?&;])sig(?==)|(?:[sS]ignature|SIGNATURE)(?==)|' +
  // `KEY` alone only ends an upper-case environment name set with `=` (`ADAFRUIT_IO_KEY=…`): `"key":`
  // in JSON and `const ROLES_KEY = 'roles'` are names of other things.
  '(?<=[A-Z0-9]_)KEY(?==)|' +
  // NuGet.Config: `<add key="ClearTextPassword" value="…" />`.
  '(?<=[pP]assword\\\\?["\'][ \\t]{1,16})value)';
/**
 * A ternary's branches (`cond ? "__Secure-session-token" : "session-token"`): a quoted string after `?`
 * and before `:` is an expression, not a setting's name. Read backwards from the `:`; bounded.
 */
const TERNARY = /(?<!\?[ \t]{0,16}\\?["'][^"'\\\r\n?]{1,256}\\?["'][ \t]{0,16}:)/.source;
/** `=`, `:`, `:=` or `=>` with the key's closing quote and spaces, but not `==` or `::`. */
const SECRET_SEP = `(?:\\\\?["'\x60])?[ \\t]{0,16}(?::=|=>|=|:${TERNARY})(?![=:>])[ \\t]{0,16}(?:\\\\?["'\x60])?${PH_QUOTED}`;
/**
 * Stand-ins a person or tool wrote for a value: `[MASKED_DB_URL]`, `[REDACTED]` (whole, in brackets), and
 * masked keys (`sk_test_••••••••`, `abc********`): four mask characters within the first 64.
 */
const STAND_IN = String.raw`\[[A-Za-z][A-Za-z0-9 _-]{0,62}\](?![A-Za-z0-9])|[^\s"'\\]{0,64}(?:\u2022{4}|\*{4}|\u25cf{4})`;
/** References and stand-ins: `$VAR`, `${VAR}`, `<your-token>`, `{{ secrets.X }}`, `%s`, `***`, `YOUR_KEY_HERE`. */
const NOT_A_VALUE = `[$<{%*]|${ci('your')}[_-]?[A-Za-z]|${STAND_IN}`;
/**
 * A "value" that starts with a comma or a closing bracket follows a string's closing quote, not an
 * opening one (`"…password:\",\"call_id\"…`, where a message happens to end in a setting's name).
 */
const CLOSING = '[,;})\\]]';
/** A quoted value may hold anything but its quote, a line break and the start of a placeholder. */
const quoted = (quote: string) =>
  `(?<=${quote}(?:${PH}){0,4})(?!${NOT_A_VALUE}|\\s|${CLOSING})(?:[^${quote}\\\\\\r\\n[]|\\\\[^${quote}\\r\\n]|${PLACEHOLDER_AHEAD}){1,8192}`;
/**
 * An unquoted value stops at spaces, quotes, brackets, `,;&` and backslashes (the `\n` after a `.env`
 * line in JSON), and must hold a digit or a symbol: `token: string`, `api_key=api_key`,
 * `password=getpass()` and `TOKEN=$(gh auth token)` are code. (What follows the value is not looked at:
 * a second pass sees a placeholder there, and must find what the first found.)
 */
const UNQUOTED_CHAR = String.raw`[^\s"'\x60,;&<>(){}[\]\\]`;
/**
 * A shell substring expansion (`${token:0:20}`, `${TOKEN: -4}`) reads part of a variable: the offset and
 * length after its `:` are numbers, not a value (a default, `${DB_PASSWORD:-s3cret}`, still is one).
 */
const SUBSTRING_EXPANSION = String.raw`(?<=\$\{[A-Za-z_][A-Za-z0-9_]{0,64}:[ \t]{0,16})-?[0-9]{1,9}(?::-?[0-9]{1,9})?\}`;
const UNQUOTED =
  `(?<!["'\x60])(?!${NOT_A_VALUE}|${SUBSTRING_EXPANSION})` +
  `(?=${UNQUOTED_CHAR}{0,8192}?(?:[0-9!#$%*+/=@^~|]|:(?!:)(?<!::)|\\?(?!\\.)))${UNQUOTED_CHAR}{3,8192}`;
const SECRET_VALUE = `${quoted('"')}|${quoted("'")}|${quoted('\x60')}|${UNQUOTED}`;

/**
 * What a vendor's name must be followed by to be a setting, not prose or a link (`jira: ABC-12`,
 * `JIRA_URL=https://…`): at least 14 key characters holding a digit, not a URL. The shortest values of
 * gitleaks' keyword rules are 14 characters long.
 */
const VENDOR_VALUE_AHEAD =
  `(?=[=>]?[ \\t]{0,16}(?:\\\\?["'\x60])?(?![A-Za-z][A-Za-z0-9+.-]{0,31}:\\/\\/)` +
  '(?=[A-Za-z_=.+/:|-]{0,100}[0-9])[A-Za-z0-9_=.+/:|-]{14})';
/** `curl -u user:password` (`--user`, quoted or not): the password after the first `:`. */
const CURL_USER = `(?<=curl[ \\t][^\\r\\n]{0,256})(?:-u|--user)(?:=|[ \\t]{1,5})["']?[^\\s:"'\\\\]{1,64}:`;

const OPENAI_REST = '[A-Za-z0-9_-]{20,1024}';
const OPENAI_LEGACY = '(?=[A-Za-z0-9]{0,1024}[A-Z0-9])[A-Za-z0-9]{20,1024}';
const OPENAI_MARKED = `[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}${keyEnd('A-Za-z0-9')}`;

/** `scheme://user:password@host`: the user and password, any scheme and host (`localhost` too). */
const URL_SCHEME = /[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\//.source;
const URL_USERINFO = /([^\s:/?#@[\]"'<>\\]{0,256}:[^\s/?#[\]"'<>\\]{1,1024})(?=@[A-Za-z0-9[])/.source;

/** A kind of keys with fixed starts: `[prefix, rest]` pairs, glued or not (see {@link glued}). */
function keys(kind: BuiltinKind, parts: readonly (readonly [string, string])[]): KindSpec {
  return {
    kind,
    source: `(?:${parts.map(([p, r]) => `(?:${p})${r}`).join('|')})`,
    scan: `(?:${parts.map(([p, r]) => glued(p, r)).join('|')})`,
    lookbehind: '',
    secretGroup: false,
    prefixes: parts.map(([p]) => p),
  };
}

/**
 * `Basic <base64>`: after `Authorization:`, at least 8 base64 characters; elsewhere (`-H 'Basic …'`)
 * `Basic` or `BASIC` and a token holding a digit or `+/=` ("a basic ProductCard component" is prose).
 */
const AUTHZ = `[Aa]uthorization["']?[ \\t]{0,16}[:=][ \\t]{0,16}["']?`;
const BASIC =
  `(?:Basic|BASIC|basic(?<=${AUTHZ}basic))[ \\t]{1,16}${PH_GLUED}` +
  `((?:(?<=${AUTHZ}[Bb][Aa][Ss][Ii][Cc][ \\t]{1,16}(?:${PH}){0,4})|(?=[A-Za-z0-9+/]{0,1024}?[0-9+/=]))` +
  '[A-Za-z0-9+/]{8,1024}={0,2})(?![A-Za-z0-9+/=])';
/** `Bearer <token>`: at least 16 characters and one digit (`Bearer authentication` is prose). */
const BEARER_TOKEN = `[ \\t]{1,16}${PH_GLUED}((?=[A-Za-z._~+/-]{0,8192}[0-9])[A-Za-z0-9._~+/-]{16,8192}={0,2})`;

/** @internal The built-in kinds, in {@link BUILTIN_KINDS} order. */
export const KIND_SPECS: readonly KindSpec[] = [
  {
    kind: 'private-key',
    source: `${PEM_LABEL}(?:${PEM_BODY}${PEM_END}|${PEM_LINES})`,
    lookbehind: '',
    secretGroup: false,
  },
  {
    // The name may be glued to a word (`MY_AWS_SECRET_ACCESS_KEY`); it starts with a long literal.
    kind: 'aws-secret-key',
    source: `${AWS_SECRET_NAME}${AWS_SECRET_SEP}[ \\t]{0,16}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
    lookbehind: '',
    secretGroup: true,
  },
  {
    kind: 'bearer-token',
    source: `(?:[Bb]earer|BEARER)${BEARER_TOKEN}`,
    scan: glued('[Bb]earer|BEARER', BEARER_TOKEN),
    lookbehind: '',
    secretGroup: true,
    prefixes: ['(?:[Bb]earer|BEARER)'],
  },
  {
    kind: 'url-credentials',
    source: `${URL_SCHEME}${URL_USERINFO}`,
    // Found from its `://`, which is rarer than a word start; the lookbehind checks the scheme.
    // A digit may come before the scheme (`1https://…`: a scheme starts with a letter).
    scan: `:\\/\\/(?<=(?<![A-Za-z+.-])${URL_SCHEME})${URL_USERINFO}`,
    lookbehind: '',
    secretGroup: true,
  },
  keys('slack-webhook', [
    [
      '(?:https?:\\/\\/|(?<!\\/))hooks\\.slack\\.com\\/',
      '(?:services|workflows|triggers)\\/[A-Za-z0-9_+/-]{8,1024}',
    ],
  ]),
  keys('anthropic-key', [['sk-ant-', '[A-Za-z0-9_-]{20,1024}']]),
  {
    kind: 'openai-key',
    // Project/service keys may hold `-` and `_`; legacy keys are alphanumeric and, unlike a word such as
    // `sk-internationalization`, hold an upper-case letter or a digit. Only the former may be glued to
    // a word (`task-sk-…` is a word).
    source: `sk-(?:(?:proj|svcacct|admin)-${OPENAI_REST}|${OPENAI_LEGACY})`,
    // A legacy key holding OpenAI's marker (`T3BlbkFJ`) may be glued too: no word holds that.
    scan: `(?:${glued('sk-(?:proj|svcacct|admin)-', OPENAI_REST)}|${glued('sk-', OPENAI_MARKED)}|${WORD_DASH}sk-${OPENAI_LEGACY})`,
    lookbehind: '',
    secretGroup: false,
    prefixes: ['sk-'],
    gluedSource: `sk-(?:(?:proj|svcacct|admin)-${OPENAI_REST}|${OPENAI_MARKED})`,
  },
  keys('github-token', [
    ['gh[pousr]_', '[A-Za-z0-9]{36,1024}'],
    ['github_pat_', '[A-Za-z0-9_]{22,1024}'],
  ]),
  // Secret and restricted keys, live and test (a test key still opens the account's test data), and
  // webhook signing secrets. Publishable keys (`pk_live_…`) are public by design: kept.
  keys('stripe-key', [
    ['[sr]k_(?:live|test|prod)_', '[A-Za-z0-9]{10,1024}'],
    ['whsec_', '[A-Za-z0-9]{24,1024}'],
  ]),
  keys('google-api-key', [['AIza', `[A-Za-z0-9_-]{35}${keyEnd('A-Za-z0-9_-')}`]]),
  keys('slack-token', [
    ['xox[abeoprs]-', '[A-Za-z0-9-]{8,1024}'],
    ['xapp-', '[0-9]{1,8}-[A-Za-z0-9-]{10,1024}'],
  ]),
  // Exactly 16 after the prefix, then no more of a word, unless another key starts there
  // (`AKIA…AKIA…`, `AKIA…sk-proj-…`: two keys glued, each redacted; key-after.ts).
  keys('aws-access-key', [[AWS_ID_PREFIX, `[A-Z0-9]{16}${keyEnd('A-Za-z0-9')}`]]),
  keys('jwt', [['eyJ', '[A-Za-z0-9_-]{8,8192}\\.eyJ[A-Za-z0-9_-]{8,65536}\\.[A-Za-z0-9_-]{0,8192}']]),
  {
    kind: 'basic-auth',
    source: BASIC,
    lookbehind: WORD_DASH,
    secretGroup: true,
  },
  {
    // After the key kinds: at the same position `ghp_…-api-key: x` is a token, not a setting's name.
    kind: 'secret',
    source: `(?:${SECRET_PREFIX}${SECRET_WORD}${SECRET_SEP}|${VENDOR_NAME}[:=]${VENDOR_VALUE_AHEAD}[=>]?[ \\t]{0,16}(?:\\\\?["'\\x60])?${PH_QUOTED}|${CURL_USER})(${SECRET_VALUE})`,
    // Found from its separator (`=`, `:`), which is far rarer in text than the letters a name starts
    // with: the combined expression no longer stops at every p, s, t and a (that cost 45% of the whole
    // scan). The separator comes first so the engine still skips to candidate characters (a leading
    // lookbehind would make it try every position); the lookbehind then checks the name and the
    // separator, and `:=` / `=>` are completed after it. The span starts at the separator: the name
    // stays as it is. The name may be glued to a word (`mypassword=`, `:_authToken=`).
    // A vendor's name (gitleaks' keyword rules) and `curl -u user:` are tried only where the names fail.
    scan: `[:=]${TERNARY}(?:(?<=${SECRET_PREFIX}${SECRET_WORD}(?:\\\\?["'\\x60])?[ \\t]{0,16}[:=])|${VENDOR_VALUE_AHEAD}(?<=${VENDOR_NAME}[:=])|(?<=${CURL_USER}))(?:(?<=:)=|(?<==)>)?(?![=:>])[ \\t]{0,16}(?:\\\\?["'\\x60])?${PH_QUOTED}(${SECRET_VALUE})`,
    lookbehind: '',
    secretGroup: true,
  },
  {
    // Only the `@domain` part is matched; the scanner walks back over the local part itself, so a long
    // run of local-part characters is never re-scanned from each of its positions.
    kind: 'email',
    source: EMAIL_DOMAIN,
    lookbehind: '',
    secretGroup: false,
  },
  ...VENDOR_KINDS.map(vendorKind),
];

/** Characters of an email local part (RFC 5322 "atext" minus the rarely seen symbols). */
export function isLocalChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 46 || // .
    code === 95 || // _
    code === 37 || // %
    code === 43 || // +
    code === 45 // -
  );
}

/** Case-insensitive source for a lower-case ASCII word: `key` → `[kK][eE][yY]`. */
function ci(word: string): string {
  let out = '';
  for (const ch of word) out += `[${ch}${ch.toUpperCase()}]`;
  return out;
}
