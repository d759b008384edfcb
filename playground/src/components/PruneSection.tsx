/**
 * The Trajectory reduction panel's category reducer (rearview/compress's pruneTrajectory): its
 * settings, the summary, a stacked chart of what each category removed per step, and what each step lost.
 */
import {
  PRUNE_CATEGORIES,
  type PrefixRetention,
  type PruneCategory,
  type PruneResult,
  prefixRetention,
  pruneTrajectory,
} from 'rearview/compress';
import type { Step } from 'rearview/transcript';
import { createEffect, createMemo, createSignal, For, Show } from 'solid-js';
import { clipText } from '../analyze';
import type { AppState } from '../state';

const COLORS: Record<PruneCategory | 'kept', string> = {
  kept: 'var(--accent)',
  expired: '#d97706',
  redundant: '#7c3aed',
  useless: '#0891b2',
  masked: '#94a3b8',
};
const MEANING: Record<PruneCategory, string> = {
  expired: 'superseded views, earlier runs of a re-run command, listings once a file was opened',
  redundant: 'repeats of earlier outputs, progress bars, install logs, passing-test tables, repeated frames',
  useless: 'lines of long outputs no later thought or action mentions',
  masked: 'what remains of outputs older than the window, replaced by a placeholder',
};

/**
 * The final patch when the run printed one: the last `git diff` output (mini-swe-agent submits so).
 * A guess from the steps: the worker sends steps, not the trajectory's `outcome.submission`.
 */
function submissionOf(steps: readonly Step[]): string | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const o = steps[i]!.observation;
    if (o?.startsWith('diff --git') && (steps[i]!.action ?? '').includes('git diff')) return o;
  }
  return undefined;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** Stacked bars per step (kept + tokens each category removed), with axes and a legend. */
function CategoryChart(props: { result: PruneResult }) {
  const W = 640;
  const H = 180;
  const left = 52;
  const bottom = 28;
  const top = 8;
  const steps = () => props.result.diagnostics.steps;
  const max = createMemo(() => Math.max(1, ...steps().map((s) => s.tokensBefore)));
  const bw = () => (W - left - 8) / Math.max(1, steps().length);
  const y = (t: number) => H - bottom - (t / max()) * (H - bottom - top);
  const xEvery = () => Math.max(1, Math.ceil(steps().length / 12));
  return (
    <figure class="prune-chart" style={{ margin: '0.5rem 0' }}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label="Observation tokens per step: kept, and removed by category"
        data-testid="prune-chart"
        style={{
          width: '100%',
          'max-width': '760px',
          height: 'auto',
          background: 'var(--panel-2)',
          'border-radius': '6px',
        }}
      >
        <line x1={left} y1={top} x2={left} y2={H - bottom} stroke="currentColor" stroke-width="1" />
        <line x1={left} y1={H - bottom} x2={W - 4} y2={H - bottom} stroke="currentColor" stroke-width="1" />
        <For each={[0, 0.5, 1]}>
          {(f) => (
            <>
              <line x1={left - 4} y1={y(max() * f)} x2={left} y2={y(max() * f)} stroke="currentColor" />
              <text x={left - 6} y={y(max() * f) + 4} text-anchor="end" class="chart-label">
                {fmt(Math.round(max() * f))}
              </text>
            </>
          )}
        </For>
        <text
          x={12}
          y={(H - bottom) / 2}
          class="chart-label"
          transform={`rotate(-90 12 ${(H - bottom) / 2})`}
          text-anchor="middle"
        >
          tokens
        </text>
        <text x={(W + left) / 2} y={H - 2} class="chart-label" text-anchor="middle">
          step
        </text>
        <For each={steps()}>
          {(s, i) => {
            let acc = 0;
            const parts = [
              { key: 'kept' as const, v: s.tokensAfter },
              ...PRUNE_CATEGORIES.map((c) => ({ key: c, v: s.saved[c] })),
            ]
              .filter((p) => p.v > 0)
              .map((p) => {
                const y0 = acc;
                acc += p.v;
                return { ...p, y0 };
              });
            return (
              <>
                <For each={parts}>
                  {(p) => (
                    <rect
                      x={left + 1 + i() * bw()}
                      y={y(p.y0 + p.v)}
                      width={Math.max(1, bw() - 1)}
                      height={Math.max(0, y(p.y0) - y(p.y0 + p.v))}
                      fill={COLORS[p.key]}
                    >
                      <title>
                        step {s.index + 1}: {p.key} {fmt(p.v)} tokens
                      </title>
                    </rect>
                  )}
                </For>
                <Show when={i() % xEvery() === 0}>
                  <text
                    x={left + 1 + (i() + 0.5) * bw()}
                    y={H - bottom + 12}
                    text-anchor="middle"
                    class="chart-label muted"
                  >
                    {s.index + 1}
                  </text>
                </Show>
              </>
            );
          }}
        </For>
      </svg>
      <figcaption class="row" data-testid="prune-legend" style={{ gap: '0.9rem', 'flex-wrap': 'wrap' }}>
        <For each={['kept' as const, ...PRUNE_CATEGORIES]}>
          {(k) => (
            <span title={k === 'kept' ? 'tokens left in the context' : MEANING[k]}>
              <svg width="12" height="12" aria-hidden="true" style={{ 'vertical-align': 'middle' }}>
                <rect width="12" height="12" fill={COLORS[k]} />
              </svg>{' '}
              {k}{' '}
              {fmt(
                k === 'kept'
                  ? props.result.diagnostics.observationTokensAfter
                  : props.result.diagnostics.saved[k],
              )}
            </span>
          )}
        </For>
      </figcaption>
    </figure>
  );
}

/** The category reducer: settings, summary, chart and what each step lost. */
export function PruneSection(props: { app: AppState }) {
  const [steps, setSteps] = createSignal<Step[]>([]);
  const [windowOn, setWindowOn] = createSignal(true);
  const [windowM, setWindowM] = createSignal(5);
  const [cacheFriendly, setCacheFriendly] = createSignal(false);
  const [cache, setCache] = createSignal<PrefixRetention | null>(null);
  createEffect(() => {
    if (!props.app.view()) return;
    void props.app.getSteps().then((s) => setSteps(s));
  });
  // Found once per step list, not on every read of the options.
  const submission = createMemo(() => submissionOf(steps()));
  const options = () => {
    const patch = submission();
    return {
      ...(windowOn() ? { window: windowM() } : {}),
      cacheFriendly: cacheFriendly(),
      ...(patch ? { submission: patch } : {}),
    };
  };
  const result = createMemo(() => (steps().length ? pruneTrajectory(steps(), options()) : null));
  createEffect(() => {
    options();
    setCache(null);
  });
  return (
    <Show when={result()}>
      {(r) => (
        <section data-testid="prune-section">
          <h4>Reduction by category (no model)</h4>
          <div class="row">
            <label>
              <input
                type="checkbox"
                checked={windowOn()}
                onChange={(e) => setWindowOn(e.currentTarget.checked)}
              />{' '}
              mask outputs older than the last
            </label>
            <input
              type="number"
              min="1"
              max="50"
              value={windowM()}
              style={{ width: '4em' }}
              aria-label="masking window M"
              onInput={(e) => setWindowM(Math.max(1, Number(e.currentTarget.value) || 1))}
            />
            <span>steps</span>
            <label>
              <input
                type="checkbox"
                checked={cacheFriendly()}
                onChange={(e) => setCacheFriendly(e.currentTarget.checked)}
              />{' '}
              cache-friendly (rewrite each step once, when it leaves the window)
            </label>
          </div>
          <p data-testid="prune-summary">
            {fmt(r().diagnostics.observationTokensBefore)} → {fmt(r().diagnostics.observationTokensAfter)}{' '}
            observation tokens ({r().diagnostics.savedPercent.toFixed(1)}% saved):{' '}
            {PRUNE_CATEGORIES.map((c) => `${c} ${fmt(r().diagnostics.saved[c])}`).join(', ')}. Error lines,
            the lines the final patch touches and the last view of each changed file are never removed.
          </p>
          <CategoryChart result={r()} />
          <div class="row">
            <button
              type="button"
              data-testid="measure-cache"
              onClick={() => setCache(prefixRetention(steps(), (p) => pruneTrajectory(p, options()).steps))}
            >
              Measure prompt-cache retention
            </button>
            <Show when={cache()}>
              {(c) => (
                <span data-testid="cache-retention">
                  over {c().calls} model calls: {c().retainedPercent.toFixed(1)}% of each context stays a
                  cached prefix; {c().observationSavedPercent.toFixed(1)}% of observation tokens saved in
                  total.
                </span>
              )}
            </Show>
          </div>
          <table class="steps" data-testid="prune-steps">
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Action</th>
                <th scope="col">Tokens before → after</th>
                <th scope="col">What it lost</th>
              </tr>
            </thead>
            <tbody>
              <For each={r().diagnostics.steps}>
                {(s, i) => (
                  <tr>
                    <td data-label="Step">{s.index + 1}</td>
                    <td data-label="Action">
                      <code>{steps()[i()]?.tool}</code> {clipText(steps()[i()]?.action ?? '').slice(0, 160)}
                    </td>
                    <td class="num" data-label="Tokens">
                      {s.tokensBefore} → {s.tokensAfter}
                    </td>
                    <td data-label="Lost">
                      <Show when={s.lost.length} fallback={<span class="hint">nothing</span>}>
                        <details>
                          <summary>
                            <For each={PRUNE_CATEGORIES.filter((c) => s.saved[c] > 0)}>
                              {(c) => (
                                <span style={{ color: COLORS[c], 'margin-right': '0.5em' }}>
                                  {c} −{s.saved[c]}
                                </span>
                              )}
                            </For>
                            {s.lost.join('; ')}
                          </summary>
                          <div class="before-after">
                            <div>
                              <h5>Before</h5>
                              <pre>{clipText(steps()[i()]?.observation)}</pre>
                            </div>
                            <div>
                              <h5>After</h5>
                              <pre>{clipText(r().steps[i()]?.observation)}</pre>
                            </div>
                          </div>
                        </details>
                      </Show>
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </section>
      )}
    </Show>
  );
}
