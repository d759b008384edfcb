/**
 * Keys recognised by a vendor's fixed prefix, as data: one row per format. The rows follow the public
 * formats that secretlint's recommended rules and gitleaks' default configuration look for (see
 * bench/redact-reference.bench.ts for the list and the recall on each). Every row is a fixed prefix and
 * bounded runs of single character classes, so each is linear.
 *
 * A key may be glued to the end of a short word or number (`idAKIA…`, `MY_npm_…`, `1sk-ant-…`, what a
 * `%3D` or `%20` leaves once decoded): the scanner accepts a prefix after at most 15 word characters,
 * which also bounds the attempts inside a long run (see `glued` in kinds.ts).
 */

/** One key format: its kind (placeholder name), its fixed prefix and what follows it. */
export interface VendorFormat {
  kind: VendorKind;
  /** Source of the fixed start (a literal or a small alternation), checked before anything else. */
  prefix: string;
  /** Source of the rest: bounded runs; ends where a key character cannot follow. */
  rest: string;
  /** Which vendor and format, for the reference list. */
  what: string;
}

import { keyEnd } from './key-after.js';

/** The kinds the table yields (each also a built-in kind name). */
export type VendorKind = 'npm-token' | 'huggingface-token' | 'gitlab-token' | 'vendor-key';

/** A fixed-length key ends where its word does, or where another key starts (key-after.ts). */
const END = keyEnd('A-Za-z0-9_-');
const HEX = '[a-fA-F0-9]';

/** @internal The formats, grouped by kind in the order they are tried. */
export const VENDOR_FORMATS: readonly VendorFormat[] = [
  { kind: 'npm-token', prefix: 'npm_', rest: `[A-Za-z0-9]{36,64}${END}`, what: 'npm access token' },
  {
    kind: 'huggingface-token',
    prefix: '(?:hf|api_org)_',
    rest: `[A-Za-z0-9]{30,64}${END}`,
    what: 'Hugging Face user and org tokens',
  },
  {
    kind: 'gitlab-token',
    prefix: 'gl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent|wt|ffct)-',
    // A routable token ends in `.` and nine characters (`glpat-….01abc2def`).
    rest: `[A-Za-z0-9_-]{20,1024}(?:\\.[a-z0-9]{9}(?![A-Za-z0-9]))?`,
    what: 'GitLab personal, pipeline, deploy, runner, CI-build, OAuth, feed, incoming-mail tokens',
  },
  {
    kind: 'gitlab-token',
    prefix: 'GR1348941',
    rest: `[A-Za-z0-9_-]{20,64}${END}`,
    what: 'GitLab runner registration',
  },
  { kind: 'vendor-key', prefix: 'dckr_pat_', rest: `[A-Za-z0-9_-]{27,64}${END}`, what: 'Docker Hub PAT' },
  { kind: 'vendor-key', prefix: 'figd_', rest: `[A-Za-z0-9_-]{40,64}${END}`, what: 'Figma PAT' },
  { kind: 'vendor-key', prefix: 'nfp_', rest: `[A-Za-z0-9]{36,40}${END}`, what: 'Netlify PAT' },
  { kind: 'vendor-key', prefix: 'gsk_', rest: `[A-Za-z0-9]{48,64}${END}`, what: 'Groq API key' },
  {
    kind: 'vendor-key',
    prefix: 'glc_',
    rest: '[A-Za-z0-9+/]{32,400}={0,2}',
    what: 'Grafana Cloud API token',
  },
  {
    kind: 'vendor-key',
    prefix: 'glsa_',
    rest: `[A-Za-z0-9]{32}_${HEX}{8}${END}`,
    what: 'Grafana service account',
  },
  { kind: 'vendor-key', prefix: 'hv[sb]\\.', rest: `[A-Za-z0-9_-]{90,1024}`, what: 'HashiCorp Vault token' },
  { kind: 'vendor-key', prefix: 'dapi', rest: `${HEX}{32}(?:-[0-9])?${END}`, what: 'Databricks token' },
  {
    kind: 'vendor-key',
    prefix: 'lin_(?:api|oauth)_',
    rest: `[A-Za-z0-9]{40,64}${END}`,
    what: 'Linear API key',
  },
  { kind: 'vendor-key', prefix: 'ntn_', rest: `[A-Za-z0-9]{40,50}${END}`, what: 'Notion integration token' },
  { kind: 'vendor-key', prefix: 'secret_', rest: `[A-Za-z0-9]{43}${END}`, what: 'Notion legacy token' },
  {
    kind: 'vendor-key',
    prefix: 'SG\\.',
    rest: `[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${END}`,
    what: 'SendGrid API key',
  },
  { kind: 'vendor-key', prefix: 'shp(?:at|ca|pa|ss)_', rest: `${HEX}{32}${END}`, what: 'Shopify tokens' },
  {
    kind: 'vendor-key',
    prefix: 'tskey-',
    rest: `[a-z]{3,8}-[A-Za-z0-9]{6,64}-[A-Za-z0-9]{10,64}${END}`,
    what: 'Tailscale key',
  },
  {
    kind: 'vendor-key',
    prefix: 'ops_eyJ',
    rest: '[A-Za-z0-9+/]{100,8192}={0,3}',
    what: '1Password service account',
  },
  {
    kind: 'vendor-key',
    prefix: 'A3-',
    rest: `[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${END}`,
    what: '1Password secret key',
  },
  {
    kind: 'vendor-key',
    prefix: 'v1\\.0-',
    rest: `${HEX}{24}-${HEX}{146}${END}`,
    what: 'Cloudflare Origin CA key',
  },
  { kind: 'vendor-key', prefix: 'do[opr]_v1_', rest: `${HEX}{64}${END}`, what: 'DigitalOcean tokens' },
  {
    kind: 'vendor-key',
    prefix: 'cf(?:k|ut|at)_',
    rest: `[A-Za-z0-9]{40,64}${END}`,
    what: 'Cloudflare API key, user and account tokens',
  },
  {
    kind: 'vendor-key',
    prefix: 'vc[pikar]_',
    rest: `[A-Za-z0-9]{24,64}${END}`,
    what: 'Vercel personal, integration, app, refresh and API tokens',
  },
  {
    kind: 'vendor-key',
    prefix: 'pypi-AgEIcHlwaS5vcmc',
    rest: '[A-Za-z0-9_-]{50,1024}',
    what: 'PyPI upload token',
  },
  { kind: 'vendor-key', prefix: 'rubygems_', rest: `${HEX}{48}${END}`, what: 'RubyGems API key' },
  { kind: 'vendor-key', prefix: 'PMAK-', rest: `${HEX}{24}-${HEX}{34}${END}`, what: 'Postman API key' },
  { kind: 'vendor-key', prefix: 'AGE-SECRET-KEY-1', rest: `[A-Z0-9]{58}${END}`, what: 'age secret key' },
  { kind: 'vendor-key', prefix: 'ATATT3', rest: '[A-Za-z0-9_=-]{100,1024}', what: 'Atlassian API token' },
  { kind: 'vendor-key', prefix: 'LTAI', rest: `[A-Za-z0-9]{20}${END}`, what: 'Alibaba AccessKey ID' },
  {
    kind: 'vendor-key',
    prefix: 'xkeysib-',
    rest: `${HEX}{64}-[A-Za-z0-9]{16}${END}`,
    what: 'Brevo (Sendinblue) key',
  },
  {
    kind: 'vendor-key',
    prefix: 'sq0(?:atp|csp)-',
    rest: `[A-Za-z0-9_-]{22,64}${END}`,
    what: 'Square tokens',
  },
  {
    kind: 'vendor-key',
    prefix: 'dt0c01\\.',
    rest: `[A-Z0-9]{24}\\.[A-Z0-9]{64}${END}`,
    what: 'Dynatrace API token',
  },
  {
    kind: 'vendor-key',
    prefix: 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.',
    rest: `[A-Za-z0-9]{40,44}${END}`,
    what: 'Doppler tokens',
  },
  {
    kind: 'vendor-key',
    prefix: 'pscale_(?:tkn|pw|oauth)_',
    rest: `[A-Za-z0-9=._-]{32,64}${END}`,
    what: 'PlanetScale tokens',
  },
  { kind: 'vendor-key', prefix: 'pnu_', rest: `[A-Za-z0-9]{36}${END}`, what: 'Prefect API key' },
  { kind: 'vendor-key', prefix: 'pul-', rest: `${HEX}{40}${END}`, what: 'Pulumi access token' },
  { kind: 'vendor-key', prefix: 'rdme_', rest: `[a-z0-9]{70}${END}`, what: 'ReadMe API key' },
  { kind: 'vendor-key', prefix: 'sntry[su]_', rest: '[A-Za-z0-9+/=_-]{40,1024}', what: 'Sentry tokens' },
  { kind: 'vendor-key', prefix: 'fo1_', rest: `[A-Za-z0-9_-]{43}${END}`, what: 'Fly.io access token' },
  {
    kind: 'vendor-key',
    prefix: 'duffel_(?:test|live)_',
    rest: `[A-Za-z0-9_=-]{43}${END}`,
    what: 'Duffel API token',
  },
  { kind: 'vendor-key', prefix: 'EZ[AT]K', rest: `[A-Za-z0-9]{54}${END}`, what: 'EasyPost API token' },
  {
    kind: 'vendor-key',
    prefix: 'FLW(?:SECK|PUBK)_TEST-',
    rest: `[a-hA-H0-9]{12}(?:[a-hA-H0-9]{20}-X)?${END}`,
    what: 'Flutterwave secret, public and encryption keys',
  },
  { kind: 'vendor-key', prefix: 'HRKU-', rest: `[A-Za-z0-9_-]{58,64}${END}`, what: 'Heroku API key (2024)' },
  {
    kind: 'vendor-key',
    prefix: 'pat-(?:na|eu)1-',
    rest: `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}${END}`,
    what: 'HubSpot private app token',
  },
  {
    kind: 'vendor-key',
    prefix: 'NR(?:AK|II|JS)-',
    rest: `[A-Za-z0-9-]{19,32}${END}`,
    what: 'New Relic keys',
  },
  { kind: 'vendor-key', prefix: 'pplx-', rest: `[A-Za-z0-9]{48}${END}`, what: 'Perplexity API key' },
  { kind: 'vendor-key', prefix: 'xai-', rest: `[A-Za-z0-9]{80}${END}`, what: 'xAI API key' },
  {
    kind: 'vendor-key',
    prefix: 'nvapi-',
    rest: `[A-Za-z0-9_-]{64}${END}`,
    what: 'NVIDIA API key (build.nvidia.com, NGC)',
  },
  { kind: 'vendor-key', prefix: 'sk-or-v1-', rest: `${HEX}{64}${END}`, what: 'OpenRouter API key' },
  { kind: 'vendor-key', prefix: 'r8_', rest: `[A-Za-z0-9]{37}${END}`, what: 'Replicate API token' },
  { kind: 'vendor-key', prefix: 'tfp_', rest: `[A-Za-z0-9_.=-]{59}${END}`, what: 'Typeform PAT' },
  { kind: 'vendor-key', prefix: 'ico-', rest: `[A-Za-z0-9]{32}${END}`, what: 'Infracost API token' },
  { kind: 'vendor-key', prefix: 'fio-u-', rest: `[A-Za-z0-9_=-]{64}${END}`, what: 'Frame.io API token' },
  { kind: 'vendor-key', prefix: 'p8e-', rest: `[A-Za-z0-9]{32}${END}`, what: 'Adobe client secret' },
  { kind: 'vendor-key', prefix: 'AKCp', rest: `[A-Za-z0-9]{69}${END}`, what: 'Artifactory API key' },
  { kind: 'vendor-key', prefix: 'CLOJARS_', rest: `[a-z0-9]{60}${END}`, what: 'Clojars API token' },
  {
    kind: 'vendor-key',
    prefix: 'ya29\\.',
    rest: '[A-Za-z0-9_-]{30,2048}',
    what: 'Google OAuth access token',
  },
  {
    kind: 'vendor-key',
    prefix: 'sk\\.eyJ',
    rest: '[A-Za-z0-9_-]{50,1024}\\.[A-Za-z0-9_-]{20,1024}',
    what: 'Mapbox secret token',
  },
  {
    kind: 'vendor-key',
    prefix: 'fm(?:1[ar]|2)_',
    rest: '[A-Za-z0-9+/]{100,8192}={0,3}',
    what: 'Fly.io macaroon',
  },
  { kind: 'vendor-key', prefix: 'cmVmd', rest: `[A-Za-z0-9]{59}${END}`, what: 'Artifactory reference token' },
  {
    kind: 'vendor-key',
    prefix: '(?:sc|ext|scauth|authress)_',
    rest: '[A-Za-z0-9]{5,30}\\.[A-Za-z0-9]{4,6}\\.acc[_-][A-Za-z0-9-]{10,32}\\.[A-Za-z0-9+/_=-]{30,120}',
    what: 'Authress service client key',
  },
  {
    kind: 'vendor-key',
    prefix: '[A-Za-z0-9_~.]{3}[0-9]Q~',
    rest: `[A-Za-z0-9_~.-]{31,34}${keyEnd('A-Za-z0-9_~.-')}`,
    what: 'Azure AD client secret',
  },
  { kind: 'vendor-key', prefix: '4b1d', rest: `[A-Za-z0-9]{38}${END}`, what: 'ClickHouse Cloud secret' },
  {
    kind: 'vendor-key',
    prefix: 'dnkey-',
    rest: `[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}${END}`,
    what: 'Defined Networking token',
  },
  {
    kind: 'vendor-key',
    prefix: '[0-9]{15,16}\\|',
    rest: `[A-Za-z0-9_-]{27,40}${END}`,
    what: 'Facebook access token',
  },
  {
    kind: 'vendor-key',
    prefix: 'EAA[ACM]',
    rest: '[A-Za-z0-9_-]{22,1024}',
    what: 'Facebook page and Square access tokens',
  },
  {
    kind: 'vendor-key',
    prefix: '_gitlab_session=',
    rest: `[a-z0-9]{32}${END}`,
    what: 'GitLab session cookie',
  },
  { kind: 'vendor-key', prefix: 'eyJrIjoi', rest: '[A-Za-z0-9]{70,400}={0,3}', what: 'Grafana API key' },
  {
    kind: 'vendor-key',
    prefix: '(?:pat|sat)\\.',
    rest: `[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}${END}`,
    what: 'Harness access token',
  },
  {
    kind: 'vendor-key',
    prefix: '[A-Za-z0-9]{14}\\.atlasv1\\.',
    rest: `[A-Za-z0-9_=-]{60,70}${END}`,
    what: 'Terraform Cloud token',
  },
  { kind: 'vendor-key', prefix: 's-s4t2(?:ud|af)-', rest: `${HEX}{64}${END}`, what: 'Intra42 client secret' },
  { kind: 'vendor-key', prefix: 'ZXlK', rest: '[A-Za-z0-9/_+-]{40,8192}={0,2}', what: 'base64-encoded JWT' },
  {
    kind: 'vendor-key',
    prefix: '[A-Za-z0-9]{6}_',
    rest: `[A-Za-z0-9]{29}_mmk${END}`,
    what: 'MaxMind license key',
  },
  {
    kind: 'vendor-key',
    prefix: 'webhook\\.office\\.com\\/webhookb2\\/',
    rest: `[A-Za-z0-9-]{8,64}@[A-Za-z0-9-]{8,64}\\/IncomingWebhook\\/[A-Za-z0-9]{32}\\/[A-Za-z0-9-]{8,64}${END}`,
    what: 'Microsoft Teams webhook',
  },
  { kind: 'vendor-key', prefix: 'API-', rest: `[A-Z0-9]{26}${END}`, what: 'Octopus Deploy API key' },
  { kind: 'vendor-key', prefix: 'sha256~', rest: `[A-Za-z0-9_-]{43}${END}`, what: 'OpenShift user token' },
  { kind: 'vendor-key', prefix: 'tk-us-', rest: `[A-Za-z0-9_-]{48}${END}`, what: 'Scalingo API token' },
  {
    kind: 'vendor-key',
    prefix: 'sm_(?:aat|pat|sat)_',
    rest: `[A-Za-z0-9]{16}${END}`,
    what: 'SettleMint tokens',
  },
  { kind: 'vendor-key', prefix: 'shippo_(?:live|test)_', rest: `${HEX}{40}${END}`, what: 'Shippo API token' },
  {
    kind: 'vendor-key',
    prefix: 'sgp_',
    rest: `(?:${HEX}{16}_|local_)?${HEX}{40}${END}`,
    what: 'Sourcegraph access token',
  },
  { kind: 'vendor-key', prefix: 'SK', rest: `${HEX}{32}${END}`, what: 'Twilio API key' },
  {
    // Legacy Vault token: `s.` + 24 holding a digit, not after a letter (`os.…`) but an escape's (`\ns.…`).
    kind: 'vendor-key',
    prefix: 's\\.',
    rest: `(?<=(?<!(?<!\\\\)[A-Za-z.])s\\.)(?=[A-Za-z]{0,24}[0-9])[A-Za-z0-9]{24}${END}`,
    what: 'HashiCorp Vault legacy token',
  },
];

/**
 * @internal Vendors' names that make a setting a secret wherever they stand in its name (gitleaks' keyword
 * rules). Lower case; `?` is an optional `_` or `-` (`linked?in`: `linkedin`, `linked_in`, `LINKED-IN`).
 */
export const VENDOR_NAMES: readonly string[] = (
  'adafruit adobe airtable algolia alibaba asana atlassian confluence jira beamer bitbucket bittrex meraki ' +
  'cloudflare codecov cohere coinbase confluent contentful datadog dnkey discord droneci dropbox etsy ' +
  'facebook fastly finicity finnhub flickr freshbooks gitter gocardless heroku hubspot intercom jfrog ' +
  'artifactory bintray xray kraken kucoin launchdarkly linear linked?in lob mailchimp mailgun mapbox ' +
  'mattermost message?bird netlify new?relic nytimes newyorktimes okta plaid private?ai rapidapi sendbird ' +
  'sentry snyk sonar squarespace sumo telegram travis twitch twitter typeform yandex zendesk contribsys ' +
  'sourcegraph'
).split(' ');

/**
 * @internal A vendor's name anywhere in a setting's name (`DISCORD_CLIENT_ID`, `sonar.login`), lower case,
 * capitalised or upper case, starting a word (after a non-letter, an escape's letter, or camel case:
 * `myTwitterKey`), ending the name or followed by `_.-` or an upper-case letter (the look back tries the
 * names only there) and up to 23 name characters. What must follow it is in kinds.ts.
 */
export const VENDOR_NAME: string = (() => {
  const form = (w: string, f: (part: string, i: number) => string) => w.split('?').map(f).join('[_-]?');
  const lower = VENDOR_NAMES.map((w) => form(w, (p) => p)).join('|');
  const upper = VENDOR_NAMES.map((w) => form(w, (p) => p.toUpperCase())).join('|');
  const cap = VENDOR_NAMES.map((w) =>
    form(w, (p, i) => (i === 0 ? p[0]!.toUpperCase() : `[${p[0]}${p[0]!.toUpperCase()}]`) + p.slice(1)),
  ).join('|');
  return (
    `(?:(?<!(?<!\\\\)[A-Za-z])(?:${lower})|(?<!(?<!\\\\)[A-Z])(?:${upper}|${cap}))` +
    `(?:[_.A-Z-][A-Za-z0-9_.-]{0,23})?(?:\\\\?["'\x60])?[ \\t]{0,16}`
  );
})();
/**
 * A prefix split at its first `_`, `-`, `.`, `~` or `|` outside a group: the scan looks for that separator (rarer in
 * text than letters, so the combined expression keeps skipping) and checks what comes before it with a
 * look back. Prefixes without one (`dapi`, `LTAI`) are matched from their first letter.
 */
export function splitPrefix(prefix: string): { head: string; sep: string; tail: string } | undefined {
  let depth = 0;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i];
    if (c === '\\') {
      const next = prefix[i + 1];
      if ((next === '.' || next === '|') && depth === 0 && i > 0) {
        return { head: prefix.slice(0, i), sep: `\\${next}`, tail: prefix.slice(i + 2) };
      }
      i++;
    } else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if ((c === '_' || c === '-' || c === '~') && depth === 0 && i > 0) {
      return { head: prefix.slice(0, i), sep: c, tail: prefix.slice(i + 1) };
    }
  }
  return undefined;
}

/**
 * The characters a prefix can start with (a literal, a class `[sr]`, or a group of alternatives), so the
 * scanner tries the table only where a key could start.
 */
export function firstChars(prefix: string): string {
  if (prefix.startsWith('(?:')) {
    let depth = 0;
    let out = '';
    let start = 3;
    for (let i = 3; i < prefix.length; i++) {
      const c = prefix[i];
      if (c === '\\') i++;
      else if (c === '(' || c === '[') depth++;
      else if (c === ']' || (c === ')' && depth > 0)) depth--;
      else if ((c === '|' || c === ')') && depth === 0) {
        out += firstChars(prefix.slice(start, i));
        start = i + 1;
        if (c === ')') break;
      }
    }
    return out;
  }
  if (prefix.startsWith('[')) return expandClass(prefix.slice(1, prefix.indexOf(']')));
  return prefix.startsWith('\\') ? prefix.charAt(1) : prefix.charAt(0);
}

/** @internal The vendor kinds, in the order they are tried. */
export const VENDOR_KINDS: readonly VendorKind[] = [
  'npm-token',
  'huggingface-token',
  'gitlab-token',
  'vendor-key',
];

/** The characters of a class body without negation or escapes (`A-Za-z0-9_~.`), ranges expanded. */
function expandClass(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === '-' && i + 2 < body.length) {
      for (let c = body.charCodeAt(i); c <= body.charCodeAt(i + 2); c++) out += String.fromCharCode(c);
      i += 2;
    } else out += body[i];
  }
  return out;
}
