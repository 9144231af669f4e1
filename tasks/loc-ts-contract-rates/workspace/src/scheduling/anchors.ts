import { Account } from '../domain/account';
import { BillingPeriod } from '../domain/period';
import { addDays, dayOfNextMonth } from '../util/dates';

/** An invoice is issued on the account's anchor day of the month after the period. */
export function issueDate(account: Account, period: BillingPeriod): string {
  return dayOfNextMonth(period.end, account.anchorDay);
}

export function dueDate(account: Account, period: BillingPeriod, netDays = 14): string {
  return addDays(issueDate(account, period), netDays);
}
