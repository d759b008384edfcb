/**
 * What `observe()` and `proposed()` return is shown before `endSession` stores anything (a review
 * panel, a log line): every text in it is redacted, as the stored key points are.
 */
import { memoryStore } from 'rearview/kv';
import { createRearview } from 'rearview/session';
import { describe, expect, it } from 'vitest';

const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}F6g7H8`;
const ANTHROPIC_KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-QrStUvWx';

const chat = () => [
  { role: 'user', content: 'Deploy the site please.' },
  { role: 'assistant', content: `I hardcoded ANTHROPIC_API_KEY=${ANTHROPIC_KEY} in deploy.sh and pushed.` },
  {
    role: 'user',
    content: `No, never put ${GITHUB_TOKEN} or any key in scripts; always read keys from the environment instead.`,
  },
];

describe('observe() and proposed() return redacted text', () => {
  it('proposals, their context and the insights hold placeholders, not the keys', () => {
    const rv = createRearview({ store: memoryStore() });
    const observed = rv.observe(chat());
    expect(observed.proposed.length).toBeGreaterThan(0);
    const all = [observed.proposed, observed.insights, rv.proposed(), rv.insights()];
    const json = JSON.stringify(all);
    expect(json).not.toContain(GITHUB_TOKEN);
    expect(json).not.toContain(ANTHROPIC_KEY);
    expect(json).toContain('[github-token-1]');
    // The agent's message before the correction is the proposal's context: redacted too.
    expect(observed.proposed.some((p) => p.context?.includes('[anthropic-key-1]'))).toBe(true);
    rv.close();
  });

  it('redact: false returns the text as it is', () => {
    const rv = createRearview({ store: memoryStore(), redact: false });
    expect(JSON.stringify(rv.observe(chat()).proposed)).toContain(GITHUB_TOKEN);
    rv.close();
  });
});
