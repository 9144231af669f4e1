import fs from 'node:fs';
import path from 'node:path';

// The build's settings: the package's name from package.json, the rest from build.config.json.
export function loadConfig(root) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const cfg = JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'build.config.json'), 'utf8'));
  return {
    name: pkg.name,
    version: pkg.version,
    srcDir: 'src',
    outDir: 'dist',
    versionToken: '__TINYFMT_VERSION__',
    ...cfg,
  };
}
