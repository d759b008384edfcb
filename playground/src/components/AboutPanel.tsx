import { For } from 'solid-js';
import { EDITOR_LIMIT, LARGE_INPUT, type SampleMeta } from '../state-types';

export default function AboutPanel(props: { samples: SampleMeta[]; onClose: () => void }) {
  return (
    <section class="panel about" aria-labelledby="about-title" data-testid="about">
      <div class="panel-head">
        <h2 id="about-title">About the playground &amp; licences</h2>
        <button type="button" class="ghost" onClick={() => props.onClose()}>
          Close
        </button>
      </div>
      <p>
        rearview turns what an agent just did into lessons: heuristic insights (no model), an active-context
        snapshot (deterministic, or reflected by a model behind token gates), AgentDiet-style trajectory
        reduction and an ACE playbook. This page runs all of it in your browser.
      </p>
      <ul class="hint">
        <li>
          The samples are small excerpts of real public data. They were run through{' '}
          <code>rearview/redact</code> before being bundled: email addresses and tokens are replaced by
          placeholders such as <code>[email-1]</code>.
        </li>
        <li>
          Offline mode replays recorded, scripted sample answers: a program standing in for the model wrote
          them, recorded under the real request keys. They show how the diff and the gates behave, not a
          model's quality.
        </li>
        <li>
          Large inputs (over {LARGE_INPUT.toLocaleString('en-US')} characters) are processed in a Web Worker
          so the page stays responsive. A paste or a file over {EDITOR_LIMIT.toLocaleString('en-US')}{' '}
          characters never enters the text box: the worker keeps it, the editor shows its start, and “Edit
          line by line” opens it in windows of lines. Chromium itself needs about 7 ms per MB to hand a paste
          to the page; for tens of megabytes, Open file… is faster.
        </li>
        <li>
          Local model mode sends the (redacted) reflection request to an OpenAI-compatible server on your
          machine — llama.cpp, Ollama, LM Studio, vLLM — through <code>openAiClient</code> of{' '}
          <code>rearview/llm</code>: your own transcripts, no key.
        </li>
      </ul>
      <table class="licences">
        <thead>
          <tr>
            <th scope="col">Sample</th>
            <th scope="col">Source</th>
            <th scope="col">Licence</th>
            <th scope="col">Redacted</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.samples}>
            {(s) => (
              <tr>
                <td data-label="Sample">{s.title}</td>
                <td data-label="Source">{s.source}</td>
                <td data-label="Licence">{s.licence}</td>
                <td data-label="Redacted">{s.redactions}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </section>
  );
}
