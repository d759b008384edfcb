/**
 * Adversarial units for the redaction scanners (issue 36): each is repeated to the size under test. Read
 * by bench/redact-growth.bench.ts (medians, printed) and test/unit/linear-time-errors.test.ts (ratios, enforced).
 */
export const REDACT_ADVERSARIAL: readonly (readonly [name: string, unit: string])[] = [
  ['zero-width spaces', 'a\u200b'],
  ['invisible run inside a key', 'ghp_\u200b\u00ad'],
  ['percent-encoded bytes', '%3D%40%2F'],
  ['JSON-escaped slashes', '\\/'],
  ['HTML quotes', 'password=&quot;'],
  ['placeholders wedged into keys', 'AKIA[email-1]'],
  ['glued AWS prefixes', 'xAKIA'],
  ['glued GitHub prefixes', 'ghp_'],
  ['glued Anthropic prefixes', '1sk-ant-'],
  // Keys' starts inside one key's run: each is tried whole, a bounded number of times (inside.ts).
  ['key starts inside a key', 'sk-proj-eyJsk-ghp_xoxb-AKIA'],
  ['glued AWS key ids', 'AKIA0123456789ABCDEF'],
  // Prefixes of seven or more characters are read after any run of word characters (kinds.ts, glued).
  ['distinct prefixes in a run', 'github_pat_sk-ant-x'],
  // A setting's name is probed at every position for a glued key (scanner.ts, overlapping).
  ['key starts inside setting names', '\\nioxoxb-1a_key=x'],
  ['vendor separators', 'npm_glpat-hvs.SG.'],
  ['vendor heads without separators', 'dapiLTAIAKCp'],
  ['underscores', '_'],
  ['addresses before glued keys', 'x@y.ioAKIAABCDEFGHIJKLMNOP'],
  ['echoed values', 'password: "abc12345xyz" abc12345xyz '],
  ['Basic', 'Basic Authorization: basic '],
  ['flattened PEM headers', '-----BEGIN PRIVATE KEY----- Proc-Type: 4 '],
  ['new setting names', ':_authToken=ADAFRUIT_IO_KEY=?sig=Pwd='],
  ['placeholders before values', 'password="[email-1]'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell syntax is the input under test
  ['shell substring expansions', '${token:0:20}'],
  ['ternaries', 'x ? "a-token" : "b'],
  ['bearer after placeholders', 'Bearer [email-1]'],
  // Issue 36's gitleaks formats: vendors' names before separators, `curl -u`, heads before `|`, `~`, `.`.
  ['vendor names before separators', 'DISCORD_CLIENT_ID=twitter:'],
  ['vendor names in a long name', 'discord_a_b_c_d_e_f_g_h_i_j_k_l='],
  ['curl -u pairs', 'curl -u a:b:'],
  ['digit runs before bars', '1234567890123456|'],
  ['tildes after heads', 'abc1Q~'],
  ['Terraform heads', 'abcdefghijklmn.atlasv1.'],
  ['MaxMind heads', 'abcdef_'],
  ['dots after s', 's.s.1'],
  ['Sourcegraph and Twilio prefixes', 'sgp_SK0a'],
  ['EAA prefixes', 'EAAAEAAC'],
  // Short starts after 16 word characters: each is read back from for a key ending there (matches.ts),
  // within a budget of twice the text; a key found there is redacted with the one glued after it.
  ['key starts after a run', 'qqqqqqqqqqqqqqqqEAAAEAAAhvs.npm_'],
  ['keys glued to keys', 'AKIABBBBBBBBBBBBBBBBglpat-cccccccccccccccccccc '],
  ['fixed-length keys glued', 'dapi0123456789abcdef0123456789abcdefnpm_'],
];
