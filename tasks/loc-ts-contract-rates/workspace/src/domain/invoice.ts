import { Money } from './money';
import { BillingPeriod } from './period';

export type LineKind = 'base' | 'usage' | 'discount' | 'tax';

export interface InvoiceLine {
  readonly kind: LineKind;
  readonly subscription?: string;
  readonly description: string;
  readonly quantity?: number;
  readonly amount: Money;
}

export interface Invoice {
  readonly number: string;
  readonly account: string;
  readonly accountName: string;
  readonly period: BillingPeriod;
  readonly issued: string;
  readonly lines: readonly InvoiceLine[];
  readonly subtotal: Money;
  readonly discount: Money;
  readonly tax: Money;
  readonly total: Money;
}
