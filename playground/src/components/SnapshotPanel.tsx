import { comparableKey } from 'rearview/categorise';
import type { SnapshotCategory, TrajectoryReduction } from 'rearview/snapshot';
import { createMemo, createSignal, For, onMount, Show } from 'solid-js';
import type { View } from '../analyze';
import { currentMode, type ModeKind, mode, modeLabel } from '../llm-state';
import type { AppState } from '../state';
import { LlmSettings } from './LlmSettings';
import { Diagnostics, movedFrom, Retired, SnapshotLists, skipText, TITLES } from './SnapshotParts';

type Reflect = typeof import('../reflect');

interface RunResult {
  result: TrajectoryReduction;
  input: View['input'];
  /** The settings the run used (canonical JSON): any change since makes the run stale. */
  settings: string;
  errorCode: string | null;
  message: string | null;
  mode: ModeKind;
}

/** The settings as one comparable string (markers included). */
const settingsKey = (s: object) => JSON.stringify(s);

export function SnapshotPanel(props: { app: AppState }) {
  const app = props.app;
  const [mod, setMod] = createSignal<Reflect | null>(null);
  const [running, setRunning] = createSignal(false);
  const [retry, setRetry] = createSignal('');
  const [run, setRun] = createSignal<RunResult | null>(null);
  const [failure, setFailure] = createSignal<string | null>(null);

  onMount(async () => setMod(await import('../reflect')));

  const redactions = createMemo(() => {
    const m = mod();
    const v = app.view();
    return m && v ? m.redactionPreview(v.input) : [];
  });

  async function reflect() {
    const v = app.view();
    if (!v) return;
    setRunning(true);
    setRetry('');
    setFailure(null);
    try {
      const m = mod() ?? (await import('../reflect'));
      const client = await m.makeClient(currentMode(), {
        onRetry: ({ delayMs, code }) =>
          setRetry(
            `${code === 'llm_rate_limited' ? 'Rate limited' : 'The request failed'}, retrying in ${Math.max(1, Math.round(delayMs / 1000))} s…`,
          ),
      });
      const settings = settingsKey(app.settings());
      const result = await m.reflectSnapshot(v.input, app.settings(), client);
      const err = client.lastError;
      const skipped = result.diagnostics.reflectionSkippedReason;
      setRun({
        result,
        input: v.input,
        settings,
        errorCode: skipped === 'api_error' || skipped === 'timeout' ? (err?.code ?? null) : null,
        message:
          skipped === 'api_error' || skipped === 'timeout'
            ? m.explainLlmError(err?.code, result.diagnostics.reflectionError ?? '', mode())
            : null,
        mode: mode(),
      });
    } catch (err) {
      setFailure(String((err as Error)?.message ?? err));
    } finally {
      setRunning(false);
      setRetry('');
    }
  }

  const det = () => app.view()?.snapshot;
  const reflected = () => run()?.result;
  /** Why the reflected column no longer matches the page: the input, the settings or the model. */
  const stale = (): string | null => {
    const r = run();
    if (!r) return null;
    if (r.input !== app.view()?.input) return 'the input changed';
    if (r.settings !== settingsKey(app.settings())) return 'the settings changed';
    if (r.mode !== mode()) return `the model changed (this run used ${modeLabel(r.mode)})`;
    return null;
  };

  /** Where each deterministic item came from (text → sources). */
  const detSources = createMemo(() => new Map((det()?.trace.kept ?? []).map((k) => [k.text, k.sources])));

  function markReflected(c: SnapshotCategory, text: string): { mark: string; note: string } {
    const d = det()?.trace.snapshot[c] ?? [];
    const key = comparableKey(text);
    const kept = reflected()?.kept.find((k) => k.category === c && k.text === text);
    const same = d.find((x) => comparableKey(x) === key);
    const detCount = same ? (detSources().get(same)?.length ?? 1) : 0;
    if (kept && c !== 'requiredEvidenceLinks' && kept.sources.length > Math.max(1, detCount))
      return { mark: 'consolidated', note: `from ${kept.sources.join(', ')}` };
    if (same) return { mark: 'kept', note: '' };
    const d2 = d.find((x) => comparableKey(x).includes(key) || key.includes(comparableKey(x)));
    if (d2) return { mark: 'shortened', note: '' };
    const from = c === 'requiredEvidenceLinks' ? undefined : movedFrom(det()?.trace.snapshot, c, key);
    if (from) return { mark: 'moved', note: `${TITLES[from]} → ${TITLES[c]}` };
    return { mark: 'added', note: kept?.sources.length ? `from ${kept.sources.join(', ')}` : '' };
  }

  function markDeterministic(c: SnapshotCategory, text: string): { mark: string; note: string } {
    const r = reflected();
    if (!r) return { mark: '', note: '' };
    const key = comparableKey(text);
    const items = r.snapshot[c];
    if (items.some((x) => comparableKey(x) === key)) return { mark: 'kept', note: '' };
    if (c !== 'requiredEvidenceLinks') {
      if (items.some((x) => key.includes(comparableKey(x)) && comparableKey(x).length > 8))
        return { mark: 'shortened', note: '' };
      const sources = detSources().get(text) ?? [];
      const into = r.kept.find((k) => k.category === c && k.sources.some((s) => sources.includes(s)));
      if (into) return { mark: 'consolidated', note: `into “${into.text}”` };
      const to = movedFrom(r.snapshot, c, key);
      if (to) return { mark: 'moved', note: `${TITLES[c]} → ${TITLES[to]}` };
    }
    const dropped = r.diagnostics.dropped.find((d) => {
      const dk = comparableKey(d.text);
      return dk.length > 6 && (key.includes(dk) || dk.includes(key));
    });
    return {
      mark: 'dropped',
      note: dropped ? `reason: ${dropped.reason}` : 'reason: not kept by the reflection',
    };
  }

  const chart = createMemo(() => {
    const v = app.view();
    const r = reflected();
    if (!v) return null;
    const dt = v.snapshot.tokens;
    const rt = r?.diagnostics.reflectedTokens ?? null;
    return { transcript: v.counts.tokens, det: dt, refl: rt, max: Math.max(dt, rt ?? 0, 1) };
  });

  return (
    <div class="snapshots">
      <Show when={app.view()} fallback={<p class="hint">Load a transcript to build its snapshots.</p>}>
        {(v) => (
          <>
            <LlmSettings />
            <div class="row">
              <button
                type="button"
                class="primary"
                data-testid="run-reflection"
                disabled={running()}
                onClick={() => void reflect()}
              >
                {running()
                  ? 'Reflecting…'
                  : mode() === 'offline'
                    ? 'Run offline reflection'
                    : mode() === 'local'
                      ? 'Reflect with the local model'
                      : 'Reflect with Anthropic'}
              </button>
              <span class="hint" role="status" data-testid="retry-status">
                {retry()}
              </span>
            </div>
            <details class="redaction" data-testid="redaction-preview">
              <summary>
                Redaction: {redactions().length} value{redactions().length === 1 ? '' : 's'} replaced before
                anything is sent
              </summary>
              <Show
                when={redactions().length}
                fallback={<p class="hint">Nothing to redact in this input.</p>}
              >
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Kind</th>
                      <th scope="col">Sent as</th>
                      <th scope="col">Original (only in this page)</th>
                      <th scope="col">Times</th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={redactions()}>
                      {(f) => (
                        <tr>
                          <td>{f.kind}</td>
                          <td>
                            <code>{f.placeholder}</code>
                          </td>
                          <td>
                            <code>{f.original}</code>
                          </td>
                          <td>{f.count}</td>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </Show>
            </details>
            <Show when={failure()}>
              <div class="error" role="alert">
                {failure()}
              </div>
            </Show>
            <Show when={run()?.message}>
              <div class="error" role="alert" data-testid="llm-error">
                <strong>
                  {run()!.errorCode === 'llm_fixture_missing'
                    ? 'No recording for this input.'
                    : 'The reflection failed.'}
                </strong>
                <p>{run()!.message}</p>
              </div>
            </Show>
            <p class="hint">
              Objective: <em>{v().objective}</em>
            </p>
            <div class="compare">
              <div class="side" data-testid="deterministic-snapshot">
                <h3>
                  Deterministic <span class="hint">(live, {v().snapshot.tokens} tokens)</span>
                </h3>
                <SnapshotLists snapshot={v().snapshot.trace.snapshot} mark={markDeterministic} />
                <Retired list={v().snapshot.retired} />
              </div>
              <div class="side" classList={{ stale: Boolean(stale()) }} data-testid="reflected-snapshot">
                <h3>
                  Reflected{' '}
                  <Show when={reflected()}>
                    <span class="hint">
                      ({reflected()!.diagnostics.reflectionUsed ? 'used' : 'not adopted'},{' '}
                      {reflected()!.diagnostics.snapshotTokens} tokens)
                    </span>
                  </Show>
                </h3>
                <Show
                  when={reflected()}
                  fallback={
                    <p class="hint">Run a reflection to compare. The deterministic side needs no model.</p>
                  }
                >
                  {(r) => (
                    <>
                      <Show when={stale()}>
                        {(why) => (
                          <p class="notice stale-note" role="status" data-testid="stale">
                            <strong>Stale:</strong> {why()} since this run. Run it again to compare.
                          </p>
                        )}
                      </Show>
                      <Show when={!r().diagnostics.reflectionUsed}>
                        <p class="notice" data-testid="skipped-reason">
                          Reflection skipped: <strong>{r().diagnostics.reflectionSkippedReason}</strong>
                          {skipText(r())}
                        </p>
                      </Show>
                      <SnapshotLists snapshot={r().snapshot} mark={markReflected} />
                      <Retired list={r().retired} />
                    </>
                  )}
                </Show>
              </div>
            </div>
            <Show when={chart()}>
              {(c) => (
                <figure class="chart" data-testid="token-chart">
                  <figcaption>Token savings</figcaption>
                  <svg
                    viewBox="0 0 400 84"
                    role="img"
                    aria-label={`Deterministic ${c().det} tokens, reflected ${c().refl ?? 'not run'} tokens`}
                  >
                    <text x="0" y="16" class="chart-label">
                      deterministic
                    </text>
                    <rect
                      x="100"
                      y="4"
                      height="16"
                      rx="3"
                      width={(c().det / c().max) * 240}
                      class="bar det"
                    />
                    <text x={106 + (c().det / c().max) * 240} y="16" class="chart-label">
                      {c().det}
                    </text>
                    <text x="0" y="44" class="chart-label">
                      reflected
                    </text>
                    <Show when={c().refl != null}>
                      <rect
                        x="100"
                        y="32"
                        height="16"
                        rx="3"
                        width={((c().refl ?? 0) / c().max) * 240}
                        class="bar refl"
                      />
                      <text x={106 + ((c().refl ?? 0) / c().max) * 240} y="44" class="chart-label">
                        {c().refl}
                      </text>
                    </Show>
                    <text x="0" y="74" class="chart-label muted">
                      {c().refl != null
                        ? `saves ${c().det - (c().refl ?? 0)} tokens (${Math.round(((c().det - (c().refl ?? 0)) / c().det) * 100)}%); transcript ≈ ${c().transcript.toLocaleString('en-US')} tokens`
                        : `transcript ≈ ${c().transcript.toLocaleString('en-US')} tokens → snapshot ${c().det}`}
                    </text>
                  </svg>
                </figure>
              )}
            </Show>
            <Show when={reflected()}>{(r) => <Diagnostics r={r()} mode={run()!.mode} />}</Show>
            <details class="adapter">
              <summary>How the snapshot input is built from a transcript</summary>
              <p class="hint">
                Each user or assistant message contributes up to three sentences as memory entries (scope =
                role, sourceIteration = the message's position); each failed tool result its first error line;
                each tool call the files and URLs it names. Trajectories contribute each step's thought
                sentences and its first error line. The first user message (or the issue statement) is the
                objective. The "previous run" is the deterministic snapshot of the first half of the entries,
                which is what "retired" compares against. {v().input.entries.length} entries here.
                <Show when={v().input.root}>
                  {(root) => (
                    <>
                      {' '}
                      The session ran in <code data-testid="snapshot-root">{root()}</code> (
                      {v().rootFrom === 'paths'
                        ? 'read from its paths: the transcript records no folder, and files it names both ways start there'
                        : 'the folder the transcript records'}
                      ): evidence under it is listed relative to it, and the folder itself and those above it
                      are left out.
                    </>
                  )}
                </Show>
              </p>
            </details>
          </>
        )}
      </Show>
    </div>
  );
}
