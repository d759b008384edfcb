import type { ReduceResult } from 'rearview/compress';
import { PARAM_DEFAULTS } from 'rearview/snapshot';
import { createMemo, createSignal, For, Show } from 'solid-js';
import { clipText } from '../analyze';
import { RECORDED_THETAS } from '../fixtures-meta';
import { currentMode, mode, modeLabel } from '../llm-state';
import type { AppState } from '../state';
import { LlmSettings } from './LlmSettings';
import { PruneSection } from './PruneSection';

const RULES: Record<string, string> = {
  repeat: 'identical to an earlier output',
  superseded: 'file lines shown again later',
  repeated_lines: 'repeated lines collapsed',
  truncated: 'long output: head, tail and errors kept',
  long_lines: 'very long lines cut',
  reflection: 'compressed by the model',
};

export default function ReductionPanel(props: { app: AppState }) {
  const app = props.app;
  const [diet, setDiet] = createSignal<ReduceResult | null>(null);
  const [running, setRunning] = createSignal(false);
  const [message, setMessage] = createSignal('');
  const c = () => app.view()?.compaction ?? null;
  const max = createMemo(() => Math.max(1, ...(c()?.steps ?? []).map((s) => s.tokensBefore)));

  async function runDiet() {
    setRunning(true);
    setMessage('');
    try {
      const m = await import('../reflect');
      const steps = await app.getSteps();
      const client = await m.makeClient(currentMode(), {
        onRetry: ({ delayMs }) => setMessage(`Retrying in ${Math.round(delayMs / 1000)} s…`),
      });
      const r = await m.dietTrajectory(steps, app.settings(), client);
      setDiet(r);
      const err = client.lastError;
      setMessage(err ? m.explainLlmError(err.code, err.message) : '');
    } finally {
      setRunning(false);
    }
  }

  return (
    <div class="reduction">
      <Show
        when={c()}
        fallback={
          <div class="empty-note">
            <p>
              Load an agent trajectory to see its reduction step by step: a SWE-agent .traj, a mini-swe-agent
              .traj.json or a Claude Code session.
            </p>
            <div class="row">
              <button type="button" onClick={() => void app.loadSample('mini-swe-agent')}>
                Load the mini-swe-agent sample
              </button>
              <button type="button" onClick={() => void app.loadSample('swe-agent')}>
                Load the SWE-agent sample
              </button>
            </div>
          </div>
        }
      >
        {(cv) => (
          <>
            <PruneSection app={app} />
            <h4>Line-level compaction</h4>
            <p data-testid="compaction-summary">
              <strong>Deterministic compaction</strong> (no model, keeps the last a = {app.settings().a}{' '}
              steps): {cv().tokensBefore.toLocaleString('en-US')} → {cv().tokensAfter.toLocaleString('en-US')}{' '}
              tokens ({cv().savedPercent.toFixed(1)}% saved) over {cv().steps.length} steps.
            </p>
            <svg
              class="step-chart"
              viewBox={`0 0 ${Math.max(200, cv().steps.length * 14)} 80`}
              preserveAspectRatio="none"
              role="img"
              aria-label="Tokens per step before (light) and after (dark) compaction"
            >
              <For each={cv().steps}>
                {(s, i) => (
                  <>
                    <rect
                      x={i() * 14}
                      y={80 - (s.tokensBefore / max()) * 76}
                      width="12"
                      height={(s.tokensBefore / max()) * 76}
                      class="bar before"
                    />
                    <rect
                      x={i() * 14}
                      y={80 - (s.tokensAfter / max()) * 76}
                      width="12"
                      height={(s.tokensAfter / max()) * 76}
                      class="bar after"
                    />
                  </>
                )}
              </For>
            </svg>
            <div class="row">
              <LlmSettings />
            </div>
            <div class="row">
              <button
                type="button"
                class="primary"
                data-testid="run-diet"
                disabled={running()}
                onClick={() => void runDiet()}
              >
                {running()
                  ? 'Compressing…'
                  : `AgentDiet with ${modeLabel()} (a = ${app.settings().a}, b = ${app.settings().b}, θ = ${app.settings().theta})`}
              </button>
              <Show when={mode() === 'offline'}>
                <span class="hint">
                  Recorded for the trajectory samples with a = {PARAM_DEFAULTS.a}, b = {PARAM_DEFAULTS.b}, θ ∈{' '}
                  {RECORDED_THETAS.join(', ')}.
                </span>
              </Show>
            </div>
            <Show when={message()}>
              <p class="notice" role="status">
                {message()}
              </p>
            </Show>
            <Show when={diet()}>
              {(d) => (
                <p data-testid="diet-summary">
                  <strong>AgentDiet:</strong> {d().diagnostics.tokensBefore.toLocaleString('en-US')} →{' '}
                  {d().diagnostics.tokensAfter.toLocaleString('en-US')} tokens, {d().diagnostics.calls} model
                  call(s), {d().diagnostics.accepted} step(s) accepted.
                </p>
              )}
            </Show>
            <table class="steps" data-testid="reduction-steps">
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col">Action</th>
                  <th scope="col">Tokens before → after</th>
                  <th scope="col">What was elided</th>
                  <Show when={diet()}>
                    <th scope="col">AgentDiet</th>
                  </Show>
                </tr>
              </thead>
              <tbody>
                <For each={cv().steps}>
                  {(s, i) => {
                    const dd = () => diet()?.diagnostics.steps[i()];
                    return (
                      <tr>
                        <td data-label="Step">{s.index + 1}</td>
                        <td data-label="Action">
                          <code>{s.tool}</code> {s.action}
                        </td>
                        <td class="num" data-label="Tokens">
                          {s.tokensBefore} → {s.tokensAfter}
                          <Show when={s.tokensAfter < s.tokensBefore}>
                            <span class="saved"> −{s.tokensBefore - s.tokensAfter}</span>
                          </Show>
                        </td>
                        <td data-label="Elided">
                          <Show when={s.rules.length} fallback={<span class="hint">nothing</span>}>
                            <details>
                              <summary>
                                {s.rules.map((r) => RULES[r] ?? r).join('; ')} ({s.removedLines} lines)
                              </summary>
                              <div class="before-after">
                                <div>
                                  <h5>Before</h5>
                                  <pre>{s.before}</pre>
                                </div>
                                <div>
                                  <h5>After</h5>
                                  <pre>{s.after}</pre>
                                </div>
                              </div>
                            </details>
                          </Show>
                        </td>
                        <Show when={diet()}>
                          <td data-label="AgentDiet">
                            <span class={`status-${dd()?.status}`}>{dd()?.status.replace(/_/g, ' ')}</span>
                            <Show when={dd()?.status === 'accepted'}>
                              {' '}
                              {dd()!.tokensBefore} → {dd()!.tokensAfter}
                              <details>
                                <summary>the model's rewrite</summary>
                                <pre class="rewrite">{clipText(diet()!.steps[i()]?.observation)}</pre>
                              </details>
                            </Show>
                          </td>
                        </Show>
                      </tr>
                    );
                  }}
                </For>
              </tbody>
            </table>
          </>
        )}
      </Show>
    </div>
  );
}
