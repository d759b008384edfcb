/**
 * The Learn tab: pick a folder of agent sessions; a worker runs `learn` over it (progress: files, MB,
 * sessions, rules; cancel); review each proposed rule with its evidence turns (edit, accept, reject);
 * export the accepted rules as a markdown section or a diff against a pasted AGENTS.md, or save them into
 * a playbook (SaveAccepted). People's turns are read with the page's marker lists; a note says when
 * sessions are written in languages that give few rules (LanguageNote). Everything stays in the page.
 */
import type { LearnedRule, LearnProgress, LearnResult } from 'rearview/learn';
import { createEffect, createSignal, For, onCleanup, Show, untrack } from 'solid-js';
import { DEFAULT_MARKERS } from '../heuristics';
import type { LearnedDetector } from '../scorers';
import { DEFAULT_SETTINGS, type Detector } from '../settings';
import type { AppState } from '../state';
import { DICTIONARY_LICENCES } from './dictionary-licences';
import { type Dropped, dropTarget, postFiles } from './drop';
import EvidenceList from './EvidenceList';
import FileLines from './FileLines';
import { type DirHandle, type FileHandle, hasDirectoryPicker, type NamedFile, pickDirectory } from './files';
import { type FromFolderFrame, folderFrameDoc, type ToFolderFrame } from './folder-frame';
import LanguageNote from './LanguageNote';
import ModelReview, { type ModelEdits } from './ModelReview';
import OneOffs from './OneOffs';
import type { FromLearnWorker, LearnTotal, ToLearnWorker } from './protocol';
import RunOptions from './RunOptions';
import SaveAccepted from './SaveAccepted';
import './learn.css';

type Verdict = 'pending' | 'accepted' | 'rejected';
interface Review {
  rule: LearnedRule;
  text: string;
  verdict: Verdict;
}

const mb = (n: number) => (n / 1e6).toFixed(1);

export default function LearnPanel(props: {
  /** A folder dropped elsewhere on the page (the transcript panel), read when the tab opens. */
  dropped?: () => Promise<Dropped> | null;
  onTaken?: () => void;
  /**
   * What reads people's turns, when the page shares one choice with the Tune panel (and its link);
   * without it, the tab keeps its own, the markers first.
   */
  detector?: { get: () => Detector; set: (d: Detector) => void };
  /** The page, whose marker lists (the Tune panel's) read people's turns; without it, the defaults. */
  app?: AppState;
}) {
  const [total, setTotal] = createSignal<LearnTotal>({ files: 0, bytes: 0, complete: false });
  const [progress, setProgress] = createSignal<LearnProgress | undefined>();
  const [running, setRunning] = createSignal(false);
  const [result, setResult] = createSignal<LearnResult | undefined>();
  const [reviews, setReviews] = createSignal<Review[]>([]);
  const [error, setError] = createSignal('');
  const [minSessions, setMinSessions] = createSignal(2);
  const [budget, setBudget] = createSignal(0);
  const [since, setSince] = createSignal('');
  const [ownDetector, setOwnDetector] = createSignal<Detector>(DEFAULT_SETTINGS.detector);
  const detector = () => (props.detector ? props.detector.get() : ownDetector());
  const setDetector = (d: Detector) => (props.detector ? props.detector.set(d) : setOwnDetector(d));
  const [against, setAgainst] = createSignal('');
  const [exported, setExported] = createSignal('');
  let worker: Worker | undefined;
  let frame: HTMLIFrameElement | undefined;
  const toFrame = (m: ToFolderFrame, transfer: Transferable[] = []) =>
    frame?.contentWindow?.postMessage(m, '*', transfer);
  const fromFrame = (e: MessageEvent<FromFolderFrame>) => {
    if (!frame || e.source !== frame.contentWindow || e.data?.type !== 'picked') return;
    start(e.data.total);
  };
  window.addEventListener('message', fromFrame);
  onCleanup(() => {
    window.removeEventListener('message', fromFrame);
    worker?.terminate();
  });
  createEffect(() => toFrame({ type: 'disabled', value: running() }));

  const newWorker = () => new Worker(new URL('./learn-worker.ts', import.meta.url), { type: 'module' });
  /**
   * A finished run's worker is ended: its heap (what learn read, not yet collected) goes with it. An
   * export starts a fresh one.
   */
  const letWorkerGo = () => {
    worker?.terminate();
    worker = undefined;
  };

  const noFiles = 'No session files (.jsonl, .json, .md, .txt, .log) in that folder.';

  /**
   * Starts a run over a picked or dropped folder the worker lists (`handles`), over `files` read from a
   * drop's entries (the page posts them), or over the `picked` files chosen in the input's frame,
   * which the frame then posts to the worker itself.
   */
  const start = (picked: number, handles?: (DirHandle | FileHandle)[], files?: NamedFile[]) => {
    const dir = handles !== undefined && handles.length > 0;
    const markers = props.app?.settings().markers;
    // The input's files are counted at once; a picked folder's as the worker lists them.
    setTotal({ files: picked, bytes: 0, complete: false });
    setResult(undefined);
    setReviews([]);
    setExported('');
    setError('');
    if (!dir && !picked) {
      setError(noFiles);
      return;
    }
    worker ??= newWorker();
    worker.onmessage = (e: MessageEvent<FromLearnWorker>) => {
      const m = e.data;
      if (m.type === 'progress') setProgress(m.progress);
      else if (m.type === 'total') setTotal(m.total);
      else if (m.type === 'exported') setExported(m.text);
      else if (m.type === 'error') {
        setError(m.message);
        setRunning(false);
        letWorkerGo();
      } else {
        letWorkerGo();
        if (dir && !m.result.aborted && m.result.stats.files === 0 && !m.result.skipped.length) {
          setError(noFiles);
          setProgress(undefined);
          setRunning(false);
          return;
        }
        setResult(m.result);
        setProgress({
          files: m.result.stats.files,
          bytes: m.result.stats.bytes,
          sessions: m.result.stats.sessions,
          rules: m.result.rules.length,
        });
        setReviews(m.result.rules.map((rule) => ({ rule, text: rule.text, verdict: 'pending' as Verdict })));
        setRunning(false);
      }
    };
    setProgress({ files: 0, bytes: 0, sessions: 0, rules: 0 });
    setRunning(true);
    const channel = dir ? undefined : new MessageChannel();
    const msg: ToLearnWorker = {
      type: 'run',
      ...(dir ? { handles } : {}),
      ...(channel ? { port: channel.port1 } : {}),
      total: picked,
      minSessions: minSessions(),
      // The day picked is the person's own: from its local midnight (a bare ISO day would be UTC's).
      ...(since() ? { since: new Date(`${since()}T00:00:00`).getTime() } : {}),
      ...(budget() > 0 ? { budget: budget() } : {}),
      ...(against().trim() ? { against: against() } : {}),
      ...(detector() !== 'markers' ? { detector: detector() as LearnedDetector } : {}),
      ...(markers && markers !== DEFAULT_MARKERS ? { markers } : {}),
    };
    worker.postMessage(msg, channel ? [channel.port1] : []);
    if (channel && files) postFiles(channel.port2, files);
    else if (channel) toFrame({ type: 'send' }, [channel.port2]);
  };

  const fromDrop = (p: Promise<Dropped>) =>
    p.then(
      (d) => (d.kind === 'handles' ? start(0, d.handles) : start(d.files.length, undefined, d.files)),
      (err) =>
        setError(`Could not read what was dropped: ${err instanceof Error ? err.message : String(err)}`),
    );
  createEffect(() => {
    const p = props.dropped?.();
    if (!p) return;
    untrack(() => {
      props.onTaken?.();
      if (running())
        setError('A run is going on: cancel it, or wait for its end, then drop the folder again.');
      else void fromDrop(p);
    });
  });
  const drop = dropTarget(running, fromDrop);

  const pick = async () => {
    try {
      start(0, [await pickDirectory()]);
    } catch (err) {
      // The person closed the picker: nothing to do.
      if ((err as { name?: string })?.name !== 'AbortError') setError(String(err));
    }
  };

  const cancel = () => worker?.postMessage({ type: 'cancel' } satisfies ToLearnWorker);

  const setVerdict = (i: number, verdict: Verdict) =>
    setReviews((rs) => rs.map((r, j) => (j === i ? { ...r, verdict } : r)));
  const setText = (i: number, text: string) =>
    setReviews((rs) => rs.map((r, j) => (j === i ? { ...r, text } : r)));

  const exportAs = (as: 'markdown' | 'diff') => {
    if (!worker) {
      worker = newWorker();
      worker.onmessage = (e: MessageEvent<FromLearnWorker>) => {
        if (e.data.type === 'exported') setExported(e.data.text);
      };
    }
    worker.postMessage({
      type: 'export',
      rules: accepted(),
      as,
      against: against(),
    } satisfies ToLearnWorker);
  };

  /** The model's edits: a rewrite fills the text field, a rule it would drop is marked rejected. */
  const applyModel = (edits: ModelEdits) =>
    setReviews((rs) =>
      rs.map((r, i) => {
        const e = edits.get(i);
        return e === undefined ? r : e === null ? { ...r, verdict: 'rejected' } : { ...r, text: e };
      }),
    );
  const shown = () => reviews().map((r) => ({ ...r.rule, text: r.text.trim() || r.rule.text }));

  /** The accepted rules, with their edits. */
  const accepted = () => shown().filter((_, i) => reviews()[i]!.verdict === 'accepted');

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target around the tab; the picker and the input are the keyboard path
    <div
      class="learn dropzone"
      classList={{ dragging: drop.dragging() }}
      data-testid="learn-panel"
      onDragOver={drop.onDragOver}
      onDragLeave={drop.onDragLeave}
      onDrop={drop.onDrop}
    >
      <p class="hint">
        Pick or drop a folder of agent sessions (Claude Code JSONL, aider histories, console transcripts, chat
        exports…). A worker reads one file at a time; nothing leaves this page. Typos in rules are repaired as{' '}
        <code>rearview learn</code> repairs them (dictionaries:{' '}
        <For each={DICTIONARY_LICENCES}>
          {(d, i) => (
            <>
              {i() ? ', ' : ''}
              <a href={d.url} target="_blank" rel="noopener">
                {d.name}
              </a>
            </>
          )}
        </For>
        ).
      </p>
      <div class="row">
        <Show when={hasDirectoryPicker()}>
          <button type="button" onClick={pick} disabled={running()} data-testid="learn-pick">
            Pick a folder…
          </button>
        </Show>
        <span class="ghost">
          {hasDirectoryPicker() ? 'or choose files: ' : 'Choose a folder: '}
          {/* Once the worker has every chosen file, the frame (its own process) is let go until the run ends. */}
          <Show when={!running() || !total().complete} fallback={<span>(reading…)</span>}>
            <iframe
              ref={frame}
              class="learn-folder-frame"
              title="Choose a folder"
              sandbox="allow-scripts"
              srcdoc={folderFrameDoc()}
              data-testid="learn-folder-frame"
              onLoad={() => toFrame({ type: 'disabled', value: running() })}
            />
          </Show>
        </span>
        <RunOptions
          o={{ minSessions, setMinSessions, budget, setBudget, since, setSince, detector, setDetector }}
        />
      </div>
      <details>
        <summary>Existing AGENTS.md / CLAUDE.md (optional)</summary>
        <textarea
          rows={6}
          data-testid="learn-against"
          placeholder="Paste it: what it says is not proposed again, and lines the sessions contradict are shown."
          value={against()}
          onInput={(e) => setAgainst(e.currentTarget.value)}
        />
      </details>
      <Show when={progress()}>
        {(p) => (
          <div class="learn-progress" data-testid="learn-progress">
            <progress max={Math.max(1, total().files)} value={p().files} />
            <span>
              {p().files}/{total().files}
              {total().complete ? '' : '…'} files · {mb(p().bytes)}/{mb(total().bytes)}
              {total().complete ? '' : '…'} MB · {p().sessions} sessions · {p().rules} rules
            </span>
            <Show when={running()}>
              <button type="button" class="ghost" onClick={cancel} data-testid="learn-cancel">
                Cancel
              </button>
            </Show>
          </div>
        )}
      </Show>
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={result()}>
        {(r) => (
          <div data-testid="learn-result">
            <p data-testid="learn-summary">
              {r().aborted ? 'Cancelled: ' : ''}
              {r().stats.sessions} sessions, {r().stats.humanTurns} human turns → {r().rules.length} rules
              with evidence from ≥ {r().minSessions} sessions; {r().oneOffCount} seen in fewer;{' '}
              {r().skipped.length} files skipped.
              {r().filtered['before since']
                ? ` ${r().filtered['before since']} findings dated before ${since()} left out.`
                : ''}
            </p>
            <LanguageNote result={r()} />
            <FileLines result={r()} />
            <ol class="learn-rules" data-testid="learn-rules">
              <For each={reviews()}>
                {(rv, i) => (
                  <li class={`learn-rule ${rv.verdict}`} data-testid="learn-rule">
                    <input
                      class="learn-text"
                      value={rv.text}
                      aria-label="Rule text"
                      onInput={(e) => setText(i(), e.currentTarget.value)}
                    />
                    <span class="meta">
                      {rv.rule.kind} · {rv.rule.sessions} sessions · {rv.rule.count} turns
                      {rv.rule.lastDate ? ` · last ${rv.rule.lastDate.slice(0, 10)}` : ''}
                    </span>
                    <button
                      type="button"
                      aria-pressed={rv.verdict === 'accepted'}
                      onClick={() => setVerdict(i(), 'accepted')}
                    >
                      Accept
                    </button>
                    <button
                      type="button"
                      aria-pressed={rv.verdict === 'rejected'}
                      onClick={() => setVerdict(i(), 'rejected')}
                    >
                      Reject
                    </button>
                    <EvidenceList evidence={rv.rule.evidence} />
                  </li>
                )}
              </For>
            </ol>
            <OneOffs
              oneOffs={r().oneOffs}
              count={r().oneOffCount}
              minSessions={r().minSessions}
              inReview={(rule) => reviews().some((rv) => rv.rule === rule)}
              onReview={(rule) => setReviews([...reviews(), { rule, text: rule.text, verdict: 'pending' }])}
            />
            <ModelReview rules={shown} onEdits={applyModel} />
            <div class="row">
              <button type="button" data-testid="learn-export-md" onClick={() => exportAs('markdown')}>
                Export accepted as markdown
              </button>
              <button type="button" data-testid="learn-export-diff" onClick={() => exportAs('diff')}>
                Export accepted as a diff
              </button>
            </div>
            <SaveAccepted accepted={accepted} />
            <Show when={exported()}>
              <pre class="learn-export" data-testid="learn-export">
                {exported()}
              </pre>
            </Show>
          </div>
        )}
      </Show>
    </div>
  );
}
