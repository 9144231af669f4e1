import fs from 'node:fs';

// The modules of a source folder, as paths relative to it ('/'-separated), sorted.
export function listModules(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => entry.name)
    .sort();
}
