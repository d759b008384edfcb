/**
 * `npx tsx eval/heuristic/agreement.ts`: how far two human readers agree on the same turns, the ceiling
 * that frames the detector's figures. `second-reader.jsonl` holds a second, independent reading (blind to
 * the first labels and to the detector) of 200 turns of the first set, drawn by a seeded shuffle
 * (Python `random.Random(4007)`). Per category: the second reader scored against the first as if it were
 * a detector (P/R/F1), and Cohen's kappa. Prints JSON.
 */
import { readRows } from './rows';

const CATEGORIES = ['correction', 'preference', 'friction'] as const;
const round = (x: number) => Math.round(x * 1000) / 1000;

export function agreement() {
  type Labels = { n: number; labels: string[] };
  const second = readRows<Labels>('sets/tune-test/second-reader.jsonl');
  // The second reader's rules had no `approval` (it counted as preference): compare under those rules.
  const first = new Map(
    readRows<Labels>('sets/tune-test/turns.jsonl').map((r) => [
      r.n,
      r.labels.map((l) => (l === 'approval' ? 'preference' : l)),
    ]),
  );
  const out: Record<string, unknown> = { turns: second.length };
  for (const cat of CATEGORIES) {
    let a = 0; // both
    let b = 0; // first only
    let c = 0; // second only
    let d = 0; // neither
    for (const r of second) {
      const one = first.get(r.n)?.includes(cat) ?? false;
      const two = r.labels.includes(cat);
      if (one && two) a++;
      else if (one) b++;
      else if (two) c++;
      else d++;
    }
    const n = a + b + c + d;
    const observed = (a + d) / n;
    const expected = ((a + b) * (a + c) + (c + d) * (b + d)) / (n * n);
    const precision = a + c === 0 ? 1 : a / (a + c);
    const recall = a + b === 0 ? 1 : a / (a + b);
    out[cat] = {
      firstReader: a + b,
      secondReader: a + c,
      both: a,
      precision: round(precision),
      recall: round(recall),
      f1: round(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)),
      kappa: round(expected === 1 ? 1 : (observed - expected) / (1 - expected)),
    };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(agreement(), null, 2));
}
