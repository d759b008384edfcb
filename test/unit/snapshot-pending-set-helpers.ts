/**
 * Shared by the tests of the `pending` set (eval/snapshot/sets/pending): its rows, read once per test
 * file, and the rows a later change of the reading retired.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const set = resolve(import.meta.dirname, '../../eval/snapshot/sets/pending');
export const data = resolve(import.meta.dirname, '../../../shared/data');
/**
 * Rows whose item a later change of the reading split into several entries or took out of the reply
 * (`retired`: the change), so that no entry is the item the readers labelled any more; kept with their
 * labels, checked apart.
 */
export const retired: Record<string, unknown>[] = [];
export const read = (name: string) =>
  readFileSync(join(set, name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => {
      if (r.retired === undefined) return true;
      retired.push(r);
      return false;
    });
export const labels = read('labels.jsonl');
export const blockers = read('blockers.jsonl');
export const fixed = read('fixed.jsonl');
export const fixedRuns = read('fixed-runs.jsonl');
export const acted = read('acted.jsonl');
export const actedRuns = read('acted-runs.jsonl');
export const modelErrors = read('model-errors.jsonl');
export const questions = read('questions.jsonl');
export const aiderEdits = read('aider-edits.jsonl');
export const earlier = read('earlier.jsonl');
export const intros = read('intros.jsonl');
export const overtaken = read('overtaken.jsonl');
export const introducesRows = read('introduces.jsonl');
export const replied = read('replied.jsonl');
export const superseded = read('superseded.jsonl');
export const supersededAfter = read('superseded-after.jsonl');
export const delivered = read('delivered.jsonl');
export const renderedEdits = read('rendered-edits.jsonl');
export const runsSuperseded = read('runs-superseded.jsonl');
export const runsSubmitted = read('runs-submitted.jsonl');
export const headings = read('headings.jsonl');
export const notesReaderRows = read('notes-reader.jsonl');
export const notesReaderAgentRows = read('notes-reader-agent.jsonl');
/** Every row of the set. */
export const every = [
  ...labels,
  ...blockers,
  ...fixed,
  ...fixedRuns,
  ...acted,
  ...actedRuns,
  ...modelErrors,
  ...questions,
  ...aiderEdits,
  ...earlier,
  ...intros,
  ...overtaken,
  ...introducesRows,
  ...replied,
  ...superseded,
  ...supersededAfter,
  ...delivered,
  ...renderedEdits,
  ...runsSuperseded,
  ...runsSubmitted,
  ...headings,
  ...notesReaderRows,
  ...notesReaderAgentRows,
];
export const sha = (s: string) => createHash('sha256').update(s).digest('hex');
