import { createEffect, createSignal, For, lazy, on, Show, Suspense } from 'solid-js';
import { located, parseErrorText, size } from '../input-messages';
import { type Dropped, readDrop } from '../learn/drop';
import { offsetOf } from '../line-index';
import { CLIPBOARD_READ, decidePaste, PASTE_LIMIT } from '../paste';
import type { AppState } from '../state';
import { CountsList } from './CountsList';

// Only a large input opens it: kept out of the first page load.
const ChunkEditor = lazy(() => import('./ChunkEditor'));

const FORMAT_NAMES: Record<string, string> = {
  anthropic: 'Anthropic Messages JSON',
  openai: 'OpenAI chat JSON',
  sharegpt: 'ShareGPT',
  'claude-code-jsonl': 'Claude Code session (JSONL)',
  'claude-code-console': 'Claude Code console',
  plain: 'Plain text',
  jsonl: 'JSONL messages',
  codex: 'Codex CLI rollout (JSONL)',
  antigravity: 'Antigravity step log (JSONL)',
  'swe-agent': 'SWE-agent trajectory (.traj)',
  'mini-swe-agent': 'mini-swe-agent trajectory (.traj.json)',
  specstory: 'SpecStory export (Markdown)',
  cline: 'Cline task history',
  'gemini-cli': 'Gemini CLI session (JSON)',
  'gemini-cli-console': 'Gemini CLI terminal',
  atif: 'ATIF trajectory',
  'claude-code-markdown': 'Claude Code Markdown export',
};

export const formatName = (f: string) => FORMAT_NAMES[f] ?? f;

/** `onFolder`: a folder dropped on the transcript, read for the Learn tab (it reads folders of sessions). */
export function InputPanel(props: { app: AppState; onFolder: (dropped: Promise<Dropped>) => void }) {
  const app = props.app;
  const [dragging, setDragging] = createSignal(false);
  let fileInput: HTMLInputElement | undefined;
  let editor: HTMLTextAreaElement | undefined;

  /**
   * A large paste is taken from the clipboard event itself, before the browser puts it in the
   * textarea: the text goes to the worker (in pieces, one task each) and the editor shows a preview.
   * The clipboard read (`getData`) is the browser's own synchronous copy; it is measured apart.
   */
  const [refused, setRefused] = createSignal<number | null>(null);
  const [replaced, setReplaced] = createSignal<{ id: string; title: string } | null>(null);
  const onPaste = (e: ClipboardEvent) => {
    const readStart = performance.now();
    const pasted = e.clipboardData?.getData('text/plain') ?? '';
    performance.measure(CLIPBOARD_READ, { start: readStart });
    const target = e.target instanceof HTMLTextAreaElement ? e.target : null;
    const source = app.source();
    const decision = decidePaste(pasted, {
      value: target?.value ?? '',
      selectionStart: target?.selectionStart ?? 0,
      selectionEnd: target?.selectionEnd ?? 0,
      sample: source.kind === 'sample',
      large: Boolean(app.bigMeta()),
    });
    setRefused(null);
    setReplaced(null);
    if (decision.kind === 'editor') return; // the textarea takes it
    e.preventDefault();
    if (decision.kind === 'refuse') {
      setRefused(decision.chars);
      return;
    }
    if (decision.replacedSample && source.kind === 'sample') {
      const title = app.samples().find((x) => x.id === source.id)?.title ?? source.id;
      setReplaced({ id: source.id, title });
    }
    // In the next task: the one of the paste already holds the browser's clipboard read.
    setTimeout(() => app.paste(decision.text), 0);
  };

  // The error jump in the textarea: select the offending character and scroll it to the middle.
  createEffect(
    on(app.jump, (j) => {
      if (!j || !editor || app.bigMeta()) return;
      const text = editor.value;
      const at = offsetOf(text, j.line, j.column ?? 1);
      editor.focus({ preventScroll: true });
      editor.setSelectionRange(at, Math.min(text.length, at + 1));
      const lineTop = measureLineTop(editor, at);
      editor.scrollTop = Math.max(0, lineTop - editor.clientHeight / 2);
    }),
  );

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dt = e.dataTransfer;
    // A folder goes to the Learn tab; its items are read here, during the event, as they must be.
    const first = dt?.items[0];
    if (dt && first?.kind === 'file' && first.webkitGetAsEntry?.()?.isDirectory)
      return props.onFolder(readDrop(dt));
    const file = dt?.files[0];
    if (file) void app.loadFile(file);
  };

  const sourceLabel = () => {
    const s = app.source();
    if (s.kind === 'sample') return `Sample: ${app.samples().find((x) => x.id === s.id)?.title ?? s.id}`;
    if (s.kind === 'file') return `File: ${s.name} (${size(s.size)})`;
    if (s.kind === 'paste') return 'Pasted text';
    return '';
  };

  return (
    <section class="panel" aria-labelledby="input-title">
      <div class="panel-head">
        <h2 id="input-title">Transcript</h2>
        <div class="row">
          <label class="sr-only" for="sample-select">
            Bundled sample
          </label>
          <select
            id="sample-select"
            value={app.source().kind === 'sample' ? (app.source() as { id: string }).id : ''}
            onChange={(e) => e.currentTarget.value && void app.loadSample(e.currentTarget.value)}
          >
            <option value="">Pick a sample…</option>
            <For each={app.samples()}>{(s) => <option value={s.id}>{s.title}</option>}</For>
          </select>
          <button type="button" onClick={() => fileInput?.click()}>
            Open file…
          </button>
          <input
            ref={fileInput}
            type="file"
            class="sr-only"
            aria-label="Transcript file"
            data-testid="file-input"
            tabIndex={-1}
            onChange={(e) => {
              const f = e.currentTarget.files?.[0];
              if (f) void app.loadFile(f);
              e.currentTarget.value = '';
            }}
          />
        </div>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target around the editor; the file button is the keyboard path */}
      <div
        class="dropzone"
        classList={{ dragging: dragging() }}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        onPaste={onPaste}
      >
        <Show
          when={app.bigMeta()}
          fallback={
            <>
              <label class="sr-only" for="transcript-input">
                Transcript text
              </label>
              <textarea
                id="transcript-input"
                ref={editor}
                spellcheck={false}
                placeholder="Paste a transcript or an agent trajectory here, or drop a file: Claude Code JSONL or console text, ShareGPT, Anthropic or OpenAI JSON, SWE-agent .traj, mini-swe-agent .traj.json, plain User:/Assistant: text."
                value={app.text()}
                onInput={(e) => app.setText(e.currentTarget.value)}
                aria-describedby="input-status"
              />
            </>
          }
        >
          {(meta) => (
            <Show when={app.chunkEditor()} fallback={<LargePreview app={app} meta={meta()} />}>
              <Suspense fallback={<p class="hint">Loading the editor…</p>}>
                <ChunkEditor app={app} />
              </Suspense>
            </Show>
          )}
        </Show>
      </div>
      <div id="input-status" class="status">
        <p class="hint">
          <span data-testid="char-count">
            {(app.bigMeta()?.chars ?? app.text().length).toLocaleString('en-US')} characters
          </span>
          <Show when={sourceLabel()}>
            {' · '}
            <span data-testid="source">{sourceLabel()}</span>
          </Show>
        </p>
        <Show when={app.editorNote()}>
          <p class="hint note">{app.editorNote()}</p>
        </Show>
        <Show when={replaced()}>
          {(r) => (
            <p class="hint note" role="status" data-testid="paste-replaced">
              The paste replaced the sample “{r().title}”.{' '}
              <button
                type="button"
                class="link"
                onClick={() => {
                  const id = r().id;
                  setReplaced(null);
                  void app.loadSample(id);
                }}
              >
                Put the sample back
              </button>
            </p>
          )}
        </Show>
        <Show when={refused()}>
          {(chars) => (
            <div class="notice" role="alert" data-testid="paste-too-large">
              <p>
                This paste is {size(chars())}: pastes above {size(PASTE_LIMIT)} are not read. Open the file
                instead, or drop it here.
              </p>
              <div class="row">
                <button type="button" onClick={() => fileInput?.click()}>
                  Open file…
                </button>
                <button type="button" class="ghost" onClick={() => setRefused(null)}>
                  Dismiss
                </button>
              </div>
            </div>
          )}
        </Show>
        <Show when={app.progress()}>
          {(p) => (
            <div
              class="progress"
              data-testid="progress"
              data-state={p().done ? 'done' : 'running'}
              data-phases={p().phases.join('|')}
            >
              <progress
                max="100"
                value={Math.round(p().fraction * 100)}
                aria-label="Processing progress"
                aria-valuenow={Math.round(p().fraction * 100)}
              />
              <span class="hint">
                {p().done
                  ? `${p().phase}: ${(p().bytes / 1e6).toFixed(1)} MB processed in a Web Worker in ${Math.round(p().ms ?? 0)} ms`
                  : `${p().phase}…`}
              </span>
            </div>
          )}
        </Show>
        <Show when={app.error()}>
          {(err) => (
            <div class="error" role="alert" data-testid="parse-error">
              <strong data-testid="parse-error-where">Could not read this input{located(err())}.</strong>
              <p data-testid="parse-error-message">{parseErrorText(err())}</p>
              <Show when={err().line != null}>
                <button
                  type="button"
                  class="link"
                  data-testid="jump-to-error"
                  onClick={() => app.jumpToError()}
                >
                  Show line {err().line} in the editor
                </button>
              </Show>
              <p class="hint">
                Your text is kept in the editor: fix it there. Formats read: Anthropic/OpenAI JSON, ShareGPT,
                Claude Code JSONL or console text, JSONL messages, plain <code>User:</code>/
                <code>Assistant:</code> text, SWE-agent and mini-swe-agent trajectories.
              </p>
            </div>
          )}
        </Show>
        <Show when={app.view()}>
          {(v) => (
            <div class="detected">
              <p>
                Detected <strong data-testid="detected-format">{formatName(v().format)}</strong>
                <Show when={v().kind === 'trajectory'}> (agent trajectory)</Show>
              </p>
              <CountsList kind={v().kind} counts={v().counts} />
            </div>
          )}
        </Show>
      </div>
    </section>
  );
}

/** The read-only view of a large input: its size, its first lines, and what can be done with it. */
function LargePreview(props: { app: AppState; meta: { chars: number; lines: number; head: string } }) {
  return (
    <div class="large-preview" data-testid="large-preview">
      <p class="large-size">
        <strong data-testid="large-size">{size(props.meta.chars)}</strong>
        <Show when={props.meta.lines > 0}> · {props.meta.lines.toLocaleString('en-US')} lines</Show> — kept in
        a background worker, not in an editor (a live text box holding megabytes freezes the page).
      </p>
      <pre class="head" title="Start of the input (read-only)">
        {props.meta.head.slice(0, 1500)}
        {props.meta.chars > 1500 ? '\n…' : ''}
      </pre>
      <div class="row">
        <button type="button" data-testid="edit-large" onClick={() => props.app.setChunkEditor(true)}>
          Edit line by line
        </button>
        <button type="button" class="ghost" data-testid="clear-input" onClick={() => props.app.clear()}>
          Clear
        </button>
        <span class="hint">or paste / drop another input here.</span>
      </div>
    </div>
  );
}

/** The y offset of character `at` in a textarea, wrapping included (a hidden mirror measures it). */
function measureLineTop(editor: HTMLTextAreaElement, at: number): number {
  const mirror = document.createElement('div');
  const style = getComputedStyle(editor);
  for (const p of [
    'font',
    'letterSpacing',
    'padding',
    'border',
    'boxSizing',
    'whiteSpace',
    'wordBreak',
    'overflowWrap',
    'tabSize',
  ] as const)
    mirror.style[p] = style[p];
  mirror.style.width = `${editor.clientWidth}px`;
  mirror.style.position = 'absolute';
  mirror.style.visibility = 'hidden';
  mirror.style.whiteSpace = 'pre-wrap';
  mirror.style.overflowWrap = 'break-word';
  mirror.textContent = editor.value.slice(0, at);
  const marker = document.createElement('span');
  marker.textContent = '\u200b';
  mirror.append(marker);
  document.body.append(mirror);
  const top = marker.offsetTop;
  mirror.remove();
  return Number.isFinite(top) ? top : 0;
}
