import { onMount, Show } from 'solid-js';
import {
  apiKey,
  forgetKey,
  mode,
  model,
  proxyUrl,
  remembered,
  rememberKey,
  restoreKey,
  setApiKey,
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
      </div>
      <Show
        when={mode() === 'anthropic'}
        fallback={
          <p class="hint">
            Replays recorded answers for the bundled samples: no key, no network, no cost. These are scripted
            sample answers (written by a program standing in for the model, recorded under the real request
            keys), not a real model's output.
          </p>
        }
      >
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
      </Show>
    </fieldset>
  );
}
