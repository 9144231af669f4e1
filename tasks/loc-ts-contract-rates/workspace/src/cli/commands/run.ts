import { App } from '../../app/container';
import { parsePeriod } from '../../domain/period';
import { runInvoices } from '../../billing/invoiceRun';
import { renderInvoice } from '../../render/invoiceText';
import { invoiceJson } from '../../render/invoiceJson';
import { required } from '../args';

export function runCommand(app: App, flags: Record<string, string | boolean>): string {
  const result = runInvoices(app, parsePeriod(required(flags, 'period')));
  if (flags.json) {
    return JSON.stringify({ invoices: result.invoices.map(invoiceJson), stats: { rateCardsResolved: result.rateCardsResolved } }, null, 2);
  }
  return [...result.invoices.map(renderInvoice), `rate cards resolved: ${result.rateCardsResolved}`].join('\n\n');
}
