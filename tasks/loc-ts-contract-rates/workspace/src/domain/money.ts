import { Currency } from './currency';

/** An amount in minor units (cents) of one currency. */
export interface Money {
  readonly cents: number;
  readonly currency: Currency;
}

export function money(cents: number, currency: Currency): Money {
  if (!Number.isSafeInteger(cents)) {
    throw new RangeError(`money: ${cents} is not a whole number of cents`);
  }
  return { cents, currency };
}

export function zero(currency: Currency): Money {
  return money(0, currency);
}

function same(a: Money, b: Money): void {
  if (a.currency !== b.currency) {
    throw new Error(`money: cannot combine ${a.currency} with ${b.currency}`);
  }
}

export function add(a: Money, b: Money): Money {
  same(a, b);
  return money(a.cents + b.cents, a.currency);
}

export function subtract(a: Money, b: Money): Money {
  same(a, b);
  return money(a.cents - b.cents, a.currency);
}

export function sum(items: readonly Money[], currency: Currency): Money {
  return items.reduce((acc, m) => add(acc, m), zero(currency));
}

/** numerator / denominator, rounded half away from zero to a whole number. */
export function divideHalfUp(numerator: number, denominator: number): number {
  if (denominator <= 0) throw new RangeError('divideHalfUp: denominator must be positive');
  const sign = numerator < 0 ? -1 : 1;
  const n = Math.abs(numerator);
  const q = Math.floor(n / denominator);
  const r = n - q * denominator;
  return sign * (r * 2 >= denominator ? q + 1 : q);
}

/** The share `basisPoints` / 10000 of an amount, rounded half up. */
export function percentOf(m: Money, basisPoints: number): Money {
  return money(divideHalfUp(m.cents * basisPoints, 10000), m.currency);
}

export function formatMoney(m: Money): string {
  const sign = m.cents < 0 ? '-' : '';
  const abs = Math.abs(m.cents);
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = (abs % 100).toString().padStart(2, '0');
  return `${sign}${whole}.${frac}`;
}
