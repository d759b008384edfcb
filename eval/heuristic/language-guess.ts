/**
 * `npx tsx eval/heuristic/language-guess.ts [--libraries <node_modules>]`: `rearview/language`'s guess
 * (lib/language/guess.ts, the note of `rearview reflect` and the playground) against the language the readers named for each labelled turn (every older
 * set and the `strangers` split; turns named `und` left out). Per turn: exact language, and "in one of
 * the eight languages `--languages` reads" as precision / recall; per author: whether `otherLanguages`
 * would print its note, against "at least a tenth of the author's labelled turns are in one of the
 * eight". `--libraries` names a `node_modules` holding `eld` and `tinyld` (not dependencies of
 * rearview: `npm install eld tinyld` in a folder of its own) to time and score them in the same run.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { guessLanguage, OTHER_LANGUAGES, otherLanguages } from '../../lib/language/index';
import { oldExamples, strangerExamples } from './reader-data';

const EIGHT = new Set<string>(OTHER_LANGUAGES);
const all = [...oldExamples(), ...strangerExamples().examples].filter(
  (e) => typeof e.evidence?.text === 'string',
);
const named = all.filter((e) => e.lang && e.lang !== 'und');
const textOf = (e: (typeof all)[number]) => e.evidence!.text;

const guessers: Record<string, (t: string) => string> = {
  'rearview (script + function words)': guessLanguage,
};
const at = process.argv.indexOf('--libraries');
if (at > 0) {
  const dir = process.argv[at + 1]!;
  const { eld } = await import(pathToFileURL(`${dir}/eld/src/entries/static.extrasmall.js`).href);
  const tinyld = await import(pathToFileURL(`${dir}/tinyld/dist/tinyld.light.node.mjs`).href);
  guessers['eld 2 (extrasmall)'] = (t) => eld.detect(t.slice(0, 2000)).language || 'und';
  guessers['tinyld (light)'] = (t) => tinyld.detect(t.slice(0, 2000)) || 'und';
}

console.log(`${named.length} labelled turns with a named language\n`);
console.log('| guesser | exact | one of the eight: P / R | M characters/s |');
console.log('| --- | --- | --- | --- |');
for (const [name, guess] of Object.entries(guessers)) {
  let exact = 0;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let chars = 0;
  const t0 = performance.now();
  for (const e of named) {
    const text = textOf(e);
    chars += Math.min(text.length, 2000);
    const g = guess(text);
    if (g === e.lang) exact++;
    const said = EIGHT.has(g);
    const is = EIGHT.has(e.lang);
    if (said && is) tp++;
    else if (said) fp++;
    else if (is) fn++;
  }
  const ms = performance.now() - t0;
  console.log(
    `| ${name} | ${(exact / named.length).toFixed(3)} | ${(tp / (tp + fp)).toFixed(3)} / ${(tp / (tp + fn)).toFixed(3)} | ${(chars / ms / 1000).toFixed(1)} |`,
  );
}

// Per author: the note `rearview reflect` prints, against the readers' languages.
const byAuthor = new Map<string, typeof all>();
for (const e of all) byAuthor.set(e.author, [...(byAuthor.get(e.author) ?? []), e]);
const cells = { said: { right: 0, wrong: 0 }, silent: { right: 0, wrong: 0 } };
const wrong: string[] = [];
for (const [author, rows] of byAuthor) {
  const inEight = rows.filter((e) => EIGHT.has(e.lang)).length;
  const truth = inEight > 0 && inEight * 10 >= rows.length;
  const note = otherLanguages(rows.map(textOf));
  const cell = note ? cells.said : cells.silent;
  if (!!note === truth) cell.right++;
  else {
    cell.wrong++;
    wrong.push(`  ${note ? 'said' : 'silent'}: ${author} ${JSON.stringify(note?.languages ?? {})}`);
  }
}
console.log(
  `\n${byAuthor.size} authors: the note said for ${cells.said.right} of ${cells.said.right + cells.silent.wrong} who write in the eight languages, and for ${cells.said.wrong} of ${cells.said.wrong + cells.silent.right} others`,
);
console.log(wrong.join('\n'));
