import * as path from 'path';

export interface Config {
  dataDir: string;
  cacheCapacity: number;
}

export function configFrom(flags: Record<string, string | boolean>): Config {
  const data = typeof flags.data === 'string' ? flags.data : process.env.LEDGER_DATA ?? path.join(process.cwd(), 'data');
  const capacity = Number(process.env.LEDGER_RATE_CACHE ?? 512);
  return { dataDir: path.resolve(data), cacheCapacity: Number.isInteger(capacity) && capacity > 0 ? capacity : 512 };
}
