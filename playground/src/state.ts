/**
 * The playground's state: the input text and where it came from, the settings (mirrored in the URL),
 * and the analysis — computed on the main thread for typical inputs (instant), in a Web Worker for
 * large ones (with progress). A large paste or file never enters the editor: the worker holds the text,
 * the page a preview of its start, and the chunked editor asks the worker for windows of lines.
 * The learned scorers are imported when one is first chosen (here, and by the worker for large
 * inputs); until they are there, the previous insights stay on screen.
 */

import { pickParams } from 'rearview/snapshot';
import type { Step } from 'rearview/transcript';
import { batch, createEffect, createMemo, createSignal, on } from 'solid-js';
import type {
  LearnedDetector,
  Parsed,
  ParseFailure,
  ParseOutcome,
  Settings,
  View,
  ViewParts,
} from './analyze';
import type { Markers } from './heuristics';
import { scorerImport } from './scorer-state';
import { DEFAULT_SETTINGS } from './settings';
import { dictionaryImport, sameParts } from './spelling-state';
import {
  EDITOR_LIMIT,
  type Jump,
  LARGE_INPUT,
  type Progress,
  type SampleMeta,
  type ScorerStatus,
  type Source,
} from './state-types';
import { readUrlState, writeUrlState } from './url-state';
import { createWorkerClient } from './worker-client';
import type { LineWindow, TextMeta } from './worker-protocol';

type Analysis = typeof import('./analyze');

const shallowEqual = <T extends object>(a: T, b: T) =>
  Object.keys(a).every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);

export function createAppState() {
  const initial = readUrlState(location.search);
  const [text, setTextRaw] = createSignal('');
  const [source, setSource] = createSignal<Source>({ kind: 'none' });
  const [settings, setSettings] = createSignal<Settings>(initial.settings);
  const [samples, setSamples] = createSignal<SampleMeta[]>([]);
  const [highlight, setHighlight] = createSignal<string | null>(null);
  const [tab, setTab] = createSignal<'insights' | 'snapshots' | 'reduction' | 'playbook' | 'learn'>(
    'insights',
  );
  const [large, setLarge] = createSignal(false);
  const [workerView, setWorkerView] = createSignal<View | null>(null);
  const [workerError, setWorkerError] = createSignal<ParseFailure | null>(null);
  const [progress, setProgress] = createSignal<Progress | null>(null);
  const [editorNote, setEditorNote] = createSignal<string | null>(null);
  /** Set while the input lives only in the worker (a large paste or file). */
  const [bigMeta, setBigMeta] = createSignal<TextMeta | null>(null);
  const [chunkEditor, setChunkEditor] = createSignal(false);
  const [jump, setJump] = createSignal<Jump | null>(null);

  /**
   * The analysis code (the transcript parsers, the snapshot, the lesson pipeline), imported at once but
   * not part of the first paint: the page shows itself while it loads, in parallel with the sample.
   */
  const [analysis, setAnalysis] = createSignal<Analysis | null>(null);
  void import('./analyze').then(setAnalysis);

  // Main thread: parse on every change of a typical input.
  const local = createMemo<ParseOutcome | null>(() => {
    const an = analysis();
    return !an || large() || !text().trim() ? null : an.parseInput(text());
  });
  const parsed = createMemo(() => {
    const r = local();
    return r?.ok ? r.value : null;
  });
  const markers = createMemo(() => settings().markers);
  const caps = createMemo(() => pickParams(settings(), 'caps'), undefined, { equals: shallowEqual });
  const a = createMemo(() => settings().a);
  const localBase = createMemo(() => {
    const p = parsed();
    const an = analysis();
    return p && an ? { counts: an.countsOf(p, text()), turns: an.turnsOf(p) } : null;
  });
  // The chosen scorer's import on this thread (with a large input the worker imports its own).
  const { detector, learnedOn, current } = scorerImport(() => settings().detector, large);
  type Scored = Pick<ViewParts, 'insights' | 'keyPoints' | 'learned' | 'scorerError'> & {
    p: Parsed;
    m: Markers;
  };
  const dictionary = dictionaryImport();
  const readInsights = (prev: Scored | null): Scored | null => {
    const p = parsed();
    const m = markers();
    const an = analysis();
    if (!p || !an) return null;
    const lessonParts: typeof an.lessonParts = (...args) => dictionary.parts(an, ...args);
    if (!learnedOn()) return { p, m, ...lessonParts(p, m) };
    const { scorer, error } = current();
    const d = detector() as LearnedDetector;
    if (scorer) return { p, m, ...lessonParts(p, m, scorer), learned: d };
    if (error) return { p, m, ...lessonParts(p, m), scorerError: error };
    // Loading: the insights on screen stay (no flash) unless the input changed, no longer the scorer's.
    if (prev && prev.p === p && prev.m === m && !prev.scorerError)
      return prev.learned && prev.learned !== d ? { ...prev, learned: false } : prev;
    return { p, m, ...lessonParts(p, m) };
  };
  const localInsights = createMemo(readInsights, null, { equals: sameParts });
  const localSnapshot = createMemo(() => {
    const p = parsed();
    const an = analysis();
    return p && an ? an.snapshotOf(p, { ...DEFAULT_SETTINGS, ...caps() }) : null;
  });
  const localCompaction = createMemo(() => {
    const p = parsed();
    const an = analysis();
    return p && an ? an.compactionOf(p, { ...DEFAULT_SETTINGS, a: a() }) : null;
  });

  const view = createMemo<View | null>(() => {
    if (large()) return workerView();
    const p = parsed();
    const base = localBase();
    const snapshot = localSnapshot();
    const scored = localInsights();
    const an = analysis();
    if (!p || !base || !snapshot || !scored || !an) return null;
    return an.assembleView(p, {
      counts: base.counts,
      turns: base.turns,
      insights: scored.insights,
      keyPoints: scored.keyPoints,
      learned: scored.learned,
      scorerError: scored.scorerError,
      snapshot,
      compaction: localCompaction(),
    });
  });
  const scorerStatus = createMemo<ScorerStatus | null>(() => {
    if (!learnedOn()) return null;
    const v = view();
    // With a large input only the worker's answer says whether the scorer ran.
    const failed = v ? v.scorerError : large() ? undefined : current().error;
    if (failed) return { kind: 'failed', message: failed };
    const on = v ? v.learned === detector() : !large() && current().scorer;
    return on ? { kind: 'on' } : { kind: 'loading' };
  });
  const error = createMemo<ParseFailure | null>(() => {
    if (large()) return workerError();
    const r = local();
    return r && !r.ok ? r.error : null;
  });

  // The worker, created on first use; `seq` names the current analysis (older answers are dropped).
  let seq = 0;
  let started = 0;
  const client = createWorkerClient((m) => {
    if (m.id !== seq) return; // a newer request superseded this one
    if (m.type === 'meta') {
      if (bigMeta()) setBigMeta(m.meta);
    } else if (m.type === 'progress') {
      setProgress((p) => p && { ...p, phase: m.phase, fraction: m.fraction, phases: [...p.phases, m.phase] });
    } else if (m.type === 'view') {
      batch(() => {
        if (bigMeta()) setBigMeta(m.meta);
        setWorkerView(m.view);
        setWorkerError(null);
        setProgress(
          (p) => p && { ...p, phase: 'Done', fraction: 1, done: true, ms: performance.now() - started },
        );
      });
    } else if (m.type === 'error') {
      batch(() => {
        if (bigMeta()) setBigMeta(m.meta);
        setWorkerView(null);
        setWorkerError(m.error);
        setProgress(
          (p) => p && { ...p, phase: 'Failed', fraction: 1, done: true, ms: performance.now() - started },
        );
      });
    } else if (m.type === 'update') {
      setWorkerView(
        (v) =>
          v && {
            ...v,
            ...(m.insights
              ? {
                  insights: m.insights,
                  keyPoints: m.keyPoints ?? [],
                  learned: m.learned,
                  scorerError: m.scorerError,
                }
              : {}),
            ...(m.snapshot ? { snapshot: m.snapshot } : {}),
            ...(m.compaction !== undefined ? { compaction: m.compaction } : {}),
          },
      );
    }
  });
  const post = client.post;

  function startRun(bytes: number) {
    seq++;
    started = performance.now();
    batch(() => {
      setLarge(true);
      setWorkerView(null);
      setWorkerError(null);
      setProgress({ phase: 'Starting', fraction: 0.02, done: false, phases: [], bytes });
    });
  }

  type Payload = { text?: string; file?: Blob };

  function analyzeInWorker(payload: Payload, bytes: number) {
    startRun(bytes);
    const id = seq;
    if (payload.file) post({ type: 'analyze', id, file: payload.file, settings: settings() });
    else void client.analyzeText(id, payload.text ?? '', settings, () => id === seq);
  }

  /** Hands a large text to the worker; the page keeps only its size and start. */
  function takeLarge(payload: Payload, chars: number, from: Source) {
    const head = payload.text?.slice(0, 4000) ?? '';
    batch(() => {
      setSource(from);
      setEditorNote(null);
      setHighlight(null);
      setJump(null);
      setChunkEditor(false);
      setTextRaw('');
      setBigMeta({ chars, lines: 0, head });
    });
    analyzeInWorker(payload, chars);
  }

  /** Lines `from`… of the worker's text, for the chunked editor. */
  const requestLines = (from: number, count: number, clip = 2000): Promise<LineWindow> =>
    client.requestLines(from, count, clip);

  /** Replaces one line of the large input (the chunked editor's edit) and analyses it again. */
  function editLine(line: number, text: string) {
    const meta = bigMeta();
    if (!meta) return;
    startRun(meta.chars);
    setJump(null);
    post({ type: 'edit', id: seq, line, text, settings: settings() });
  }

  /** Empties the input, wherever it lives. */
  function clear() {
    if (bigMeta()) post({ type: 'clear' });
    seq++;
    batch(() => {
      setBigMeta(null);
      setChunkEditor(false);
      setJump(null);
      setLarge(false);
      setWorkerView(null);
      setWorkerError(null);
      setProgress(null);
      setEditorNote(null);
      setHighlight(null);
      setSource({ kind: 'none' });
      setTextRaw('');
    });
  }

  /** Asks the editor to show and highlight a parse error's place. */
  function jumpToError() {
    const err = error();
    if (!err?.line) return;
    if (bigMeta()) setChunkEditor(true);
    setJump({
      line: err.line,
      ...(err.column ? { column: err.column } : {}),
      seq: seq * 1000 + (Date.now() % 1000),
    });
  }

  // Slider changes on a large input: the worker recomputes from the input it holds.
  createEffect(
    on(
      settings,
      (s) => {
        if (large() && workerView()) post({ type: 'settings', id: seq, settings: s });
      },
      { defer: true },
    ),
  );

  /** Text typed or pasted in the editor. */
  function setText(value: string, from: Source = { kind: 'paste' }) {
    batch(() => {
      if (bigMeta()) {
        post({ type: 'clear' });
        setBigMeta(null);
        setChunkEditor(false);
      }
      setJump(null);
      setSource(from);
      setEditorNote(null);
      setHighlight(null);
      setTextRaw(value);
      if (value.length > LARGE_INPUT) analyzeInWorker({ text: value }, value.length);
      else {
        setLarge(false);
        setProgress(null);
      }
    });
  }

  /** A pasted text: a large one goes straight to the worker, never through the textarea. */
  function paste(value: string) {
    if (value.length <= EDITOR_LIMIT) setText(value);
    else takeLarge({ text: value }, value.length, { kind: 'paste' });
  }

  /** A dropped or picked file: large files never enter the editor. */
  async function loadFile(file: File) {
    const from: Source = { kind: 'file', name: file.name, size: file.size };
    if (file.size <= EDITOR_LIMIT) {
      // Moved, unreadable, or not a file at all: say so rather than leave the drop unanswered.
      const text = await file.text().catch((err: unknown) => {
        setEditorNote(`Could not read ${file.name}: ${err instanceof Error ? err.message : String(err)}`);
      });
      if (text !== undefined) setText(text, from);
      return;
    }
    // The worker reads the file: the page passes the handle (reading 50 MB here took 175 ms tasks).
    takeLarge({ file }, file.size, from);
  }

  async function loadSample(id: string) {
    const meta = samples().find((s) => s.id === id);
    if (!meta) return;
    const res = await fetch(`${import.meta.env.BASE_URL}samples/${meta.file}`);
    setText(await res.text(), { kind: 'sample', id });
  }

  function getSteps(): Promise<Step[]> {
    if (!large()) return Promise.resolve(parsed()?.trajectory?.steps ?? []);
    return client.requestSteps();
  }

  // The URL mirrors the thresholds and the chosen sample.
  createEffect(() => {
    const src = source();
    if (src.kind === 'none') return; // still opening: keep the shared URL as it came
    const search = writeUrlState({ sample: src.kind === 'sample' ? src.id : null, settings: settings() });
    if (search !== location.search)
      history.replaceState(null, '', `${location.pathname}${search}${location.hash}`);
  });

  function goTo(ref: string) {
    setTab('insights');
    setHighlight(ref);
  }

  return {
    initialSample: initial.sample,
    text,
    setText,
    source,
    settings,
    setSettings,
    samples,
    setSamples,
    loadSample,
    loadFile,
    paste,
    clear,
    bigMeta,
    chunkEditor,
    setChunkEditor,
    requestLines,
    editLine,
    jump,
    setJump,
    jumpToError,
    view,
    scorerStatus,
    error,
    large,
    progress,
    editorNote,
    highlight,
    setHighlight,
    goTo,
    tab,
    setTab,
    getSteps,
  };
}

export type AppState = ReturnType<typeof createAppState>;
