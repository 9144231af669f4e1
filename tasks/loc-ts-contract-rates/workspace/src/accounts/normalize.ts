import { Account, Subscription } from '../domain/account';
import { parseCurrency } from '../domain/currency';
import { DataError } from '../domain/errors';
import { RawAccount } from '../adapters/accountRepo';
import { deepMerge } from '../util/merge';
import { pick } from '../util/objects';
import { isIsoDate } from '../util/dates';

/** The settings a child account takes from its parent when it does not set them itself. */
export const INHERITED: ReadonlyArray<keyof RawAccount> = ['currency', 'taxRegion', 'anchorDay'];

const BUILT_IN: Partial<RawAccount> = { currency: 'USD', taxRegion: 'US', anchorDay: 1 };

function subscription(accountId: string, raw: NonNullable<RawAccount['subscriptions']>[number]): Subscription {
  if (!raw || typeof raw.id !== 'string' || typeof raw.plan !== 'string') {
    throw new DataError('accounts.json', `account ${accountId}: every subscription needs id and plan`);
  }
  return {
    id: raw.id,
    planId: raw.plan,
    priceBook: raw.priceBook || undefined,
    status: raw.status === 'cancelled' ? 'cancelled' : 'active',
  };
}

/**
 * Builds an account from the file's defaults, the inherited settings of its parent (already
 * normalized) and its own fields, in that order.
 */
export function normalizeAccount(raw: RawAccount, defaults: Partial<RawAccount>, parent?: Account): Account {
  const inherited = parent ? pick(parent as unknown as RawAccount, INHERITED) : undefined;
  const merged = deepMerge<RawAccount>(BUILT_IN, pick(defaults, INHERITED), inherited, raw);
  const anchorDay = Number(merged.anchorDay);
  if (!Number.isInteger(anchorDay) || anchorDay < 1 || anchorDay > 28) {
    throw new DataError('accounts.json', `account ${raw.id}: anchorDay must be 1..28`);
  }
  if (merged.contract) {
    const c = merged.contract;
    if (typeof c.priceBook !== 'string' || !isIsoDate(c.from) || (c.until !== undefined && !isIsoDate(c.until))) {
      throw new DataError('accounts.json', `account ${raw.id}: a contract needs priceBook and from (and until) dates`);
    }
  }
  return {
    id: raw.id,
    name: merged.name ?? raw.id,
    parent: raw.parent,
    currency: parseCurrency(merged.currency, `accounts.json: account ${raw.id}`),
    taxRegion: String(merged.taxRegion),
    anchorDay,
    contract: merged.contract,
    coupon: merged.coupon,
    subscriptions: (merged.subscriptions ?? []).map((s) => subscription(raw.id, s)),
  };
}
