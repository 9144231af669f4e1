import { Invoice } from '../domain/invoice';

export function invoiceJson(inv: Invoice): Record<string, unknown> {
  return {
    number: inv.number,
    account: inv.account,
    period: inv.period.label,
    issued: inv.issued,
    currency: inv.total.currency,
    lines: inv.lines.map((l) => ({
      kind: l.kind,
      subscription: l.subscription ?? null,
      description: l.description,
      quantity: l.quantity ?? null,
      amount: l.amount.cents,
    })),
    subtotal: inv.subtotal.cents,
    discount: inv.discount.cents,
    tax: inv.tax.cents,
    total: inv.total.cents,
  };
}
