import { Level } from '../domain/level';
import { StockReader } from './stockService';

export interface LowStockRule {
  sku: string;
  minimum: number;
}

/** The SKUs whose available units are below their minimum, lowest first. */
export async function lowStock(reader: StockReader, rules: readonly LowStockRule[]): Promise<Array<Level & { minimum: number }>> {
  const levels = await reader.levels(rules.map((r) => r.sku));
  return levels
    .map((l, i) => ({ ...l, minimum: rules[i].minimum }))
    .filter((l) => l.available < l.minimum)
    .sort((a, b) => a.available - a.minimum - (b.available - b.minimum) || (a.sku < b.sku ? -1 : 1));
}
