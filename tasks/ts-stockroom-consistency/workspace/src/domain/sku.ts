import { InvalidInputError } from './errors';

const SKU = /^[A-Z0-9][A-Z0-9-]{0,31}$/;

/** Upper-cases and trims a SKU, and refuses anything that is not one. */
export function normalizeSku(raw: string): string {
  const sku = String(raw).trim().toUpperCase();
  if (!SKU.test(sku)) throw new InvalidInputError(`not a SKU: ${JSON.stringify(raw)}`);
  return sku;
}

export function isSku(raw: string): boolean {
  return SKU.test(String(raw).trim().toUpperCase());
}

export function compareSkus(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
