import { PriceBook, RateEntry } from '../domain/priceBook';
import { parseCurrency } from '../domain/currency';
import { DataError } from '../domain/errors';
import { isPlainObject } from '../util/objects';
import { FileStore } from './fileStore';

function entry(bookId: string, raw: unknown, i: number): RateEntry {
  const where = `book ${bookId}, rates[${i}]`;
  if (!isPlainObject(raw) || typeof raw.metric !== 'string' || !Array.isArray(raw.tiers)) {
    throw new DataError('pricebooks.json', `${where}: needs metric and tiers`);
  }
  const tiers = raw.tiers.map((t: unknown, j: number) => {
    if (!isPlainObject(t) || typeof t.unitPrice !== 'number') {
      throw new DataError('pricebooks.json', `${where}, tiers[${j}]: needs unitPrice`);
    }
    return { upTo: typeof t.upTo === 'number' ? t.upTo : null, unitPrice: t.unitPrice };
  });
  return {
    metric: raw.metric,
    currency: parseCurrency(raw.currency, `pricebooks.json: ${where}`),
    plans: Array.isArray(raw.plans) ? (raw.plans as string[]) : undefined,
    per: typeof raw.per === 'number' ? raw.per : 1,
    tiers,
  };
}

export function loadPriceBooks(store: FileStore): PriceBook[] {
  const raw = store.readJson('pricebooks.json');
  if (!isPlainObject(raw) || !Array.isArray(raw.books)) throw new DataError('pricebooks.json', 'expected {"books": [...]}');
  return raw.books.map((b: unknown, i: number) => {
    if (!isPlainObject(b) || typeof b.id !== 'string') throw new DataError('pricebooks.json', `books[${i}]: needs an id`);
    const rates = Array.isArray(b.rates) ? b.rates : [];
    return {
      id: b.id,
      extends: typeof b.extends === 'string' ? b.extends : undefined,
      rates: rates.map((r: unknown, j: number) => entry(b.id as string, r, j)),
    };
  });
}
