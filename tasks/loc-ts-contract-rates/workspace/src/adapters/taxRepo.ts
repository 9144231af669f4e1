import { DataError } from '../domain/errors';
import { isPlainObject } from '../util/objects';
import { FileStore } from './fileStore';

/** Tax rate of each region in basis points. */
export function loadTaxRates(store: FileStore): Map<string, number> {
  const raw = store.readJson('tax.json');
  if (!isPlainObject(raw) || !isPlainObject(raw.regions)) throw new DataError('tax.json', 'expected {"regions": {...}}');
  const out = new Map<string, number>();
  for (const [region, bp] of Object.entries(raw.regions)) {
    if (typeof bp !== 'number' || bp < 0) throw new DataError('tax.json', `region ${region}: rate must be a number >= 0`);
    out.set(region, bp);
  }
  return out;
}
