import { Account } from '../domain/account';
import { byKey, sortedBy, thenBy } from '../util/sort';

/**
 * The order a run invoices accounts in: by anchor day, then id.
 */
// TODO(BILL-2291): order by next issue date once anchors can move mid-year.
export function billingOrder(accounts: readonly Account[]): Account[] {
  return sortedBy(
    accounts,
    thenBy<Account>(
      byKey((a) => a.anchorDay),
      byKey((a) => a.id),
    ),
  );
}

export function billable(account: Account): boolean {
  return account.subscriptions.some((s) => s.status === 'active');
}
