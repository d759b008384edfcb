import { VERSION } from 'rearview';
import { createSignal } from 'solid-js';

/**
 * The playground shell. Later issues fill the workspace: transcript import, heuristic insights,
 * snapshot comparison, trajectory reduction and the playbook.
 */
export function App() {
  const [text, setText] = createSignal('');
  return (
    <div class="app">
      <header class="app-header">
        <h1>
          <span class="logo" aria-hidden="true">
            ◐
          </span>{' '}
          rearview{' '}
          <span class="version" data-testid="version">
            v{VERSION}
          </span>
        </h1>
        <p class="tagline">Agents that learn from what they just did.</p>
      </header>
      <main class="workspace" data-testid="workspace">
        <section class="panel" aria-labelledby="input-title">
          <h2 id="input-title">Transcript</h2>
          <label class="sr-only" for="transcript-input">
            Transcript text
          </label>
          <textarea
            id="transcript-input"
            placeholder="Paste a transcript or an agent trajectory here."
            value={text()}
            onInput={(e) => setText(e.currentTarget.value)}
          />
          <p class="hint" data-testid="char-count">
            {text().length.toLocaleString('en-US')} characters
          </p>
        </section>
        <section class="panel empty" aria-labelledby="results-title">
          <h2 id="results-title">Reflection</h2>
          <p>Insights, snapshots and the playbook will appear here.</p>
        </section>
      </main>
    </div>
  );
}
