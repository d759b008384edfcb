import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The rows of a JSONL file, by its path under eval/heuristic/ (`sets/<set>/turns.jsonl`, a second reader's labels). */
export function readRows<T>(name: string): T[] {
  const file = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, name);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}
