import { App } from '../../app/container';
import { parsePeriod } from '../../domain/period';
import { invoiceFor } from '../../billing/invoiceRun';
import { renderInvoice } from '../../render/invoiceText';
import { invoiceJson } from '../../render/invoiceJson';
import { required } from '../args';

export function invoiceCommand(app: App, flags: Record<string, string | boolean>): string {
  const inv = invoiceFor(app, required(flags, 'account'), parsePeriod(required(flags, 'period')));
  return flags.json ? JSON.stringify(invoiceJson(inv), null, 2) : renderInvoice(inv);
}
