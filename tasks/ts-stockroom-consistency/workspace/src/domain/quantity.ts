import { InvalidInputError } from './errors';

/** A whole number of units, at most a billion either way. */
export function parseQuantity(raw: string | number, what = 'quantity'): number {
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (!Number.isInteger(n) || Math.abs(n) > 1_000_000_000) {
    throw new InvalidInputError(`${what} must be a whole number: ${JSON.stringify(raw)}`);
  }
  return n;
}

export function positiveQuantity(raw: string | number, what = 'quantity'): number {
  const n = parseQuantity(raw, what);
  if (n <= 0) throw new InvalidInputError(`${what} must be positive: ${n}`);
  return n;
}
