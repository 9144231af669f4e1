// Builds the package: dist/esm/ holds the sources as ES modules, dist/cjs/ the same modules
// as CommonJS (see package.json "exports"). Run from anywhere: node scripts/build.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { banner } from './lib/banner.mjs';
import { toCommonJS } from './lib/cjs.mjs';
import { loadConfig } from './lib/config.mjs';
import { listModules } from './lib/walk.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = loadConfig(root);
const srcDir = path.join(root, config.srcDir);
const outDir = path.join(root, config.outDir);

function emit(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

fs.rmSync(outDir, { recursive: true, force: true });
const modules = listModules(srcDir);
for (const rel of modules) {
  const file = path.join(srcDir, rel);
  const source = fs.readFileSync(file, 'utf8').replaceAll(config.versionToken, config.version);
  const head = config.banner ? banner({ name: config.name, version: config.version, file: `${config.srcDir}/${rel}` }) : '';
  for (const format of config.formats) {
    const code = format === 'cjs' ? toCommonJS(source, rel) : source;
    emit(path.join(outDir, format, rel), head + code);
  }
}
console.log(`built ${modules.length} modules into ${path.relative(root, outDir)}/ (${config.formats.join(', ')})`);
