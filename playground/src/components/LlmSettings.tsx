import { Match, onMount, Show, Switch } from 'solid-js';
import {
  apiKey,
  forgetKey,
  localKey,
  localModel,
  localUrl,
  mode,
  model,
  proxyUrl,
  remembered,
  rememberKey,
  restoreKey,
  setApiKey,
  setLocalKey,
  setLocalModel,
  setLocalUrl,
  setMode,
  setModel,
  setProxyUrl,
} from '../llm-state';

export function LlmSettings() {
  onMount(() => void restoreKey());
  return (
    <fieldset class="llm-settings">
      <legend>Reflect with</legend>
      <div class="row">
        <label class="radio">
          <input
            type="radio"
            name="llm-mode"
            checked={mode() === 'offline'}
            onChange={() => setMode('offline')}
          />
          Offline replay
        </label>
        <label class="radio">
          <input
            type="radio"
            name="llm-mode"
            checked={mode() === 'anthropic'}
            onChange={() => setMode('anthropic')}
          />
          Anthropic API
        </label>
        <label class="radio">
          <input
            type="radio"
            name="llm-mode"
            checked={mode() === 'local'}
            onChange={() => setMode('local')}
          />
          Local model
        </label>
      </div>
      <Switch>
        <Match when={mode() === 'offline'}>
          <p class="hint">
            Replays recorded answers for the bundled samples: no key, no network, no cost. These are scripted
            sample answers (written by a program standing in for the model, recorded under the real request
            keys), not a real model's output. To reflect your own transcripts without a key, use Local model.
          </p>
        </Match>
        <Match when={mode() === 'local'}>
          <div class="grid2">
            <label>
              Server URL
              <input
                type="url"
                placeholder="http://127.0.0.1:8080/v1"
                value={localUrl()}
                onInput={(e) => setLocalUrl(e.currentTarget.value)}
              />
            </label>
            <label>
              Model name
              <input
                type="text"
                placeholder="local-model"
                value={localModel()}
                onInput={(e) => setLocalModel(e.currentTarget.value)}
              />
            </label>
            <label>
              Key (only if your server asks for one)
              <input
                type="password"
                autocomplete="off"
                value={localKey()}
                onInput={(e) => setLocalKey(e.currentTarget.value)}
              />
            </label>
          </div>
          <p class="hint">
            Any OpenAI-compatible chat-completions server on your machine: llama.cpp (<code>:8080/v1</code>),
            Ollama (<code>:11434/v1</code>, with <code>OLLAMA_ORIGINS</code> allowing this page), LM Studio (
            <code>:1234/v1</code>), vLLM (<code>:8000/v1</code>). The text is redacted before it is sent. The
            address and model name are remembered in this browser; a key never is.
          </p>
        </Match>
        <Match when={mode() === 'anthropic'}>
          <div class="grid2">
            <label>
              API key
              <input
                type="password"
                autocomplete="off"
                placeholder="sk-ant-…"
                value={apiKey()}
                onInput={(e) => setApiKey(e.currentTarget.value)}
              />
            </label>
            <label>
              Proxy URL (optional)
              <input
                type="url"
                placeholder="https://your-proxy.example/anthropic"
                value={proxyUrl()}
                onInput={(e) => setProxyUrl(e.currentTarget.value)}
              />
            </label>
            <label>
              Model
              <input
                type="text"
                placeholder="claude-haiku-4-5"
                value={model()}
                onInput={(e) => setModel(e.currentTarget.value)}
              />
            </label>
          </div>
          <p class="hint">
            The key stays in this page's memory and goes only to Anthropic (or your proxy). With a proxy that
            adds the key server-side, leave the key empty.
          </p>
          <div class="row">
            <Show
              when={remembered()}
              fallback={
                <label class="radio">
                  <input
                    type="checkbox"
                    disabled={!apiKey()}
                    onChange={(e) => e.currentTarget.checked && void rememberKey()}
                  />
                  Remember the key on this device (stored unencrypted in this browser's IndexedDB)
                </label>
              }
            >
              <span class="hint">The key is remembered on this device.</span>
              <button type="button" onClick={() => void forgetKey()}>
                Forget the key
              </button>
            </Show>
          </div>
        </Match>
      </Switch>
    </fieldset>
  );
}
