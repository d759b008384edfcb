/**
 * What `compromise` says about a text, as features for the training-time comparisons of the readers
 * (eval/heuristic/reader-teachers.ts, eval/snapshot/notes-reader-libs.ts): which of `tags` occur, a
 * question, the tags of the first two terms and, when asked, whether each sentence starts with a verb.
 * Never shipped: compromise is a devDependency.
 */
import nlp from 'compromise';

/** The `cp:` features of `text` over the tags `tags`. */
export function compromiseFeatures(text: string, tags: readonly string[], sentenceStarts = false): string[] {
  const doc = nlp(text);
  const out: string[] = [];
  for (const t of tags) if (doc.has(`#${t}`)) out.push(`cp:${t}`);
  if (doc.questions().found) out.push('cp:question');
  const terms = doc.json({ terms: { tags: true } }) as { terms: { tags: string[] }[] }[];
  const first = terms[0]?.terms ?? [];
  first.slice(0, 2).forEach((term, i) => {
    for (const tag of term.tags) out.push(`cp:t${i}:${tag}`);
  });
  // The first word of every sentence (imperatives, "why", "still"…), by tag.
  if (sentenceStarts)
    for (const s of terms)
      if (s.terms[0]) out.push(`cp:s0:${s.terms[0].tags.includes('Verb') ? 'verb' : 'other'}`);
  return out;
}
