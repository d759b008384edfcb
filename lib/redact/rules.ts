/**
 * Compiling the enabled kinds into the expressions the scanner runs, and the shapes it works with.
 */
import { KIND_SPECS, type KindSpec } from './kinds.js';
import { firstChars, VENDOR_FORMATS } from './vendors.js';

/** A caller-supplied pattern, normalised to a global regular expression. */
export interface CustomRule {
  kind: string;
  regex: RegExp;
}

/** Everything one configuration needs to scan, built once and reused for every call. */
export interface CompiledRules {
  /**
   * The combined expressions, in order: the vendor table's kinds are a second set (one expression of
   * every kind is too large for V8 to compile natively, and scans several times slower). At one
   * position the first set wins, which is the order of {@link BUILTIN_KINDS}.
   */
  parts: Part[];
  /**
   * The kinds that may be glued to a short word, without lookbehinds (`y`), and the characters they can
   * start with: tried in the 15 positions after a match's end (see {@link gluedAfter}).
   */
  glued:
    | {
        sticky: RegExp;
        alts: Alt[];
        starts: ReadonlySet<number>;
        /** The kinds' fixed starts alone, sticky: a cheap test before the whole expression is tried. */
        prefix: RegExp;
      }
    | undefined;
  /** Anchored tests that reclassify a bearer token as a more specific kind (`Bearer sk-ant-…`). */
  classify: { kind: string; test: RegExp }[];
  /** Names whose placeholders (`[email-3]`) are recognised in the input. */
  knownKinds: ReadonlySet<string>;
  custom: CustomRule[];
}

/** One set of kinds: expressions with lookbehinds (`g`, and `y` to probe) and without (`y`). */
export interface Part {
  global: RegExp;
  sticky: RegExp;
  probe: RegExp;
  alts: Alt[];
  /** For the vendor set: the characters a match can start with (the others are not tried). */
  starts: ReadonlySet<number> | undefined;
}

export interface Alt {
  group: number;
  kind: string;
  secretGroup: boolean;
  email: boolean;
  heads: KindSpec['heads'];
  deepHead: RegExp | undefined;
  /** The kind's short fixed starts, sticky: one after 16 or more word characters is decided by code. */
  deep: RegExp | undefined;
}

/** One region of the text the scanner claimed. */
export interface Span {
  /** Where the claimed region starts (context such as `Bearer ` included). */
  start: number;
  /** Where the secret value starts (after any context) and ends. */
  valueStart: number;
  end: number;
  kind: string;
}

/**
 * Kinds a bearer token or a named secret (`GH_TOKEN=ghp_…`) is reported as when its whole value has
 * their shape (`Bearer sk-ant-…`).
 */
const CLASSIFIABLE: readonly string[] = [
  'anthropic-key',
  'openai-key',
  'github-token',
  'stripe-key',
  'google-api-key',
  'slack-token',
  'aws-access-key',
  'npm-token',
  'huggingface-token',
  'gitlab-token',
  'vendor-key',
  'jwt',
];
/** Kinds scanned by the second expression (see {@link CompiledRules.globals}). */
const SEPARATE: readonly string[] = ['npm-token', 'huggingface-token', 'gitlab-token', 'vendor-key'];

function altOf(spec: KindSpec, group: number): Alt {
  return {
    group,
    kind: spec.kind,
    secretGroup: spec.secretGroup,
    email: spec.kind === 'email',
    heads: spec.heads,
    deepHead: spec.deepHead,
    deep: spec.deep?.length ? new RegExp(spec.deep.map((p) => `(?:${p})`).join('|'), 'y') : undefined,
  };
}

/** Kinds whose value is reclassified by {@link CLASSIFIABLE}. */
export const GENERIC: readonly string[] = ['bearer-token', 'secret'];

/** Builds the expressions for a set of enabled built-in kinds, custom rules and known kind names. */
export function compileRules(
  enabled: ReadonlySet<string>,
  custom: CustomRule[],
  knownKinds: readonly string[],
): CompiledRules {
  const specs = KIND_SPECS.filter((s) => enabled.has(s.kind));
  // With every built-in kind off, an expression that never matches keeps the scanner simple.
  const never = '(?!)';
  const parts: Part[] = [];
  for (const part of [
    specs.filter((s) => !SEPARATE.includes(s.kind)),
    specs.filter((s) => SEPARATE.includes(s.kind)),
  ]) {
    if (part.length === 0 && parts.length > 0) continue;
    const alts: Alt[] = [];
    let g = 1;
    for (const spec of part) {
      alts.push(altOf(spec, g));
      g += spec.secretGroup ? 2 : 1;
    }
    const withBoundary = part.map((spec) => `(${spec.lookbehind}${spec.scan ?? spec.source})`).join('|');
    const withoutBoundary = part.map((spec) => `(${spec.source})`).join('|');
    parts.push({
      global: new RegExp(withBoundary || never, 'g'),
      sticky: new RegExp(withoutBoundary || never, 'y'),
      probe: new RegExp(withBoundary || never, 'y'),
      alts,
      starts:
        parts.length === 0
          ? undefined
          : new Set(
              [...VENDOR_FORMATS.map((f) => firstChars(f.prefix)).join('')].map((c) => c.charCodeAt(0)),
            ),
    });
  }
  const gluedSpecs = specs.filter((s) => s.prefixes !== undefined);
  let glued: CompiledRules['glued'];
  if (gluedSpecs.length > 0) {
    const alts: Alt[] = [];
    let g = 1;
    for (const spec of gluedSpecs) {
      alts.push(altOf(spec, g));
      g += spec.secretGroup ? 2 : 1;
    }
    const starts = gluedSpecs.flatMap((s) => s.prefixes!.map(firstChars)).join('');
    glued = {
      sticky: new RegExp(gluedSpecs.map((spec) => `(${spec.gluedSource ?? spec.source})`).join('|'), 'y'),
      alts,
      starts: new Set([...starts].map((c) => c.charCodeAt(0))),
      prefix: new RegExp(gluedSpecs.flatMap((spec) => spec.prefixes!.map((p) => `(?:${p})`)).join('|'), 'y'),
    };
  }
  return {
    parts,
    glued,
    classify: specs
      .filter((s: KindSpec) => CLASSIFIABLE.includes(s.kind))
      .map((s) => ({ kind: s.kind, test: new RegExp(`^(?:${s.source})$`) })),
    knownKinds: new Set(knownKinds),
    custom,
  };
}
