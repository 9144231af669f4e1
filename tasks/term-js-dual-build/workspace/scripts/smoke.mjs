// A quick look at the built package through its own name (run `node scripts/build.mjs` first).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const esm = await import('tinyfmt');
const cjs = require('tinyfmt');
for (const [label, mod] of [['import', esm], ['require', cjs]]) {
  console.log(`${label}: formatBytes(1536) = ${mod.formatBytes(1536)}, formatDuration(3723000) = ${mod.formatDuration(3723000)}`);
}
console.log('smoke: ok');
