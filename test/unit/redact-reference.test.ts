/**
 * Redaction measured against outside references: every secret kind of secretlint's recommended rule set
 * and the prefixed and keyword formats of gitleaks' default configuration, each planted in every
 * position a key takes when it leaks (tools/shared/redact-reference.ts). Recall must be 100 % in every
 * kind × position; false positives on look-alikes are counted by class and held at the measured level.
 * bench/redact-reference.bench.ts prints the same figures as JSON.
 */
import { describe, expect, it } from 'vitest';
import { GITLEAKS_NOT_PLANTED, GITLEAKS_RULE_IDS } from '../../tools/shared/gitleaks-rules';
import {
  falsePositives,
  REFERENCE_POSITIONS,
  referenceKinds,
  scoreReference,
} from '../../tools/shared/redact-reference';

describe('reference kinds (secretlint recommended, gitleaks default) in every position', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: recall is 100 % in every kind × position`, () => {
      const { planted, missed } = scoreReference(seed);
      expect(planted).toBe(referenceKinds(seed).length * REFERENCE_POSITIONS.length);
      expect(missed).toEqual([]);
    });
  }

  it('covers every rule of secretlint 13.1.0 recommended preset', () => {
    const rules = new Set(
      referenceKinds(1)
        .map((k) => k.ref)
        .filter((r) => r.startsWith('secretlint/')),
    );
    expect([...rules].sort()).toEqual(
      [
        '1password',
        'anthropic',
        'aws',
        'basicauth',
        'cloudflare',
        'database-connection-string',
        'databricks',
        'docker',
        'figma',
        'gcp',
        'github',
        'gitlab',
        'groq',
        'grafana',
        'hashicorp-vault',
        'huggingface',
        'linear',
        'notion',
        'npm',
        'openai',
        'privatekey',
        'sendgrid',
        'shopify',
        'slack',
        'stripe',
        'tailscale',
        'vercel',
      ]
        .map((r) => `secretlint/${r}`)
        .sort(),
    );
  });

  it('plants every rule of gitleaks default configuration (218 rule ids) but its one path rule', () => {
    const planted = new Set(
      referenceKinds(1)
        .map((k) => k.ref)
        .filter((r) => r.startsWith('gitleaks/'))
        .map((r) => r.slice('gitleaks/'.length)),
    );
    expect(GITLEAKS_RULE_IDS).toHaveLength(218);
    expect(Object.keys(GITLEAKS_NOT_PLANTED)).toEqual(['pkcs12-file']);
    expect(GITLEAKS_RULE_IDS.filter((id) => !planted.has(id))).toEqual(['pkcs12-file']);
    expect([...planted].every((id) => GITLEAKS_RULE_IDS.includes(id))).toBe(true);
  });

  it('false positives on look-alikes stay at the measured level', () => {
    // Measured: hashes, UUIDs, integrity strings and base64 images are kept; three of five documentation
    // example keys are redacted (AWS's AKIAIOSFODNN7EXAMPLE and its example secret, Slack's
    // `xoxb-your-token`), which costs nothing but a placeholder. Vendors' names beside URLs, versions,
    // handles and short values are kept.
    expect(falsePositives(1)).toEqual({
      'git SHA': 0,
      'sha256 hex': 0,
      UUID: 0,
      'npm integrity': 0,
      'base64 image': 0,
      'documentation example key': 3,
      'vendor name, no secret': 0,
    });
  });
});
