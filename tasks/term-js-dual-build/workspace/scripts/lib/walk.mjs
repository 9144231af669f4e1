import fs from 'node:fs';
import path from 'node:path';

// The modules of a source folder and its sub-folders, as paths relative to it ('/'-separated), sorted.
export function listModules(dir, prefix = '') {
  const found = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listModules(dir, rel));
    else if (entry.isFile() && entry.name.endsWith('.js')) found.push(rel);
  }
  return found.sort();
}
