import { Invoice } from '../domain/invoice';
import { formatMoney } from '../domain/money';
import { table } from './table';

export function renderInvoice(inv: Invoice): string {
  const cur = inv.total.currency;
  const rows: string[][] = inv.lines.map((l) => [
    l.subscription ? `${l.subscription}  ${l.description}` : l.description,
    formatMoney(l.amount),
  ]);
  rows.push(['Subtotal', formatMoney(inv.subtotal)]);
  if (inv.discount.cents !== 0) rows.push(['Discount', formatMoney(inv.discount)]);
  rows.push(['Tax', formatMoney(inv.tax)]);
  rows.push([`Total ${cur}`, formatMoney(inv.total)]);
  return [
    `${inv.number}  ${inv.accountName} (${inv.account})`,
    `period ${inv.period.start} .. ${inv.period.end}, issued ${inv.issued}`,
    ...table(rows).map((r) => `  ${r}`),
  ].join('\n');
}
