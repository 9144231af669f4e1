import { DataError } from '../domain/errors';
import { isPlainObject } from '../util/objects';
import { FileStore } from './fileStore';

export interface Coupon {
  readonly code: string;
  /** Basis points off, 1000 = 10 %. */
  readonly percentOff: number;
  readonly appliesTo: 'usage' | 'all';
}

export function loadCoupons(store: FileStore): Map<string, Coupon> {
  const out = new Map<string, Coupon>();
  if (!store.exists('coupons.json')) return out;
  const raw = store.readJson('coupons.json');
  if (!isPlainObject(raw) || !Array.isArray(raw.coupons)) throw new DataError('coupons.json', 'expected {"coupons": [...]}');
  for (const c of raw.coupons) {
    if (!isPlainObject(c) || typeof c.code !== 'string' || typeof c.percentOff !== 'number') {
      throw new DataError('coupons.json', 'each coupon needs code and percentOff');
    }
    out.set(c.code, { code: c.code, percentOff: c.percentOff, appliesTo: c.appliesTo === 'usage' ? 'usage' : 'all' });
  }
  return out;
}
