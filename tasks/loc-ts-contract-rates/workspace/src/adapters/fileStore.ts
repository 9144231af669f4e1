import * as fs from 'fs';
import * as path from 'path';
import { DataError } from '../domain/errors';

/** Read-only access to the data folder (plans, accounts, price books, usage). */
export class FileStore {
  constructor(readonly root: string) {}

  path(name: string): string {
    return path.join(this.root, name);
  }

  exists(name: string): boolean {
    return fs.existsSync(this.path(name));
  }

  readJson(name: string): unknown {
    const file = this.path(name);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new DataError(file, `cannot read (${(err as Error).message})`);
    }
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new DataError(file, `not JSON (${(err as Error).message})`);
    }
  }

  readJsonLines(name: string): unknown[] {
    const file = this.path(name);
    if (!fs.existsSync(file)) return [];
    const out: unknown[] = [];
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.trim()) return;
        try {
          out.push(JSON.parse(line));
        } catch (err) {
          throw new DataError(`${file}:${i + 1}`, `not JSON (${(err as Error).message})`);
        }
      });
    return out;
  }
}
