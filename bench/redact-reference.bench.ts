/**
 * Reference benchmark: the secret kinds of secretlint's recommended preset and gitleaks' default
 * configuration (tools/shared/redact-reference.ts) × the positions a key takes when it leaks (plain,
 * JSON-escaped, URL-encoded, quoted four ways, glued to a word or a digit, split by invisible
 * characters, across two messages) → recall per position and per kind; and false positives per class of
 * look-alike. test/unit/redact-reference.test.ts enforces recall 1 everywhere and the measured false
 * positives.
 *
 * Standalone: `npx tsx bench/redact-reference.bench.ts` prints JSON.
 */
import {
  falsePositives,
  REFERENCE_POSITIONS,
  referenceKinds,
  scoreReference,
} from '../tools/shared/redact-reference';

const SEEDS = [1, 2, 3];
const out = SEEDS.map((seed) => {
  const score = scoreReference(seed);
  return {
    seed,
    kinds: referenceKinds(seed).length,
    positions: REFERENCE_POSITIONS.length,
    planted: score.planted,
    missed: score.missed,
    minRecall: Math.min(...Object.values(score.recallByKind), ...Object.values(score.recallByPosition)),
    recallByPosition: score.recallByPosition,
    falsePositives: falsePositives(seed),
  };
});
console.log(JSON.stringify(out, null, 2));
