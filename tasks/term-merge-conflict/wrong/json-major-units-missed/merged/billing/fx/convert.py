"""Converting amounts between currencies, minor units to minor units."""
from dataclasses import replace
from decimal import Decimal

from ..core.invoice import Invoice
from ..currency import exponent_for
from ..money import round_half_up
from .rates import DEFAULT_RATES


def convert(cents, src, dst, rates=DEFAULT_RATES):
    """`cents` minor units of `src` in minor units of `dst`, e.g. 1000 EUR cents -> 1625 yen."""
    major = Decimal(cents) / 10 ** exponent_for(src)
    return round_half_up(major * rates.rate(src, dst) * 10 ** exponent_for(dst))


def convert_invoice_total(invoice, dst, rates=DEFAULT_RATES):
    return convert(invoice.total_cents, invoice.currency, dst, rates)


def convert_invoice(invoice, dst, rates=DEFAULT_RATES):
    """The invoice re-priced in `dst`, every unit price converted (a pro forma for customers
    who pay in their own currency)."""
    # main: an invoice's lines are fixed when it is made (a tuple), so build them first
    lines = [replace(line, unit_cents=convert(line.unit_cents, invoice.currency, dst, rates)) for line in invoice.lines]
    return Invoice(invoice.number, invoice.customer, invoice.issued, lines, dst, invoice.terms)
