/**
 * Editing a large input without a giant textarea: the worker holds the text and sends windows of
 * lines (long lines clipped); one line at a time opens in a small textarea, and applying it sends the
 * edit to the worker, which analyses the input again. A parse error's line opens here, highlighted,
 * with its column marked.
 */
import { createEffect, createSignal, For, on, onMount, Show } from 'solid-js';
import type { AppState } from '../state';
import type { LineWindow } from '../worker-protocol';

/** Lines per window: enough to scroll through, few enough to render at once. */
const WINDOW = 200;
/** Characters shown of a long line (a JSONL event can be 100 KB). */
const CLIP = 2000;

export default function ChunkEditor(props: { app: AppState }) {
  const app = props.app;
  const [win, setWin] = createSignal<LineWindow | null>(null);
  const [editing, setEditing] = createSignal<{ line: number; text: string } | null>(null);
  const [goto, setGoto] = createSignal('');
  let list: HTMLOListElement | undefined;

  async function load(from: number, focusLine?: number) {
    const w = await app.requestLines(Math.max(1, from), WINDOW, CLIP);
    setWin(w);
    if (focusLine != null) {
      queueMicrotask(() => {
        const el = list?.querySelector<HTMLElement>(`[data-line="${focusLine}"]`);
        el?.scrollIntoView({ block: 'center' });
        el?.focus({ preventScroll: true });
      });
    }
  }

  onMount(() => {
    const j = app.jump();
    void load(j ? j.line - 20 : 1, j?.line);
  });
  createEffect(
    on(
      app.jump,
      (j) => {
        if (j) void load(j.line - 20, j.line);
      },
      { defer: true },
    ),
  );
  // After an edit the worker's text changed: reload the window that is shown.
  createEffect(
    on(
      () => app.bigMeta(),
      () => {
        const w = win();
        if (w && !app.jump()) void load(w.from);
      },
      { defer: true },
    ),
  );

  async function startEdit(line: number) {
    const full = await app.requestLines(line, 1, Number.MAX_SAFE_INTEGER);
    setEditing({ line, text: full.lines[0] ?? '' });
  }

  const errorAt = (line: number) => {
    const j = app.jump();
    return j && j.line === line ? j : null;
  };

  return (
    <div class="chunk-editor" data-testid="chunk-editor">
      <div class="row chunk-bar">
        <Show when={win()}>
          {(w) => (
            <span class="hint" data-testid="chunk-range">
              Lines {w().from.toLocaleString('en-US')}–
              {(w().from + w().lines.length - 1).toLocaleString('en-US')} of{' '}
              {w().total.toLocaleString('en-US')}
            </span>
          )}
        </Show>
        <button
          type="button"
          disabled={(win()?.from ?? 1) <= 1}
          onClick={() => void load((win()?.from ?? 1) - WINDOW)}
        >
          Earlier
        </button>
        <button
          type="button"
          disabled={!win() || win()!.from + win()!.lines.length > win()!.total}
          onClick={() => void load((win()?.from ?? 1) + WINDOW)}
        >
          Later
        </button>
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(goto());
            if (Number.isInteger(n) && n >= 1) void load(n - 20, n);
          }}
        >
          <label>
            Go to line{' '}
            <input
              type="number"
              min="1"
              class="goto"
              value={goto()}
              onInput={(e) => setGoto(e.currentTarget.value)}
            />
          </label>
        </form>
        <button type="button" class="ghost" onClick={() => app.setChunkEditor(false)}>
          Close
        </button>
        <button type="button" class="ghost" onClick={() => app.clear()}>
          Clear
        </button>
      </div>
      <ol class="chunk-lines" ref={list}>
        <For each={win()?.lines ?? []}>
          {(text, i) => {
            const line = () => (win()?.from ?? 1) + i();
            const length = () => win()?.lengths[i()] ?? text.length;
            return (
              <li
                data-line={line()}
                tabIndex={-1}
                classList={{ 'error-line': Boolean(errorAt(line())) }}
                data-testid={errorAt(line()) ? 'error-line' : undefined}
              >
                <span class="ln" aria-hidden="true">
                  {line()}
                </span>
                <Show
                  when={editing()?.line === line()}
                  fallback={
                    <>
                      <LineText text={text} column={errorAt(line())?.column} />
                      <Show when={length() > text.length}>
                        <span class="hint">
                          {' '}
                          … ({(length() - text.length).toLocaleString('en-US')} more characters)
                        </span>
                      </Show>
                      <button type="button" class="link edit-line" onClick={() => void startEdit(line())}>
                        Edit
                      </button>
                    </>
                  }
                >
                  <div class="line-edit">
                    <textarea
                      aria-label={`Line ${line()}`}
                      value={editing()!.text}
                      onInput={(e) => setEditing({ line: line(), text: e.currentTarget.value })}
                    />
                    <div class="row">
                      <button
                        type="button"
                        class="primary"
                        onClick={() => {
                          const ed = editing();
                          setEditing(null);
                          if (ed) app.editLine(ed.line, ed.text);
                        }}
                      >
                        Apply
                      </button>
                      <button type="button" class="ghost" onClick={() => setEditing(null)}>
                        Cancel
                      </button>
                    </div>
                  </div>
                </Show>
              </li>
            );
          }}
        </For>
      </ol>
    </div>
  );
}

/** A line's text, with the character at `column` (1-based) marked when there is one. */
function LineText(props: { text: string; column: number | undefined }) {
  return (
    <Show
      when={props.column != null && props.column <= props.text.length + 1}
      fallback={<code>{props.text}</code>}
    >
      <code>
        {props.text.slice(0, props.column! - 1)}
        <mark class="error-char" data-testid="error-char">
          {props.text.slice(props.column! - 1, props.column!) || ' '}
        </mark>
        {props.text.slice(props.column!)}
      </code>
    </Show>
  );
}
