import { Invoice } from '../domain/invoice';
import { BillingPeriod } from '../domain/period';
import { App } from '../app/container';
import { billable, billingOrder } from '../scheduling/order';
import { buildInvoice } from './invoiceBuilder';

export interface RunResult {
  invoices: Invoice[];
  rateCardsResolved: number;
}

/** The month-end run: every billable account's invoice for the period. */
export function runInvoices(app: App, period: BillingPeriod): RunResult {
  const usage = app.usageFor(period);
  const invoices = billingOrder(app.accounts.all().filter(billable)).map((account) =>
    buildInvoice(account, period, usage, app.invoiceDeps()),
  );
  return { invoices, rateCardsResolved: app.rates.stats().resolved };
}

export function invoiceFor(app: App, accountId: string, period: BillingPeriod): Invoice {
  return buildInvoice(app.accounts.get(accountId), period, app.usageFor(period), app.invoiceDeps());
}
