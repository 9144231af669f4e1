import { Money, percentOf } from '../domain/money';
import { NotFoundError } from '../domain/errors';

export class TaxTable {
  constructor(private readonly rates: Map<string, number>) {}

  rate(region: string): number {
    const exact = this.rates.get(region);
    if (exact !== undefined) return exact;
    // A sub-region without its own rate (US-OR) falls back to its country (US).
    const country = region.split('-')[0];
    const fallback = this.rates.get(country);
    if (fallback === undefined) throw new NotFoundError('tax region', region);
    return fallback;
  }

  taxOn(taxable: Money, region: string): Money {
    return percentOf(taxable, this.rate(region));
  }
}
