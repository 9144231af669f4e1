import * as fs from 'fs';
import { StockRecord } from '../domain/record';
import { copyRecord, recordFromJson } from './copy';
import { StockStore } from './stockStore';
import { sleep } from '../util/async';

/**
 * Records in one JSON file ({"records": [...]}), read once; each save rewrites the file
 * (through a temporary file and a rename). `latencyMs` delays every call, like a remote store.
 */
export class FileStore implements StockStore {
  private records: Map<string, StockRecord> | undefined;

  constructor(
    private readonly file: string,
    private readonly latencyMs = 0,
  ) {}

  private all(): Map<string, StockRecord> {
    if (!this.records) {
      this.records = new Map();
      if (fs.existsSync(this.file)) {
        const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { records?: unknown[] };
        for (const raw of parsed.records ?? []) {
          const r = recordFromJson(raw);
          this.records.set(r.sku, r);
        }
      }
    }
    return this.records;
  }

  async load(sku: string): Promise<StockRecord | undefined> {
    const found = this.all().get(sku);
    const snapshot = found ? copyRecord(found) : undefined;
    await sleep(this.latencyMs);
    return snapshot;
  }

  async save(record: StockRecord): Promise<void> {
    const copy = copyRecord(record);
    await sleep(this.latencyMs);
    const all = this.all();
    all.set(copy.sku, copy);
    const records = [...all.values()].sort((a, b) => (a.sku < b.sku ? -1 : 1));
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ records }, null, 2) + '\n', 'utf8');
    fs.renameSync(tmp, this.file);
  }
}
