import * as path from 'path';
import { FileStore } from '../store/fileStore';
import { RetryingStore } from '../store/retrying';
import { StockStore } from '../store/stockStore';

export interface CliConfig {
  dataDir: string;
  latencyMs: number;
  retries: number;
  concurrency: number;
}

export function configFrom(flags: Record<string, string | boolean>): CliConfig {
  const num = (v: string | boolean | undefined, dflt: number): number => {
    if (v === undefined || typeof v === 'boolean') return dflt;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`not a whole number: ${v}`);
    return n;
  };
  return {
    dataDir: path.resolve(typeof flags.data === 'string' ? flags.data : process.env.STOCKROOM_DATA ?? 'data'),
    latencyMs: num(flags['latency-ms'], 2),
    retries: num(flags.retries, 1),
    concurrency: Math.max(1, num(flags.concurrency, 4)),
  };
}

export function storeFor(config: CliConfig): StockStore {
  const file = new FileStore(path.join(config.dataDir, 'stock.json'), config.latencyMs);
  return config.retries > 1 ? new RetryingStore(file, config.retries) : file;
}
