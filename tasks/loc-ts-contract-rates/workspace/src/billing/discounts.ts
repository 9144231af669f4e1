import { InvoiceLine } from '../domain/invoice';
import { Money, percentOf, sum, zero } from '../domain/money';
import { Currency } from '../domain/currency';
import { Coupon } from '../adapters/couponRepo';

/** The coupon's share of the lines it applies to, as a negative amount. */
export function couponDiscount(lines: readonly InvoiceLine[], coupon: Coupon | undefined, currency: Currency): Money {
  if (!coupon) return zero(currency);
  const base = lines.filter((l) => coupon.appliesTo === 'all' || l.kind === 'usage').map((l) => l.amount);
  const off = percentOf(sum(base, currency), coupon.percentOff);
  return { cents: -off.cents, currency };
}
