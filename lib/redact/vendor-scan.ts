/**
 * The vendor table's kinds as the scanner reads them (rows in vendors.ts). The scan finds most rows
 * from the `_`, `-` or `.` in their prefix (see `splitPrefix`): fifty prefixes starting with letters
 * would make the combined expression stop at almost every letter of the text.
 *
 * A short start after 16 or more word characters is part of the run (a hash, a blob), unless a key ends
 * where it starts: `AKIA…npm_…`, `A3-…_glpat-…` (a fixed-length key refuses more of a word after it,
 * so neither would be found). The scanner looks for the key before such a start (matches.ts). A row of
 * fixed length is matched there whole (its rest is 146 characters at most); for the others, one
 * expression per kind matches the separator of any of their starts with eight key characters after it,
 * so the rest of a long key is not read at every start of a run full of them.
 */
import { isDistinct } from './glued.js';
import { KEY_AFTER } from './key-after.js';
import { splitPrefix, VENDOR_FORMATS, type VendorFormat, type VendorKind } from './vendors.js';

/** Sixteen word characters before a start: what glued.ts's look back refuses. */
const RUN = '[A-Za-z0-9_-]{16}';

/** Eight characters of a key after a start: a start alone after a run is matched only with these. */
const KEY_CHARS = '(?=[A-Za-z0-9_.+/=-]{8})';

/** A fixed-length row: its end refuses more of a word unless another key starts there (key-after.ts). */
const fixed = (f: VendorFormat): boolean => f.rest.includes(KEY_AFTER);

/** A vendor kind as kinds.ts's `KindSpec` holds it (declared here: kinds.ts imports this module). */
export interface VendorSpec {
  kind: VendorKind;
  source: string;
  scan: string;
  lookbehind: '';
  secretGroup: false;
  prefixes: readonly string[];
  heads: readonly { scan: RegExp; head: RegExp }[];
  deepHead: RegExp | undefined;
  deep: readonly string[];
}

/**
 * The kind made of the vendor table's rows of `kind`: one expression each, and for those found from a
 * separator, the sticky expression and head that locate the key's start.
 *
 * @example
 * ```ts
 * vendorKind('npm-token').prefixes; // ['npm_']
 * ```
 */
export function vendorKind(kind: VendorKind): VendorSpec {
  const rows = VENDOR_FORMATS.filter((f) => f.kind === kind);
  const heads: { scan: RegExp; head: RegExp }[] = [];
  const deepHeads: string[] = [];
  const deepSeps = new Set<string>();
  const scan = rows.map((f) => {
    const split = splitPrefix(f.prefix);
    if (!split) {
      if (fixed(f) || isDistinct(f.prefix)) return `(?:${f.prefix})${f.rest}`;
      // Three rows start with letters (`ATATT3`, `EAA[ACM]`, `ZXlK`): each matches alone after a run.
      const start = `(?:${f.prefix})`;
      return `${start}(?:(?<!${RUN}${start})${f.rest}|(?<=${RUN}${start})${KEY_CHARS})`;
    }
    const { head, sep, tail } = split;
    const start = `(?:${head})${sep}`;
    const anywhere = fixed(f) || isDistinct(f.prefix);
    if (!anywhere) {
      deepHeads.push(start);
      deepSeps.add(sep);
    }
    const source = `${sep}(?<=${anywhere ? '' : `(?<!${RUN})`}${start})${tail}${f.rest}`;
    heads.push({ scan: new RegExp(source, 'y'), head: new RegExp(`${start}$`) });
    return source;
  });
  const deepHeadSource = `(?:${deepHeads.join('|')})`;
  if (deepHeads.length > 0)
    scan.push(`(?:${[...deepSeps].join('|')})(?<=${RUN}${deepHeadSource})${KEY_CHARS}`);
  const prefixes = rows.map((f) => f.prefix);
  return {
    kind,
    source: `(?:${rows.map((f) => `(?:${f.prefix})${f.rest}`).join('|')})`,
    scan: `(?:${scan.join('|')})`,
    lookbehind: '',
    secretGroup: false,
    prefixes,
    heads,
    deepHead: deepHeads.length > 0 ? new RegExp(`${deepHeadSource}$`) : undefined,
    deep: prefixes.filter((p) => !isDistinct(p)),
  };
}
