import { Account } from '../domain/account';
import { Invoice, InvoiceLine } from '../domain/invoice';
import { add, sum } from '../domain/money';
import { BillingPeriod } from '../domain/period';
import { PlanCatalog } from '../catalog/plans';
import { UsageLedger } from '../usage/aggregate';
import { RateCardProvider } from '../rating/provider';
import { Coupon } from '../adapters/couponRepo';
import { issueDate } from '../scheduling/anchors';
import { baseFeeLine, usageLines } from './lines';
import { couponDiscount } from './discounts';
import { TaxTable } from './tax';
import { invoiceNumber } from './numbering';

export interface InvoiceDeps {
  plans: PlanCatalog;
  rates: RateCardProvider;
  taxes: TaxTable;
  coupons: Map<string, Coupon>;
}

export function buildInvoice(account: Account, period: BillingPeriod, usage: UsageLedger, deps: InvoiceDeps): Invoice {
  const lines: InvoiceLine[] = [];
  for (const sub of account.subscriptions) {
    if (sub.status !== 'active') continue;
    lines.push(baseFeeLine(account, sub, deps.plans));
    lines.push(...usageLines(account, sub, period, deps.plans, usage, deps.rates));
  }
  const subtotal = sum(
    lines.map((l) => l.amount),
    account.currency,
  );
  const coupon = account.coupon ? deps.coupons.get(account.coupon) : undefined;
  const discount = couponDiscount(lines, coupon, account.currency);
  const taxable = add(subtotal, discount);
  const tax = deps.taxes.taxOn(taxable, account.taxRegion);
  return {
    number: invoiceNumber(account.id, period),
    account: account.id,
    accountName: account.name,
    period,
    issued: issueDate(account, period),
    lines,
    subtotal,
    discount,
    tax,
    total: add(taxable, tax),
  };
}
