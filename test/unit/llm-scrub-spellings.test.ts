/**
 * A provider's error body may echo the key it was sent base64- or URL-encoded, or masked: the scrubbed
 * message holds none of these spellings.
 */
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../lib/llm/redacting';

const KEY = 'proxy+credential/7Hq2Zr9Lw4=tail';

describe('scrubSecrets spellings', () => {
  const cases: [string, string][] = [
    ['base64', btoa(KEY)],
    ['base64 without padding', btoa(KEY).replace(/=+$/, '')],
    ['URL-encoded', encodeURIComponent(KEY)],
    ['masked with an ellipsis', `${KEY.slice(0, 14)}…`],
    ['masked with stars', `${KEY.slice(0, 13)}****`],
  ];
  for (const [name, echoed] of cases) {
    it(name, () => {
      const out = scrubSecrets(`401 unauthorized; the proxy got ${echoed} (request abc)`, [KEY]);
      expect(out).not.toContain(echoed);
      expect(out).toMatch(/\[(api-key|secret|basic-auth)-1\]/);
    });
  }
});
