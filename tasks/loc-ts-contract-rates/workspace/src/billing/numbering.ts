import { BillingPeriod } from '../domain/period';

export function invoiceNumber(accountId: string, period: BillingPeriod): string {
  return `INV-${period.label.replace('-', '')}-${accountId.toUpperCase()}`;
}
