import { RateCard, Tier } from '../domain/priceBook';
import { divideHalfUp } from '../domain/money';

function validate(tiers: readonly Tier[]): void {
  let last = 0;
  tiers.forEach((t, i) => {
    if (t.upTo === null) {
      if (i !== tiers.length - 1) throw new Error('tiers: only the last tier may be open-ended');
      return;
    }
    if (t.upTo <= last) throw new Error('tiers: upTo must increase');
    last = t.upTo;
  });
}

/**
 * The charge in cents for `quantity` units on a graduated card: each tier prices the units
 * that fall into it, and the sum is rounded to a cent once.
 */
export function rateGraduated(quantity: number, card: RateCard): number {
  validate(card.tiers);
  let remaining = quantity;
  let floor = 0;
  let total = 0;
  for (const t of card.tiers) {
    if (remaining <= 0) break;
    const width = t.upTo === null ? remaining : Math.min(remaining, t.upTo - floor);
    total += width * t.unitPrice;
    remaining -= width;
    if (t.upTo !== null) floor = t.upTo;
  }
  if (remaining > 0) throw new Error(`tiers: ${quantity} units exceed the last tier of ${card.metric}`);
  return divideHalfUp(total, card.per);
}
