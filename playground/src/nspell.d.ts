/** `nspell` ships no types: what the playground's dictionary (spelling.ts) uses of it. */
declare module 'nspell' {
  interface Checker {
    correct(word: string): boolean;
  }
  export default function nspell(dictionary: { aff: string; dic: string }): Checker;
}
