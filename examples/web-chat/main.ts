/**
 * A chat page that learns across sessions, in plain DOM:
 * - the model is called through the page's own server (`serve.mjs` proxies /v1/messages and adds the
 *   API key server-side: the page never holds it);
 * - `loadRearview` keeps the playbook in IndexedDB (people's turns read by the learned reader); each request's system prompt carries the key
 *   points relevant to the user's message; `observe` runs after each turn; "End session" reflects;
 * - the playbook panel follows changes from this tab and any other tab.
 */

import { idbStore } from 'rearview/kv';
import { anthropicClient, type LlmMessage } from 'rearview/llm';
import type { Playbook } from 'rearview/playbook';
import { loadRearview } from 'rearview/session';

const BASE_PROMPT = 'You are a concise, helpful assistant for a software team.';
const SECTIONS = [
  'PATTERNS & APPROACHES',
  'MISTAKES TO AVOID',
  'USER PREFERENCES',
  'PROJECT CONTEXT',
  'OTHERS',
] as const;

// No apiKey: the base URL is this page's server, which adds it.
const llm = anthropicClient({ baseURL: location.origin, maxRetries: 1 });
// People's turns read by the learned reader: its chunk loads before the first turn is observed.
const rv = await loadRearview({
  store: idbStore('rearview-web-chat', 'playbooks'),
  llm,
  budgets: { promptTokens: 800, playbookTokens: 4000 },
});

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const messagesEl = $<HTMLDivElement>('messages');
const form = $<HTMLFormElement>('composer');
const input = $<HTMLInputElement>('input');
const send = $<HTMLButtonElement>('send');
const end = $<HTMLButtonElement>('end');
const statusEl = $<HTMLDivElement>('status');
let messages: LlmMessage[] = [];

function bubble(role: string, text: string): void {
  const div = document.createElement('div');
  div.className = `msg ${role}`;
  div.dataset.role = role;
  div.textContent = text;
  messagesEl.append(div);
  messagesEl.scrollTop = messagesEl.scrollHeight;
}

function setStatus(text: string): void {
  statusEl.textContent = text;
}

async function renderPlaybook(): Promise<void> {
  let pb: Playbook;
  try {
    pb = await rv.playbook();
  } catch (err) {
    setStatus(`Playbook unavailable: ${(err as Error).message}`);
    return;
  }
  const root = $<HTMLDivElement>('playbook');
  root.replaceChildren();
  let count = 0;
  for (const section of SECTIONS) {
    const points = pb.sections[section];
    if (!points.length) continue;
    const h = document.createElement('h3');
    h.textContent = section;
    const ul = document.createElement('ul');
    for (const kp of points) {
      const li = document.createElement('li');
      li.dataset.keyPoint = kp.name;
      const code = document.createElement('code');
      code.textContent = `[${kp.name}]`;
      li.append(code, ` ${kp.text}`);
      if (kp.helpful || kp.harmful) li.append(` (+${kp.helpful} / −${kp.harmful})`);
      ul.append(li);
      count++;
    }
    root.append(h, ul);
  }
  if (!count) root.textContent = 'Nothing learned yet: correct the assistant, then end the session.';
  $('playbook-version').textContent = count ? `· ${count} key point${count === 1 ? '' : 's'}` : '';
}

function showSession(): void {
  $('session-label').textContent = `· ${rv.sessionId.slice(0, 16)}`;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  send.disabled = true;
  messages = [...messages, { role: 'user', content: text }];
  bubble('user', text);
  try {
    // What was learned in earlier sessions, chosen for this message, with the citation directive.
    const system = `${BASE_PROMPT}\n\n${await rv.systemPrompt({ query: text })}`;
    const reply = await llm.complete({ system, messages, maxTokens: 1024 });
    messages = [...messages, { role: 'assistant', content: reply.text }];
    bubble('assistant', reply.text);
    const seen = rv.observe(messages); // cheap: only the new messages are analysed
    if (seen.proposed.length)
      setStatus(`Noted ${seen.proposed.length} lesson(s); saved when the session ends.`);
  } catch (err) {
    messages = messages.slice(0, -1);
    bubble('error', `The model call failed: ${(err as Error).message}`);
  } finally {
    send.disabled = false;
    input.focus();
  }
});

end.addEventListener('click', async () => {
  end.disabled = true;
  setStatus('Reflecting on the session…');
  const summary = await rv.endSession(); // never rejects
  const parts = [`${summary.added.length} added`, `${summary.duplicates.length} already known`];
  if (summary.tags.applied) parts.push(`${summary.tags.applied} tagged`);
  if (summary.errors.length) parts.push(`${summary.errors.length} problem(s): ${summary.errors[0]!.message}`);
  setStatus(`Session ended: ${parts.join(', ')}.`);
  document.body.dataset.sessionsEnded = String(Number(document.body.dataset.sessionsEnded ?? 0) + 1);
  messages = [];
  messagesEl.replaceChildren();
  showSession();
  await renderPlaybook();
  end.disabled = false;
});

// Changes from this tab and from other tabs (BroadcastChannel) refresh the panel.
rv.on('change', () => void renderPlaybook());
showSession();
await renderPlaybook();
document.body.dataset.ready = 'true';
