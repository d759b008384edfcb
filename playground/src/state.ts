/**
 * The playground's state: the input text and where it came from, the settings (mirrored in the URL),
 * and the analysis — computed on the main thread for typical inputs (instant), in a Web Worker for
 * large ones (with progress).
 */

import { pickParams } from 'rearview/snapshot';
import type { Step } from 'rearview/transcript';
import { batch, createEffect, createMemo, createSignal, on } from 'solid-js';
import {
  assembleView,
  compactionOf,
  countsOf,
  DEFAULT_SETTINGS,
  insightsOf,
  type ParseFailure,
  parseInput,
  type Settings,
  snapshotOf,
  turnsOf,
  type View,
} from './analyze';
import { readUrlState, writeUrlState } from './url-state';
import type { FromWorker, ToWorker } from './worker-protocol';

/** Inputs above this many characters go to the worker. */
export const LARGE_INPUT = 200_000;
/** The editor shows at most this much of a large file. */
export const EDITOR_LIMIT = 100_000;

export type Source =
  | { kind: 'none' }
  | { kind: 'sample'; id: string }
  | { kind: 'paste' }
  | { kind: 'file'; name: string; size: number };

export interface Progress {
  phase: string;
  fraction: number;
  done: boolean;
  phases: string[];
  bytes: number;
  ms?: number;
}

export interface SampleMeta {
  id: string;
  title: string;
  format: string;
  file: string;
  description: string;
  source: string;
  licence: string;
  redactions: number;
}

const shallowEqual = <T extends object>(a: T, b: T) =>
  Object.keys(a).every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);

export function createAppState() {
  const initial = readUrlState(location.search);
  const [text, setTextRaw] = createSignal('');
  const [source, setSource] = createSignal<Source>({ kind: 'none' });
  const [settings, setSettings] = createSignal<Settings>(initial.settings);
  const [samples, setSamples] = createSignal<SampleMeta[]>([]);
  const [highlight, setHighlight] = createSignal<string | null>(null);
  const [tab, setTab] = createSignal<'insights' | 'snapshots' | 'reduction' | 'playbook'>('insights');
  const [large, setLarge] = createSignal(false);
  const [workerView, setWorkerView] = createSignal<View | null>(null);
  const [workerError, setWorkerError] = createSignal<ParseFailure | null>(null);
  const [progress, setProgress] = createSignal<Progress | null>(null);
  const [editorNote, setEditorNote] = createSignal<string | null>(null);

  // Main thread: parse on every change of a typical input.
  const local = createMemo(() => (large() || !text().trim() ? null : parseInput(text())));
  const parsed = createMemo(() => {
    const r = local();
    return r?.ok ? r.value : null;
  });
  const markers = createMemo(() => settings().markers);
  const caps = createMemo(() => pickParams(settings(), 'caps'), undefined, { equals: shallowEqual });
  const a = createMemo(() => settings().a);
  const localBase = createMemo(() => {
    const p = parsed();
    return p ? { counts: countsOf(p, text()), turns: turnsOf(p) } : null;
  });
  const localInsights = createMemo(() => {
    const p = parsed();
    return p ? insightsOf(p, markers()) : [];
  });
  const localSnapshot = createMemo(() => {
    const p = parsed();
    return p ? snapshotOf(p, { ...DEFAULT_SETTINGS, ...caps() }) : null;
  });
  const localCompaction = createMemo(() => {
    const p = parsed();
    return p ? compactionOf(p, { ...DEFAULT_SETTINGS, a: a() }) : null;
  });

  const view = createMemo<View | null>(() => {
    if (large()) return workerView();
    const p = parsed();
    const base = localBase();
    const snapshot = localSnapshot();
    if (!p || !base || !snapshot) return null;
    return assembleView(p, {
      counts: base.counts,
      turns: base.turns,
      insights: localInsights(),
      snapshot,
      compaction: localCompaction(),
    });
  });
  const error = createMemo<ParseFailure | null>(() => {
    if (large()) return workerError();
    const r = local();
    return r && !r.ok ? r.error : null;
  });

  // The worker, created on first use.
  let worker: Worker | undefined;
  let seq = 0;
  let stepSeq = 0;
  const pendingSteps = new Map<number, (steps: Step[]) => void>();
  function getWorker(): Worker {
    if (worker) return worker;
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<FromWorker>) => {
      const m = e.data;
      if (m.type === 'steps') {
        pendingSteps.get(m.id)?.(m.steps);
        pendingSteps.delete(m.id);
        return;
      }
      if (m.id !== seq) return; // a newer request superseded this one
      if (m.type === 'progress') {
        setProgress(
          (p) => p && { ...p, phase: m.phase, fraction: m.fraction, phases: [...p.phases, m.phase] },
        );
      } else if (m.type === 'view') {
        batch(() => {
          setWorkerView(m.view);
          setWorkerError(null);
          setProgress(
            (p) => p && { ...p, phase: 'Done', fraction: 1, done: true, ms: performance.now() - started },
          );
        });
      } else if (m.type === 'error') {
        batch(() => {
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
              ...(m.insights ? { insights: m.insights } : {}),
              ...(m.snapshot ? { snapshot: m.snapshot } : {}),
              ...(m.compaction !== undefined ? { compaction: m.compaction } : {}),
            },
        );
      }
    };
    return worker;
  }
  let started = 0;
  function post(msg: ToWorker, transfer: Transferable[] = []) {
    getWorker().postMessage(msg, transfer);
  }

  function analyzeInWorker(payload: { text?: string; buffer?: ArrayBuffer }, bytes: number) {
    seq++;
    started = performance.now();
    batch(() => {
      setLarge(true);
      setWorkerView(null);
      setWorkerError(null);
      setProgress({ phase: 'Starting', fraction: 0.02, done: false, phases: [], bytes });
    });
    post(
      { type: 'analyze', id: seq, ...payload, settings: settings() },
      payload.buffer ? [payload.buffer] : [],
    );
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

  /** A dropped or picked file: large files never enter the editor in full. */
  async function loadFile(file: File) {
    if (file.size <= LARGE_INPUT) {
      setText(await file.text(), { kind: 'file', name: file.name, size: file.size });
      return;
    }
    const buffer = await file.arrayBuffer();
    const head = new TextDecoder().decode(buffer.slice(0, EDITOR_LIMIT));
    batch(() => {
      setSource({ kind: 'file', name: file.name, size: file.size });
      setTextRaw(head);
      setEditorNote(
        `${file.name} is ${(file.size / 1e6).toFixed(1)} MB: it is processed in a background worker, and the editor shows its first ${EDITOR_LIMIT / 1000} KB.`,
      );
    });
    analyzeInWorker({ buffer }, file.size);
  }

  async function loadSample(id: string) {
    const meta = samples().find((s) => s.id === id);
    if (!meta) return;
    const res = await fetch(`${import.meta.env.BASE_URL}samples/${meta.file}`);
    setText(await res.text(), { kind: 'sample', id });
  }

  function getSteps(): Promise<Step[]> {
    if (!large()) return Promise.resolve(parsed()?.trajectory?.steps ?? []);
    return new Promise((resolve) => {
      const id = ++stepSeq; // matched by id, separately from analyses
      pendingSteps.set(id, resolve);
      post({ type: 'steps', id });
    });
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
    view,
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
