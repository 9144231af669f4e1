import { DataError } from '../domain/errors';
import { isPlainObject } from '../util/objects';
import { FileStore } from './fileStore';

/** An account as the file writes it: every field but the id may be left to the parent or the defaults. */
export interface RawAccount {
  id: string;
  name?: string;
  parent?: string;
  currency?: string;
  taxRegion?: string;
  anchorDay?: number;
  contract?: { priceBook: string; from: string; until?: string };
  coupon?: string;
  subscriptions?: Array<{ id: string; plan: string; priceBook?: string; status?: string }>;
}

export interface AccountFile {
  defaults: Partial<RawAccount>;
  accounts: RawAccount[];
}

export function loadAccountFile(store: FileStore): AccountFile {
  const raw = store.readJson('accounts.json');
  if (!isPlainObject(raw) || !Array.isArray(raw.accounts)) {
    throw new DataError('accounts.json', 'expected {"accounts": [...]}');
  }
  raw.accounts.forEach((a: unknown, i: number) => {
    if (!isPlainObject(a) || typeof a.id !== 'string' || !a.id) {
      throw new DataError('accounts.json', `accounts[${i}]: needs an id`);
    }
  });
  return {
    defaults: isPlainObject(raw.defaults) ? (raw.defaults as Partial<RawAccount>) : {},
    accounts: raw.accounts as RawAccount[],
  };
}
