import {
  type KeyPoint,
  type Playbook,
  parseAceText,
  SECTION_NAMES,
  type SectionName,
  toAceText,
} from 'rearview/playbook';
import { createSignal, For, onCleanup, onMount, Show } from 'solid-js';
import { applyOperations, getStore, loadPlaybook, PLAYBOOK_ID } from '../playbook-store';
import type { AppState } from '../state';

export default function PlaybookPanel(_props: { app: AppState }) {
  const [playbook, setPlaybook] = createSignal<Playbook | null>(null);
  const [version, setVersion] = createSignal(0);
  const [status, setStatus] = createSignal('');
  const [error, setError] = createSignal('');
  const [editing, setEditing] = createSignal<string | null>(null);
  const [section, setSection] = createSignal<SectionName>('PATTERNS & APPROACHES');
  const [draft, setDraft] = createSignal('');
  const [importText, setImportText] = createSignal('');

  async function refresh() {
    try {
      const r = await loadPlaybook();
      setPlaybook(r.playbook);
      setVersion(r.version);
    } catch (err) {
      setError(`The playbook could not be opened: ${(err as Error).message}`);
    }
  }

  onMount(() => {
    void refresh();
    const off = getStore().subscribe(PLAYBOOK_ID, (change) => {
      void refresh();
      if (change.origin === 'remote') setStatus(`Updated from another tab (version ${change.version}).`);
    });
    onCleanup(off);
  });

  async function apply(ops: Parameters<typeof applyOperations>[0], done: string) {
    setError('');
    const r = await applyOperations(ops);
    if (r.rejected.length) setError(r.rejected.map((x) => x.reason).join('; '));
    else setStatus(done);
    setPlaybook(r.playbook);
    setVersion(r.version);
  }

  function download(name: string, text: string, type: string) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    URL.revokeObjectURL(url);
    setStatus(`Exported ${name}.`);
  }

  async function exportJson() {
    download('rearview-playbook.json', await getStore().exportJson(PLAYBOOK_ID), 'application/json');
  }

  function exportAce() {
    const pb = playbook();
    if (pb) download('rearview-playbook.txt', toAceText(pb), 'text/plain');
  }

  /** JSON (an export, a schema-1 document, seed 001's playbook.json) or ACE playbook text. */
  async function importJson(text: string) {
    setError('');
    try {
      const json = /^\s*[{[]/.test(text) ? text : JSON.stringify(parseAceText(text).playbook);
      const r = await getStore().importJson(json, { id: PLAYBOOK_ID });
      setStatus(`Imported (version ${r.version}).`);
      setImportText('');
      await refresh();
    } catch (err) {
      setError(`Import failed: ${(err as Error).message}`);
    }
  }

  const total = () =>
    playbook() ? SECTION_NAMES.reduce((n, s) => n + playbook()!.sections[s].length, 0) : 0;

  return (
    <div class="playbook" data-testid="playbook">
      <div class="panel-head">
        <p class="hint">
          The ACE playbook that reflections update: stored in this browser (IndexedDB), kept across reloads,
          and live in every open tab. {total()} key point{total() === 1 ? '' : 's'}, version{' '}
          <span data-testid="playbook-version">{version()}</span>.
        </p>
        <div class="row">
          <button type="button" onClick={() => void exportJson()} disabled={!version()}>
            Export JSON
          </button>
          <button type="button" onClick={exportAce} disabled={!total()}>
            Export ACE text
          </button>
        </div>
      </div>
      <p class="hint" role="status" data-testid="playbook-status">
        {status()}
      </p>
      <Show when={error()}>
        <p class="error" role="alert">
          {error()}
        </p>
      </Show>
      <form
        class="add-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!draft().trim()) return;
          void apply([{ type: 'ADD', section: section(), text: draft().trim() }], 'Key point added.').then(
            () => setDraft(''),
          );
        }}
      >
        <label>
          Section
          <select value={section()} onChange={(e) => setSection(e.currentTarget.value as SectionName)}>
            <For each={SECTION_NAMES}>{(s) => <option value={s}>{s}</option>}</For>
          </select>
        </label>
        <label class="grow">
          New key point
          <input
            type="text"
            value={draft()}
            onInput={(e) => setDraft(e.currentTarget.value)}
            placeholder="Run the migrations before the test suite."
          />
        </label>
        <button type="submit" class="primary">
          Add
        </button>
      </form>
      <For each={SECTION_NAMES}>
        {(s) => (
          <Show when={playbook()?.sections[s].length}>
            <h3>{s}</h3>
            <ul class="keypoints">
              <For each={playbook()!.sections[s]}>
                {(kp) => (
                  <KeyPointRow
                    kp={kp}
                    editing={editing() === kp.name}
                    setEditing={setEditing}
                    apply={apply}
                  />
                )}
              </For>
            </ul>
          </Show>
        )}
      </For>
      <Show when={playbook() && !total()}>
        <p class="empty-note">
          The playbook is empty. Add a key point above, or add insights from the Insights view.
        </p>
      </Show>
      <details class="import">
        <summary>Import a playbook</summary>
        <p class="hint">
          An exported playbook JSON, a seed-001 playbook.json or ACE playbook text (
          <code>[pat-001] helpful=1 harmful=0 :: …</code> lines under <code>## SECTION</code> headings);
          merged into this one (counters never go down).
        </p>
        <label class="sr-only" for="playbook-import">
          Playbook JSON or ACE text to import
        </label>
        <textarea
          id="playbook-import"
          rows={5}
          value={importText()}
          onInput={(e) => setImportText(e.currentTarget.value)}
        />
        <div class="row">
          <button type="button" onClick={() => void importJson(importText())} disabled={!importText().trim()}>
            Import pasted playbook
          </button>
          <label class="file-button">
            Import a file…
            <input
              type="file"
              accept="application/json,.json,text/plain,.txt"
              class="sr-only"
              onChange={async (e) => {
                const f = e.currentTarget.files?.[0];
                if (f) await importJson(await f.text());
              }}
            />
          </label>
        </div>
      </details>
    </div>
  );
}

function KeyPointRow(props: {
  kp: KeyPoint;
  editing: boolean;
  setEditing: (name: string | null) => void;
  apply: (ops: Parameters<typeof applyOperations>[0], done: string) => Promise<void>;
}) {
  let input: HTMLTextAreaElement | undefined;
  return (
    <li class="keypoint" data-name={props.kp.name}>
      <code class="kp-name">{props.kp.name}</code>
      <Show when={props.editing} fallback={<span class="kp-text">{props.kp.text}</span>}>
        <label class="sr-only" for={`edit-${props.kp.name}`}>
          Text of {props.kp.name}
        </label>
        <textarea id={`edit-${props.kp.name}`} ref={input} rows={2} value={props.kp.text} />
      </Show>
      <span class="kp-counts" title="helpful / harmful">
        +{props.kp.helpful} / −{props.kp.harmful}
      </span>
      <span class="kp-actions">
        <Show
          when={props.editing}
          fallback={
            <button type="button" class="link" onClick={() => props.setEditing(props.kp.name)}>
              Edit
            </button>
          }
        >
          <button
            type="button"
            class="link"
            onClick={() =>
              void props
                .apply(
                  [{ type: 'UPDATE', name: props.kp.name, text: input?.value ?? props.kp.text }],
                  `${props.kp.name} updated.`,
                )
                .then(() => props.setEditing(null))
            }
          >
            Save
          </button>
          <button type="button" class="link" onClick={() => props.setEditing(null)}>
            Cancel
          </button>
        </Show>
        <button
          type="button"
          class="link danger"
          onClick={() =>
            void props.apply([{ type: 'REMOVE', name: props.kp.name }], `${props.kp.name} removed.`)
          }
        >
          Remove
        </button>
      </span>
    </li>
  );
}
