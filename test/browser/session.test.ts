// rearview/session in real Chromium on IndexedDB: a session's correction becomes a key point that a
// second facade (a "reload") injects, and changes reach another facade through BroadcastChannel.

import { idbStore } from 'rearview/kv';
import { createRearview } from 'rearview/session';
import type { PlaybookChange } from 'rearview/store';
import { describe, expect, it } from 'vitest';

let n = 0;
const dbName = () => `browser-session-${Date.now()}-${++n}`;

describe('createRearview on IndexedDB in Chromium', () => {
  it('learns in one session and injects in the next; other facades hear the change', async () => {
    const db = dbName();
    const channel = `rearview-session-${db}`;
    const first = createRearview({ store: idbStore(db, 'playbooks'), storeOptions: { broadcast: channel } });
    const watcher = createRearview({
      store: idbStore(db, 'playbooks'),
      storeOptions: { broadcast: channel },
    });
    const heard: PlaybookChange[] = [];
    watcher.on('change', (c) => heard.push(c));
    first.observe([
      { role: 'user', content: 'How do I install the dependencies?' },
      { role: 'assistant', content: 'Run npm install.' },
      { role: 'user', content: 'No, use pnpm instead of npm.' },
    ]);
    const summary = await first.endSession();
    expect(summary.errors).toEqual([]);
    expect(summary.added.map((a) => a.name)).toEqual(['mis-001']);
    await expect.poll(() => heard.map((c) => c.origin)).toEqual(['remote']);
    first.close();

    const second = createRearview({ store: idbStore(db, 'playbooks') });
    const prompt = await second.systemPrompt({ query: 'install packages', tokenBudget: 500 });
    expect(prompt).toContain('- [mis-001] Use pnpm instead of npm.');
    expect(prompt).toContain('cite its ID');
    expect(second.sessionId).toMatch(/^session-[0-9a-f-]{36}$/);
    second.close();
    watcher.close();
  });
});
