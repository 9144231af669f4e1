export type Currency = 'USD' | 'EUR' | 'GBP';

export const CURRENCIES: readonly Currency[] = ['USD', 'EUR', 'GBP'];

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

export function parseCurrency(value: unknown, where: string): Currency {
  if (typeof value === 'string' && isCurrency(value.toUpperCase())) {
    return value.toUpperCase() as Currency;
  }
  throw new Error(`${where}: unknown currency ${JSON.stringify(value)} (expected one of ${CURRENCIES.join(', ')})`);
}
