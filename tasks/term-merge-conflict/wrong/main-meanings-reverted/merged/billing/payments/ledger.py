"""Payments received, matched to invoices."""
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class Payment:
    """A payment received, in minor units.

    `currency` None (the default) means the currency of the invoice it pays: read it with
    currency_of(). A payment on account (no invoice) must name its currency.
    """
    customer: str
    date: date
    cents: int
    currency: str = "EUR"
    invoice: str = None

    def __post_init__(self):
        if self.currency is None and self.invoice is None:
            raise ValueError("a payment on account (no invoice) needs its currency")


def currency_of(payment, invoices):
    """The payment's currency: its own, else that of the invoice it pays (found in `invoices`)."""
    if payment.currency is not None:
        return payment.currency
    for inv in invoices:
        if inv.number == payment.invoice:
            return inv.currency
    raise ValueError(f"payment of {payment.invoice}: the invoice is not among those given")


def paid_for(invoice, payments):
    return sum(p.cents for p in payments
               if p.invoice == invoice.number and p.currency in (None, invoice.currency))


def open_amount(invoice, payments):
    """What is still owed on the invoice (negative if overpaid)."""
    return invoice.total_cents - paid_for(invoice, payments)


def open_invoices(invoices, payments):
    return [inv for inv in invoices if open_amount(inv, payments) > 0]
