/**
 * Decomposed accents: the same words typed with combining marks (NFD, as some macOS and mobile
 * keyboards send them) are read exactly like their composed spelling (NFC), by the marker scanner and by
 * the learned scorer's features.
 */
import { describe, expect, it } from 'vitest';
import { classifyTurn, heuristicReflect, loadLanguageMarkers } from '../../lib/heuristic/index';
import { correctionModel, correctionScore, turnFeatures } from '../../lib/heuristic-model/index';
import { evidence } from '../heuristic/evidence';

const TEXTS = [
  'ESTÁ MAL, deshaz el cambio.',
  'Não é isso, desfaça.',
  'Ça ne marche pas.',
  'Das ist falsch, mach es rückgängig.',
  'Всё ещё не работает, опять ошибка.',
  'Неправильно, верни старый вариант.',
];

describe('decomposed (NFD) text', () => {
  it('the test texts really differ in NFD (the case is not vacuous)', () => {
    for (const t of TEXTS) expect(t.normalize('NFD'), t).not.toBe(t);
  });

  it('the marker scanner gives NFD text the signals of its NFC spelling', async () => {
    const markers = await loadLanguageMarkers();
    for (const t of TEXTS) {
      const composed = classifyTurn(t, markers);
      expect(composed.correction, t).toBe(true);
      expect(classifyTurn(t.normalize('NFD'), markers), t).toEqual(composed);
    }
  });

  it('the learned scorer reads the same features and score from NFD text', () => {
    for (const t of TEXTS) {
      const nfd = evidence(t.normalize('NFD'));
      expect(turnFeatures(nfd), t).toEqual(turnFeatures(evidence(t)));
      expect(correctionScore(nfd), t).toBe(correctionScore(evidence(t)));
    }
    // The Russian closed-vocabulary words (всё, ещё) hold a decomposable letter: they are features.
    expect(turnFeatures(evidence(TEXTS[4]!.normalize('NFD')))).toContain('w:ещё');
  });

  it('heuristicReflect gives the same insights for a conversation typed in NFD', async () => {
    const markers = await loadLanguageMarkers();
    const convo = (f: (s: string) => string) =>
      TEXTS.flatMap((t, i) => [
        { id: `a${i}`, role: 'assistant' as const, content: 'Listo, cambié el archivo.' },
        { id: `u${i}`, role: 'user' as const, content: f(t) },
      ]);
    for (const scorer of [undefined, correctionModel]) {
      const opts = scorer ? { markers, scorer } : { markers };
      const composed = heuristicReflect(
        convo((s) => s),
        opts,
      );
      expect(composed.length).toBeGreaterThan(0);
      const decomposed = heuristicReflect(
        convo((s) => s.normalize('NFD')),
        opts,
      );
      // The fact and evidence quote the user's own text as typed: compare them composed.
      const composedText = (xs: typeof composed) =>
        JSON.parse(JSON.stringify(xs).normalize('NFC')) as typeof composed;
      expect(composedText(decomposed)).toEqual(composed);
    }
  });
});
