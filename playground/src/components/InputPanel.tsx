import { createSignal, For, Show } from 'solid-js';
import type { AppState } from '../state';

const FORMAT_NAMES: Record<string, string> = {
  anthropic: 'Anthropic Messages JSON',
  openai: 'OpenAI chat JSON',
  sharegpt: 'ShareGPT',
  'claude-code-jsonl': 'Claude Code session (JSONL)',
  'claude-code-console': 'Claude Code console',
  plain: 'Plain text',
  jsonl: 'JSONL messages',
  'swe-agent': 'SWE-agent trajectory (.traj)',
  'mini-swe-agent': 'mini-swe-agent trajectory (.traj.json)',
};

export const formatName = (f: string) => FORMAT_NAMES[f] ?? f;

export function InputPanel(props: { app: AppState }) {
  const app = props.app;
  const [dragging, setDragging] = createSignal(false);
  let fileInput: HTMLInputElement | undefined;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer?.files[0];
    if (file) void app.loadFile(file);
  };

  const sourceLabel = () => {
    const s = app.source();
    if (s.kind === 'sample') return `Sample: ${app.samples().find((x) => x.id === s.id)?.title ?? s.id}`;
    if (s.kind === 'file') return `File: ${s.name} (${(s.size / 1024).toFixed(0)} KB)`;
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
      >
        <label class="sr-only" for="transcript-input">
          Transcript text
        </label>
        <textarea
          id="transcript-input"
          spellcheck={false}
          placeholder="Paste a transcript or an agent trajectory here, or drop a file: Claude Code JSONL or console text, ShareGPT, Anthropic or OpenAI JSON, SWE-agent .traj, mini-swe-agent .traj.json, plain User:/Assistant: text."
          value={app.text()}
          readOnly={Boolean(app.editorNote())}
          onInput={(e) => app.setText(e.currentTarget.value)}
          aria-describedby="input-status"
        />
      </div>
      <div id="input-status" class="status">
        <p class="hint">
          <span data-testid="char-count">{app.text().length.toLocaleString('en-US')} characters</span>
          <Show when={sourceLabel()}>
            {' · '}
            <span data-testid="source">{sourceLabel()}</span>
          </Show>
        </p>
        <Show when={app.editorNote()}>
          <p class="hint note">{app.editorNote()}</p>
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
              <strong>
                Could not read this input
                {err().line != null
                  ? ` (line ${err().line})`
                  : err().index != null
                    ? ` (item ${err().index})`
                    : ''}
                .
              </strong>
              <p>{err().message}</p>
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
              <dl class="counts" data-testid="counts">
                <Show when={v().counts.steps != null}>
                  <div>
                    <dt>steps</dt>
                    <dd data-testid="count-steps">{v().counts.steps}</dd>
                  </div>
                </Show>
                <div>
                  <dt>messages</dt>
                  <dd data-testid="count-messages">{v().counts.messages}</dd>
                </div>
                <div>
                  <dt>user</dt>
                  <dd>{v().counts.user}</dd>
                </div>
                <div>
                  <dt>assistant</dt>
                  <dd>{v().counts.assistant}</dd>
                </div>
                <div>
                  <dt>tool calls</dt>
                  <dd>{v().counts.toolCalls}</dd>
                </div>
                <div>
                  <dt>failed tools</dt>
                  <dd>{v().counts.failedSteps ?? v().counts.toolErrors}</dd>
                </div>
                <div>
                  <dt>ignored</dt>
                  <dd>{v().counts.ignored}</dd>
                </div>
                <div>
                  <dt>≈ tokens</dt>
                  <dd>{v().counts.tokens.toLocaleString('en-US')}</dd>
                </div>
              </dl>
            </div>
          )}
        </Show>
      </div>
    </section>
  );
}
