/**
 * `npm run gates`: writes lib/categorise/gates-data.ts, the shortcuts of every gated categoriser
 * pattern read off the pattern (tools/shared/gate-derive.ts), and formats it with Biome. Run it after
 * changing a pattern of lib/categorise/stance-rules.ts, located-rules.ts, lead.ts or forms.ts;
 * test/unit/categorise-gates.test.ts fails until the file holds what this derives.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gatesSource } from './shared/gate-data-source.js';

const out = fileURLToPath(new URL('../lib/categorise/gates-data.ts', import.meta.url));
writeFileSync(out, gatesSource());
execFileSync('npx', ['biome', 'format', '--write', out], { stdio: 'inherit' });
console.log(`wrote ${out}`);
